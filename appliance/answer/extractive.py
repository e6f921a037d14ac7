"""Extractive answers: the best field or line of the sources, quoted with its citation.

It never composes anything: it picks a title-block field the question asks for (from structured
fields when the vision package read the title block, else from ``LABEL: value`` text), or the line
of the sources that shares the most distinctive terms with the question, and quotes it.
:mod:`appliance.answer.finding` decides which kind of extract a question gets; dimensions and table
cells build on the :class:`Extract` and the term matching here.

Longer than the house's ~600 lines: the field rules and the line scoring share one vocabulary of
normalised terms and weights, and a split would put the same term rules in two places.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePosixPath

from appliance.answer.context import Source
from appliance.document import Box
from appliance.drawing_terms import (
    FIELD_NAMES,
    LABELS,
    split_label,
    strip_connective,
    synonyms,
    translate,
)
from appliance.errors import public_name

_WORD = re.compile(r"[^\W_]+(?:[.,][0-9]+)?", re.UNICODE)
_NUMERIC = re.compile(r"^[0-9]+(?:[.,][0-9]+)?$")

#: Abbreviations of drawing templates that are labels too (besides the glossary's words).
_TEMPLATE_LABELS: dict[str, tuple[str, ...]] = {
    "drawing_number": ("DWG NO", "DWG. NO", "DRG NO", "PART NO"),
    "material": ("MATERIAL NO", "WERKSTOFFNUMMER"),
    "drawn_by": ("GEZ", "ERSTELLT"),
    "stock": ("HALBZEUG", "ROHTEIL", "RAW MATERIAL", "STOCK", "ÄMNE"),
    "standard": ("NORM",),
}

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
#: The line that opens a title-block slice (appliance.vision.slicing).
_TITLE_BLOCK_HEADER = re.compile(r"\s*title block\.?\s*$", re.I)
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

    def said(self) -> str:
        """The quote as spoken: the original term, then its English sense where it is not
        English ("Anodiserad, anodised")."""
        return f"{self.quote}, {self.english}" if self.english else self.quote

    def sentence(self) -> str:
        """A field answer as one sentence, without its full stop: "The surface treatment is
        Anodiserad, anodised", "It was drawn by K. Lund", "The drawing states: ALL DIMENSIONS IN MM"."""
        if self.field in _PERSON_VERBS:
            return f"It was {_PERSON_VERBS[self.field]} by {self.said()}"
        if self.field == "units":
            return f"The drawing states: {self.said()}"
        name = FIELD_NAMES.get(self.field, self.field.replace("_", " "))
        return f"The {name} is {self.said()}"


#: The verb of a field that names a person.
_PERSON_VERBS = {
    "drawn_by": "drawn",
    "checked_by": "checked",
    "approved_by": "approved",
    "standardised_by": "standardised",
    "process_by": "signed for process engineering",
}


def normalise(token: str) -> str:
    """Lower-case, decimal comma to point, ``ß`` folded, a diameter sign dropped, umlauts and
    their spellings "ae", "oe", "ue" folded to the plain vowel (a file name writes "fuehrungsschiene"
    where the drawing says "Führungsschiene" and OCR reads "Fuhrungsschiene"): how terms compare."""
    norm = token.lower().replace(",", ".").replace("ß", "ss")
    if norm[:1] in ("ø", "⌀") and _NUMERIC.match(norm[1:]):
        return norm[1:]  # "Ø24.0" in a question is the number 24.0 of a "⌀24.0" callout
    if not norm.isascii():
        norm = "".join(
            ch for ch in unicodedata.normalize("NFKD", norm) if not unicodedata.combining(ch)
        )
    return _UMLAUT_SPELLING.sub(lambda m: m.group(0)[0], norm)


#: "ae", "oe", "ue" after a consonant: how an umlaut is spelt without it ("fuehrung").
_UMLAUT_SPELLING = re.compile(r"(?<=[b-df-hj-np-tv-z])[aou]e")


def terms(text: str) -> list[str]:
    """Normalised content terms of a text (stopwords dropped, numbers kept)."""
    out = []
    for tok in _WORD.findall(text):
        norm = normalise(tok)
        if tok.lower() in STOPWORDS or (len(norm) < 2 and not norm.isdigit()):
            continue
        out.append(norm)
    return out


_FIELD_PHRASES = sorted(
    ((phrase, name) for name, phrases in FIELD_WORDS.items() for phrase in phrases),
    key=lambda item: -len(item[0]),
)


_FIELD_PATTERNS = [
    # A phrase starts a word ("date" is not the end of "update"); Chinese has no word starts.
    (
        re.compile(
            ("" if re.match(r"[\u3400-\u9fff]", phrase) else r"(?<![^\W_])") + re.escape(phrase)
        ),
        phrase,
        name,
    )
    for phrase, name in _FIELD_PHRASES
]


def asked_field(question: str) -> tuple[str, str]:
    """(field, the phrase that named it) for the title-block field a question asks for, or ("", "").

    Longer phrases win: "sheet size" is the size, not the sheet number."""
    q = f" {question.lower()} "
    found = [
        (name, phrase, m) for pattern, phrase, name in _FIELD_PATTERNS if (m := pattern.search(q))
    ]
    if not found:
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


#: "What is drawing X?", "What's on drawing X?", "What part is X?": a drawing asked for by its
#: number, nothing else asked (group 1: the words before the number).
_WHAT_IS_DRAWING = re.compile(
    r"\s*(?:what(?:'s| is)(?: on)?|which part is|what part is)\s+((?:the\s+)?(?:drawing|part)(?:\s+number)?\s+)?"
    r"\S*\d\S*\s*\??\s*$",
    re.I,
)


#: Phrases asking what a part is made of, which may instead name the drawing by its material.
_MADE_OF = ("made of", "made from", "made out of", "cast from", "machined from", "turned from")
#: A material's designation after "made of": a word with a digit or in capitals ("S235JR", "HT200").
_DESIGNATION = re.compile(r"\s*(?:\S*\d|[A-Z]{2,}\b)")
_WHICH_DRAWING = re.compile(r"\b(?:which|what)\s+(drawing|part)\b")


def _term_matches(term: str, unit_terms: Iterable[str]) -> bool:
    if _NUMERIC.match(term):
        value = float(term)
        return any(_NUMERIC.match(u) and float(u) == value for u in unit_terms)
    for u in unit_terms:
        if u == term:
            return True
        # A shared stem of five letters ("tolerance" / "tolerances", "holder" / "holders").
        if len(term) >= 5 and len(u) >= 5 and u[:5] == term[:5]:
            return True
        # A short word and its inflection ("mark" / "marked", "pin" / "pins").
        if term.isalpha() and u.isalpha() and _stem(term) == _stem(u):
            return True
    return False


#: Irregular English verb forms a question uses where a note has the verb's plain form ("edges
#: broken" / "BREAK EDGES", "ground" / "GRIND").
_IRREGULAR = {
    "broken": "break",
    "broke": "break",
    "ground": "grind",
    "bent": "bend",
    "drawn": "draw",
    "held": "hold",
    "made": "make",
    "worn": "wear",
    "wound": "wind",
    "given": "give",
    "shown": "show",
    "built": "build",
    "hung": "hang",
    "struck": "strike",
    "sawn": "saw",
    "spun": "spin",
}


def _stem(word: str) -> str:
    """A word without an English verb or plural ending, when at least three letters stay; an
    irregular verb form as its plain form."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for ending in ("ing", "ed", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def identity_terms(src: Source) -> set[str]:
    """Terms that name a source rather than say something in it: title, drawing number, file name."""
    names = [src.title, src.drawing_number, PurePosixPath(public_name(src.source)).stem]
    names.append(src.fields.get("title", ""))
    out: set[str] = set()
    for name in names:
        out.update(terms(name.replace("_", " ")))
        out.update(terms(name))
        # The English sense of a Swedish or German name: "Kolv Cykelpump" is the bicycle pump piston.
        out.update(terms(translate(name.replace("_", " "))))
    return out


def _label_value(text: str, labels: Sequence[str], field: str = "") -> str:
    """The value written after one of a field's labels in plain text: on the label's line, or, for
    a label ending its line, on the line under it (a note: "SURFACE FINISH:" over "Ra 1.6").
    Never a label: "Surface treatment Ytbehandling" is the label in two languages, no value."""
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
                if _TITLE_BLOCK_HEADER.match(match.group(0)):
                    continue  # the slice's own header, "Title block.", is no title
                value = _after_label(match.group(1), field)
                if value is None:
                    continue  # another field's label follows: this one's value is not here
                if not value:
                    value = _value_below(text, match.end(), field) or _value_in_row(
                        text, match.start(), field
                    )
                if value and _has_form(field, value):
                    return value
    return ""


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
    return not (field in _PERSON_VERBS and any(ch.isdigit() for ch in value))


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
        if k == 0 and not any(ch.isdigit() for ch in line) and _LEAD_IN.search(line):
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
    material or treatment word for those (a text layer's next line is often another label's)."""
    if field in _NUMERIC_FIELDS:
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


_RATIO = re.compile(r"\d+(?:[.,]\d+)?\s*[:/]\s*\d+")
_TOLERANCED = re.compile(r"[⌀Ø]?\d+(?:[.,]\d+)?\s*[±+]")
_WEIGHT = re.compile(r"\d\s*(?:mg|g|kg|t|lbs?|oz)\b", re.I)

#: What a value of these fields must hold (a misread "I2" is no scale, "Micro-Vu Turm" no size).
_FIELD_FORMS: dict[str, re.Pattern[str]] = {
    "weight": _WEIGHT,
    "scale": _RATIO,
    "size": re.compile(r"^(?:A[0-4]|[A-E])$|(?<![^\W_])A[0-4](?![^\W_])"),
    "date": re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}"),
    # A person has a name in letters ("T. WEISS", "TW", "王明"); what follows an empty
    # "Granskad:" cell ("95.5 Q5.5") is someone else's text.
    **dict.fromkeys(
        ("drawn_by", "checked_by", "approved_by"),
        re.compile(r"[^\W\d_]{2}|(?<![^\W\d_])[^\W\d_]\.\s?[^\W\d_](?![^\W\d_])"),
    ),
}

#: A line that leads into a value on the next line ("... anges enligt", "acc. to /").
_LEAD_IN = re.compile(r"(?:\bto|enligt|nach|gemäß|per|:|/)\s*$", re.I)


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
    return found is None or bool(found.rest)


def _subject_sources(question: str, phrase: str, sources: Sequence[Source]) -> list[Source]:
    """The sources the question is about: those matching most of its terms (the field's own words
    aside). When a question names a drawing, a field is never taken from another drawing."""
    asked = question.lower().replace(phrase, " ") if phrase else question
    q_terms = list(dict.fromkeys(terms(asked)))
    if not q_terms:
        return list(sources)
    # A question that gives a file's whole name ("Aufspannung.PDF") is about that file.
    named = [src for src in sources if _names_file(question, src)]
    if named:
        return named
    scored = []
    q_pairs = set(pairwise(q_terms))
    for src in sources:
        text_terms = set(terms(src.text))
        ident = identity_terms(src)
        # Two words of the question side by side in a title block name the part there ("the
        # bearing housing drawing": "轴承座 (bearing housing)"), more than one word of another
        # drawing's file name does ("bearing_sleeve").
        paired = 0
        if src.fields and q_pairs:
            src_terms = terms(src.text)
            paired = len(q_pairs & set(pairwise(src_terms)))
        # A term that names the drawing (its number, its title) identifies it more than one in its
        # text; of two files both named "Aufspannung…", the one the question names whole wins.
        stem = terms(PurePosixPath(public_name(src.source)).stem.replace("_", " "))
        whole = sum(t in q_terms for t in stem) / len(stem) if stem else 0.0
        scored.append(
            (
                sum(_term_matches(t, text_terms) + 2 * _term_matches(t, ident) for t in q_terms)
                + 0.5 * whole
                + 2 * paired,
                src,
            )
        )
    best = max(score for score, _ in scored)
    if best == 0:
        return list(sources)
    # The question is about a drawing, not about one slice of it: the notes of the drawing whose
    # title block it names are that drawing's too ("3. Paint RAL 7035" for "the motor mount
    # plate's colour").
    pages = {(src.source, src.page) for score, src in scored if score == best}
    return [src for src in sources if (src.source, src.page) in pages]


#: Parts a drawing's part may be joined with (their material is not the part's).
_COMPONENTS = frozenset(
    [
        "seal",
        "gasket",
        "o-ring",
        "oring",
        "bolt",
        "screw",
        "nut",
        "washer",
        "spring",
        "bearing",
        "bushing",
        "insert",
        "pin",
        "sleeve",
        "hose",
        "cable",
        "wire",
        "coating",
        "filler",
        "weld",
    ]
)


def _of_a_component(question: str, phrase: str, src: Source) -> bool:
    """ "What seal material do the ports use?": the material of another part than the drawing's,
    unless the drawing is that part (its title or number says "seal")."""
    before = re.search(r"([\w-]+)\s+" + re.escape(phrase), question.lower())
    if before is None or before.group(1) not in _COMPONENTS:
        return False
    return not _term_matches(normalise(before.group(1)), identity_terms(src))


def _names_file(question: str, src: Source) -> bool:
    name = PurePosixPath(public_name(src.source)).name.lower()
    return (
        "." in name
        and re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", question.lower()) is not None
    )


#: Up to four words after "the" or "drawing", to the end of the clause.
_NAMING = re.compile(r"\b(?:the|drawing)\s+((?:[^\W_][\w.-]*\s+){0,3}[^\W_][\w.-]*)")
#: Words of a question that name no drawing or part: how it is asked, not what about.
_ASKING_WORDS = frozenset(
    [
        "required",
        "require",
        "requires",
        "need",
        "needs",
        "needed",
        "apply",
        "applies",
        "applied",
        "use",
        "uses",
        "used",
        "specified",
        "specify",
        "given",
        "give",
        "called",
        "call",
        "shown",
        "show",
        "shows",
        "drawn",
        "draw",
        "made",
        "make",
        "get",
        "gets",
        "take",
        "takes",
        "part",
        "parts",
        "piece",
        "component",
        "item",
        "drawing",
        "drawings",
        "say",
        "says",
        "stated",
        "state",
        "states",
        "written",
        "mean",
        "means",
        "put",
        "go",
        "goes",
        "value",
        "values",
        "here",
        "please",
        "tell",
        "know",
    ]
)


def names_absent(question: str, phrase: str, sources: Sequence[Source]) -> bool:
    """Whether the question names something (besides the field it asks) that none of the sources
    is or mentions: "the material of the crankshaft drawing" when no drawing says crankshaft."""
    asked = question.lower().replace(phrase, " ") if phrase else question.lower()
    # A drawing is named after "the" or "drawing" ("the crankshaft drawing", "drawing A-1025");
    # words that say how the question is put ("does the part need") name nothing.
    named = " ".join(m.group(1) for m in _NAMING.finditer(asked))
    words = [t for t in terms(named) if t not in _ASKING_WORDS]
    if not words:
        return False
    for src in sources:
        # The English sense of a Swedish, German or Chinese word counts as its own ("Oberfläche").
        said = set(terms(src.text)) | set(terms(translate(src.text))) | identity_terms(src)
        # A code as a recogniser writes it ("A1024") names "A-1024" too.
        said |= {compact_code(t) for t in said}
        said |= {compact_code(n) for n in (src.drawing_number, src.title) if n}
        # "The pin bore" is the "Bolzenbohrung" (bolt hole): a word's glossary synonyms count.
        if _names_file(question, src) or any(
            _term_matches(w, said) for t in words for w in (t, *synonyms(t))
        ):
            return False
    return True


def compact_code(text: str) -> str:
    """Letters and digits only, lower case: "A-1024" and "A1024" alike."""
    return re.sub(r"[\W_]+", "", text.lower())


def _names_something(question: str, phrase: str) -> bool:
    """Whether the question has words besides the field's own (a drawing's name, a part)."""
    asked = question.lower().replace(phrase, " ") if phrase else question
    return bool(terms(asked))


def field_extract(
    question: str, field: str, phrase: str, sources: Sequence[Source]
) -> Extract | None:
    """The value of a title-block field from the source the question is about, with the box it is
    written in when the title-block reader kept it, and its English sense when it is not English.

    When the question's words name none of the sources, only the best-ranked one is asked: a field
    is not fished from whichever drawing happens to have it. When none of them even mentions a
    word of the question besides the field's ("the crankshaft drawing"), the question is about a
    drawing that is not there, and nothing answers."""
    subject = _subject_sources(question, phrase, sources)
    if len(subject) == len(sources) and _names_something(question, phrase):
        if names_absent(question, phrase, sources):
            return None
        subject = list(sources[:1])
    for src in subject:
        if field == "material" and _of_a_component(question, phrase, src):
            continue
        box = src.field_boxes.get(field)
        if field == "drawing_number" and src.drawing_number:
            return Extract(src.number, src.drawing_number, field, 1.0, box)
        if field == "revision" and src.revision:
            return Extract(src.number, src.revision, field, 1.0, box)
        value = src.fields.get(field, "")
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


def _with_value(units: list[str], i: int) -> str:
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
        if k == i + 1 and not digits and _LEAD_IN.search(unit) and _LEAD_IN.search(following):
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
    ("Beyond Mech" in a question about the BeyondMech drawing). Terms with digits ("H12", "21.5")
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
    aspects = []
    for t in q_terms:
        if _term_matches(t, ident):
            continue
        if (
            others
            and not any(ch.isdigit() for ch in t)
            and any(_term_matches(t, st) for st in subject_terms)
            and not any(_term_matches(t, ot) for ot in other_terms)
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
    subject = _subject_sources(question, "", sources)
    others = [s for s in sources if s not in subject]
    aspects = _aspect_terms(q_terms, subject, others)
    if not aspects:
        return None
    candidates: list[tuple[int, str, set[str]]] = []
    for src in subject:
        units = _units(src.text)
        for i in range(len(units)):
            if _TITLE_BLOCK_HEADER.match(units[i]):
                continue  # the slice's header says nothing
            quote = _with_value(units, i)
            if quote.rstrip().endswith(":") or is_bare_label(quote) or _label_then_label(quote):
                continue  # a label without its value
            # The English sense of Swedish, German and Chinese words counts as theirs.
            candidates.append((src.number, quote, set(terms(quote)) | set(terms(translate(quote)))))
    if not candidates:
        return None
    n = len(candidates)
    weights = {
        t: math.log(1 + n / (1 + sum(_term_matches(t, c[2]) for c in candidates))) for t in q_terms
    }
    total = sum(weights.values()) or 1.0
    # A line that shares only a bare number with a question in words ("who won the world cup in
    # 2022", "Date: 2022-08-26") is about something else; a size ("the 25 mm wall") designates.
    worded = [t for t in aspects if not _bare_number(t, question)] or aspects
    best: tuple[float, int, int, str] | None = None
    for order, (number, quote, quote_terms) in enumerate(candidates):
        if not any(_term_matches(t, quote_terms) for t in worded):
            continue
        if not any(not _term_matches(u, q_terms) for u in quote_terms):
            continue  # says nothing the question did not
        if accept is not None and not accept(quote):
            continue
        matched = sum(w for t, w in weights.items() if _term_matches(t, quote_terms))
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
    return sum(_term_matches(t, t_terms) for t in q_terms) / len(q_terms)
