"""Finding the wake phrase in recognised text — strict enough that near-misses do not wake it.

Pure functions, no audio. A free recogniser (whisper) spells the phrase in several ways ("Open Claw,",
"OpenClaw", "open-claw"); those all match. Near-misses ("open clause", "open claws", "open the law",
"clean the claw", "open call logs") must not: short words (up to 4 letters, like "open" and "claw")
have to match exactly, longer ones may differ by one edit (a recogniser's spelling slip).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from appliance.spelling import edit_distance

_WORD = re.compile(r"[a-z0-9\uac00-\ud7a3']+")


def word_spans(text: str) -> list[tuple[str, int, int]]:
    """Lower-case words without punctuation, with their character spans in ``text``."""
    # Replacing "-" keeps every position, so spans index the original text.
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text.lower().replace("-", " "))]


def normalise_words(text: str) -> list[str]:
    """Lower-case words without punctuation; hyphens and dots split words."""
    return [w for w, _, _ in word_spans(text)]


def first_repeat(words: list[str], longest: int = 3) -> tuple[int, int] | None:
    """(start, size) of the first run of ``size`` words said again at once, shortest runs first."""
    for size in range(1, longest + 1):
        for i in range(len(words) - 2 * size + 1):
            if words[i : i + size] == words[i + size : i + 2 * size]:
                return i, size
    return None


def collapse_repeats(text: str, longest: int = 3) -> str:
    """``text`` with each run of up to ``longest`` words said again at once cut to one copy.

    For a decoding loop that survived its second decode ("Open Claw, scan this, open, open, open,
    open"): the words and punctuation of the first copy stay, the copies after it go. Words compare
    as :func:`normalise_words` writes them ("Open," repeats "open").
    """
    while True:
        spans = word_spans(text)
        repeat = first_repeat([w for w, _, _ in spans], longest)
        if repeat is None:
            return text
        start, size = repeat
        # From the end of the first copy's last word to the end of the second copy's last word.
        cut_from, cut_to = spans[start + size - 1][2], spans[start + 2 * size - 1][2]
        text = text[:cut_from] + text[cut_to:]


def word_matches(heard: str, expected: str) -> bool:
    """One word: exact for short words, one edit allowed from five letters up."""
    if heard == expected:
        return True
    return len(expected) >= 5 and edit_distance(heard, expected) <= 1


@dataclass(frozen=True)
class PhraseMatch:
    """Where the phrase was found in a list of words."""

    #: Index of the first word of the phrase.
    start: int
    #: Index just past its last word.
    end: int


def find_phrase(words: list[str], phrase: str) -> PhraseMatch | None:
    """The first occurrence of ``phrase`` in ``words``, as separate words or written as one."""
    target = phrase.split()
    n = len(target)
    for i in range(len(words)):
        if i + n <= len(words) and all(
            word_matches(w, t) for w, t in zip(words[i : i + n], target, strict=True)
        ):
            return PhraseMatch(i, i + n)
        # "openclaw" (the phrase written as one word) or split differently ("openc law").
        for span in range(1, n + 1):
            if i + span <= len(words) and span != n:
                joined = "".join(words[i : i + span])
                if joined == "".join(target):
                    return PhraseMatch(i, i + span)
    return None


def split_after_phrase(text: str, phrase: str) -> tuple[bool, str]:
    """Whether ``text`` contains the phrase, and the words after it (the question said in one breath).

    When the phrase occurs again, the words after the last occurrence that has any: a person who
    starts again says the phrase again ("open claw, uh, open claw, scan this"), and whisper's
    decoding loops repeat it ("open claw, scan this, open claw, scan this, open claw").
    """
    spans = word_spans(text)
    words = [w for w, _, _ in spans]
    # Character spans of every occurrence of the phrase, in order.
    found: list[tuple[int, int]] = []
    at = 0
    while (match := find_phrase(words[at:], phrase)) is not None:
        found.append((spans[at + match.start][1], spans[at + match.end - 1][2]))
        at += match.end
    if not found:
        return False, text.strip()
    ends = [start for start, _ in found[1:]] + [len(text)]
    pieces = [text[cut:end].strip(" \t\n,.;:!?") for (_, cut), end in zip(found, ends, strict=True)]
    return True, next((p for p in reversed(pieces) if p), "")


def phrase_glued(text: str, phrase: str) -> bool:
    """Whether ``text`` shows the phrase as part of other words ("reopen claw", "open clawing").

    At the first place where the phrase's words are each inside a heard word, in order (or the
    phrase written as one word is inside one), it is glued when a word there holds more than the
    phrase's word: a prefix ("reopen", "unopened") or a suffix ("opening", "claws", "clawback").
    The phrase heard as itself there ("Open Claw,", "OpenClaw", "open-claw") is not glued, nor is a
    text where the phrase's words are nowhere: then the wake detector's decision stands.
    """
    words = normalise_words(text)
    target = phrase.lower().split()
    joined = "".join(target)
    for i, word in enumerate(words):
        if joined in word:
            return word != joined
        heard = words[i : i + len(target)]
        if len(heard) == len(target) and all(t in w for t, w in zip(target, heard, strict=True)):
            return heard != target
    return False


def window_near_miss(text: str, phrase: str) -> bool:
    """Whether an unprompted transcript of the audio around a detected phrase shows a near-miss
    there: the phrase inside other words (:func:`phrase_glued`), or no whole word that is the
    phrase's first word ("open") or the phrase written as one ("openclaw"): "oven claw" heard as
    "Avent law", "hope claw" as "Up-dra", "unopened claw" as "Unopened claw".

    Only the first word is required: unprompted, whisper writes the phrase's own "claw" as
    "law", "floor" or "door" for most voices, and requiring it refuses most of the phrase too.
    """
    words = set(normalise_words(text))
    first, joined = phrase.lower().split()[0], "".join(phrase.lower().split())
    return phrase_glued(text, phrase) or not {first, joined} & words
