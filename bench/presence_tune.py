"""Tuning replay for the room decision: cache the beacon readings once, replay the decision fast.

Simulating a trace and smoothing every advertisement costs most of ``presence_rooms.py``'s run time,
but only the decision (``RoomEngine.decide``) changes while the engine is tuned. This script runs the
simulator and the product's scanner and per-beacon filters once per scenario and seed, stores every
known beacon's reading at every tick (``bench/out/presence_cache/``, numpy arrays), and replays the
decision over the stored readings with the engine's settings, optionally overridden:

    .venv/bin/python bench/presence_tune.py --walk-seeds 1-6,13-72 --stand-seeds 1-6,13-30
    .venv/bin/python bench/presence_tune.py ... --set lasting_fall_s=20 --set rise_db=5

The figures are those of ``presence_rooms.py`` (same scenarios, metrics and code), for the tuning seeds
only: the held-out seeds (200-999: 200-259 of session 3, 300-359 of session 4, 400-459 of session
5, 500-559 of session 6, 600-659 of session 7, the rest kept for later sets) are refused; tuning seeds from 1000 up are
allowed.
Filter settings (window, tau, fall rate, jump gate) are part of the cache key; changing them
re-simulates.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import sys
import time
from collections.abc import Callable, Iterable
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bleak.backends.device import BLEDevice
from presence_rooms import (
    HELD_OUT,
    STANDING,
    TUNING_REFUSED,
    Run,
    StandingStats,
    StartupStats,
    WalkStats,
    parse_seeds,
    print_standing,
    print_startup,
    print_walk,
    refuse_held_out,
    score_standing,
    score_startup,
    score_walk,
)
from presence_sim import LAYOUTS, FloorPlan, Point, bench_floor, simulate, walk_path, waypoints

from appliance.presence.engine import BeaconReading, RoomEngine, RoomSwitch
from appliance.presence.scanner import BeaconScanner
from appliance.presence.settings import PresenceSettings

CACHE = Path(__file__).resolve().parent / "out" / "presence_cache"
_FILTER_KEYS = ("window_s", "smoothing_tau_s", "max_jump_db", "jump_confirm", "max_fall_db_s")


@dataclasses.dataclass
class Recording:
    """Every known beacon's smoothed reading at every tick of one simulated run."""

    #: Beacon ids, in column order.
    beacons: list[str]
    #: Tick times (s).
    t: np.ndarray
    #: Smoothed RSSI (dBm) per tick and beacon; NaN = never heard / window empty.
    rssi: np.ndarray
    #: Seconds since each beacon was last heard (inf = never).
    age: np.ndarray
    #: Last raw RSSI per tick and beacon.
    raw: np.ndarray
    #: RSSI at 1 m the engine uses per beacon (dBm).
    ref: np.ndarray


def _scenario(name: str, hours: float) -> tuple[Callable[[float], Point], float, Callable | None]:
    if name == "walk":
        path = walk_path()
        return path, path.duration, None  # type: ignore[attr-defined]
    where, _expect, prepare = STANDING[name]
    duration = hours * 3600.0
    return waypoints([(duration, where)]), duration, prepare


def _key(name: str, seed: int, hours: float, settings: PresenceSettings, layout: str) -> Path:
    filt = ",".join(f"{k}={getattr(settings, k)}" for k in _FILTER_KEYS)
    digest = hashlib.sha1(f"{filt},tick={settings.tick_s}".encode()).hexdigest()[:8]
    span = "" if name == "walk" else f"_{hours:g}h"
    # The bench layout keeps the names its caches always had.
    floor = "" if layout == "bench" else f"_{layout}"
    return CACHE / f"{name}_{seed}{span}{floor}_{digest}.npz"


def record(
    name: str, seed: int, hours: float, settings: PresenceSettings, layout: str = "bench"
) -> Recording:
    """Simulate one run through the scanner and the beacon filters; cached on disk."""
    target = _key(name, seed, hours, settings, layout)
    if target.exists():
        data = np.load(target, allow_pickle=False)
        return Recording(
            [str(b) for b in data["beacons"]],
            data["t"],
            data["rssi"],
            data["age"],
            data["raw"],
            data["ref"],
        )
    path, duration, prepare = _scenario(name, hours)
    floor: FloorPlan = bench_floor(layout=layout)
    if prepare is not None:
        prepare(floor)
    plan = floor.plan()
    clock = [0.0]
    engine = RoomEngine(plan, settings, clock=lambda: clock[0])
    scanner = BeaconScanner(engine.observe, clock=lambda: clock[0])
    beacons = list(plan.beacons)
    ticks = int(duration / settings.tick_s) + 1
    rssi = np.full((ticks, len(beacons)), np.nan)
    age = np.full((ticks, len(beacons)), np.inf)
    raw = np.zeros((ticks, len(beacons)))
    ref = np.zeros(len(beacons))
    index = {b: i for i, b in enumerate(beacons)}
    tick = 0

    def tick_until(t: float) -> None:
        nonlocal tick
        while tick < ticks and tick * settings.tick_s <= t:
            now = tick * settings.tick_s
            for reading in engine.readings(now):
                i = index[reading.beacon_id]
                rssi[tick, i] = np.nan if reading.rssi is None else reading.rssi
                age[tick, i] = reading.age_s
                raw[tick, i] = reading.raw_rssi
                if reading.rssi is not None and reading.proximity_db is not None:
                    ref[i] = reading.rssi - reading.proximity_db
            tick += 1

    for rec in simulate(floor, path, duration, seed=seed):
        tick_until(rec.t)
        clock[0] = rec.t
        scanner.handle(BLEDevice(rec.address, rec.name, None), rec.advertisement())
    tick_until(duration)
    times = np.arange(ticks) * settings.tick_s
    for i, beacon in enumerate(beacons):
        if ref[i] == 0.0:
            ref[i] = settings.default_rssi_at_1m
        del beacon
    target.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        target, beacons=np.array(beacons), t=times, rssi=rssi, age=age, raw=raw, ref=ref
    )
    return Recording(beacons, times, rssi, age, raw, ref)


def replay(
    recording: Recording,
    settings: PresenceSettings,
    prepare: Callable | None,
    *,
    next_to: bool = True,
    layout: str = "bench",
    until: float = float("inf"),
    switches: list[RoomSwitch] | None = None,
    engines: list[RoomEngine] | None = None,
    on_tick: Callable[[RoomEngine, float], None] | None = None,
) -> Run:
    """The engine's decisions over a recording (no baseline), up to ``until`` seconds.

    Every switch's record is appended to ``switches`` when given (why it switched), and the
    engine itself to ``engines`` (its state after the replay); ``on_tick`` is called with the
    engine after each decision.
    """
    floor = bench_floor(next_to=next_to, layout=layout)
    if prepare is not None:
        prepare(floor)
    plan = floor.plan()
    engine = RoomEngine(plan, settings, clock=lambda: 0.0)
    if engines is not None:
        engines.append(engine)
    specs = [plan.beacons[b] for b in recording.beacons]
    run = Run()
    exponent = 10.0 * settings.path_loss_exponent
    for k, now in enumerate(recording.t.tolist()):
        if now > until:
            break
        readings = []
        for i, spec in enumerate(specs):
            age = float(recording.age[k, i])
            if age == np.inf:
                continue
            value = float(recording.rssi[k, i])
            heard = value == value
            proximity = value - float(recording.ref[i]) if heard else None
            readings.append(
                BeaconReading(
                    beacon_id=spec.beacon_id,
                    room=spec.room,
                    rssi=value if heard else None,
                    raw_rssi=int(recording.raw[k, i]),
                    proximity_db=proximity,
                    distance_m=None if proximity is None else 10 ** (-proximity / exponent),
                    age_s=age,
                    samples=1,
                    silent=age > settings.silence_timeout_s,
                    label=spec.label,
                )
            )
        switch = engine.decide(readings, now)
        if on_tick is not None:
            on_tick(engine, now)
        if switch is not None:
            run.changes.append((now, switch.to_room))
            if switches is not None:
                switches.append(switch)
    return run


def _job(args: tuple[str, int, float, dict[str, object], bool, str]) -> tuple[str, int, Run]:
    name, seed, hours, overrides, next_to, layout = args
    base = PresenceSettings()
    settings = dataclasses.replace(base, **overrides)  # type: ignore[arg-type]
    recording = record(name, seed, hours, base, layout)
    prepare = None if name == "walk" else STANDING[name][2]
    return name, seed, replay(recording, settings, prepare, next_to=next_to, layout=layout)


def _value(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def evaluate(
    walk_seeds: Iterable[int],
    stand_seeds: Iterable[int],
    scenarios: Iterable[str],
    hours: float,
    overrides: dict[str, object],
    jobs: int,
    next_to: bool = True,
    layout: str = "bench",
) -> tuple[WalkStats | None, dict[str, StandingStats], dict[str, StartupStats]]:
    """Replay every (scenario, seed) and score it like ``presence_rooms.py``.

    Returns the walks' figures, and per standing scenario its figures and its start-up figures.
    """
    work = [
        ("walk", s, hours, overrides, next_to, layout) for s in walk_seeds if "walk" in scenarios
    ]
    work += [
        (n, s, hours, overrides, next_to, layout)
        for n in STANDING
        if n in scenarios
        for s in stand_seeds
    ]
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(_job, work, chunksize=1)
    else:
        results = [_job(w) for w in work]
    walk_runs = {seed: run for name, seed, run in results if name == "walk"}
    walk = score_walk(walk_runs) if walk_runs else None
    standing = {
        name: score_standing(name, {s: r for n, s, r in results if n == name}, hours)
        for name in STANDING
        if name in scenarios
    }
    startup = {
        name: score_startup(name, {s: r for n, s, r in results if n == name}) for name in standing
    }
    return walk, standing, startup


def _ranges(ranges: Iterable[range]) -> str:
    """``"5000-5059, 6000-6059 and 7000-7199"``: seed ranges as a person reads them."""
    named = [f"{r.start}-{r.stop - 1}" for r in ranges]
    return ", ".join(named[:-1]) + f" and {named[-1]}" if len(named) > 1 else "".join(named)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walk-seeds", default="1-6", help="e.g. 1-6,13-72")
    parser.add_argument("--stand-seeds", default="1-6", help="e.g. 1-6,13-30")
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--scenarios", default="walk," + ",".join(STANDING))
    parser.add_argument("--set", action="append", default=[], help="setting=value override")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--quiet", action="store_true", help="summary lines only")
    parser.add_argument("--no-next-to", action="store_true", help="rooms file without next_to")
    parser.add_argument("--layout", choices=LAYOUTS, default="bench", help="beacon layout")
    args = parser.parse_args(argv)
    overrides = {k: _value(v) for k, _, v in (item.partition("=") for item in args.set)}
    walk_seeds = parse_seeds(args.walk_seeds)
    stand_seeds = parse_seeds(args.stand_seeds)
    refuse_held_out(
        parser,
        [*walk_seeds, *stand_seeds],
        " (200-259 session 3, 300-359 session 4, 400-459 session 5, 500-559 session 6, 600-659 "
        "session 7, 700-759 session 8, 800-859 session 9, 900-959 session 10, 960-999 session 12, "
        "5000-5059 session 15, 6000-6059 session 16, 7000-7199 session 17): not for tuning; "
        f"tuning seeds from {HELD_OUT.stop} up, outside {_ranges(TUNING_REFUSED[1:])}",
    )
    started = time.perf_counter()
    walk, standing, startup = evaluate(
        walk_seeds,
        stand_seeds,
        args.scenarios.split(","),
        args.hours,
        overrides,
        args.jobs,
        next_to=not args.no_next_to,
        layout=args.layout,
    )
    print(
        f"overrides: {overrides or 'none'}; next_to {'off' if args.no_next_to else 'on'}; "
        f"layout {args.layout}"
    )
    if walk is not None:
        print_walk("walk engine", walk, verbose=not args.quiet)
    for name, stats in standing.items():
        print_standing(stats, verbose=not args.quiet)
        print_startup(startup[name])
    print(f"(run time {time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
