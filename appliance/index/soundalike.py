"""Names as a recogniser may hear them: a drawing named by a word or a number that is nearly right.

A spoken question reaches the index through a speech recogniser, and the names of drawings are
what it hears worst: "the candle folder" for the candle holder, "Langer-Neckel" for Lagerdeckel,
"drawing 2020001" for 2022001, "U-0-0-1-0" for LIU0010. When a question names no drawing exactly,
:class:`~appliance.index.identity.SourceNames` asks this module for names the question comes close
to: a name word within a few letter edits of a question word (or of two question words run
together), an identifier within one edit (two for long ones), or the tail of exactly one
identifier said with its digits. Close is judged by edit distance against the word's length, so
short words, where one letter makes another word ("hole", "role"), never count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from appliance.spelling import edit_distance

#: Shortest name word compared by letters: shorter words are too often another word.
MIN_WORD_CHARS = 5
#: Shortest identifier compared by letters.
MIN_IDENTIFIER_CHARS = 5
#: Digits a partly heard identifier must keep to stand for one drawing.
MIN_TAIL_DIGITS = 4
#: Words of a question run together when looking for an identifier said in pieces.
MAX_PIECES = 8


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
