"""Every decision of the room engine, tick by tick, over cached tuning recordings.

For proving that a change to the engine's code is no change to its behaviour: run before and
after, and diff the outputs line for line. Each line holds the tick time, the automatic and the
active room, the candidate, the rooms a move is seen towards and those held back on arrival, the
standstill and spot-reference start times, the full posterior (``repr``, every bit) and each room's
level; a switch adds its record (``RoomSwitch.to_json``).

    .venv/bin/python bench/studies/presence_state_dump.py --walk-seeds 1-3 --stand-seeds 1 \\
        --scenarios walk,boundary > before.txt

Uses ``presence_tune.py``'s cache (the same recordings, simulated once); held-out seeds are
refused as there.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

# The repository (appliance, training) and the benchmarks these studies build on.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from presence_rooms import STANDING, parse_seeds, refuse_held_out
from presence_tune import _value, record, replay

from appliance.presence.engine import RoomEngine
from appliance.presence.settings import PresenceSettings


def state_line(engine: RoomEngine, now: float) -> str:
    """One tick of the engine's view, exactly (floats by ``repr``)."""
    st = engine.state
    posterior = ",".join(f"{k}={v!r}" for k, v in engine.posterior.as_dict().items())
    levels = ",".join(f"{k}={v}" for k, v in sorted(st.proximity.items()))
    return (
        f"{now!r} auto={st.auto_room} room={st.room} cand={st.candidate}@{st.candidate_since}"
        f" moving={st.moving} arrival={st.arrival} still={st.still_since}"
        f" ref={st.reference_since} n={st.switches} post[{posterior}] lev[{levels}]"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walk-seeds", default="1", help="e.g. 1-6,13-72")
    parser.add_argument("--stand-seeds", default="1", help="e.g. 1-6")
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--scenarios", default="walk", help="walk and/or " + ",".join(STANDING))
    parser.add_argument("--set", action="append", default=[], help="setting=value override")
    args = parser.parse_args(argv)
    overrides = {k: _value(v) for k, _, v in (item.partition("=") for item in args.set)}
    walk_seeds = parse_seeds(args.walk_seeds)
    stand_seeds = parse_seeds(args.stand_seeds)
    refuse_held_out(parser, [*walk_seeds, *stand_seeds])
    base = PresenceSettings()
    settings = dataclasses.replace(base, **overrides)
    scenarios = args.scenarios.split(",")
    work = [("walk", s) for s in walk_seeds if "walk" in scenarios]
    work += [(n, s) for n in STANDING if n in scenarios for s in stand_seeds]
    for name, seed in work:
        print(f"== {name} {seed}")
        recording = record(name, seed, args.hours, base)
        prepare = None if name == "walk" else STANDING[name][2]
        seen = [0]

        def tick(engine: RoomEngine, now: float, seen: list[int] = seen) -> None:
            print(state_line(engine, now))
            if engine.state.switches > seen[0]:
                seen[0] = engine.state.switches
                print("switch " + json.dumps(engine.history[-1].to_json(), sort_keys=True))

        replay(recording, settings, prepare, on_tick=tick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
