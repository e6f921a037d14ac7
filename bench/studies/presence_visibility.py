"""Are the late entries visible in the signal at all? The simulator's noise-free levels at each entry.

For every entry after a move on the walk (the entries ``presence_rooms.py`` times: stays of 30 s or
more that do not start the walk), this asks the simulator — not the engine — when the new room first
became the strongest room in the *noise-free* received level and stayed so, and sets that against
the engine's switch latency on the same trace.

**Definition** (decision 0006, session 10):

* *noise-free level* of a beacon: the simulator's received power without the multipath fading —
  path loss with the link's own exponent, the walls, the link's slow state (shadowing, which
  changes only as the appliance moves; the slow drift, sigma 1.5 dB over ~20 s; a person in the
  line of sight) and a dying battery's loss (``presence_sim.simulate``'s ``clean`` hook). What is
  left out is what a receiver averages away: the per-advertisement fading (sigma 2.5 dB and 4 %
  deep fades) and the random losses. It is sampled at every advertisement the beacon sends (heard
  or not) and held until the next; a beacon under the receiver's sensitivity (-97 dBm) there, or
  silent for over 2 s (dead), counts as absent;
* *per-beacon calibration*: each beacon's level minus its own RSSI at 1 m (dB re 1 m), the value
  the engine uses (the bench's rooms file names none, so the engine takes the advertised power,
  which the simulator sets to the beacon's true RSSI at 1 m);
* *a room's level*: the strongest of its beacons (``--combine max``, the default), or the
  engine's soft maximum (``--combine soft``: ``combine_db`` 3 dB, two equal beacons +2.1 dB);
* *strongest*: the room's level exceeds every other room's by more than ``margin`` dB (0 = simply
  the strongest; rooms with no beacon present do not compete);
* *visible at* ``v``: the first moment ``v`` from the door on (0.1-s steps) at which the room is
  strongest and stays so at every step of ``[v, v + hold]``, within the stay; the visibility
  delay is ``v - door``. *Within 10 s*: a delay of 10 s or less (the hold may end later: it only
  says the lead was no blip). *Never*: no such moment before the stay ends.

The engine's latency is ``presence_rooms.py``'s: its first switch into the room from 5 s before
the door, 0 if earlier, *missed* if none before the stay ends. The engine runs on the same trace
through the product's scanner (``presence_rooms.run_policies``).

**What "visible" does not say**: a person in front of the current room's beacon, standing still,
also makes another room the strongest in the noise-free level — the body is part of it. So
``--standing`` runs a decision that reads the noise-free levels (:func:`oracle_switches`: the
room strongest by ``margin`` for ``hold`` s, kept until another is) through ``presence_rooms.py``'s
standing scenarios and prints its switches per hour: every one is a flap. A (hold, margin) that
calls an entry visible and also flaps at the door does not separate that entry from a blockage.

    .venv/bin/python bench/studies/presence_visibility.py --seed-list 1-6
    .venv/bin/python bench/studies/presence_visibility.py --seed-list 1 --standing boundary,equal,body,battery \
        --stand-seeds 1-6,13-30
    .venv/bin/python bench/studies/presence_visibility.py --seed-list 1-6,13-72,100-199,1000-1099 --late
    .venv/bin/python bench/studies/presence_visibility.py --seed-list 800-859 --held-out-ok

Held-out seeds: 200-959 (the sets of sessions 3-10, each run once) need ``--held-out-ok`` — fine
for this analysis because nothing is tuned on it (900-959 was read here only after its one
benchmark run, at the end of session 10); 960-999 (kept for later sets) are refused outright.
"""

from __future__ import annotations

import argparse
import bisect
import dataclasses
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

# The repository (appliance, training) and the benchmarks these studies build on.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from presence_rooms import (
    STANDING,
    Run,
    entries,
    parse_overrides,
    parse_seeds,
    refuse_held_out,
)
from presence_sim import (
    SENSITIVITY_DBM,
    FloorPlan,
    Point,
    bench_floor,
    replay,
    simulate,
    walk_path,
    waypoints,
)

from appliance.presence.engine import RoomEngine
from appliance.presence.scanner import BeaconScanner
from appliance.presence.settings import PresenceSettings

#: Seeds never read here: those kept for later held-out sets.
REFUSED = range(960, 1000)
#: Step of the visibility scan (s); the entries' door times come in the same steps.
STEP_S = 0.1
#: A beacon whose last advertisement is older than this is gone (a dead battery).
GONE_S = 2.0
#: Stays shorter than this are transits (walking through the lab), as in ``presence_rooms.py``.
TRANSIT_S = 30.0


@dataclasses.dataclass
class Entry:
    """One entry after a move: where, when, what the engine did and when the signal showed it."""

    #: Walk seed.
    seed: int
    #: Room entered.
    room: str
    #: Door time and end of the stay (s).
    start: float
    end: float
    #: Engine latency (s), None when missed.
    latency: float | None
    #: Visibility delay (s) per (hold, margin), None when never visible during the stay.
    visible: dict[tuple[float, float], float | None]
    #: For an entry over 10 s or missed: what held the switch back in its first 10 s.
    why: str = ""


@dataclasses.dataclass(frozen=True)
class Tick:
    """The engine's view after one evaluation (what :func:`held_back` reads)."""

    #: Time (s).
    t: float
    #: Room the beacons point to.
    auto_room: str | None
    #: Rooms a move is seen towards, and those of them held back on arrival.
    moving: tuple[str | None, ...]
    arrival: tuple[str, ...]
    #: Since when no sign of a move was seen (None while one is).
    still_since: float | None
    #: Each heard room's smoothed level (dB re 1 m).
    levels: dict[str, float]


def clean_levels(
    floor: FloorPlan, path: Callable[[float], Point], duration: float, seed: int
) -> dict[str, tuple[list[float], list[float]]]:
    """Per beacon: the times of its advertisements and its noise-free RSSI (dBm) at each."""
    series: dict[str, tuple[list[float], list[float]]] = {
        b.beacon_id: ([], []) for b in floor.beacons
    }

    def note(beacon: str, t: float, level: float) -> None:
        times, values = series[beacon]
        times.append(t)
        values.append(level)

    # The records are not needed, only the calls: run the generator to its end.
    for _ in simulate(floor, path, duration, seed=seed, clean=note):
        pass
    return series


def room_level_grid(
    floor: FloorPlan,
    series: dict[str, tuple[list[float], list[float]]],
    duration: float,
    combine: str,
    soft_db: float,
) -> dict[str, list[float]]:
    """Each room's noise-free level (dB re 1 m) at every step; -inf while none of it is present."""
    rooms = {b.room for b in floor.beacons}
    steps = math.ceil(duration / STEP_S) + 1
    per_beacon: dict[str, list[float]] = {}
    for beacon in floor.beacons:
        times, values = series[beacon.beacon_id]
        grid = []
        for k in range(steps):
            t = k * STEP_S
            i = bisect.bisect_right(times, t) - 1
            if i < 0 or t - times[i] > GONE_S or values[i] < SENSITIVITY_DBM:
                grid.append(-math.inf)
            else:
                grid.append(values[i] - beacon.rssi_at_1m)
        per_beacon[beacon.beacon_id] = grid
    levels: dict[str, list[float]] = {}
    for room in rooms:
        own = [per_beacon[b.beacon_id] for b in floor.beacons if b.room == room]
        column = []
        for k in range(steps):
            present = [g[k] for g in own if g[k] > -math.inf]
            if not present:
                column.append(-math.inf)
            elif combine == "max" or len(present) == 1:
                column.append(max(present))
            else:
                top = max(present)
                spread = sum(math.exp((p - top) / soft_db) for p in present)
                column.append(top + soft_db * math.log(spread))
        levels[room] = column
    return levels


def visible_from(
    levels: dict[str, list[float]], room: str, start: float, end: float, hold: float, margin: float
) -> float | None:
    """Seconds from the door until ``room`` is strongest by ``margin`` dB for ``hold`` s."""
    first = round(start / STEP_S)
    last = min(round(end / STEP_S), len(levels[room]) - 1)
    span = round(hold / STEP_S)
    others = [v for k, v in levels.items() if k != room]
    strongest = [
        levels[room][k] > -math.inf and all(levels[room][k] - o[k] > margin for o in others)
        for k in range(first, last + 1)
    ]
    run = 0
    # Scan backwards: run = how many steps from here on the room stays strongest.
    ahead = [0] * len(strongest)
    for i in range(len(strongest) - 1, -1, -1):
        run = run + 1 if strongest[i] else 0
        ahead[i] = run
    for i, length in enumerate(ahead):
        if length > span:
            return i * STEP_S
    return None


def strongest_at(levels: dict[str, list[float]], k: int, margin: float) -> str | None:
    """The room strongest by more than ``margin`` dB at step ``k`` (None: none is)."""
    present = sorted(((v[k], room) for room, v in levels.items() if v[k] > -math.inf), reverse=True)
    if not present:
        return None
    if len(present) == 1 or present[0][0] - present[1][0] > margin:
        return present[0][1]
    return None


def oracle_switches(levels: dict[str, list[float]], hold: float, margin: float) -> int:
    """Switches of a decision that reads the noise-free levels: a room strongest for ``hold`` s.

    It takes the room that is strongest (by ``margin``) at every step of ``hold`` seconds, and
    keeps it until another room is; counted after its first decision. Standing still, every such
    switch is a flap: what the noise-free signal itself does at that spot.
    """
    span = round(hold / STEP_S)
    decided: str | None = None
    candidate: str | None = None
    run = 0
    switches = 0
    for k in range(len(next(iter(levels.values())))):
        room = strongest_at(levels, k, margin)
        run = run + 1 if room is not None and room == candidate else (1 if room else 0)
        candidate = room
        if room is not None and room != decided and run > span:
            switches += decided is not None
            decided = room
    return switches


def standing(
    name: str,
    seeds: list[int],
    hours: float,
    holds: list[float],
    margins: list[float],
    combine: str,
) -> None:
    """Flaps per hour of the noise-free oracle in one standing scenario (``presence_rooms.py``'s)."""
    where, _acceptable, prepare = STANDING[name]
    duration = hours * 3600.0
    counts = {(h, m): 0 for h in holds for m in margins}
    soft_db = PresenceSettings().combine_db
    for seed in seeds:
        floor = bench_floor()
        if prepare is not None:
            prepare(floor)
        series = clean_levels(floor, waypoints([(duration, where)]), duration, seed)
        levels = room_level_grid(floor, series, duration, combine, soft_db)
        for key in counts:
            counts[key] += oracle_switches(levels, *key)
    total = hours * len(seeds)
    cells = " ".join(f"{h:g}/{m:g}:{n / total:.1f}" for (h, m), n in counts.items())
    print(f"[{name}] noise-free oracle switches per hour ({total:g} h; hold s/margin dB): {cells}")


def engine_run(
    floor: FloorPlan,
    path: Callable[[float], Point],
    duration: float,
    seed: int,
    settings: PresenceSettings,
) -> tuple[Run, list[Tick]]:
    """The engine on one simulated walk through the product's scanner, as ``run_policies``."""
    plan = floor.plan()
    clock = [0.0]
    engine = RoomEngine(plan, settings, clock=lambda: clock[0])
    scanner = BeaconScanner(engine.observe, clock=lambda: clock[0])
    run, ticks = Run(), []

    def on_tick(now: float) -> None:
        switch = engine.evaluate(now)
        if switch is not None:
            run.changes.append((now, switch.to_room))
        st = engine.state
        ticks.append(
            Tick(
                now,
                st.auto_room,
                tuple(st.moving),
                tuple(st.arrival),
                st.still_since,
                dict(st.proximity),
            )
        )

    replay(
        simulate(floor, path, duration, seed=seed),
        scanner,
        clock,
        settings.tick_s,
        duration,
        on_tick,
    )
    return run, ticks


def held_back(ticks: list[Tick], room: str, start: float) -> str:
    """Which rule held the switch into ``room`` back in the first 10 s after its door.

    In order: the engine was in ``room`` already before the door (it left the room before for
    it: the entry makes no switch); no sign of a move towards it in those 10 s (the hazard stayed
    at the standstill floor; "+ usual level" when the standing-still rule also counted the
    current room at its usual level, having seen no move for half the motion window); a move
    seen but held back on arrival every time; a move seen but the room never led the current one
    in the smoothed levels while it was; a move seen while leading, but a third room read
    stronger still for at least half of those moments (it took the evidence, or the switch);
    else a move seen while leading, and the evidence did not reach the switch threshold in time.
    """
    window = [k for k in ticks if start <= k.t <= start + 10.0]
    if not window:
        return "no ticks"
    if window[0].auto_room == room:
        return "already in it"
    moving = [k for k in window if room in k.moving]
    if not moving:
        usual = any(k.still_since is not None and k.t - k.still_since >= 60.0 for k in window)
        return "no move sign" + (" + usual level" if usual else "")
    free = [k for k in moving if room not in k.arrival]
    if not free:
        return "arrival hold"

    def leads(k: Tick) -> bool:
        mine = k.levels.get(k.auto_room or "", -math.inf)
        return k.auto_room is not None and k.levels.get(room, -math.inf) > mine

    leading = [k for k in free if leads(k)]
    if not leading:
        return "move seen, not leading"
    beaten = [
        k
        for k in leading
        if any(v > k.levels[room] for r, v in k.levels.items() if r not in (room, k.auto_room))
    ]
    if 2 * len(beaten) >= len(leading):
        return "move seen and leading, a third room stronger"
    return "move seen and leading, evidence too slow"


def engine_latency(run: Run, room: str, start: float, end: float) -> float | None:
    """``presence_rooms.score_walk``'s latency of one entry (None = missed)."""
    hit = next((w for w, r in run.changes if w >= start - 5 and r == room), None)
    if hit is None or hit > end:
        return None
    return max(0.0, hit - start)


def measure(
    seed: int,
    settings: PresenceSettings,
    holds: list[float],
    margins: list[float],
    combine: str,
) -> list[Entry]:
    """Every entry after a move of one walk, with the engine's latency and the visibility delays."""
    path = walk_path()
    duration = path.duration
    floor = bench_floor()
    run, ticks = engine_run(floor, path, duration, seed, settings)
    series = clean_levels(bench_floor(), path, duration, seed)
    levels = room_level_grid(bench_floor(), series, duration, combine, settings.combine_db)
    out = []
    for start, end, room in entries(bench_floor(), path, duration):
        if room is None or start == 0.0 or end - start < TRANSIT_S:
            continue
        visible = {
            (h, m): visible_from(levels, room, start, end, h, m) for h in holds for m in margins
        }
        latency = engine_latency(run, room, start, end)
        why = held_back(ticks, room, start) if latency is None or latency > 10.0 else ""
        out.append(Entry(seed, room, start, end, latency, visible, why))
    return out


def late(entry: Entry) -> bool:
    """Over 10 s or missed, by the engine."""
    return entry.latency is None or entry.latency > 10.0


def report(found: list[Entry], hold: float, margin: float) -> None:
    """The table and the two figures for one (hold, margin)."""
    key = (hold, margin)
    classes = {
        "visible within 10 s": [e for e in found if (v := e.visible[key]) is not None and v <= 10],
        "visible later": [e for e in found if (v := e.visible[key]) is not None and v > 10],
        "never visible in the stay": [e for e in found if e.visible[key] is None],
    }
    print(f"\n[hold {hold:g} s, margin {margin:g} dB]")
    print(f"{'':>28} {'engine <=10 s':>14} {'over 10 s':>10} {'missed':>7} {'total':>6}")
    for name, group in classes.items():
        fast = sum(1 for e in group if not late(e))
        slow = sum(1 for e in group if e.latency is not None and e.latency > 10.0)
        missed = sum(1 for e in group if e.latency is None)
        print(f"{name:>28} {fast:>14} {slow:>10} {missed:>7} {len(group):>6}")
    late_all = [e for e in found if late(e)]
    hidden = [e for e in late_all if e not in classes["visible within 10 s"]]
    seen = classes["visible within 10 s"]
    rate = sum(1 for e in seen if not late(e)) / len(seen) if seen else math.nan
    print(
        f"entries over 10 s or missed: {len(late_all)}; not visible within 10 s: {len(hidden)}; "
        f"visible within 10 s and still late: {len(late_all) - len(hidden)}"
    )
    reasons = Counter(e.why for e in late_all if e not in hidden)
    print(
        "  what held back the visible ones (first 10 s): "
        + "; ".join(f"{why} {n}" for why, n in reasons.most_common())
    )
    print(
        f"engine within 10 s over the entries visible within 10 s: "
        f"{sum(1 for e in seen if not late(e))}/{len(seen)} ({rate:.3f}); over all entries: "
        f"{sum(1 for e in found if not late(e))}/{len(found)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed-list", default="1-6", help="walk seeds, e.g. 1-6,13-72")
    parser.add_argument("--hold", default="2,5,10", help="seconds the lead must hold (list)")
    parser.add_argument("--margin", default="0,3,6", help="dB over every other room (list)")
    parser.add_argument("--combine", choices=["max", "soft"], default="max")
    parser.add_argument("--set", action="append", default=[], help="engine setting=value")
    parser.add_argument(
        "--standing",
        default="",
        help="also: the noise-free oracle's switches per hour in these standing scenarios",
    )
    parser.add_argument("--stand-seeds", default="1-6", help="seeds of the standing scenarios")
    parser.add_argument("--hours", type=float, default=1.0, help="hours per standing seed")
    parser.add_argument("--late", action="store_true", help="list every entry over 10 s or missed")
    parser.add_argument(
        "--held-out-ok",
        action="store_true",
        help="allow seeds of the used held-out sets 200-959 (nothing is tuned on this analysis)",
    )
    args = parser.parse_args(argv)
    seeds = parse_seeds(args.seed_list)
    stand_seeds = parse_seeds(args.stand_seeds) if args.standing else []
    if any(s in REFUSED for s in [*seeds, *stand_seeds]):
        parser.error(f"seeds {REFUSED.start}-{REFUSED.stop - 1} are held out for later sessions")
    if not args.held_out_ok:
        refuse_held_out(
            parser,
            [*seeds, *stand_seeds],
            ": used held-out sets, pass --held-out-ok for this analysis",
        )
    holds = [float(x) for x in args.hold.split(",")]
    margins = [float(x) for x in args.margin.split(",")]
    settings = dataclasses.replace(PresenceSettings(), **parse_overrides(args.set))
    started = time.perf_counter()
    found: list[Entry] = []
    for seed in seeds:
        found += measure(seed, settings, holds, margins, args.combine)
    print(
        f"{len(seeds)} walks, {len(found)} entries after a move; combine {args.combine}; "
        f"engine overrides {args.set or 'none'}"
    )
    for hold in holds:
        for margin in margins:
            report(found, hold, margin)
    if args.late:
        print("\nentries over 10 s or missed (visibility delay per hold/margin; '-' = never):")
        for e in found:
            if late(e):
                cells = " ".join(
                    f"{h:g}/{m:g}:{'-' if v is None else f'{v:.1f}'}"
                    for (h, m), v in e.visible.items()
                )
                what = "missed" if e.latency is None else f"{e.latency:.1f} s"
                print(
                    f"  seed {e.seed} {e.room} at {e.start:.0f} s: {what} [{e.why}]; "
                    f"visible {cells}"
                )
    for name in filter(None, args.standing.split(",")):
        standing(name, stand_seeds, args.hours, holds, margins, args.combine)
    print(f"(run time {time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
