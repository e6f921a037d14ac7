"""Entries after long stays: the walk of ``presence_rooms.py`` with every stay lengthened.

The walks of ``presence_rooms.py`` stay 90 s at each bench, shorter than the two-minute motion
window, so a rule that applies only after standing still longer than that window never shows its
cost there (session 5's revision-6 attempt, decision 0006, was such a rule). This benchmark walks
the same route (machine shop -> electronics lab -> assembly -> machine shop) with ``--stay``
seconds at each bench and replays each simulated trace through the product's scanner and two
engines in the same process: the settings as they are, and the same with ``--set`` overrides. It
prints, per engine, the entries switched within 10 s, the missed ones (no switch into the room
before leaving it), the latency median / p90 / max and the number of switches.

    .venv/bin/python bench/studies/presence_long_stay.py --seed-list 1000-1019 --stay 300 \
        --set motion_window_s=180
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# The repository (appliance, training) and the benchmarks these studies build on.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleak.backends.device import BLEDevice
from presence_rooms import entries, parse_overrides, parse_seeds, refuse_held_out
from presence_sim import FloorPlan, Point, bench_floor, simulate, walk_path

from appliance.presence.engine import RoomEngine
from appliance.presence.scanner import BeaconScanner
from appliance.presence.settings import PresenceSettings


def replay(
    floor: FloorPlan,
    path: Callable[[float], Point],
    duration: float,
    seed: int,
    variants: list[PresenceSettings],
) -> list[list[tuple[float, str]]]:
    """Switches (time, room) of one engine per settings over one simulated trace of ``path``,
    every engine fed the same advertisements through its own product scanner."""
    plan = floor.plan()
    clock = [0.0]
    engines = [RoomEngine(plan, s, clock=lambda: clock[0]) for s in variants]
    scanners = [BeaconScanner(e.observe, clock=lambda: clock[0]) for e in engines]
    switches: list[list[tuple[float, str]]] = [[] for _ in engines]
    tick = 0.0
    step = variants[0].tick_s

    def tick_until(t: float) -> None:
        nonlocal tick
        while tick <= t:
            for engine, out in zip(engines, switches, strict=True):
                switch = engine.evaluate(tick)
                if switch is not None:
                    out.append((tick, switch.to_room or "-"))
            tick += step

    for record in simulate(floor, path, duration, seed=seed):
        tick_until(record.t)
        clock[0] = record.t
        device = BLEDevice(record.address, record.name, None)
        for scanner in scanners:
            scanner.handle(device, record.advertisement())
    tick_until(duration)
    return switches


def run(seed: int, stay: float, variants: list[PresenceSettings]) -> list[list[tuple[float, str]]]:
    """Switches (time, room) of each engine over one simulated walk (``walk_path(stay)``)."""
    path = walk_path(stay)
    return replay(bench_floor(), path, path.duration, seed, variants)  # type: ignore[attr-defined]


def stays(stay: float) -> list[tuple[float, float, str]]:
    """(entered at, left at, room) of every room stayed in after the first, from the route."""
    path = walk_path(stay)
    spans = entries(bench_floor(), path, path.duration)  # type: ignore[attr-defined]
    # The first room is where the walk starts; a pass through the lab on the way back is no stay.
    return [(start, end, room or "-") for start, end, room in spans[1:] if end - start >= 30.0]


def score(switches: list[tuple[float, str]], spans: list[tuple[float, float, str]]) -> list[float]:
    """Latency of each entry (inf = missed: no switch into the room while in it)."""
    out = []
    for start, end, room in spans:
        hit = [t for t, to in switches if to == room and start <= t < end]
        # Already in that room when entering it (switched early, on the way): latency 0.
        before = [to for t, to in switches if t < start]
        out.append(0.0 if before and before[-1] == room else (hit[0] - start if hit else math.inf))
    return out


def summary(name: str, latencies: list[float], switches: int) -> str:
    done = sorted(x for x in latencies if x != math.inf)
    missed = len(latencies) - len(done)
    within = sum(1 for x in done if x <= 10.0)
    p90 = done[min(len(done) - 1, int(0.9 * len(done)))] if done else math.nan
    med = statistics.median(done) if done else math.nan
    mx = done[-1] if done else math.nan
    return (
        f"{name}: {within}/{len(latencies)} entries within 10 s, {missed} missed, latency median "
        f"{med:.1f} / p90 {p90:.1f} / max {mx:.1f} s, {switches} switches"
    )


def comparison(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[list[int], dict[str, float], PresenceSettings, PresenceSettings]:
    """The tuning seeds of ``--seed-list`` (held-out ones refused) and the two settings compared
    on them: as they are, and with the ``--set`` overrides."""
    seeds = parse_seeds(args.seed_list)
    refuse_held_out(parser, seeds)
    overrides = parse_overrides(args.set)
    base = PresenceSettings()
    return seeds, overrides, base, dataclasses.replace(base, **overrides)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed-list", default="1000-1009", help="tuning seeds, e.g. 1000-1019")
    parser.add_argument("--stay", type=float, default=300.0, help="seconds at each bench")
    parser.add_argument("--set", action="append", default=[], help="setting=value override")
    args = parser.parse_args(argv)
    seeds, overrides, base, other = comparison(parser, args)
    spans = stays(args.stay)
    started = time.perf_counter()
    latencies: list[list[float]] = [[], []]
    counts = [0, 0]
    for seed in seeds:
        results = run(seed, args.stay, [base, other])
        for i, switches in enumerate(results):
            got = score(switches, spans)
            latencies[i] += got
            counts[i] += len(switches)
            slow = [f"{room} {x:.1f}" for (_, _, room), x in zip(spans, got, strict=True) if x > 10]
            if slow:
                print(f"  seed {seed} {'settings' if i == 0 else 'overrides'}: over 10 s: {slow}")
    print(f"stay {args.stay:g} s, seeds {args.seed_list}, {len(spans)} entries per walk")
    print(summary("settings", latencies[0], counts[0]))
    print(summary(f"overrides {overrides or 'none'}", latencies[1], counts[1]))
    print(f"(run time {time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
