"""Cold starts standing still: is the first room right, and is a wrong one ever corrected?

The appliance is switched on where it stands (the standing scenarios of ``presence_rooms.py``) and
left there. Its first room is decided on ~10 s of readings; minutes later far more evidence says
which room is strongest on average. For each seed this replays the cached readings of
``presence_tune.py`` (the product's scanner and filters over the simulator, cached once) through
two engines in the same process — the settings as they are, and the same with ``--set``
overrides — for the first ``--minutes`` of each hour, and counts per engine: first rooms outside
the scenario's acceptable rooms (or none decided), of them never corrected within the span, the
time in an unacceptable state after the first minute ("no room" included), and every switch
after the first decision, into an acceptable room or out of one, with its reason:

    .venv/bin/python bench/studies/presence_first_room.py --seed-list 1000-1199 --scenarios boundary,equal \\
        --minutes 20 --levels --set startup_move_db=0

With ``--levels`` it also prints, for each wrong first room, what every state's score was on
average over the rest of the span: whether minutes at the spot say another room is stronger.

Held-out seeds (200-999) are refused, as by the tuning replay.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

# The repository (appliance, training) and the benchmarks these studies build on.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from presence_rooms import NONE, SETTLE_S, STANDING, parse_overrides, parse_seeds, refuse_held_out
from presence_tune import record, replay

from appliance.presence.engine import RoomEngine, RoomSwitch
from appliance.presence.settings import PresenceSettings
from appliance.presence.trail import sorted_quantile

#: (scenario, seed, minutes, hours of the cached recording, overrides, with levels) of one job.
Job = tuple[str, int, float, float, dict[str, float], bool]


@dataclasses.dataclass
class Outcome:
    """One engine's cold start at one seed."""

    #: Seed.
    seed: int
    #: (time, room, why) of every switch.
    switches: list[tuple[float, str | None, str]]
    #: Seconds in an unacceptable state (or "no room") after the first minute.
    wrong_s: float
    #: Whether a move seen during start-up ended it early (revision 8's ``startup_move_db``).
    startup_move: bool = False
    #: Per state ("-" = no room): its median and upper-quartile score (dB over its "no room"
    #: level, as the engine's evidence uses it) after the first minute, when asked for.
    levels: dict[str, tuple[float, float]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Tally:
    """One engine's figures over the seeds of one scenario."""

    #: First room decided (s) per seed that decided one.
    first_s: list[float] = dataclasses.field(default_factory=list)
    #: Seeds whose first room is unacceptable, or that decided none.
    wrong_first: list[int] = dataclasses.field(default_factory=list)
    #: Of them, seeds still in an unacceptable state at the end of the span.
    never_corrected: list[int] = dataclasses.field(default_factory=list)
    #: Seconds in an unacceptable state after the first minute, over all seeds.
    wrong_s: float = 0.0
    #: Seconds after the first minute, over all seeds.
    total_s: float = 0.0
    #: Switches after the first decision: (seed, time, room, reason), into an acceptable room.
    into_ok: list[tuple[int, float, str | None, str]] = dataclasses.field(default_factory=list)
    #: The same, out of an acceptable room (or into "no room").
    out_of_ok: list[tuple[int, float, str | None, str]] = dataclasses.field(default_factory=list)
    #: Seeds where a move seen during start-up ended it early (nothing moved: a false sign).
    startup_moves: list[int] = dataclasses.field(default_factory=list)


def _why(switch: RoomSwitch) -> str:
    """The parenthesis at the end of a switch's detail: "moving", "held lead", "lasting fall"..."""
    detail = switch.detail
    return detail[detail.rfind("(") + 1 : -1] if detail.endswith(")") else switch.reason


def outcome(
    name: str,
    seed: int,
    minutes: float,
    hours: float,
    settings: PresenceSettings,
    levels: bool = False,
) -> Outcome:
    """Replay one cached standing recording for its first ``minutes`` with ``settings``."""
    recording = record(name, seed, hours, PresenceSettings())
    span = minutes * 60.0
    collected: list[RoomSwitch] = []
    engines: list[RoomEngine] = []
    prepare = None if name == "walk" else STANDING[name][2]
    scores: dict[str, list[float]] = {}

    def count(engine: RoomEngine, now: float) -> None:
        if now < SETTLE_S:
            return
        scores.setdefault(NONE, []).append(0.0)
        for room in engine.plan.rooms:
            level = engine.state.proximity.get(room)
            value = -settings.silent_db if level is None else level - engine.evidence.none_db(room)
            scores.setdefault(room, []).append(value)

    run = replay(
        recording,
        settings,
        prepare,
        until=span,
        switches=collected,
        engines=engines,
        on_tick=count if levels else None,
    )
    expect = acceptable(name)
    wrong = 0.0
    for i, (when, room) in enumerate(run.changes):
        until = run.changes[i + 1][0] if i + 1 < len(run.changes) else span
        start, end = max(when, SETTLE_S), min(until, span)
        if end > start and room not in expect:
            wrong += end - start
    switches = [(s.at, s.to_room, _why(s)) for s in collected]
    typical = {
        key: (sorted_quantile(sorted(v), 0.5), sorted_quantile(sorted(v), 0.75))
        for key, v in scores.items()
    }
    return Outcome(seed, switches, wrong, engines[0].startup.over, typical)


def acceptable(name: str) -> set[str]:
    """The rooms right in a scenario; a walk starts at the shop's bench (its first 90 s)."""
    return {"machine-shop"} if name == "walk" else STANDING[name][1]


def _job(job: Job) -> tuple[str, int, Outcome, Outcome]:
    name, seed, minutes, hours, overrides, levels = job
    base = PresenceSettings()
    other = dataclasses.replace(base, **overrides)  # type: ignore[arg-type]
    return (
        name,
        seed,
        outcome(name, seed, minutes, hours, base, levels),
        outcome(name, seed, minutes, hours, other),
    )


def tally(name: str, outcomes: list[Outcome], minutes: float) -> Tally:
    """Figures of one engine over one scenario's seeds."""
    expect = acceptable(name)
    out = Tally()
    for result in outcomes:
        if result.startup_move:
            out.startup_moves.append(result.seed)
        out.wrong_s += result.wrong_s
        out.total_s += minutes * 60.0 - SETTLE_S
        decided = [(t, room, why) for t, room, why in result.switches if room is not None]
        if not decided:
            out.wrong_first.append(result.seed)
            out.never_corrected.append(result.seed)
            continue
        first = decided[0][0]
        out.first_s.append(first)
        if decided[0][1] not in expect:
            out.wrong_first.append(result.seed)
            if result.switches[-1][1] not in expect:
                out.never_corrected.append(result.seed)
        for t, room, why in result.switches:
            if t <= first:
                continue
            target = out.into_ok if room in expect else out.out_of_ok
            target.append((result.seed, t, room, why))
    return out


def show(name: str, label: str, figures: Tally) -> None:
    """One engine's line for one scenario, then its switches."""
    first = figures.first_s
    decided = (
        f"median {statistics.median(first):.1f} s, max {max(first):.1f} s" if first else "never"
    )
    share = figures.wrong_s / figures.total_s if figures.total_s else 0.0
    print(
        f"[{name}] {label}: first room decided {decided}; wrong first room (or none) "
        f"{len(figures.wrong_first)} {figures.wrong_first}, never corrected "
        f"{len(figures.never_corrected)} {figures.never_corrected}; time in an unacceptable "
        f"state after {SETTLE_S:.0f} s: {figures.wrong_s:.0f} s ({share:.4f}); switches after "
        f"the first decision: {len(figures.into_ok)} into an acceptable room, "
        f"{len(figures.out_of_ok)} out of one; start-up ended by a move sign in "
        f"{len(figures.startup_moves)} {figures.startup_moves}"
    )
    for kind, rows in (("into", figures.into_ok), ("out of", figures.out_of_ok)):
        for seed, t, room, why in rows:
            print(f"    {kind} acceptable: seed {seed} at {t:.1f} s to {room or NONE} ({why})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed-list", default="1000-1019", help="tuning seeds, e.g. 1000-1199")
    parser.add_argument("--scenarios", default="boundary,equal")
    parser.add_argument("--minutes", type=float, default=20.0, help="span replayed per seed")
    parser.add_argument("--hours", type=float, default=1.0, help="length of the cached recording")
    parser.add_argument("--set", action="append", default=[], help="setting=value override")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--levels",
        action="store_true",
        help="per seed with a wrong first room: each state's median / upper-quartile score "
        "after the first minute (the settings' engine)",
    )
    args = parser.parse_args(argv)
    seeds = parse_seeds(args.seed_list)
    refuse_held_out(parser, seeds)
    if args.minutes * 60.0 > args.hours * 3600.0 + 1.0:
        parser.error("--minutes longer than the recording (--hours)")
    overrides = parse_overrides(args.set)
    names = args.scenarios.split(",")
    jobs: list[Job] = [
        (n, s, args.minutes, args.hours, overrides, args.levels) for n in names for s in seeds
    ]
    started = time.perf_counter()
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(_job, jobs, chunksize=1)
    else:
        results = [_job(job) for job in jobs]
    print(f"{len(seeds)} seeds, first {args.minutes:g} min; overrides {overrides or 'none'}")
    for name in names:
        mine = [r for r in results if r[0] == name]
        figures = tally(name, [r[2] for r in mine], args.minutes)
        show(name, "settings", figures)
        show(name, "overrides", tally(name, [r[3] for r in mine], args.minutes))
        for _name, seed, result, _other in mine:
            if args.levels and seed in figures.wrong_first:
                typical = ", ".join(
                    f"{key} {median:+.1f}/{upper:+.1f}"
                    for key, (median, upper) in result.levels.items()
                )
                print(
                    f"    seed {seed} scores after {SETTLE_S:.0f} s (median/upper quartile): {typical}"
                )
    print(f"(run time {time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
