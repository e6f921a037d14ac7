"""Quantities a question may ask for (a torque, a pressure, a hardness, a flatness ...), and
whether a line states one: in its unit, not merely beside the thing asked about ("what torque do
the M8 bolts take" is not answered by "4 x M8")."""

from __future__ import annotations

import re

from appliance.drawing_terms import translate

#: How long a process runs ("how long is the leak test"): a time with its unit, not a length.
_DURATION: tuple[re.Pattern[str], re.Pattern[str]] = (
    re.compile(
        r"\bhow long\b(?=.*\b(?:test\w*|cur\w+|soak\w*|hold\w*|dwell|run\w*|bak\w+)\b)|\bduration\b",
        re.I,
    ),
    re.compile(r"\d\s*(?:s|sec\w*|min\w*|h|hrs?|hours?)\b", re.I),
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
        re.compile(r"\b(?:hardness|härte|hårdhet|how hard)\b", re.I),
        re.compile(r"\d\s*(?:HRC|HRB|HB|HBW|HV|Shore)|(?:HRC|HB|HV)\s*\d", re.I),
    ),
    # A hardness scale named by its inventor asks for that scale: "what Brinell hardness" is not
    # answered by "HRC 40-45".
    (re.compile(r"\bbrinell\b", re.I), re.compile(r"\d\s*HBW?(?![A-Z])|(?<![A-Z])HBW?\s*\d", re.I)),
    (
        re.compile(r"\brockwell\b", re.I),
        re.compile(r"\d\s*HR[A-C](?![A-Z])|(?<![A-Z])HR[A-C]\s*\d", re.I),
    ),
    (
        re.compile(r"\bvickers\b", re.I),
        re.compile(r"\d\s*HV\d*(?![A-Z])|(?<![A-Z])HV\d*\s*\d", re.I),
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
    _DURATION,
    (
        re.compile(r"\b(?:price|cost|costs|kosten|pris)\b", re.I),
        re.compile(r"\d\s*(?:€|\$|£|EUR|USD|SEK|kr)|(?:€|\$|£)\s*\d", re.I),
    ),
)


#: Geometric tolerances a question may ask for, with the words and the symbol a line stating one
#: shows: "what flatness is the clamping face held to" is not answered by the face's hardness.
_GEOMETRIC = (
    ("flatness|ebenheit|planhet", "平面度|⏥"),
    ("straightness|geradheit|rakhet", "直线度|⏤"),
    ("parallelism|parallelität|parallellitet", "平行度|∥|//"),
    ("perpendicularity|squareness|rechtwinkligkeit|vinkelräthet", "垂直度|⊥"),
    ("roundness|circularity|rundheit|rundhet", "圆度|○"),
    ("cylindricity|zylinderform|cylindricitet", "圆柱度|⌭"),
    ("concentricity|coaxiality|koaxialität|koncentricitet", "同轴度|◎"),
    ("runout|rundlauf|kast", "跳动|↗"),
)
_QUANTITIES += tuple(
    (re.compile(rf"\b(?:{words})\b", re.I), re.compile(rf"{words}|{marks}", re.I))
    for words, marks in _GEOMETRIC
)
# "How flat must the face be": a flatness, asked in plain words; "FLAT WITHIN .002" states one.
_QUANTITIES += (
    (
        re.compile(r"\bhow flat\b", re.I),
        re.compile(r"\bflat(?:ness)?\b|ebenheit|planhet|平面度|⏥", re.I),
    ),
)


def asks_quantity(question: str) -> bool:
    """Whether the question asks for one of the quantities of :data:`_QUANTITIES`."""
    return any(asks.search(question) for asks, _ in _QUANTITIES)


def states_quantity(question: str, quote: str) -> bool:
    """Whether a line states every quantity the question asks for (by its units). The torque a part
    can transmit is not the torque its screws are tightened to."""
    if _TORQUE_CAPACITY.search(question) and _TIGHTENING.search(quote):
        return False
    asked = [units for asks, units in _QUANTITIES if asks.search(question)]
    if not asked:
        return True
    # "Eht 0.6" states a depth in German: its English sense says "case hardening depth 0.6".
    said = f"{quote}\n{translate(quote)}"
    return all(units.search(said) for units in asked)


#: A question about the torque a part carries (a coupling's rating), not a screw's tightening.
_TORQUE_CAPACITY = re.compile(
    r"\btorque\b.*\b(?:transmit\w*|transfer\w*|carr(?:y|ies)|withstand\w*|handle)\b"
    r"|\b(?:rated|nominal|transmissible|slip)\s+torque\b|\btorque\s+(?:capacity|rating)\b",
    re.I,
)

#: A line giving the torque to tighten something to.
_TIGHTENING = re.compile(
    r"\btorque\s+to\b|\btighten\w*|\banzieh\w*|\banzugsmoment\w*|\båtdrag\w*|拧紧",
    re.I,
)


#: A question asking a torque (the first of :data:`_QUANTITIES`).
TORQUE_ASKED = _QUANTITIES[0][0]
#: A question asking how long a process runs.
DURATION_ASKED = _DURATION[0]
