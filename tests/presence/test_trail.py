"""LevelTrail: the sorted views agree with sorting the window afresh."""

from __future__ import annotations

import random
import statistics

from appliance.presence.trail import LevelHistogram, LevelTrail


def test_sorted_views_match_a_fresh_sort_as_the_window_slides() -> None:
    rng = random.Random(5)
    trail = LevelTrail()
    window, lag = 120.0, 5.0
    naive: list[tuple[float, float]] = []
    t = 0.0
    for _ in range(2000):
        t += 0.5
        # Whole dB with repeats, like smoothed levels rounded by a receiver, plus odd values.
        level = float(rng.randint(-30, 0)) if rng.random() < 0.7 else rng.uniform(-30, 0)
        trail.append(t, level)
        naive.append((t, level))
        trail.prune(t - window)
        naive = [(a, b) for a, b in naive if a >= t - window]
        values = [b for _, b in naive]
        assert trail.sorted_levels() == sorted(values)
        assert trail.median() == statistics.median(values)
        assert trail.sorted_until(t - lag) == sorted(b for a, b in naive if a <= t - lag)
        assert len(trail) == len(naive) and trail[0] == naive[0] and trail[-1] == naive[-1]


def test_a_cutoff_moving_back_or_a_late_pair_rebuilds_the_view() -> None:
    trail = LevelTrail()
    for t, level in [(1.0, -10.0), (2.0, -5.0), (3.0, -20.0)]:
        trail.append(t, level)
    assert trail.sorted_until(2.5) == [-10.0, -5.0]
    assert trail.sorted_until(1.5) == [-10.0]  # earlier cutoff: not the cached view
    trail.append(2.2, -1.0)  # late: goes in by time
    assert list(trail) == [(1.0, -10.0), (2.0, -5.0), (2.2, -1.0), (3.0, -20.0)]
    assert trail.sorted_until(2.5) == [-10.0, -5.0, -1.0]
    trail.prune(2.1)
    assert list(trail) == [(2.2, -1.0), (3.0, -20.0)]
    assert trail.sorted_levels() == [-20.0, -1.0]
    assert trail.sorted_until(2.5) == [-1.0]


def test_histogram_quantiles_match_a_sorted_lookup_within_a_bin() -> None:
    rng = random.Random(6)
    values = [rng.gauss(-20.0, 4.0) for _ in range(5000)]
    histogram = LevelHistogram()
    for value in values:
        histogram.add(value)
    ordered = sorted(values)
    assert len(histogram) == 5000
    for q in (0.0, 0.25, 0.5, 0.75, 0.9, 1.0):
        exact = ordered[min(len(ordered) - 1, int(q * len(ordered)))]
        found = histogram.quantile(q)
        assert found is not None and abs(found - exact) <= 0.125 + 1e-9


def test_histogram_is_bounded_and_clears() -> None:
    histogram = LevelHistogram()
    assert histogram.quantile(0.5) is None
    for i in range(100_000):
        histogram.add(-500.0 if i % 2 else 500.0)  # absurd levels are clamped to the range
    assert histogram.quantile(0.0) == -120.0 and histogram.quantile(1.0) == 40.0
    assert len(histogram._counts) == 2  # two bins, however many levels
    histogram.clear()
    assert len(histogram) == 0 and histogram.quantile(0.9) is None
