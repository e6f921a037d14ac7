"""Write the simulated trace the presence tests replay for the standstill rule (revision 4).

Standing 0.4 m inside the electronics lab's door (the ``boundary`` scenario) on a tuning seed, with
two people one after the other in front of the beacon of the room decided first (``--block-from``
to ``--block-to``, 14 dB): the case where a rival's lead, measured against the current room's
level now, outlasts the ~46 s of evidence the standstill hazard asks for.

    .venv/bin/python bench/presence_fixture.py --seed 22 --out tests/presence/data/door-two-people.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from presence_rooms import HELD_OUT, STANDING
from presence_sim import bench_floor, simulate, waypoints

from appliance.presence.trace import write_trace


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--beacon", default="1:1", help="end of the blocked beacon's id")
    parser.add_argument("--block-from", type=float, default=200.0)
    parser.add_argument("--block-to", type=float, default=255.0)
    parser.add_argument("--duration", type=float, default=330.0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.seed in HELD_OUT:
        parser.error(f"seeds {HELD_OUT.start}-{HELD_OUT.stop - 1} are held out")
    floor = bench_floor()
    beacon = next(b for b in floor.beacons if b.beacon_id.endswith(":" + args.beacon))
    beacon.blocked = [(args.block_from, args.block_to, 14.0)]
    where = STANDING["boundary"][0]
    records = simulate(floor, waypoints([(args.duration, where)]), args.duration, seed=args.seed)
    source = (
        f"bench/presence_fixture.py boundary seed={args.seed}, {beacon.room} beacon blocked "
        f"{args.block_from:g}-{args.block_to:g} s by 14 dB"
    )
    count = write_trace(args.out, records, source=source)
    print(f"{count} advertisements -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
