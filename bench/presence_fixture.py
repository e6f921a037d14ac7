"""Write the simulated traces the presence tests replay through the scanner and the engine.

Standing still on a tuning seed, optionally with people in front of one beacon (``--block-from``
to ``--block-to``, 14 dB) and beacons that never advertise (``--silent``, a room's beacon off).

Revision 4's standstill test (``door-two-people.jsonl``): 0.4 m inside the electronics lab's
door, two people one after the other in front of the shop's beacon, the case where a rival's lead
measured against the current room's level now outlasts the ~46 s the standstill hazard asks for:

    .venv/bin/python bench/presence_fixture.py --seed 17 --duration 290 \
        --out tests/presence/data/door-two-people.jsonl

Revision 5's "no room" test (``no-room-standing.jsonl``): in the lab 5.8 m from the shop's beacon
(through the door) with the lab's own beacon off, where "no room" is decided at first and the
shop, at the edge of its range, is entered after ~2 minutes by a lead added up over small
upward excursions:

    .venv/bin/python bench/presence_fixture.py --seed 1015 --at 8.8,2.5 --silent 0000000000a1 \
        --no-block --duration 200 --out tests/presence/data/no-room-standing.jsonl
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
    parser.add_argument("--at", help="x,y where the appliance stands (default: the door, 6.4,2.5)")
    parser.add_argument("--beacon", default="1:1", help="end of the blocked beacon's id")
    parser.add_argument("--block-from", type=float, default=200.0)
    parser.add_argument("--block-to", type=float, default=255.0)
    parser.add_argument("--no-block", action="store_true", help="nobody in front of any beacon")
    parser.add_argument(
        "--silent", action="append", default=[], help="end of the id of a beacon that is off"
    )
    parser.add_argument("--duration", type=float, default=330.0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.seed in HELD_OUT:
        parser.error(f"seeds {HELD_OUT.start}-{HELD_OUT.stop - 1} are held out")
    floor = bench_floor()
    notes = []
    if not args.no_block:
        beacon = next(b for b in floor.beacons if b.beacon_id.endswith(":" + args.beacon))
        beacon.blocked = [(args.block_from, args.block_to, 14.0)]
        notes.append(
            f"{beacon.room} beacon blocked {args.block_from:g}-{args.block_to:g} s by 14 dB"
        )
    for end in args.silent:
        off = next(b for b in floor.beacons if b.beacon_id.endswith(":" + end))
        off.dies_at_s = 0.0  # never advertises
        notes.append(f"{off.room} beacon off")
    if args.at:
        x, _, y = args.at.partition(",")
        where, place = (float(x), float(y)), f"at {args.at}"
    else:
        where, place = STANDING["boundary"][0], "boundary"
    records = simulate(floor, waypoints([(args.duration, where)]), args.duration, seed=args.seed)
    source = f"bench/presence_fixture.py {place} seed={args.seed}" + "".join(
        f", {note}" for note in notes
    )
    count = write_trace(args.out, records, source=source)
    print(f"{count} advertisements -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
