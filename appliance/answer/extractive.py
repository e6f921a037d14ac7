"""Extractive answers: the best field or line of the sources, quoted with its citation.

This is what answers when no model is installed, when the model's answer fails its check, and when the
worker is down. It never composes anything: it picks a title-block field the question asks for (from
structured fields when the vision package read the title block, else from ``LABEL: value`` text), or the
line of the sources that shares the most distinctive terms with the question, and quotes it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from appliance.answer.context import Source

_WORD = re.compile(r"[^\W_]+(?:[.,][0-9]+)?", re.UNICODE)
_NUMERIC = re.compile(r"^[0-9]+(?:[.,][0-9]+)?$")

#: Words that say nothing about which line answers the question.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "could",
        "do",
        "does",
        "for",
        "from",
        "give",
        "has",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "please",
        "say",
        "show",
        "tell",
        "that",
        "the",
        "their",
        "there",
        "these",
        "this",
        "those",
        "to",
        "was",
        "we",
        "what",
        "whats",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "about",
        "much",
        "many",
        "any",
        "drawing",
        "drawings",
        "part",
        "parts",
        "document",
        "documents",
        "page",
        "value",
        "number",
        "written",
        "stated",
        "given",
        "listed",
    ]
)

#: Title-block fields: the field's key and the words a question uses for it.
FIELD_WORDS: dict[str, tuple[str, ...]] = {
    "material": ("material", "werkstoff", "made of", "made from"),
    "scale": ("scale", "massstab", "maßstab"),
    "title": ("title", "titel", "called", "name of the part", "benennung"),
    "drawing_number": ("drawing number", "dwg no", "drawing no", "zeichnungsnummer", "part number"),
    "revision": ("revision", "rev ", "änderung", "version"),
    "sheet": ("sheet", "blatt"),
    "weight": ("weight", "gewicht", "mass of"),
    "date": ("date", "datum", "when was"),
    "size": ("paper size", "paper format", "sheet size", "format"),
    "drawn_by": ("drawn by", "who drew", "author", "designer", "gezeichnet"),
}

#: The text labels of those fields on a title block (English and German drawings).
FIELD_LABELS: dict[str, tuple[str, ...]] = {
    "material": ("MATERIAL", "WERKSTOFF", "MATERIAL NO", "WERKSTOFFNUMMER"),
    "scale": ("SCALE", "MASSSTAB", "MAßSTAB"),
    "title": ("TITLE", "TITEL", "BENENNUNG"),
    "drawing_number": (
        "DWG NO",
        "DWG. NO",
        "DRAWING NO",
        "ZEICHNUNGSNUMMER",
        "ZEICHNUNGS-NR",
        "PART NO",
    ),
    "revision": ("REVISION", "REV", "ÄNDERUNG"),
    "sheet": ("SHEET", "BLATT"),
    "weight": ("WEIGHT", "GEWICHT", "MASSE"),
    "date": ("DATE", "DATUM"),
    "size": ("FORMAT", "SHEET SIZE", "SIZE"),
    "drawn_by": ("DRAWN", "GEZEICHNET", "GEZ"),
}
_ALL_LABELS = sorted({lab for labs in FIELD_LABELS.values() for lab in labs}, key=len, reverse=True)
_NEXT_LABEL = re.compile(
    r"\s+(?:" + "|".join(re.escape(lab) for lab in _ALL_LABELS) + r")\b\.?\s*:?", re.I
)


@dataclass(frozen=True)
class Extract:
    """The quoted evidence an extractive answer consists of."""

    #: Number of the source quoted.
    source_number: int
    #: The quoted text (a field value or a line).
    quote: str
    #: Title-block field answered ("" for a plain line).
    field: str
    #: How well the quote matches the question (0..1, field answers score 1).
    score: float


def normalise(token: str) -> str:
    """Lower-case, decimal comma to point, ``ß`` folded: how terms are compared."""
    return token.lower().replace(",", ".").replace("ß", "ss")


def terms(text: str) -> list[str]:
    """Normalised content terms of a text (stopwords dropped, numbers kept)."""
    out = []
    for tok in _WORD.findall(text):
        norm = normalise(tok)
        if norm in STOPWORDS or (len(norm) < 2 and not norm.isdigit()):
            continue
        out.append(norm)
    return out


def asked_field(question: str) -> str:
    """The title-block field a question asks for, or ""."""
    q = f" {question.lower()} "
    for name, words in FIELD_WORDS.items():
        if any(w in q for w in words):
            return name
    return ""


def _term_matches(term: str, unit_terms: set[str]) -> bool:
    if _NUMERIC.match(term):
        try:
            value = float(term)
        except ValueError:
            return False
        return any(_NUMERIC.match(u) and float(u) == value for u in unit_terms)
    if term in unit_terms:
        return True
    # A shared stem of five letters ("tolerance" / "tolerances", "holder" / "holders").
    return len(term) >= 5 and any(len(u) >= 5 and u[:5] == term[:5] for u in unit_terms)


def _label_value(text: str, labels: Sequence[str]) -> str:
    for label in labels:
        # "SCALE: 2:1" or a label opening its line ("Werkstoff PLA"); never a word inside a sentence
        # ("DO NOT SCALE DRAWING").
        pattern = re.compile(
            r"(?:(?<![A-Za-z])"
            + re.escape(label)
            + r"\.?[ \t]*:|^[ \t]*"
            + re.escape(label)
            + r"\b\.?)"
            r"[ \t]*([^\n]*)",
            re.I | re.M,
        )
        for match in pattern.finditer(text):
            value = match.group(1)
            cut = _NEXT_LABEL.search(" " + value)
            if cut is not None:
                value = (" " + value)[: cut.start()]
            value = value.strip(" :;,.")
            if value and not value.endswith(":"):
                return value
    return ""


def field_extract(field: str, sources: Sequence[Source]) -> Extract | None:
    """The value of a title-block field from the best source that states it."""
    for src in sources:
        if field == "drawing_number" and src.drawing_number:
            return Extract(src.number, src.drawing_number, field, 1.0)
        if field == "revision" and src.revision:
            return Extract(src.number, src.revision, field, 1.0)
        if field in src.fields:
            return Extract(src.number, src.fields[field], field, 1.0)
        value = _label_value(src.text, FIELD_LABELS.get(field, ()))
        if value:
            return Extract(src.number, value, field, 1.0)
    return None


def _units(text: str) -> list[str]:
    units: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        # Long prose lines are split into sentences; drawing lines are short already.
        parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", line) if len(line) > 160 else [line]
        units.extend(p.strip() for p in parts if p.strip())
    return units


def line_extract(question: str, sources: Sequence[Source]) -> Extract | None:
    """The line of the sources sharing the most (rarest) question terms with the question."""
    q_terms = list(dict.fromkeys(terms(question)))
    if not q_terms:
        return None
    candidates: list[tuple[int, str, set[str]]] = []
    for src in sources:
        for unit in _units(src.text):
            candidates.append((src.number, unit, set(terms(unit))))
    if not candidates:
        return None
    # Rare terms weigh more: a line matching "tolerance" beats one matching "dimensions", which every
    # drawing's title block says.
    n = len(candidates)
    weights = {
        t: math.log(1 + n / (1 + sum(_term_matches(t, c[2]) for c in candidates))) for t in q_terms
    }
    total = sum(weights.values()) or 1.0
    best: tuple[float, int, int, str] | None = None
    for order, (number, unit, unit_terms) in enumerate(candidates):
        matched = sum(w for t, w in weights.items() if _term_matches(t, unit_terms))
        if matched <= 0:
            continue
        # Prefer short, specific lines; earlier (better-ranked) sources win ties.
        score = matched / total - 0.002 * max(0, len(unit) - 120)
        key = (score, -number, -order, unit)
        if best is None or key > best:
            best = key
    if best is None:
        return None
    score, neg_number, _neg_order, unit = best
    return Extract(-neg_number, unit[:300], "", max(0.0, min(1.0, score)))


def find_extract(question: str, sources: Sequence[Source]) -> Extract | None:
    """A field answer when the question names a field the sources state, else the best line."""
    field = asked_field(question)
    if field:
        found = field_extract(field, sources)
        if found is not None:
            return found
    return line_extract(question, sources)


def coverage(question: str, text: str) -> float:
    """Share of the question's content terms that a text contains (0..1)."""
    q_terms = list(dict.fromkeys(terms(question)))
    if not q_terms:
        return 0.0
    t_terms = set(terms(text))
    return sum(_term_matches(t, t_terms) for t in q_terms) / len(q_terms)
