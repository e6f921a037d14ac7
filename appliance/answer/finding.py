"""The extract that answers a question, in the order the drawing states things.

A question naming a table row is answered from its cell (:mod:`appliance.answer.tables`); one over
the dimensions from the typed set (:mod:`appliance.answer.dimensions`); one naming a title-block
field from the value (:mod:`appliance.answer.extractive`); else the best qualifying line, which must
show the form or the units of what was asked. Each of those modules builds on
:mod:`appliance.answer.extractive`; this one sits above them all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from appliance.answer import dimensions, tables
from appliance.answer.context import Source
from appliance.answer.extractive import (
    _RATIO,
    _WEIGHT,
    Extract,
    _of_a_component,
    _subject_sources,
    asked_field,
    field_extract,
    line_extract,
)


def find_extract(question: str, sources: Sequence[Source]) -> Extract | None:
    """A table cell, a typed dimension or a title-block field when the question asks for one, else
    the best qualifying line; None when nothing in the sources answers."""
    row = tables.asks_table(question)
    if row is not None:
        cell, has_table = tables.table_extract(question, row, sources)
        if cell is not None or has_table:
            return cell  # (None: the drawing's table has no such row or column)
        return _without_table(question, sources)
    field, phrase = asked_field(question)
    # "What finish is the bore honed to?" names a feature but asks for its surface, not a size.
    if dimensions.asks_dimension(question) and field not in _SURFACE_FIELDS:
        found = dimensions.dimension_extract(question, sources)
        if found is None and _asks_quantity(question):
            # No dimension says it; a note of the same drawing may, with its unit ("CASE HARDEN
            # .030 DEEP"). Another drawing's note would answer for the wrong part.
            subject = _subject_sources(question, "", sources)[:1]
            files = {(s.source, s.page) for s in subject}
            found = line_extract(question, [s for s in sources if (s.source, s.page) in files])
        if found is not None and not found.field and not _states_quantity(question, found.quote):
            return None  # a line in place of a missing dimension, without the quantity asked
        return found
    if field:
        found = field_extract(question, field, phrase, sources)
        if found is not None:
            return found
        subject = _subject_sources(question, phrase, sources)[:1]
        if field == "material" and subject and _of_a_component(question, phrase, subject[0]):
            return None  # the drawing states its part's material, not this component's
    line = line_extract(question, sources)
    if line is not None and field in _LINE_FORMS and not _LINE_FORMS[field].search(line.quote):
        return None  # a weight asked, a line without one: the drawing does not state it
    if line is not None and not _states_quantity(question, line.quote):
        return None  # a torque asked, a line with the bolt's size but no torque
    if line is not None and _WHICH.match(question) and not _designates(question, line.quote):
        return None  # "which grease", a line that only says "grease"
    return line


#: A question asking which one of a kind of thing (a grease, a bearing, a seal).
_WHICH = re.compile(r"\s*which\b", re.I)


def _designates(question: str, quote: str) -> bool:
    """Whether a line names a particular thing: a word with a digit ("ISO 2768-mK", "RAL 9005") or
    a capitalised designation ("FIRST ANGLE") the question did not say. A line mentioning only
    the kind of thing asked for names none."""
    asked = {w.lower() for w in re.findall(r"\w+", question)}
    quote = re.sub(r"^\s*\d{1,2}[.)]\s+", "", quote)  # a note's number says nothing of it
    return any(
        any(ch.isdigit() for ch in word) or (word.isupper() and len(word) > 1)
        for word in re.findall(r"[\w./-]+", quote)
        if word.lower() not in asked
    )


#: Quantities a question may ask for, each with the units a line stating it must show: "what
#: torque do the M8 bolts take" is not answered by "4 x M8".
_QUANTITIES: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(r"\b(?:torque|tighten\w*|åtdragning\w*|anzugsmoment\w*)\b", re.I),
        re.compile(r"\d\s*(?:N\s*·?\s*m|Nm|kNm|lbf?[·\s-]*(?:ft|in)|(?:ft|in)[·\s-]*lbf?)", re.I),
    ),
    (
        re.compile(r"\b(?:pressure|druck|tryck)\b", re.I),
        re.compile(r"\d\s*(?:bar|psi|[kM]?Pa)\b", re.I),
    ),
    (
        re.compile(r"\b(?:temperature|temperatur)\b", re.I),
        re.compile(r"\d\s*°\s*[CF]|\d\s*(?:deg\w*\s*[CF]|K)\b", re.I),
    ),
    (
        re.compile(r"\b(?:hardness|härte|hårdhet)\b", re.I),
        re.compile(r"\d\s*(?:HRC|HRB|HB|HBW|HV|Shore)|(?:HRC|HB|HV)\s*\d", re.I),
    ),
    (
        re.compile(r"\b(?:speed|rpm|drehzahl|varvtal)\b", re.I),
        re.compile(r"\d\s*(?:rpm|min-1|min⁻¹|1/min|m/s)", re.I),
    ),
    (
        # A thickness or depth: a length with its unit, or a number said to be deep or thick
        # ("CASE HARDEN .030 DEEP", "WALL THICKNESS 2.0"); "POWDER COAT" does not say how thick
        # the coat is.
        re.compile(r"\b(?:how thick|thickness|how deep|depth)\b", re.I),
        re.compile(
            r"\d\s*(?:mm|µm|μm|um|in|inch(?:es)?|\")(?!\w)|\d\s*(?:deep|thick|tief|djup)\b"
            r"|\b(?:thick\w*|depth|deep|dicke|tiefe|tjocklek|djup)\s*[:=]?\s*\.?\d",
            re.I,
        ),
    ),
    (
        re.compile(r"\b(?:price|cost|costs|kosten|pris)\b", re.I),
        re.compile(r"\d\s*(?:€|\$|£|EUR|USD|SEK|kr)|(?:€|\$|£)\s*\d", re.I),
    ),
)


#: Fields that speak of a surface: a question naming one is not about the feature's size.
_SURFACE_FIELDS = ("roughness", "surface_treatment")


def _asks_quantity(question: str) -> bool:
    """Whether the question asks for one of the quantities of :data:`_QUANTITIES`."""
    return any(asks.search(question) for asks, _ in _QUANTITIES)


def _states_quantity(question: str, quote: str) -> bool:
    """Whether a line states every quantity the question asks for (by its units)."""
    return all(units.search(quote) for asks, units in _QUANTITIES if asks.search(question))


def _without_table(question: str, sources: Sequence[Source]) -> Extract | None:
    """A table question about a drawing without such a table: its dimensions or lines may say."""
    if dimensions.asks_dimension(question):
        return dimensions.dimension_extract(question, sources)
    return line_extract(question, sources)


#: What a line must hold to answer a question about these fields when no field value answered it.
_LINE_FORMS: dict[str, re.Pattern[str]] = {
    "weight": _WEIGHT,
    "scale": _RATIO,
    "roughness": re.compile(r"(?<![^\W\d_])(?:Ra|Rz|N)\s*\d"),
    # A person on a line: an initial and a name ("T. WEISS"), or a Chinese name. A line that is
    # only the label and other text ("Granskad: 95.5 Q5.5") names nobody.
    **dict.fromkeys(
        ("drawn_by", "checked_by", "approved_by"),
        re.compile(r"\b[A-Z]\.\s?[^\W\d_]{2,}|[\u3400-\u9fff]{2,4}"),
    ),
}
