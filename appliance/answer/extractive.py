"""Extractive answers: the best field or line of the sources, quoted with its citation.

It never composes anything: it quotes a title-block field the question asks for
(:mod:`appliance.answer.fields`) or the line of the sources the question is about
(:mod:`appliance.answer.subjects`) that shares the most distinctive terms with it
(:mod:`appliance.answer.terms`). :mod:`appliance.answer.finding` decides which kind of extract a
question gets; dimensions and table cells build on the :class:`Extract` here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from appliance.answer.context import Source
from appliance.answer.subjects import identity_terms, subject_sources
from appliance.answer.terms import term_matches, terms
from appliance.document import Box
from appliance.drawing_terms import FIELD_NAMES, split_label, translate

#: The line that opens a title-block slice (appliance.vision.slicing).
TITLE_BLOCK_HEADER = re.compile(r"\s*title block\.?\s*$", re.I)


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
    #: Where the quoted item is on the page, when narrower than the source (a dimension's box,
    #: a field value's cell).
    box: Box | None = None
    #: The quote's English sense when it is in Swedish, German or Chinese ("" otherwise).
    english: str = ""
    #: The region of the drawing the quote is in when it is not its source's ("dimensions" for a
    #: dimension whose record the title block's slice carries); "" when it is the source's own.
    section: str = ""
    #: Whether the quote lists several items ("2 x R0.15, 2 x R0.2"): its sentence says "are".
    several: bool = False

    def said(self) -> str:
        """The quote as spoken: the original term, then its English sense where it is not
        English ("Anodiserad, anodised")."""
        return f"{self.quote}, {self.english}" if self.english else self.quote

    def sentence(self) -> str:
        """A field answer as one sentence, without its full stop: "The surface treatment is
        Anodiserad, anodised", "It was drawn by K. Lund", "The drawing states: ALL DIMENSIONS IN MM"."""
        if self.field in PERSON_VERBS:
            return f"It was {PERSON_VERBS[self.field]} by {self.said()}"
        if self.field == "units":
            return f"The drawing states: {self.said()}"
        name = FIELD_NAMES.get(self.field, self.field.replace("_", " "))
        return f"The {name} {'are' if self.several else 'is'} {self.said()}"


#: The verb of a field that names a person.
PERSON_VERBS = {
    "drawn_by": "drawn",
    "checked_by": "checked",
    "approved_by": "approved",
    "standardised_by": "standardised",
    "process_by": "signed for process engineering",
}


#: A line that leads into a value on the next line ("... anges enligt", "acc. to /").
LEAD_IN = re.compile(r"(?:\bto|enligt|nach|gemäß|per|:|/)\s*$", re.I)


def line_units(text: str) -> list[str]:
    units: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        # Long prose lines are split into sentences; drawing lines are short already.
        parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", line) if len(line) > 160 else [line]
        units.extend(p.strip() for p in parts if p.strip())
    return units


def with_value(units: list[str], i: int) -> str:
    """A label line with the value under it ("SURFACE FINISH:" + "Ra 1.6"), also past the
    label's second line ("Tolerance, if not indicated acc. to /" + "generella toleranser där ej
    annat anges enligt" + "ISO 2768-mK")."""
    unit = units[i]
    if any(ch.isdigit() for ch in unit):
        return unit
    for k in (i + 1, i + 2):
        if k >= len(units):
            break
        following = units[k]
        digits = any(ch.isdigit() for ch in following)
        if len(following) <= 40 and digits and not is_bare_label(following):
            return f"{unit} {following}"
        if k == i + 1 and not digits and LEAD_IN.search(unit) and LEAD_IN.search(following):
            continue  # the label's second language between it and its value
        break
    return unit


def _label_then_label(text: str) -> bool:
    """A label without its value followed by another field's label ("GEWICHT: MASSSTAB:1:2", two
    cells read as one line): the line says nothing about the first field."""
    first = split_label(text)
    if first is None or not first.rest:
        return False
    second = split_label(first.rest)
    return second is not None and second.field != first.field


def is_bare_label(text: str) -> bool:
    """A title-block label without its value, in any of the four languages ("Weight /vikt",
    "Surface treatment Ytbehandling", "SURFACE FINISH:")."""
    found = split_label(text)
    return found is not None and not found.rest


def _aspect_terms(
    q_terms: list[str], subject: Sequence[Source], others: Sequence[Source]
) -> list[str]:
    """The question's terms that say what is asked, not which document it is about.

    A term names the document when it is part of a subject source's identity (title, drawing number,
    file name) or, for plain words, when it occurs in the subject sources and in none of the others
    ("Beyond Mech" in a question about the BeyondMech drawing), unless the question names the
    document by its identity already. Terms with digits ("H12", "21.5")
    always count as asked: they pick out a feature, not a document. The second rule holds for paged
    sources (drawings, PDFs) only.
    """
    ident: set[str] = set()
    for src in subject:
        ident |= identity_terms(src)
    # Only drawings and other paged sources: their names sit in their title blocks as plain words.
    # In a note (no pages) a word found only there is what the note is about, i.e. content.
    subject_terms = [set(terms(src.text)) for src in subject if src.page > 0]
    other_terms = [set(terms(src.text)) | identity_terms(src) for src in others]
    # A question that names its drawing by title or number does not name it again by a word only
    # its text holds: "what texture goes on the cover plate" asks the texture.
    named = any(term_matches(t, ident) for t in q_terms)
    aspects = []
    for t in q_terms:
        if term_matches(t, ident):
            continue
        if (
            others
            and not named
            and not any(ch.isdigit() for ch in t)
            and any(term_matches(t, st) for st in subject_terms)
            and not any(term_matches(t, ot) for ot in other_terms)
        ):
            continue
        aspects.append(t)
    return aspects


#: A term that is only a number ("2022", "21.5").
_NUMBER = re.compile(r"[\d.,]+")
#: A unit after a number, or a size symbol before it: the number is a size, not a count or a year.
_UNIT_AFTER = r"\s*(?:mm|cm|m|in|inch|inches|µm|um|°|deg|degrees|kg|g|nm|n|bar|%)(?![^\W\d_])"
_SIZE_BEFORE = r"(?:[⌀ØøRM]\s?|±\s?)"


def _bare_number(term: str, question: str) -> bool:
    """Whether ``term`` is a number the question gives without a unit or size symbol."""
    if not _NUMBER.fullmatch(term):
        return False
    number = re.escape(term)
    sized = rf"{_SIZE_BEFORE}{number}(?!\d)|(?<![\d.,]){number}{_UNIT_AFTER}"
    return re.search(sized, question, re.I) is None


def line_extract(
    question: str, sources: Sequence[Source], accept: Callable[[str], bool] | None = None
) -> Extract | None:
    """The line of the sources that answers the question, or None.

    Only lines of the sources the question is about are considered. A line qualifies if it matches at
    least one *aspect* term of the question (see :func:`_aspect_terms`), adds something the question
    did not say, and is not a bare label ("SURFACE FINISH:"). A line that only repeats the drawing's
    name is no answer. Among qualifying lines, rare matched terms weigh more and short lines win.
    """
    q_terms = list(dict.fromkeys(terms(question)))
    if not q_terms:
        return None
    subject = subject_sources(question, "", sources)
    others = [s for s in sources if s not in subject]
    aspects = _aspect_terms(q_terms, subject, others)
    if not aspects:
        return None
    candidates: list[tuple[int, str, set[str], set[str]]] = []
    for src in subject:
        units = line_units(src.text)
        for i in range(len(units)):
            if TITLE_BLOCK_HEADER.match(units[i]):
                continue  # the slice's header says nothing
            quote = with_value(units, i)
            if quote.rstrip().endswith(":") or is_bare_label(quote) or _label_then_label(quote):
                continue  # a label without its value
            # The English sense of Swedish, German and Chinese words counts as theirs.
            english = set(terms(translate(quote)))
            candidates.append((src.number, quote, set(terms(quote)) | english, english))
    if not candidates:
        return None
    n = len(candidates)
    weights = {
        t: math.log(1 + n / (1 + sum(term_matches(t, c[2]) for c in candidates))) for t in q_terms
    }
    total = sum(weights.values()) or 1.0
    # A line that shares only a bare number with a question in words ("who won the world cup in
    # 2022", "Date: 2022-08-26") is about something else; a size ("the 25 mm wall") designates.
    worded = [t for t in aspects if not _bare_number(t, question)] or aspects
    best: tuple[float, int, int, str] | None = None
    for order, (number, quote, quote_terms, english) in enumerate(candidates):
        if not any(term_matches(t, quote_terms) for t in worded):
            continue
        if not any(not term_matches(u, q_terms) for u in quote_terms):
            continue  # says nothing the question did not
        if english and not any(not term_matches(u, q_terms) for u in english):
            continue  # nor in English: "KANTEN" is the question's "edges", in German
        if accept is not None and not accept(quote):
            continue
        matched = sum(w for t, w in weights.items() if term_matches(t, quote_terms))
        score = matched / total - 0.002 * max(0, len(quote) - 120)
        key = (score, -number, -order, quote)
        if best is None or key > best:
            best = key
    if best is None:
        return None
    score, neg_number, _neg_order, quote = best
    return Extract(-neg_number, quote[:300], "", max(0.0, min(1.0, score)))


def coverage(question: str, text: str) -> float:
    """Share of the question's content terms that a text contains (0..1)."""
    q_terms = list(dict.fromkeys(terms(question)))
    if not q_terms:
        return 0.0
    t_terms = set(terms(text))
    return sum(term_matches(t, t_terms) for t in q_terms) / len(q_terms)
