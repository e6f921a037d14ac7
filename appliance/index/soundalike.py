"""Names as a recogniser may hear them: a drawing named by a word or a number that is nearly right.

A spoken question reaches the index through a speech recogniser, and the names of drawings are
what it hears worst: "the candle folder" for the candle holder, "Langer-Neckel" for Lagerdeckel,
"drawing 2020001" for 2022001, "U-0-0-1-0" for LIU0010. When a question names no drawing exactly,
:class:`~appliance.index.identity.SourceNames` asks this module for names the question comes close
to: a name word within a few letter edits of a question word (or of two question words run
together), an identifier within one edit (two for long ones), or the tail of exactly one
identifier said with its digits. Close is judged by edit distance against the word's length, so
short words, where one letter makes another word ("hole", "role"), never count.

A foreign name said by an English voice comes back as English words that *sound* like it, not
words spelled like it: "Kedjespännare" as "catcher spinner", "Spannpratze" as "span pratsy",
"Kolv Cykelpump" as "call of cycle pump". Those are compared by their sound keys
(:func:`appliance.spelling.sound_key`): the consonants as English spelling says them, voiced and unvoiced alike,
vowels left out. A name word is close when the key of one to four neighbouring question words
is within an edit of its key (two for long keys).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from appliance.spelling import edit_distance, sound_key

#: Shortest name word compared by letters: shorter words are too often another word.
MIN_WORD_CHARS = 5
#: Shortest identifier compared by letters.
MIN_IDENTIFIER_CHARS = 5
#: Digits a partly heard identifier must keep to stand for one drawing.
MIN_TAIL_DIGITS = 4
#: Words of a question run together when looking for an identifier said in pieces.
MAX_PIECES = 8
#: Shortest sound key compared: shorter keys ("klf" of "kolv") are said by too many phrases.
MIN_KEY_CHARS = 5
#: Shortest sound key of what is left of a name once the words a run spells out are taken off
#: ("tlr" of "idler" in "eyedler shaft"); it must then sound exactly alike.
MIN_REST_KEY_CHARS = 3
#: Neighbouring question words whose sounds may say one name word ("call of cycle pump").
MAX_SOUND_WORDS = 4


def word_edits_allowed(word: str) -> int:
    """Letter edits a heard word may differ by from a name word of this length (0: exact only)."""
    if len(word) < MIN_WORD_CHARS:
        return 0
    if len(word) <= 7:
        return 1
    return 2 if len(word) <= 11 else 3


def closeness(term: str, heard: Sequence[str]) -> tuple[float, tuple[int, ...]]:
    """How nearly the heard words say the name word, 0..1 (1 - edits / length, for the closest
    word or two neighbouring words run together within the allowed edits; 0 when none is), and
    the positions of the words that said it."""
    allowed = word_edits_allowed(term)
    if not allowed:
        return 0.0, ()
    best = allowed + 1
    where: tuple[int, ...] = ()
    for i, word in enumerate(heard):
        if not word.isalpha():
            continue
        candidates: list[tuple[tuple[int, ...], str]] = [((i,), word)]
        # A recogniser splits a foreign word into two English ones ("larger nickel").
        if i + 1 < len(heard) and heard[i + 1].isalpha():
            candidates.append(((i, i + 1), word + heard[i + 1]))
        for positions, text in candidates:
            edits = edit_distance(term, text, allowed)
            if edits < best:
                best, where = edits, positions
    if best > allowed:
        return 0.0, ()
    return 1.0 - best / max(len(term), 1), where


@dataclass(frozen=True)
class SoundSpan:
    """A run of neighbouring question words, as compared with a name by sound."""

    #: Positions of the words in the question.
    positions: tuple[int, ...]
    #: The words, folded.
    words: tuple[str, ...]
    #: The sound key of the words run together.
    key: str


def sound_spans(heard: Sequence[str], edge_words: frozenset[str] = frozenset()) -> list[SoundSpan]:
    """Every run of one to MAX_SOUND_WORDS neighbouring alphabetic words that neither begins nor
    ends with one of ``edge_words`` ("the", "of": a run ending in them says a name only by
    chance)."""
    out = []
    for i in range(len(heard)):
        if heard[i] in edge_words:
            continue
        for n in range(1, MAX_SOUND_WORDS + 1):
            if i + n > len(heard) or not heard[i + n - 1].isalpha():
                break
            words = tuple(heard[i : i + n])
            if words[-1] not in edge_words:
                out.append(SoundSpan(tuple(range(i, i + n)), words, sound_key("".join(words))))
    return out


def key_edits_allowed(key: str, rest: bool = False) -> int | None:
    """Edits a heard sound key may differ by from a name's key (None: too short to compare);
    the ``rest`` of a name once a run's spelled-out words are off must sound exactly alike."""
    if len(key) >= MIN_KEY_CHARS:
        return 1 if len(key) < 8 else 2
    return 0 if rest and len(key) >= MIN_REST_KEY_CHARS else None


def _unspelled(name: str, span: SoundSpan) -> tuple[str, str, bool] | None:
    """The sound keys of the name and of the run without a word at either end of the run that
    the name spells out ("shaft" of "neither shaft" against "countershaft": only "neither" and
    "counter" are compared), whether such a word was taken off, and None when the run is only
    words the name spells."""
    words = list(span.words)
    for end in (0, -1):
        if words and len(words[end]) >= 3 and words[end] in name:
            name = name.replace(words[end], "", 1)
            words.pop(end)
    if not words:
        return None
    if len(words) == len(span.words):
        return sound_key(name), span.key, False
    return sound_key(name), sound_key("".join(words)), True


def sound_closeness(name: str, spans: Sequence[SoundSpan]) -> tuple[float, tuple[int, ...]]:
    """How nearly a run of question words sounds like a name (its words run together), 0..1
    (1 - edits / key length, 0 when no run is within the allowed edits), and the run's
    positions. Only what the run does not spell out is compared by sound: a word written as
    the name writes it is no evidence that the rest sounds like it, and the rest, when its key
    is short ("idler" of "eyedler shaft"), must sound exactly alike."""
    best, nearness = 0, 0.0
    where: tuple[int, ...] = ()
    for span in spans:
        keys = _unspelled(name, span)
        if keys is None:
            continue
        key, heard, spelled_part = keys
        allowed = key_edits_allowed(key, rest=spelled_part)
        if allowed is None:
            continue
        edits = edit_distance(key, heard, allowed)
        if edits > allowed:
            continue
        score = 1.0 - edits / len(key)
        # The nearest, then the fewest words: "span pratsy", not "the span pratsy".
        if score > nearness or (score == nearness and len(span.positions) < best):
            best, nearness, where = len(span.positions), score, span.positions
    return nearness, where


def heard_pieces(folded: Sequence[str]) -> set[str]:
    """Runs of up to MAX_PIECES neighbouring words joined, holding a digit: how an identifier
    read out in pieces ("U 0 0 1 0", "GB 4410 01") arrives."""
    out = set()
    for i in range(len(folded)):
        for n in range(1, MAX_PIECES + 1):
            if i + n > len(folded):
                break
            joined = "".join(folded[i : i + n])
            if any(ch.isdigit() for ch in joined) and len(joined) >= 3:
                out.add(joined)
    return out


def identifier_edits_allowed(identifier: str) -> int:
    """Edits a heard identifier may differ by (0: exact only)."""
    if len(identifier) < MIN_IDENTIFIER_CHARS:
        return 0
    return 1 if len(identifier) < 8 else 2


def close_identifiers(identifiers: Iterable[str], pieces: set[str]) -> list[str]:
    """The identifiers the heard pieces come closest to: within the allowed edits, best first by
    edits; or, when no identifier is that close, the one identifier that a heard piece of at least
    MIN_TAIL_DIGITS digits ends and ends no other ("u0010" of "liu0010")."""
    listed = list(identifiers)
    scored: dict[str, int] = {}
    for ident in listed:
        allowed = identifier_edits_allowed(ident)
        if not allowed:
            continue
        best = min((edit_distance(ident, piece, allowed) for piece in pieces), default=allowed + 1)
        if best <= allowed:
            scored[ident] = best
    if scored:
        fewest = min(scored.values())
        return sorted(i for i, d in scored.items() if d == fewest)
    tails: set[str] = set()
    for piece in pieces:
        if sum(ch.isdigit() for ch in piece) < MIN_TAIL_DIGITS:
            continue
        ending = [i for i in listed if len(piece) < len(i) and i.endswith(piece)]
        if len(ending) == 1:
            tails.update(ending)
    return sorted(tails) if len(tails) == 1 else []
