"""A person sitting in front of a beacon for longer than the motion window, standing at the door.

The appliance stands 0.4 m inside the electronics lab's door (the ``boundary`` scenario's spot) and
someone sits between it and one beacon (``--beacon``, default the lab's) from ``--block-from`` to
``--block-to`` (14 dB, as ``presence_fixture.py`` schedules it). Each seed's trace is simulated
once and replayed through the product's scanner and two engines in the same process: the
settings as they are, and the same with ``--set`` overrides. Both rooms are acceptable at the door,
so every switch after the first decision is a flap; it prints the switches of each engine per seed
and the seeds that flapped.

    .venv/bin/python bench/studies/presence_long_block.py --seed-list 1-6,13-15,17 \
        --set standstill_reference=0
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# The repository (appliance, training) and the benchmarks these studies build on.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from presence_long_stay import comparison, replay
from presence_rooms import STANDING
from presence_sim import bench_floor, waypoints

from appliance.presence.settings import PresenceSettings


def run(
    seed: int,
    beacon_end: str,
    block: tuple[float, float],
    duration: float,
    variants: list[PresenceSettings],
) -> list[list[tuple[float, str]]]:
    """Switches (time, room) of each engine over one simulated standstill with the blockage."""
    floor = bench_floor()
    blocked = next(b for b in floor.beacons if b.beacon_id.endswith(":" + beacon_end))
    blocked.blocked = [(block[0], block[1], 14.0)]
    path = waypoints([(duration, STANDING["boundary"][0])])
    return replay(floor, path, duration, seed, variants)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed-list", default="1-6", help="tuning seeds, e.g. 1-6,13-15,17")
    parser.add_argument("--beacon", default="0000000000a1", help="end of the blocked beacon's id")
    parser.add_argument("--block-from", type=float, default=150.0)
    parser.add_argument("--block-to", type=float, default=280.0)
    parser.add_argument("--duration", type=float, default=330.0)
    parser.add_argument("--set", action="append", default=[], help="setting=value override")
    args = parser.parse_args(argv)
    seeds, overrides, base, other = comparison(parser, args)
    started = time.perf_counter()
    flapped: list[list[int]] = [[], []]
    for seed in seeds:
        block = (args.block_from, args.block_to)
        results = run(seed, args.beacon, block, args.duration, [base, other])
        for i, switches in enumerate(results):
            name = "settings" if i == 0 else "overrides"
            shown = ", ".join(f"{t:.1f} {room}" for t, room in switches)
            print(f"  seed {seed} {name}: {shown or 'no switch'}")
            # The first decision (out of "no room" at the start) is no flap.
            if len(switches) > 1:
                flapped[i].append(seed)
    print(
        f"blocked {args.beacon} {args.block_from:g}-{args.block_to:g} s at the door, "
        f"{len(seeds)} seeds of {args.duration:g} s"
    )
    print(f"settings: {len(flapped[0])} seeds switched after the first decision {flapped[0]}")
    print(
        f"overrides {overrides or 'none'}: {len(flapped[1])} seeds switched after the first "
        f"decision {flapped[1]}"
    )
    print(f"(run time {time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
