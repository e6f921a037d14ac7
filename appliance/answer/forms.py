"""Questions a line answers by its form: a roughness, the units of the dimensions, a colour.

A drawing often states these without the words a question uses: the roughness symbol carries only
"Ra 12", the colour sits in the material cell ("ABS, BLACK"), the units in a note the scanner half
read ("ALL DIME IONS IN MM"). When no line shares the question's words, the asked drawing's lines in
the asked form answer — provided they agree: two different roughness values on one drawing belong to
different surfaces, and the question did not say which.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from appliance.answer.context import Source, same_page
from appliance.answer.extractive import Extract, line_units, with_value
from appliance.answer.subjects import identity_terms, names_file, subject_sources
from appliance.answer.terms import term_matches, terms


@dataclass(frozen=True)
class Form:
    """A kind of value a question may ask for, and how a line shows it."""

    #: Short name of the kind ("roughness", "units", "colour").
    name: str
    #: Matches a question asking for this kind of value.
    asks: re.Pattern[str]
    #: Matches the value in a line; its text, lower-cased, is what two lines must agree on.
    shows: re.Pattern[str]


_COLOURS = (
    r"black|white|red|blue|green|yellow|gr[ae]y|silver|orange|natural|"
    r"schwarz|wei(?:ß|ss)|rot|blau|gr(?:ü|ue)n|gelb|grau|natur|"
    r"svart|vit|röd|blå|grön|gul|grå"
)

FORMS: tuple[Form, ...] = (
    Form(
        "roughness",
        re.compile(r"\brough\w*|\bsurface finish\b|rauheit|rauhigkeit|ytjämnhet|粗糙度", re.I),
        # A stray glyph of the roughness symbol may stick to it ("LRz 2.5"), a lower-case letter
        # may not ("Para 3" is no roughness).
        re.compile(r"(?<![a-z])(?:Ra|Rz)\s*\d+(?:[.,]\d+)?"),
    ),
    Form(
        "units",
        re.compile(r"\bunits?\b|\bmetric\b|\bimperial\b|\beinheit\w*|\benhet\w*|单位", re.I),
        re.compile(
            r"\b(?:in|units?:?|maße in|mått i)\s+(?:mm|millimet\w+|inch\w*)(?!\w)"
            r"|\bmillimet(?:er|re)s\b|\binches\b|单位\s*[:：]?\s*mm",
            re.I,
        ),
    ),
    Form(
        "colour",
        re.compile(r"\bcolou?rs?\b|\bfarbe\b|\bfärg\w*|颜色", re.I),
        re.compile(rf"\bRAL\s*\d{{4}}\b|\b(?:{_COLOURS})\b|[黑白红蓝绿黄灰]色", re.I),
    ),
)


def _meaning(form: Form, shown: str) -> str:
    """What a shown value says, for comparing two lines: "IN MM" and "MILLIMETERS" agree."""
    shown = re.sub(r"\s+", " ", shown).lower()
    if form.name == "units":
        return "mm" if re.search(r"mm|millimet", shown) else "inch"
    return shown.replace(",", ".")


def asked_form(question: str) -> Form | None:
    """The form of value the question asks for, or None."""
    return next((form for form in FORMS if form.asks.search(question)), None)


def form_extract(question: str, form: Form, sources: Sequence[Source]) -> Extract | None:
    """The line of the drawing the question names showing the value in ``form``, when all its
    lines that show one agree on it (the shortest such line is quoted); None otherwise."""
    subject = subject_sources(question, "", sources)[:1]
    if not subject:
        return None
    src = subject[0]
    # Only a drawing the question names: "what colour is the impeller" names none of them.
    ident = identity_terms(src)
    if not names_file(question, src) and not any(term_matches(t, ident) for t in terms(question)):
        return None
    drawing = same_page(src, sources)
    found: list[tuple[int, str]] = []
    values: set[str] = set()
    for part in drawing:
        lines = line_units(part.text)
        for i in range(len(lines)):
            quote = with_value(lines, i)
            shown = form.shows.findall(quote)
            if shown:
                found.append((part.number, quote))
                values.update(_meaning(form, v) for v in shown)
    if not found or len(values) != 1:
        return None
    number, quote = min(found, key=lambda f: len(f[1]))
    return Extract(number, quote[:300], "", 0.5)
