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
    if dimensions.asks_dimension(question):
        return dimensions.dimension_extract(question, sources)
    field, phrase = asked_field(question)
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
    return line


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
        re.compile(r"\b(?:price|cost|costs|kosten|pris)\b", re.I),
        re.compile(r"\d\s*(?:€|\$|£|EUR|USD|SEK|kr)|(?:€|\$|£)\s*\d", re.I),
    ),
)


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
}
