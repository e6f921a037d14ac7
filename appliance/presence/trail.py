"""A short history of one room's (or beacon's) level, with its values kept sorted.

The room engine asks for quantiles of the last two minutes of every room's level at every
evaluation (twice a second per room). Keeping the values sorted as they enter and leave the window
turns each of those into a lookup instead of a sort of ~240 values.
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from collections import deque
from collections.abc import Iterator, Sequence


class LevelTrail:
    """(time, level) pairs, oldest first, with sorted views of the levels."""

    def __init__(self) -> None:
        self._items: deque[tuple[float, float]] = deque()
        self._sorted: list[float] = []
        #: Sorted levels of the oldest ``_older_count`` items (those at or before ``_cutoff``).
        self._older: list[float] = []
        self._older_count = 0
        self._cutoff = -math.inf

    def append(self, t: float, level: float) -> None:
        """Add a pair; one older than the newest is put in its place by time."""
        items = self._items
        if items and t < items[-1][0]:
            self._reset_older()
            index = len(items)
            while index and items[index - 1][0] > t:
                index -= 1
            items.insert(index, (t, level))
        else:
            items.append((t, level))
        insort(self._sorted, level)

    def prune(self, horizon: float) -> None:
        """Drop the pairs older than ``horizon``."""
        items = self._items
        while items and items[0][0] < horizon:
            _, level = items.popleft()
            _remove(self._sorted, level)
            if self._older_count:
                _remove(self._older, level)
                self._older_count -= 1

    def sorted_levels(self) -> list[float]:
        """Every level in the trail, sorted (do not modify)."""
        return self._sorted

    def sorted_until(self, cutoff: float) -> list[float]:
        """The levels of the pairs at or before ``cutoff``, sorted (do not modify)."""
        if cutoff < self._cutoff:
            self._reset_older()
        self._cutoff = cutoff
        items = self._items
        while self._older_count < len(items) and items[self._older_count][0] <= cutoff:
            insort(self._older, items[self._older_count][1])
            self._older_count += 1
        return self._older

    def median(self) -> float:
        """Median of every level in the trail (the trail must not be empty)."""
        values = self._sorted
        n = len(values)
        half = n // 2
        return values[half] if n % 2 else (values[half - 1] + values[half]) / 2

    def _reset_older(self) -> None:
        self._older = []
        self._older_count = 0
        self._cutoff = -math.inf

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __iter__(self) -> Iterator[tuple[float, float]]:
        return iter(self._items)

    def __getitem__(self, index: int) -> tuple[float, float]:
        return self._items[index]


def sorted_quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of already sorted, non-empty ``values``: the value at index ``q * n``
    (the last one for ``q`` near 1), the one rule every rise, fall and reference here uses."""
    return values[min(len(values) - 1, int(q * len(values)))]


def _remove(values: list[float], value: float) -> None:
    index = bisect_left(values, value)
    if index < len(values) and values[index] == value:
        del values[index]
    else:  # not there (cannot happen when used as above); keep the views honest
        values.remove(value)


class LevelHistogram:
    """Levels (dB) counted in bins of ``step_db``: quantiles of a long span in bounded memory.

    A standstill can last hours; keeping every level for its quantiles would grow without bound,
    while bins of a quarter dB over the range levels can take (clamped to ``low_db``..``high_db``)
    hold at most a few hundred counters and are finer than the whole dB RSSI comes in.
    """

    def __init__(self, step_db: float = 0.25, low_db: float = -120.0, high_db: float = 40.0):
        self._step = step_db
        self._low = low_db
        self._high = high_db
        self._counts: dict[int, int] = {}
        self._total = 0

    def add(self, level: float) -> None:
        """Count one level."""
        clamped = min(self._high, max(self._low, level))
        key = round(clamped / self._step)
        self._counts[key] = self._counts.get(key, 0) + 1
        self._total += 1

    def quantile(self, q: float) -> float | None:
        """The level at quantile ``q`` (0..1), as ``LevelTrail`` lookups pick it; None if empty."""
        if not self._total:
            return None
        rank = min(self._total - 1, int(q * self._total))
        seen = 0
        for key in sorted(self._counts):
            seen += self._counts[key]
            if seen > rank:
                return key * self._step
        return max(self._counts) * self._step  # not reached: the counts add up to the total

    def clear(self) -> None:
        """Forget every level."""
        self._counts.clear()
        self._total = 0

    def __len__(self) -> int:
        return self._total
