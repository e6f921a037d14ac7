"""How far apart two spellings are: the Levenshtein distance, with an early stop.

Shared by the voice front end (a wake phrase heard with one letter off) and the index (a drawing's
name heard nearly right); it sits below both and imports nothing of the appliance.
"""

from __future__ import annotations


def edit_distance(a: str, b: str, limit: int | None = None) -> int:
    """Levenshtein distance of ``a`` and ``b``; with ``limit``, ``limit + 1`` as soon as the
    distance must exceed it (the caller only asks whether it is within the limit)."""
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if limit is not None and min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]
