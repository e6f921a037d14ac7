"""Checking a generated answer against what it cites before anyone hears it.

Every number and every identifier the answer states must appear in one of the sources it cites. A
small model is fluent and often wrong about exactly these (a torque, a tolerance, a drawing number), and
a wrong number read aloud at a workbench is worse than no answer. Numbers are compared by value
(``60`` matches ``60.00``, ``3,40`` matches ``3.40``); identifiers case-insensitively with separators
ignored (``A-1024`` matches ``a1024``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: A citation marker such as ``[2]`` (also ``[1, 3]`` and ``[1][3]``).
CITATION = re.compile(r"\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]")
# ASCII look-arounds on purpose: "Ø24.0" states the number 24.0, while "M8" is an identifier.
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])[-+]?\d+(?:[.,]\d+)?(?![A-Za-z0-9_])")
# Identifiers: tokens with letters and digits (M8, H7, A-1024, UR10_29.20, Ø24.0 is a number + symbol).
_IDENT = re.compile(r"\b(?=[\w./-]*[A-Za-z])(?=[\w./-]*\d)[A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)*\b")
_SEPARATORS = re.compile(r"[\s\-_./]")
# Compound values checked whole: a scale "1:2" is not the numbers 1 and 2 (a drawing at 1:2 also
# says "1" somewhere), and a date is one claim.
_COMPOUND = re.compile(
    r"(?<![A-Za-z0-9_.,:-])(?:\d{4}-\d{2}-\d{2}|\d+(?:[.,]\d+)?\s?:\s?\d+(?:[.,]\d+)?)(?![A-Za-z0-9_:])"
)


@dataclass(frozen=True)
class Check:
    """The outcome of checking one answer."""

    #: Source numbers the answer cites (in order of first mention, only existing ones).
    cited: tuple[int, ...]
    #: Numbers and identifiers that no cited source contains.
    unsupported: tuple[str, ...]
    #: Citation numbers that name no source.
    bad_citations: tuple[int, ...]

    @property
    def ok(self) -> bool:
        """Cited something real, and everything stated is in what it cites."""
        return bool(self.cited) and not self.unsupported and not self.bad_citations


def citations(text: str) -> list[int]:
    """Citation numbers in order of first mention."""
    seen: dict[int, None] = {}
    for match in CITATION.finditer(text):
        for part in match.group(1).split(","):
            seen[int(part)] = None
    return list(seen)


def strip_citations(text: str) -> str:
    """The text without ``[n]`` markers (the spoken form)."""
    return re.sub(r"\s+([.,;:!?])", r"\1", CITATION.sub("", text)).strip()


def _value(token: str) -> float | None:
    try:
        return float(token.replace(",", "."))
    except ValueError:
        return None


def compounds(text: str) -> list[str]:
    """Scales/ratios ("1:2") and ISO dates ("2021-10-15") stated in a text."""
    return [m.group() for m in _COMPOUND.finditer(CITATION.sub(" ", text))]


def numbers(text: str) -> list[str]:
    """Numbers stated on their own in a text (not inside an identifier such as ``A-1024`` or a
    compound such as ``1:2``, which are checked whole; citation markers excluded)."""
    plain = CITATION.sub(" ", text)
    inside = [m.span() for m in _IDENT.finditer(plain)] + [
        m.span() for m in _COMPOUND.finditer(plain)
    ]
    return [
        m.group()
        for m in _NUMBER.finditer(plain)
        if not any(start <= m.start() < end for start, end in inside)
    ]


def identifiers(text: str) -> list[str]:
    """Identifiers stated in a text: tokens mixing letters and digits."""
    return _IDENT.findall(CITATION.sub(" ", text))


def _squash(text: str) -> str:
    return _SEPARATORS.sub("", text).lower()


#: Capitalised words that name nothing: sentence glue a model writes in any answer.
_COMMON_CAPS = frozenset(
    [
        "the",
        "a",
        "an",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "they",
        "he",
        "she",
        "we",
        "you",
        "i",
        "in",
        "on",
        "at",
        "of",
        "for",
        "to",
        "from",
        "by",
        "with",
        "and",
        "or",
        "but",
        "if",
        "so",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "yes",
        "no",
        "not",
        "source",
        "sources",
        "document",
        "documents",
        "drawing",
        "drawings",
        "answer",
        "note",
        "notes",
        "page",
        "sheet",
        "revision",
        "scale",
        "material",
        "title",
        "according",
        "see",
    ]
)
_WORD_TOKEN = re.compile(r"[^\W\d_][\w-]*", re.UNICODE)


def names(text: str) -> list[str]:
    """Names a text states: words in capitals ("PLA", "HRC") and capitalised words inside a sentence
    ("Gripper", "Stahl"). A model that names a material or a part must find the name in a source."""
    out: list[str] = []
    plain = CITATION.sub(" ", text)
    for sentence in re.split(r"(?<=[.!?:;])\s+|\n", plain):
        for i, match in enumerate(_WORD_TOKEN.finditer(sentence)):
            word = match.group()
            if word.lower() in _COMMON_CAPS or any(ch.isdigit() for ch in word):
                continue
            if (len(word) >= 2 and word.isupper()) or (i > 0 and word[:1].isupper()):
                out.append(word)
    return out


def claims(text: str) -> list[str]:
    """Everything a text states that the check must find in a source: identifiers, compounds,
    numbers and names."""
    return list(dict.fromkeys([*identifiers(text), *compounds(text), *numbers(text), *names(text)]))


def supported(claims: Iterable[str], evidence: str) -> list[str]:
    """The claims (numbers, identifiers, compounds) that ``evidence`` does NOT contain."""
    values = {v for tok in _NUMBER.findall(evidence) if (v := _value(tok)) is not None}
    squashed = _squash(evidence)
    compact = re.sub(r"\s", "", evidence)
    words = {w.lower() for w in _WORD_TOKEN.findall(evidence)}
    words |= {w.lower() for w in re.findall(r"[^\W\d_]+", evidence)}  # "Weird_Gripper" -> "gripper"
    missing: list[str] = []
    for claim in claims:
        if claim.isalpha():
            # A name is a whole word of the source ("PLA" is not supported by "Adapterplatte").
            if claim.lower() not in words:
                missing.append(claim)
            continue
        if _COMPOUND.fullmatch(claim):
            if re.sub(r"\s", "", claim).replace(",", ".") not in compact.replace(",", "."):
                missing.append(claim)
            continue
        value = _value(claim)
        if value is not None:
            if value not in values and _squash(claim) not in squashed:
                missing.append(claim)
        elif _squash(claim) not in squashed:
            missing.append(claim)
    return missing


def check_answer(text: str, sources: dict[int, str]) -> Check:
    """Check an answer against the texts of its numbered sources."""
    cited_all = citations(text)
    bad = tuple(n for n in cited_all if n not in sources)
    cited = tuple(n for n in cited_all if n in sources)
    evidence = "\n".join(sources[n] for n in cited)
    stated = claims(text)
    unsupported = tuple(supported(stated, evidence)) if cited else tuple(stated)
    return Check(cited=cited, unsupported=unsupported, bad_citations=bad)
