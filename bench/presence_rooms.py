"""Room decision quality on simulated traces: confusion matrix, switch latency, flaps per hour.

Scenarios (floor plan and noise model in ``presence_sim.py``):

* ``walk``     carry the appliance shop -> lab -> assembly -> (through the lab) -> shop, 90 s each;
* ``boundary`` stand 0.4 m inside the electronics lab's door, shop beacon 3.4 m away through it;
* ``equal``    stand in the doorway exactly 3 m from the shop's and the lab's beacons;
* ``body``     stand at the lab bench while someone works in front of the lab's only beacon
               (14 dB for 40 s of every 2 minutes, on top of the random blockages);
* ``battery``  stand in the assembly area while one of its two beacons' battery dies.

Each scenario runs through the product's path: ``AdvertisementData`` -> ``BeaconScanner.handle``
(sanity gate, parsers) -> ``RoomEngine`` (ticking every ``tick_s`` of simulated time). The baseline,
run on the same traces in the same process, switches to the room of the strongest raw reading of the
last 2 s (no smoothing, no hysteresis, no dwell).

    .venv/bin/python bench/presence_rooms.py                 # 3 seeds, 1 h per standing scenario
    .venv/bin/python bench/presence_rooms.py --seeds 5 --hours 2
    .venv/bin/python bench/presence_rooms.py --scenarios walk,body --first-seed 7
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bleak.backends.device import BLEDevice
from presence_sim import FloorPlan, Point, bench_floor, simulate, walk_path, waypoints

from appliance.presence.engine import RoomEngine
from appliance.presence.rooms import RoomsPlan
from appliance.presence.scanner import BeaconScanner
from appliance.presence.settings import PresenceSettings

NONE = "-"


@dataclass
class Run:
    """Decisions of one policy over one trace."""

    #: (time, room) at every change, starting with (0, None).
    changes: list[tuple[float, str | None]] = field(default_factory=lambda: [(0.0, None)])

    def room_at(self, t: float) -> str | None:
        room = None
        for when, value in self.changes:
            if when > t:
                break
            room = value
        return room

    @property
    def switches(self) -> int:
        return len(self.changes) - 1


class Baseline:
    """Strongest raw reading of the last 2 s wins, immediately."""

    def __init__(self, plan: RoomsPlan, default_1m: int) -> None:
        self.plan = plan
        self.default_1m = default_1m
        self.last: dict[str, tuple[float, float]] = {}

    def observe(self, t: float, beacon_id: str, rssi: int, adv_1m: int | None) -> None:
        spec = self.plan.beacons.get(beacon_id)
        if spec is None:
            return
        ref = spec.rssi_at_1m if spec.rssi_at_1m is not None else (adv_1m or self.default_1m)
        self.last[beacon_id] = (t, rssi - ref)

    def decide(self, t: float) -> str | None:
        fresh = [(p, b) for b, (when, p) in self.last.items() if t - when <= 2.0]
        if not fresh:
            return None
        return self.plan.beacons[max(fresh)[1]].room


def run_policies(
    floor: FloorPlan,
    path: Callable[[float], Point],
    duration: float,
    seed: int,
    settings: PresenceSettings,
    prepare: Callable[[FloorPlan], None] | None = None,
) -> tuple[Run, Run, dict[str, int]]:
    """Replay one simulated trace through the engine and the baseline."""
    if prepare is not None:
        prepare(floor)
    plan = floor.plan()
    clock = [0.0]
    engine = RoomEngine(plan, settings, clock=lambda: clock[0])
    baseline = Baseline(plan, settings.default_rssi_at_1m)
    ours, base = Run(), Run()

    def on_sighting(s):  # type: ignore[no-untyped-def]
        engine.observe(s)
        baseline.observe(s.t, s.beacon_id, s.rssi, s.advertised_rssi_at_1m)

    scanner = BeaconScanner(on_sighting, clock=lambda: clock[0])
    next_tick = 0.0

    def tick_until(t: float) -> None:
        nonlocal next_tick
        while next_tick <= t:
            clock[0] = next_tick
            switch = engine.evaluate(next_tick)
            if switch is not None:
                ours.changes.append((next_tick, switch.to_room))
            room = baseline.decide(next_tick)
            if room != base.changes[-1][1]:
                base.changes.append((next_tick, room))
            next_tick += settings.tick_s

    for record in simulate(floor, path, duration, seed=seed):
        tick_until(record.t)
        clock[0] = record.t
        device = BLEDevice(record.address, record.name, None)
        scanner.handle(device, record.advertisement())
    tick_until(duration)
    stats = scanner.state.parse
    counts = {
        "adverts": stats.adverts,
        "frames": stats.frames,
        "malformed": sum(stats.malformed.values()),
    }
    return ours, base, counts


def entries(
    floor: FloorPlan, path: Callable[[float], Point], duration: float
) -> list[tuple[float, float, str | None]]:
    """(start, end, room) stays along a path, by the ground truth of the floor plan."""
    stays: list[tuple[float, float, str | None]] = []
    t = 0.0
    current = floor.room_at(path(0.0))
    start = 0.0
    while t <= duration:
        room = floor.room_at(path(t))
        if room != current:
            stays.append((start, t, current))
            current, start = room, t
        t += 0.1
    stays.append((start, duration, current))
    return stays


def print_confusion(
    label: str, floor: FloorPlan, confusion: Counter[tuple[str | None, str | None]]
) -> None:
    """Rows = true room, columns = decided room ("-" = no room); seconds."""
    rooms = [*floor.rooms, None]
    print(f"\n[{label}] confusion (rows = true room, columns = decided; seconds)")
    header = "".join(f"{(r or NONE)[:15]:>16}" for r in rooms)
    print(f"{'':>16}{header}")
    for truth in floor.rooms:
        if not any(confusion[(truth, r)] for r in rooms):
            continue
        row = "".join(f"{confusion[(truth, r)]:>16}" for r in rooms)
        print(f"{truth[:15]:>16}{row}")


def walk(seeds: Iterable[int], settings: PresenceSettings) -> None:
    floor0 = bench_floor()
    path = walk_path()
    duration = path.duration  # type: ignore[attr-defined]
    stays = entries(floor0, path, duration)
    for name, pick in (("engine", 0), ("baseline", 1)):
        confusion: Counter[tuple[str | None, str | None]] = Counter()
        latencies: list[float] = []
        late: list[str] = []
        missed = 0
        transit_switches = 0
        switches = 0
        for seed in seeds:
            runs = run_policies(bench_floor(), path, duration, seed, settings)
            run: Run = runs[pick]  # type: ignore[assignment]
            switches += run.switches
            t = 0.0
            while t < duration:
                confusion[(floor0.room_at(path(t)), run.room_at(t))] += 1
                t += 1.0
            for start, end, room in stays:
                if end - start < 30.0:
                    # A transit (walking through the lab): count switches into it.
                    transit_switches += sum(
                        1 for w, r in run.changes if start <= w < end + 10 and r == room
                    )
                    continue
                if start == 0.0:
                    hit = next((w for w, r in run.changes if r == room), None)
                else:
                    hit = next((w for w, r in run.changes if w >= start - 5 and r == room), None)
                if hit is None or hit > end:
                    missed += 1
                    late.append(f"seed {seed} {room} at {start:.0f} s: missed")
                else:
                    latencies.append(max(0.0, hit - start))
                    if hit - start > 10.0:
                        late.append(f"seed {seed} {room} at {start:.0f} s: {hit - start:.1f} s")
        print_confusion(f"walk {name}", floor0, confusion)
        total = sum(confusion.values())
        correct = sum(confusion[(r, r)] for r in floor0.rooms)
        lat = sorted(latencies)
        print(
            f"  accuracy {correct / total:.3f} over {total} s; room entries {len(lat)} "
            f"(missed {missed}); switch latency after entering: median {statistics.median(lat):.1f} s, "
            f"p90 {lat[int(0.9 * (len(lat) - 1))]:.1f} s, max {lat[-1]:.1f} s, "
            f"{sum(x <= 10.0 for x in lat)}/{len(lat)} within the 10 s target; "
            "switches into the lab while walking through: "
            f"{transit_switches}; switches in total {switches}"
        )
        if late and name == "engine":
            print("  entries over 10 s: " + "; ".join(late))


def standing(
    label: str,
    where: Point,
    expect: set[str],
    seeds: Iterable[int],
    hours: float,
    settings: PresenceSettings,
    prepare: Callable[[FloorPlan], None] | None = None,
) -> None:
    duration = hours * 3600.0
    path = waypoints([(duration, where)])
    floor0 = bench_floor()
    truth = floor0.room_at(where)
    results = {}
    for seed in seeds:
        results[seed] = run_policies(bench_floor(), path, duration, seed, settings, prepare)
    for name, pick in (("engine", 0), ("baseline", 1)):
        flaps: list[float] = []
        right = total = 0
        confusion: Counter[tuple[str | None, str | None]] = Counter()
        for seed in seeds:
            run: Run = results[seed][pick]  # type: ignore[assignment]
            settle = 60.0
            after = [c for c in run.changes if c[0] > settle]
            flaps.append(len(after) / hours)
            t = settle
            while t < duration:
                decided = run.room_at(t)
                right += decided in expect
                confusion[(truth, decided)] += 1
                total += 1
                t += 1.0
        if name == "engine":
            print_confusion(f"{label} engine, after the first {settle:.0f} s", floor0, confusion)
        print(
            f"[{label}] {name}: flaps/hour mean {statistics.mean(flaps):.1f} "
            f"(per seed {', '.join(f'{f:.0f}' for f in flaps)}; target 0); "
            f"time in {'/'.join(sorted(expect))}: {right / total:.3f}"
        )


def dying(floor: FloorPlan) -> None:
    press = next(b for b in floor.beacons if b.beacon_id.endswith(":7:1"))
    press.battery_from_s = 300.0
    press.battery_db_per_min = 0.6
    press.dies_at_s = 1500.0


def person_in_front(floor: FloorPlan) -> None:
    """Someone works in front of the lab beacon: 14 dB for 40 s of every 2 minutes.

    Twice the simulator's longest random blockage, from the side of the room's only beacon: the
    hardest case for "a fall is a body, not a move".
    """
    lab = next(b for b in floor.beacons if b.room == "electronics-lab")
    lab.blocked = [(float(t), t + 40.0, 14.0) for t in range(90, 4 * 3600, 120)]


SCENARIOS = ("walk", "boundary", "equal", "body", "battery")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="room decision quality on simulated traces")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=1, help="e.g. 7 for held-out seeds")
    parser.add_argument(
        "--hours", type=float, default=1.0, help="simulated hours per standing scenario"
    )
    parser.add_argument(
        "--scenarios",
        default=",".join(SCENARIOS),
        help=f"comma-separated subset of {','.join(SCENARIOS)}",
    )
    args = parser.parse_args(argv)
    chosen = set(args.scenarios.split(","))
    if not chosen <= set(SCENARIOS):
        parser.error(f"unknown scenario(s): {', '.join(sorted(chosen - set(SCENARIOS)))}")
    settings = PresenceSettings()
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    started = time.perf_counter()
    print(
        f"settings: window {settings.window_s} s, tau {settings.smoothing_tau_s} s, "
        f"fall {settings.max_fall_db_s} dB/s, posterior {settings.switch_posterior} for "
        f"{settings.dwell_s} s, margin {settings.evidence_margin_db} dB "
        f"({settings.moving_margin_db} dB moving), hazard still {settings.hazard_still_per_s:g}/s, "
        f"moving {settings.hazard_moving_per_s:g}/s, motion window {settings.motion_window_s} s, "
        f"lasting fall {settings.lasting_fall_s} s x {settings.lasting_fall_db} dB "
        f"(rival +{settings.lasting_rise_db} dB), seeds {seeds.start}..{seeds.stop - 1}"
    )
    if "walk" in chosen:
        walk(seeds, settings)
    either = {"electronics-lab", "machine-shop"}
    if "boundary" in chosen:
        standing("boundary", (6.4, 2.5), either, seeds, args.hours, settings)
    if "equal" in chosen:
        standing("equal", (6.0, 2.5), either, seeds, args.hours, settings)
    if "body" in chosen:
        lab = {"electronics-lab"}
        standing("body", (10.0, 1.2), lab, seeds, args.hours, settings, person_in_front)
    if "battery" in chosen:
        standing("battery", (15.0, 2.5), {"assembly"}, seeds, args.hours, settings, dying)
    print(f"\n(run time {time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
