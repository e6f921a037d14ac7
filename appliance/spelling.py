"""Comparing spellings: how far apart two are (the Levenshtein distance, with an early stop), a
word folded to compare ("Maßstab" and "massstab" alike), and a word's sound key (its consonants as
English spelling says them: "kedjespannare" and "catcher spinner" alike).

Shared by the voice front end (a wake phrase heard with one letter off, a drawing's name heard
again by ear), the index (a drawing's name heard nearly right) and vision (German cue words read
without umlauts); it sits below them and imports nothing of the appliance.
"""

from __future__ import annotations

import functools
import re
import unicodedata

#: Spellings of one sound, in the order they are read (the longer spelling first).
_SPELLINGS = [
    (re.compile(p), r)
    for p, r in (
        (r"tch|dg(?=[eiy])|dj", "j"),
        (r"sch|sh", "s"),
        (r"ph", "f"),
        (r"ck|ch|qu?", "k"),
        (r"c(?=[eiy])", "s"),
        (r"c", "k"),
        (r"x", "ks"),
        (r"th", "t"),
    )
]
#: Each consonant as the class of sounds it stands for: voiced and unvoiced alike, the nasals
#: alike; vowels, "h", "w" and "y" have no key.
_SOUND_CLASS = str.maketrans("bdgvzmjfkstplnr", "ptkfsnjfkstplnr", "aeiouyhw")
_REPEATED = re.compile(r"(.)\1+")


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


@functools.lru_cache(maxsize=8192)
def sound_key(word: str) -> str:
    """The consonants of a folded word as English spelling says them, alike sounds alike:
    "kedjespannare" and "catcher spinner" -> "kjspnr" and "kjrspnr"."""
    text = "".join(ch for ch in word.lower() if "a" <= ch <= "z")
    for pattern, sound in _SPELLINGS:
        text = pattern.sub(sound, text)
    return _REPEATED.sub(r"\1", text.translate(_SOUND_CLASS))
