"""Per-second trace of one simulated walk: what the room engine saw and decided.

For finding out why an entry is slow or missed (``presence_rooms.py`` lists them as "entries over
10 s"): every second between ``--from`` and ``--to`` it prints where the appliance truly is, each
beacon's smoothed RSSI relative to its RSSI at 1 m (and the last raw reading), each room's level,
the posterior, the rooms a move is seen towards, the decided room and any switch with its reason.

    .venv/bin/python bench/studies/presence_entry_trace.py --seed 1 --from 185 --to 240
    .venv/bin/python bench/studies/presence_entry_trace.py --scenario body --seed 12 --from 1500 --to 1600
    .venv/bin/python bench/studies/presence_entry_trace.py --scenario early --lead 25 --seed 1002 --to 70
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
from pathlib import Path

# The repository (appliance, training) and the benchmarks these studies build on.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from presence_rooms import STANDING, TRACE_REFUSED, parse_overrides
from presence_sim import (
    LAYOUTS,
    bench_floor,
    early_move_path,
    replay,
    simulate,
    walk_path,
    waypoints,
)

from appliance.presence.engine import RoomEngine
from appliance.presence.scanner import BeaconScanner
from appliance.presence.settings import PresenceSettings
from appliance.presence.smoothing import Sighting


def short(name: str | None) -> str:
    return "-" if name is None else name[:5]


def signs(engine: RoomEngine, labels: dict[str, str], now: float) -> str:
    """Each move sign's value now (dB) and the signs still remembered, for one trace line.

    Reads the engine's own bookkeeping (after :meth:`RoomEngine.evaluate` at ``now``), so it shows
    exactly what the decision used: the room rise over its high end, the fall under its median,
    each beacon's rise over its own high end, and which rooms a rise, fall, surge, beacon rise
    (motion), deep fall or lasting fall is remembered for.
    """
    memory, moves = engine.memory, engine.moves
    started = engine.startup.started
    rooms = sorted(memory.rooms)
    rise = " ".join(f"{short(k)}={memory.rise(k, now, started):+.1f}" for k in rooms)
    fall = " ".join(f"{short(k)}={memory.fall(k):.1f}" for k in rooms)
    beacons = " ".join(
        f"{labels.get(b, b[-2:])}={memory.beacon_rise(b, now):+.1f}" for b in sorted(memory.beacons)
    )

    def held(marks: dict[str, float]) -> str:
        return ",".join(short(k) for k, until in sorted(marks.items()) if until >= now)

    remembered = (
        f"rose[{held(moves.rose)}] fell[{held(moves.fell)}] surged[{held(moves.surged)}]"
        f" motion[{'y' if moves.motion_until >= now else ''}]"
        f" deep[{'y' if moves.deep_fall_until >= now else ''}]"
        f" lasting[{','.join(short(k) for k in sorted(moves.lasting))}]"
    )
    return f"rise {rise} | fall {fall} | beacon rise {beacons} | {remembered}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=["walk", "early", *STANDING], default="walk")
    parser.add_argument(
        "--lead", type=float, default=25.0, help="early: seconds at the shop before the move"
    )
    parser.add_argument("--hours", type=float, default=1.0, help="length of a standing scenario")
    parser.add_argument("--no-next-to", action="store_true", help="rooms file without next_to")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--layout", choices=LAYOUTS, default="bench", help="beacon layout")
    parser.add_argument("--set", action="append", default=[], help="setting=value override")
    parser.add_argument("--from", dest="start", type=float, default=0.0)
    parser.add_argument("--to", dest="end", type=float, default=60.0)
    parser.add_argument(
        "--held-out-ok",
        action="store_true",
        help="allow a seed of the fresh held-out set (only after its one benchmark run)",
    )
    parser.add_argument(
        "--signs",
        action="store_true",
        help="a second line per second: each move sign's value and which ones are remembered",
    )
    args = parser.parse_args(argv)
    refused = next((r for r in TRACE_REFUSED if args.seed in r), None)
    if refused is not None and not args.held_out_ok:
        parser.error(
            f"seed {args.seed} is in a held-out set ({refused.start}-{refused.stop - 1}): "
            "pass --held-out-ok only after its one run"
        )
    settings = dataclasses.replace(PresenceSettings(), **parse_overrides(args.set))  # type: ignore[arg-type]
    floor = bench_floor(next_to=not args.no_next_to, layout=args.layout)
    if args.scenario == "walk":
        path = walk_path()
    elif args.scenario == "early":
        path = early_move_path(args.lead, 90.0)
    else:
        where, _expect, prepare = STANDING[args.scenario]
        path = waypoints([(args.hours * 3600.0, where)])
        if prepare is not None:
            prepare(floor)
    plan = floor.plan()
    clock = [0.0]
    engine = RoomEngine(plan, settings, clock=lambda: clock[0])
    raw: dict[str, int] = {}
    labels = {b.beacon_id: b.address[-2:] for b in floor.beacons}

    def on_sighting(sighting: Sighting) -> None:
        engine.observe(sighting)
        raw[sighting.beacon_id] = sighting.rssi

    scanner = BeaconScanner(on_sighting, clock=lambda: clock[0])
    print("beacons: " + ", ".join(f"{b.address[-2:]} = {b.room}" for b in floor.beacons))
    print(
        "t  true room  x  | beacon: smoothed dB re 1 m (raw dBm) | room levels | posterior | moving"
    )

    def on_tick(now: float) -> None:
        switch = engine.evaluate(now)
        whole = abs(now - round(now)) < 1e-9
        if args.start <= now <= args.end and (whole or switch is not None):
            state = engine.state
            where = path(now)
            beacons = " ".join(
                f"{labels[r.beacon_id]}:{r.proximity_db:6.1f}({raw.get(r.beacon_id, 0)})"
                for r in sorted(engine.readings(now), key=lambda r: r.beacon_id)
                if r.room is not None and r.proximity_db is not None
            )
            levels = " ".join(f"{short(k)}={v:.1f}" for k, v in state.proximity.items())
            posterior = " ".join(
                f"{short(k or None)}={v:.2f}" for k, v in state.posterior.items() if v >= 0.01
            )
            moving = ",".join(short(m) for m in state.moving)
            line = (
                f"{now:6.1f} {short(floor.room_at(where)):5} {where[0]:5.1f} | "
                f"{beacons} | {levels} | {posterior} | [{moving}] -> {short(state.auto_room)}"
            )
            if switch is not None:
                line += f"  SWITCH {switch.reason}: {switch.detail}"
            print(line)
            if args.signs:
                print("         " + signs(engine, labels, now))

    duration = min(path.duration, args.end + 1.0)  # type: ignore[attr-defined]
    records = simulate(floor, path, path.duration, seed=args.seed)  # type: ignore[attr-defined]
    heard = itertools.takewhile(lambda record: record.t <= duration, records)
    replay(heard, scanner, clock, settings.tick_s, duration, on_tick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
