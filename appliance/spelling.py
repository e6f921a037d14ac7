"""Comparing spellings: how far apart two are (the Levenshtein distance, with an early stop), and a
word folded to compare ("Maßstab" and "massstab" alike).

Shared by the voice front end (a wake phrase heard with one letter off), the index (a drawing's
name heard nearly right) and vision (German cue words read without umlauts); it sits below them
and imports nothing of the appliance.
"""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """Lower case without accents (``ß`` as ``ss``), for comparing spellings."""
    decomposed = unicodedata.normalize("NFKD", text.replace("ß", "ss").replace("ẞ", "ss"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


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
