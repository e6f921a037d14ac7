"""LevelTrail: the sorted views agree with sorting the window afresh."""

from __future__ import annotations

import random
import statistics

from appliance.presence.trail import LevelTrail


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
