"""Helpers shared by the benchmarks: data locations, percentiles, output folder."""

from __future__ import annotations

import statistics
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
OUT = REPO / "bench" / "out"
#: The answer model the benches switch on to measure the model path (the appliance ships without one).
CANDIDATE_MODEL = "qwen2.5-coder-0.5b-instruct-q4_k_m"


def out_dir(name: str) -> Path:
    """A folder under bench/out (gitignored) for caches and results."""
    path = OUT / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[max(0, min(98, round(q) - 1))]
