"""Carried off during start-up: switched on at the shop's bench and moved within the first minute.

None of the other benchmarks' walks moves in its first minute, when revision 7's start-up rules
(no room rise before 50 s of its levels, a 10-s dwell, a settled first decision) hold the first
room. Here the appliance is switched on at the machine shop's bench, stays there ``--lead``
seconds (several values, each seed walks each), is carried to the electronics lab's bench for
``--stay`` seconds, then to the assembly area's for the same time. Each simulated trace is
replayed through the product's scanner and two engines in the same process — the settings as
they are, and the same with ``--set`` overrides — and per engine it prints the entries after the
move (lab, assembly) within 10 s, missed, the latency median / p90 / max, the latency of the lab
entry per lead time, and the switches in total:

    .venv/bin/python bench/studies/presence_early_move.py --seed-list 1000-1019 --set early_move_db=0
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

# The repository (appliance, training) and the benchmarks these studies build on.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from presence_long_stay import comparison, replay, score, summary
from presence_rooms import entries
from presence_sim import bench_floor, early_move_path


def spans(lead: float, stay: float) -> list[tuple[float, float, str]]:
    """(entered at, left at, room) of the rooms entered after the start, from the route."""
    route = early_move_path(lead, stay)
    found = entries(bench_floor(), route, route.duration)  # type: ignore[attr-defined]
    return [(start, end, room or "-") for start, end, room in found[1:] if end - start >= 30.0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed-list", default="1000-1009", help="tuning seeds, e.g. 1000-1019")
    parser.add_argument("--lead", default="15,25,35,45", help="seconds at the shop before moving")
    parser.add_argument("--stay", type=float, default=90.0, help="seconds at each later bench")
    parser.add_argument("--set", action="append", default=[], help="setting=value override")
    args = parser.parse_args(argv)
    seeds, overrides, base, other = comparison(parser, args)
    leads = [float(x) for x in args.lead.split(",")]
    started = time.perf_counter()
    latencies: list[list[float]] = [[], []]
    lab: list[dict[float, list[float]]] = [{x: [] for x in leads}, {x: [] for x in leads}]
    counts = [0, 0]
    for seed in seeds:
        for lead in leads:
            route = early_move_path(lead, args.stay)
            duration = route.duration  # type: ignore[attr-defined]
            want = spans(lead, args.stay)
            results = replay(bench_floor(), route, duration, seed, [base, other])
            for i, switches in enumerate(results):
                got = score(switches, want)
                latencies[i] += got
                lab[i][lead].append(got[0])
                counts[i] += len(switches)
                if any(x > 10.0 for x in got):
                    shown = ", ".join(f"{t:.1f} {room}" for t, room in switches)
                    name = "settings" if i == 0 else "overrides"
                    print(f"  seed {seed} lead {lead:g} {name}: {shown}")
    print(
        f"switched on at the shop, carried to the lab after {args.lead} s, {args.stay:g} s "
        f"there and at assembly; seeds {args.seed_list}"
    )
    for i, name in enumerate(("settings", f"overrides {overrides or 'none'}")):
        print(summary(name, latencies[i], counts[i]))
        per_lead = "; ".join(
            f"lead {lead:g} s: median {_median(values):.1f} s, max {max(values):.1f} s"
            for lead, values in lab[i].items()
        )
        print(f"    lab entry latency by lead: {per_lead}")
    print(f"(run time {time.perf_counter() - started:.1f} s)")
    return 0


def _median(values: list[float]) -> float:
    finite = [v for v in values if v != math.inf]
    return statistics.median(finite) if finite else math.inf


if __name__ == "__main__":
    raise SystemExit(main())
