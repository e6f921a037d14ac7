"""Title-block fields: which one a question asks for, and its value read after its label.

A field is asked for by its English words or a glossary label ("Werkstoff", "材料"); its value is
the structured field the vision package read from the title block, else the text after its label on
the same line, on the line under it, or in the row of values under a row of labels. A value must
have the field's form (a scale is a ratio, a weight has its unit), and is spoken with its English
sense where it is not English.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from appliance.answer.context import Source
from appliance.answer.extractive import LEAD_IN, PERSON_VERBS, TITLE_BLOCK_HEADER, Extract
from appliance.answer.subjects import (
    names_absent,
    names_something,
    of_a_component,
    subject_sources,
)
from appliance.drawing_terms import LABELS, english, split_label, strip_connective, translate

#: Abbreviations of drawing templates that are labels too (besides the glossary's words).
_TEMPLATE_LABELS: dict[str, tuple[str, ...]] = {
    "drawing_number": ("DWG NO", "DWG. NO", "DRG NO", "PART NO"),
    "material": ("MATERIAL NO", "WERKSTOFFNUMMER"),
    "drawn_by": ("GEZ", "ERSTELLT"),
    "stock": ("HALBZEUG", "ROHTEIL", "RAW MATERIAL", "STOCK", "ÄMNE"),
    "standard": ("NORM",),
}


#: Title-block fields: the field's key and the words a question uses for it (matched at the start
#: of a word; the longest phrase found wins: "surface finish" is the roughness, "finish" alone the
#: treatment).
FIELD_WORDS: dict[str, tuple[str, ...]] = {
    "material": (
        "material",
        "werkstoff",
        "made of",
        "made from",
        "made out of",
        "cast from",
        "machined from",
        "turned from",
        "printed in",
        "materialet",
        "steel grade",
        "what steel",
        "which steel",
        "what alloy",
        "casting alloy",
        "cast iron",
        "iron grade",
        "what metal",
        "which metal",
    ),
    "scale": ("scale", "massstab", "maßstab", "skala"),
    "title": (
        "title",
        "titel",
        "called",
        "name of the part",
        "part name",
        "what part is",
        "which part is",
        "what is the part on",
        "benennung",
        "benämning",
    ),
    "drawing_number": (
        "drawing number",
        "dwg no",
        "dwg number",
        "dwg #",
        "drawing #",
        "drawing no",
        "identification number",
        "zeichnungsnummer",
        "ritningsnummer",
        "part number",
        "part no",
        "article number",
        "artikelnummer",
        "sachnummer",
    ),
    # "What issue is it at": the revision (an issue date is asked with "when was ... issued").
    "revision": ("revision", "rev ", "änderung", "version", "issue", "utgåva"),
    "sheet": ("sheet", "blatt", "which page"),
    "weight": ("weight", "weigh", "how heavy", "mass of", "its mass", "gewicht", "vikt"),
    "date": ("date", "datum", "when was"),
    "size": (
        "paper size",
        "paper format",
        "sheet size",
        "sheet format",
        "size sheet",
        "size paper",
        "format",
    ),
    "drawn_by": (
        "drawn by",
        "who drew",
        "author",
        "designer",
        "who designed",
        "designed by",
        "gezeichnet",
        "created by",
        "who created",
        "erstellt",
        "ritad av",
    ),
    "checked_by": (
        "checked by",
        "who checked",
        "reviewed by",
        "who reviewed",
        "reviewer",
        "geprüft",
    ),
    "approved_by": (
        "approved by",
        "who approved",
        "approver",
        "signed off",
        "sign off",
        "okayed",
        "ok'd",
        "authorised",
        "authorized",
        "released by",
        "who released",
        "freigegeben",
        "godkänd",
    ),
    "surface_treatment": (
        "surface treatment",
        "treatment",
        "treated",
        "coating",
        "coated",
        "finish",
        "anodis",
        "anodiz",
        "plating",
        "plated",
        "ytbehandling",
        "oberflächenbehandlung",
    ),
    "heat_treatment": (
        "heat treatment",
        "heat treated",
        "heat treat",
        "hardened",
        "hardness",
        "wärmebehandlung",
        "värmebehandling",
    ),
    "roughness": (
        "roughness",
        "surface finish",
        "surface texture",
        "surface quality",
        "ra value",
        "what ra ",
        "which ra ",
        "how rough",
        "how smooth",
        "ytjämnhet",
        "rauheit",
        "oberflächengüte",
    ),
    "general_tolerance": (
        "general tolerance",
        "linear tolerance",
        "angular tolerance",
        "unless otherwise",
        "unless defined otherwise",
        "unless stated",
        "if not indicated",
        "not otherwise",
        "tolerance standard",
        "tolerances standard",
        "untoleranced",
        "where none is",
        "where no tolerance",
        "iso 2768",
        "allmän tolerans",
        "allgemeintoleranz",
        "未注公差",
    ),
    "project": ("project", "course code", "course", "projekt", "kurs"),
    "quantity": (
        "quantity",
        "how many pieces",
        "how many parts",
        "how many of",
        "need to make",
        "to be made",
        "need to produce",
        "how many off",
        "antal",
        "anzahl",
        "stückzahl",
    ),
    "department": ("department", "abteilung", "avdelning"),
    # What the part is machined from: the bar or blank, not the material grade.
    "stock": (
        "bar stock",
        "what bar stock",
        "which bar stock",
        "what stock",
        "which stock",
        "blank",
        "semi-finished",
        "raw material",
        "cut from",
        "halbzeug",
        "rohteil",
    ),
    # The standard a part is made to ("DIN 71752"), not the standard of its general tolerances.
    # (A general tolerance's standard is asked with longer words: "untoleranced", "general tolerance".)
    "standard": ("standard", "made to", "norm"),
    "technical_reference": ("technical reference", "technische referenz", "teknisk referens"),
    "document_type": ("document type", "type of document", "kind of document", "dokumentart"),
    "document_status": ("document status", "status of the", "dokumentstatus"),
    "owner": ("legal owner", "who owns", "owner"),
    # GB/T 10609.1 blocks: the stage mark, the company, two more sign-offs, and the
    # approval's own date ("when was it approved" asks the date, which such a block gives as this).
    "stage": ("stage mark", "stage", "阶段标记"),
    "company": ("company", "单位名称"),
    "standardised_by": (
        "standardisation",
        "standardization",
        "standardised",
        "standardized",
        "标准化",
    ),
    "process_by": ("process engineer", "process engineering", "process planning", "工艺"),
    "approved_date": ("approval date", "date of approval", "approved on", "date approved"),
    "units": ("units", "what unit", "which unit", "in millimetres", "in millimeters", "in inches"),
}

#: The text labels of those fields on a title block, any case: the glossary's labels in English,
#: Swedish, German and Chinese, and abbreviations of drawing templates.
FIELD_LABELS: dict[str, tuple[str, ...]] = {
    name: tuple(
        dict.fromkeys(
            [label.upper() if "ß" not in label else label for label in LABELS.get(name, ())]
            + list(_TEMPLATE_LABELS.get(name, ()))
        )
    )
    for name in FIELD_WORDS
}
_ALL_LABELS = sorted({lab for labs in FIELD_LABELS.values() for lab in labs}, key=len, reverse=True)


_LABEL_SET = frozenset(label.upper() for label in _ALL_LABELS)
_NEXT_LABEL = re.compile(
    r"\s+(?:" + "|".join(re.escape(lab) for lab in _ALL_LABELS) + r")\b\.?\s*:?", re.I
)
#: A field's value written without its label: a roughness, a general-tolerance standard.
_VALUE_FORMS: dict[str, re.Pattern[str]] = {
    "roughness": re.compile(r"(?<![^\W\d_])(?:Ra|Rz)\s*\d+(?:[.,]\d+)?(?:\s*µm)?"),
    "general_tolerance": re.compile(
        r"(?:(?:DIN|SS|EN|BS)[- ])?(?:ISO|EN)\s*(?:2768|22081)(?:-\d)?(?:[- ]?[a-z]{1,2}[A-Z]?)?"
        r"|GB/T\s*1804(?:-[a-z])?"
    ),
    "units": re.compile(
        r"(?:ALL\s+)?DIMENSIONS\s+(?:ARE\s+)?IN\s+(?:MM|MILLIMET[ER]{2}S?|INCH(?:ES)?|\"mm\")", re.I
    ),
}
#: Fields whose value holds a number (a weight, a roughness, a standard, a ratio, a count).
_NUMERIC_FIELDS = ("weight", "roughness", "general_tolerance", "scale", "quantity", "sheet", "date")


_FIELD_PHRASES = sorted(
    ((phrase, name) for name, phrases in FIELD_WORDS.items() for phrase in phrases),
    key=lambda item: -len(item[0]),
)


_FIELD_PATTERNS = [
    # A phrase starts a word ("date" is not the end of "update"); Chinese has no word starts. An
    # "-ion" after it makes another noun: "projection" asks first or third angle, not the project.
    (
        re.compile(
            ("" if re.match(r"[\u3400-\u9fff]", phrase) else r"(?<![^\W_])")
            + re.escape(phrase)
            + r"(?!ion\b)"
        ),
        phrase,
        name,
    )
    for phrase, name in _FIELD_PHRASES
]


def asked_field(question: str) -> tuple[str, str]:
    """(field, the phrase that named it) for the title-block field a question asks for, or ("", "").

    Longer phrases win: "sheet size" is the size, not the sheet number."""
    # "The date on the title block" asks for the date: the sheet's part names no field. Masked
    # with spaces, so the positions of the other words stay the question's.
    q = _TITLE_BLOCK.sub(lambda m: " " * len(m.group(0)), f" {question.lower()} ")
    # "Called out to MIL-A-8625" is how a drawing states a requirement, not what a part is called.
    q = _CALLED_OUT.sub(lambda m: " " * len(m.group(0)), q)
    found = [
        (name, phrase, m) for pattern, phrase, name in _FIELD_PATTERNS if (m := pattern.search(q))
    ]
    if not found:
        chinese = _chinese_label(question)
        if chinese is not None:
            return chinese
        # "What is drawing JJ-4820-00?": what the drawing shows is its title.
        what = _WHAT_IS_DRAWING.match(question)
        return ("title", what.group(1) or "") if what else ("", "")
    name, phrase, match = found[0]
    # q is the question with a space before it: its positions are one past the question's.
    if (
        name == "material"
        and phrase in _MADE_OF
        and _DESIGNATION.match(question[match.end() - 1 :])
    ):
        # "the one made of EN AC-43400": the material names the drawing; the field asked is
        # another ("what scale is the one made of ..."), or the drawing itself ("which drawing").
        others = [(n, p) for n, p, _ in found if n != "material"]
        if others:
            return others[0]
        which = _WHICH_DRAWING.search(q)
        if which:
            return ("drawing_number" if which.group(1) == "drawing" else "title"), which.group(0)
    return name, phrase


#: Title-block labels in Chinese, longest first: a question asked in Chinese names its field by
#: the label ("谁设计的" asks who 设计, designed).
_CHINESE_LABELS = sorted(
    (
        (label, name)
        for name, labels in FIELD_LABELS.items()
        for label in labels
        if re.fullmatch(r"[\u3400-\u9fff]+", label)
    ),
    key=lambda item: -len(item[0]),
)


def _chinese_label(question: str) -> tuple[str, str] | None:
    """(field, label) for the longest Chinese label a question says, or None."""
    return next(((name, label) for label, name in _CHINESE_LABELS if label in question), None)


#: "What is drawing X?", "What's on drawing X?", "What part is X?": a drawing asked for by its
#: number, nothing else asked (group 1: the words before the number).
_WHAT_IS_DRAWING = re.compile(
    r"\s*(?:what(?:'s| is)(?: on)?|which part is|what part is)\s+((?:the\s+)?(?:drawing|part)(?:\s+number)?\s+)?"
    r"\S*\d\S*\s*\??\s*$",
    re.I,
)


#: The sheet's title block, which names no field ("the date on the title block").
_TITLE_BLOCK = re.compile(r"title[\s-]?blocks?\b")
#: A drafting call-out ("called out to", "calls out"), which asks for no title.
_CALLED_OUT = re.compile(r"\bcall(?:ed|s)?[\s-]out\b")

#: Phrases asking what a part is made of, which may instead name the drawing by its material.
_MADE_OF = ("made of", "made from", "made out of", "cast from", "machined from", "turned from")
#: A material's designation after "made of": a word with a digit or in capitals ("S235JR", "HT200").
_DESIGNATION = re.compile(r"\s*(?:\S*\d|[A-Z]{2,}\b)")
_WHICH_DRAWING = re.compile(r"\b(?:which|what)\s+(drawing|part)\b")


def _label_value(
    text: str, labels: Sequence[str], field: str = "", want: Callable[[str], bool] | None = None
) -> str:
    """The value written after one of a field's labels in plain text: on the label's line, or, for
    a label ending its line, on the line under it (a note: "SURFACE FINISH:" over "Ra 1.6").
    Never a label: "Surface treatment Ytbehandling" is the label in two languages, no value.
    ``want``: a further test the value must pass."""
    # Two passes: "SCALE: 1:5" (a label with its colon) is surer than a label opening a line
    # ("SCALE 1 : 2" under a section view is the view's scale, not the drawing's).
    # Longest labels first; where one matched, a shorter one at the same place is part of it
    # ("APPROVED BY" is not "APPROVED" with the value "BY").
    taken: set[int] = set()
    for strict in (True, False):
        for label in sorted(labels, key=len, reverse=True):
            if strict:
                pattern = re.compile(
                    r"(?<![^\W\d_])" + re.escape(label) + r"\.?[ \t]*:[ \t]*([^\n]*)", re.I
                )
            else:
                pattern = re.compile(
                    r"^[ \t]*" + re.escape(label) + r"\b\.?[ \t]*([^\n]*)", re.I | re.M
                )
            for match in pattern.finditer(text):
                start = match.start() + len(match.group(0)) - len(match.group(0).lstrip())
                if start in taken:
                    continue
                taken.add(start)
                if TITLE_BLOCK_HEADER.match(match.group(0)):
                    continue  # the slice's own header, "Title block.", is no title
                value = _after_label(match.group(1), field)
                if value is None:
                    continue  # another field's label follows: this one's value is not here
                if not value:
                    value = _value_below(text, match.end(), field) or _value_in_row(
                        text, match.start(), field
                    )
                if value and _has_form(field, value) and (want is None or want(value)):
                    return value
    return ""


def labelled_value(text: str, labels: Sequence[str], want: Callable[[str], bool]) -> str:
    """The value written after (or under) one of ``labels`` in plain text that passes ``want``;
    "" when there is none. For labels outside the title-block fields ("QA", "MFG APPR")."""
    return _label_value(text, labels, "", want)


def _after_label(rest: str, field: str) -> str | None:
    """What follows a label on its line, without the label's second language and joining words;
    None when another field's label follows it."""
    cut = _NEXT_LABEL.search(" " + rest)
    if cut is not None:
        rest = (" " + rest)[: cut.start()]
    rest = rest.strip(" :;,.")
    if rest.startswith("/"):
        rest = rest.lstrip("/ ")
    found = split_label(rest)
    if found is not None:
        if field and found.field != field:
            return None
        rest = found.rest
    rest = strip_connective(rest).strip(" :;,./")
    return "" if rest.endswith(":") else rest


def _is_label_line(line: str) -> bool:
    """Whether a line is a field's label alone ("Rohteil", "Werkstoff", "MATL:")."""
    found = split_label(line)
    if found is not None and not found.rest:
        return True
    return line.strip(" .:").upper() in _LABEL_SET


def _value_in_row(text: str, pos: int, field: str) -> str:
    """The value of a label in a row of labels read before the row of their values: "Werkstoff",
    "Rohteil", "Oberflächenbehandlung" then "18CrNiMo7-6", "Rd 50 x 36", "siehe Anm. 3" — the
    label's place in its row is its value's place in the next."""
    lines = text.split("\n")
    at = text.count("\n", 0, pos)
    if not 0 <= at < len(lines) or not _is_label_line(lines[at]):
        return ""
    start = at
    while start > 0 and _is_label_line(lines[start - 1]):
        start -= 1
    end = at + 1
    while end < len(lines) and _is_label_line(lines[end]):
        end += 1
    count = end - start
    values = [line.strip() for line in lines[end : end + count]]
    if count < 2 or len(values) < count or any(not v or _is_label_line(v) for v in values):
        return ""
    # Every pair of the two rows must fit, or the rows were not read in the same order (a scan's
    # cells come out of OCR in any order).
    for label, value in zip(lines[start:end], values, strict=True):
        if not _fits(_label_field(label), value):
            return ""
    value = values[at - start]
    return value if len(value) <= 40 and _fits(field, value) else ""


def _label_field(label: str) -> str:
    """The field a label alone names ("" when none is known)."""
    found = split_label(label)
    if found is not None:
        return found.field
    upper = label.strip(" .:").upper()
    return next((f for f, labels in FIELD_LABELS.items() if upper in labels), "")


def _fits(field: str, value: str) -> bool:
    """Whether a value read by its place can be the field's: its form, a number in a drawing
    number, none in a person's name."""
    if not field:
        return True
    if not _has_form(field, value):
        return False
    if field == "drawing_number" and not any(ch.isdigit() for ch in value):
        return False
    return not (field in PERSON_VERBS and any(ch.isdigit() for ch in value))


def _value_below(text: str, pos: int, field: str) -> str:
    """The line under a label that ends its line, when it is a value of the field: not a label, and
    with a number for the fields written with one. One line continuing the label (its second
    language, "generella toleranser där ej annat anges enligt") may stand between them."""
    following = [line.strip() for line in text[pos:].split("\n")[1:4]]
    for k, line in enumerate(following[:2]):
        if not line:
            return ""
        found = split_label(line)
        if found is not None:
            if found.field == field and found.rest and _has_form(field, found.rest):
                return found.rest
            if found.field != field:
                return ""
            continue  # the label again, in its other language
        if len(line) <= 40 and _has_form(field, line) and _looks_like(field, line):
            return line
        if k == 0 and not any(ch.isdigit() for ch in line) and LEAD_IN.search(line):
            continue  # the label's second line
        return ""
    return ""


#: Words of materials and treatments written in English (in other languages the glossary knows them).
_MATERIAL_WORDS = re.compile(
    r"anodi[sz]ed|galvani[sz]ed|painted|plated|powder|oxide|zinc|chrom|nickel|polished|hardened|"
    r"untreated|steel|alumin|brass|copper|plastic|stainless|PLA\b|ABS\b|POM\b",
    re.I,
)


def _looks_like(field: str, line: str) -> bool:
    """Whether a line under a label can be its value: a number for the fields written with one; a
    material or treatment word for those (a text layer's next line is often another label's).
    A label of no field ("QA") leaves the test to its caller."""
    if not field or field in _NUMERIC_FIELDS:
        return True
    if field == "material" and _MATERIAL_GRADE.match(line.strip()):
        return True
    if field in ("material", "surface_treatment"):
        return bool(_MATERIAL_WORDS.search(line)) or translate(line) != line
    return False


#: A material's grade as standards write it: letters then digits ("HT200", "Q235", "C45E",
#: "S235JR", "AlMg3"), digits then alloying elements ("42CrMo4", "16MnCr5"), a number and 钢.
#: Sheet sizes ("A3") and threads ("M8") have the first form too and are left out.
_MATERIAL_GRADE = re.compile(
    r"^(?!A[0-5]$)(?!M\d)(?:[A-Z][A-Za-z]{0,3}\d{2,4}[A-Z0-9-]*|\d{2}[A-Z][a-z]?(?:[A-Z][a-z]?)*\d[\d-]*"
    r"|\d{2,4}\s*钢)$"
)


RATIO = re.compile(r"\d+(?:[.,]\d+)?\s*[:/]\s*\d+")
_TOLERANCED = re.compile(r"[⌀Ø]?\d+(?:[.,]\d+)?\s*[±+]")
WEIGHT = re.compile(r"\d\s*(?:mg|g|kg|t|lbs?|oz)\b", re.I)

#: What a value of these fields must hold (a misread "I2" is no scale, "Micro-Vu Turm" no size).
_FIELD_FORMS: dict[str, re.Pattern[str]] = {
    "weight": WEIGHT,
    "scale": RATIO,
    "size": re.compile(r"^(?:A[0-4]|[A-E])$|(?<![^\W_])A[0-4](?![^\W_])"),
    "date": re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}"),
    # A person has a name in letters ("T. WEISS", "TW", "王明"); what follows an empty
    # "Granskad:" cell ("95.5 Q5.5") is someone else's text.
    **dict.fromkeys(
        ("drawn_by", "checked_by", "approved_by"),
        re.compile(r"[^\W\d_]{2}|(?<![^\W\d_])[^\W\d_]\.\s?[^\W\d_](?![^\W\d_])"),
    ),
}


def _has_form(field: str, value: str) -> bool:
    """Whether ``value`` can be the field's value: a number in those written with one (a weight
    with its unit), and not a label of any field."""
    if field in _NUMERIC_FIELDS and not any(ch.isdigit() for ch in value):
        return False
    if field in _FIELD_FORMS and not _FIELD_FORMS[field].search(value):
        return False
    if field == "general_tolerance" and _TOLERANCED.match(value):
        return False  # "12 ±0.1": a dimension with its own tolerance, not the general one
    found = split_label(value)
    if found is None:
        return True
    # The index writes a label's English sense after it: "单位名称 (company)" is a label alone.
    rest = found.rest.strip(" ()")
    return bool(rest) and rest.lower() != (english(found.label) or "").lower()


def field_extract(
    question: str, field: str, phrase: str, sources: Sequence[Source]
) -> Extract | None:
    """The value of a title-block field from the source the question is about, with the box it is
    written in when the title-block reader kept it, and its English sense when it is not English.

    When the question's words name none of the sources, only the best-ranked one is asked: a field
    is not fished from whichever drawing happens to have it. When none of them even mentions a
    word of the question besides the field's ("the crankshaft drawing"), the question is about a
    drawing that is not there, and nothing answers."""
    subject = subject_sources(question, phrase, sources)
    if len(subject) == len(sources) and names_something(question, phrase):
        if names_absent(question, phrase, sources):
            return None
        subject = list(sources[:1])
    for src in subject:
        if field == "material" and of_a_component(question, phrase, src):
            continue
        box = src.field_boxes.get(field)
        if field == "drawing_number" and src.drawing_number:
            return Extract(src.number, src.drawing_number, field, 1.0, box)
        if field == "revision" and src.revision:
            return Extract(src.number, src.revision, field, 1.0, box)
        value = src.fields.get(field, "")
        if value and _has_form(field, value) and _latin_scraps_in_chinese(value, src.text):
            # The cell's Chinese read by the Latin model ("Rae ri" for 发黑): the label's line,
            # read again by the Chinese model, holds the value when it is there.
            again = _label_value(src.text, FIELD_LABELS.get(field, ()), field, _has_han)
            if again:
                box, value = None, again
        if not (value and _has_form(field, value)):
            box = None
            value = _label_value(src.text, FIELD_LABELS.get(field, ()), field)
        if not value and field in _VALUE_FORMS:
            # Written without a label: "3. Oberfläche Ra 3,2", "Tolerierung ISO 2768-mK".
            form = _VALUE_FORMS[field].search(src.text)
            value = form.group(0).strip() if form else ""
        if value:
            return Extract(src.number, value, field, 1.0, box, _english(field, value))
    return None


#: Chinese characters.
_HAN = re.compile(r"[\u3400-\u9fff]")
#: Nothing but scraps of one to three Latin letters ("Rae ri", "ee x"): what the Latin model makes
#: of Chinese characters.
_SCRAPS = re.compile(r"[^\W\d_]{1,3}(?:[\s.,;:'|-]+[^\W\d_]{1,3})*")


def _has_han(text: str) -> bool:
    """Whether a text holds Chinese characters."""
    return _HAN.search(text) is not None


def _latin_scraps_in_chinese(value: str, text: str) -> bool:
    """Whether a field's value is Latin scraps on a drawing written in Chinese."""
    return _SCRAPS.fullmatch(value.strip()) is not None and _HAN.search(text) is not None


#: Fields whose values are codes, numbers or names, never words to translate.
_UNTRANSLATED = (
    "drawing_number",
    "revision",
    "scale",
    "sheet",
    "size",
    "date",
    "quantity",
    "units",
)


def _english(field: str, value: str) -> str:
    """The English sense of a value in Swedish, German or Chinese ("" when it is English already,
    or a code or a name)."""
    if field in _UNTRANSLATED or field.endswith("_by"):
        return ""
    sense = translate(value)
    return sense if sense.lower() != value.lower() else ""
