"""Write the simulated traces the presence tests replay through the scanner and the engine.

Standing still on a tuning seed, optionally with people in front of one beacon (``--block-from``
to ``--block-to``, 14 dB) and beacons that never advertise (``--silent``, a room's beacon off);
or (``--walk``) carried along the benchmark's walk (shop, lab, assembly, back to the shop, 90 s
at each bench), as ``presence_rooms.py`` simulates it for that seed.

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

Revision 6's missed-move test (``walk-missed-assembly.jsonl``): tuning walk 147's first 320 s,
whose assembly entry the engine misses (it stays in the lab while the appliance is carried to the
assembly area and back), then the shop entry at ~293 s:

    .venv/bin/python bench/presence_fixture.py --seed 147 --walk --no-block --duration 320 \
        --out tests/presence/data/walk-missed-assembly.jsonl

Revision 7's start-up test (``door-startup.jsonl``): switched on at the door and left there for
100 s, nobody scheduled in front of a beacon; revision 6 decides the lab, switches to the shop on
a rise measured against a few seconds of readings and comes back to the lab by a held lead:

    .venv/bin/python bench/presence_fixture.py --seed 1572 --no-block --duration 100 \
        --out tests/presence/data/door-startup.jsonl

Revision 8's start-up move test (``early-move.jsonl``): switched on at the machine shop's bench,
carried to the electronics lab after 25 s (``presence_sim.early_move_path``); revision 7
believes the move only once start-up is over (60.5 s):

    .venv/bin/python bench/presence_fixture.py --seed 1002 --early 25 --no-block --duration 120 \
        --out tests/presence/data/early-move.jsonl

Revision 9's arrival test (``walk-lab-then-assembly.jsonl``): tuning walk 1002's first 205 s;
at the lab's bench a person in front of its beacon let revision 8 take the walk in (the
assembly area rose with the lab) for a move to the assembly area, 29 s after the lab switch:

    .venv/bin/python bench/presence_fixture.py --seed 1002 --walk --no-block --duration 205 \
        --out tests/presence/data/walk-lab-then-assembly.jsonl

and ``walk-through-the-lab.jsonl``, tuning walk 56's first 305 s: from the assembly area through
the lab into the shop, where the arrival in the lab ends because the lab falls away at once:

    .venv/bin/python bench/presence_fixture.py --seed 56 --walk --no-block --duration 305 \
        --out tests/presence/data/walk-through-the-lab.jsonl

Session 10's beacons' deep fall (``tests/presence/test_beacons_fall.py``): tuning walk 5's first
335 s, carried from the assembly area through the lab into the shop (both assembly beacons fall
16-22 dB within 2 s of the shop's door), and a person 150 s in front of one of the assembly
area's two beacons at its bench:

    .venv/bin/python bench/presence_fixture.py --seed 5 --walk --no-block --duration 335 \
        --out tests/presence/data/walk-shop-after-assembly.jsonl
    .venv/bin/python bench/presence_fixture.py --seed 3 --at 15,2.5 --beacon 7:1 \
        --block-from 100 --block-to 250 --duration 300 \
        --out tests/presence/data/assembly-one-beacon-blocked.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from presence_rooms import STANDING, refuse_held_out
from presence_sim import LAYOUTS, bench_floor, early_move_path, simulate, walk_path, waypoints

from appliance.presence.trace import write_trace


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--at", help="x,y where the appliance stands (default: the door, 6.4,2.5)")
    parser.add_argument(
        "--beacon",
        action="append",
        default=[],
        help="end of the blocked beacon's id (again for more people at once; default 1:1)",
    )
    parser.add_argument("--block-from", type=float, default=200.0)
    parser.add_argument("--block-to", type=float, default=255.0)
    parser.add_argument("--no-block", action="store_true", help="nobody in front of any beacon")
    parser.add_argument("--walk", action="store_true", help="the benchmark's walk, not standing")
    parser.add_argument(
        "--early",
        type=float,
        help="switched on at the shop's bench and carried off after this many seconds "
        "(presence_sim.early_move_path, 90 s in the lab and at assembly)",
    )
    parser.add_argument(
        "--silent", action="append", default=[], help="end of the id of a beacon that is off"
    )
    parser.add_argument("--layout", choices=LAYOUTS, default="bench", help="beacon layout")
    parser.add_argument("--duration", type=float, default=330.0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    refuse_held_out(parser, [args.seed])
    floor = bench_floor(layout=args.layout)
    notes = [] if args.layout == "bench" else [f"{args.layout} layout"]
    # argparse's "append" adds to a default list, so the default beacon is filled in here.
    blocked = [] if args.no_block else (args.beacon or ["1:1"])
    for end in blocked:
        beacon = next(b for b in floor.beacons if b.beacon_id.endswith(":" + end))
        beacon.blocked = [(args.block_from, args.block_to, 14.0)]
        notes.append(
            f"{beacon.room} beacon {end} blocked {args.block_from:g}-{args.block_to:g} s by 14 dB"
        )
    for end in args.silent:
        off = next(b for b in floor.beacons if b.beacon_id.endswith(":" + end))
        off.dies_at_s = 0.0  # never advertises
        notes.append(f"{off.room} beacon off")
    if sum(bool(x) for x in (args.walk, args.at, args.early is not None)) > 1:
        parser.error("--walk, --early and --at exclude each other")
    if args.walk:
        path, place = walk_path(), "walk"
    elif args.early is not None:
        path, place = early_move_path(args.early, 90.0), f"carried off after {args.early:g} s"
    else:
        if args.at:
            x, _, y = args.at.partition(",")
            where, place = (float(x), float(y)), f"at {args.at}"
        else:
            where, place = STANDING["boundary"][0], "boundary"
        path = waypoints([(args.duration, where)])
    # The walk is simulated over its whole length, as the benchmark does, and cut: the channel's
    # random draws then match the benchmark's for the same seed.
    full = max(args.duration, getattr(path, "duration", args.duration))
    records = (r for r in simulate(floor, path, full, seed=args.seed) if r.t <= args.duration)
    source = f"bench/presence_fixture.py {place} seed={args.seed}" + "".join(
        f", {note}" for note in notes
    )
    count = write_trace(args.out, records, source=source)
    print(f"{count} advertisements -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
