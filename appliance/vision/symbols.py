"""Normalising the engineering text OCR mangles: diameters, plus-minus, degrees, N·m, decimal commas.

Tesseract's English model has never seen a diameter sign and reads it as ``@``, ``©``, ``O`` or
``Ø``; it reads ``R0.5`` as ``RO.5`` and ``±`` as ``+/-`` or ``£``. The rules below only fire next to
digits, so ordinary words ("OR", "Obernkirchen") pass untouched.
"""

from __future__ import annotations

import re

#: The one diameter sign the index stores (U+2300); searches for Ø or ∅ are folded to it too.
DIAMETER = "\u2300"

_DIAMETER_VARIANTS = re.compile(r"[Ø∅ø\u2205]")
# A diameter misread as @ © ® or "O@" in front of a number, or after a count like "2x" / "4 x".
_DIAMETER_MISREAD = re.compile(r"(?:(?<=^)|(?<=[\s(x×X]))(?:O@|@O|[@©®]|[Oo0](?=[@©]))(?=\s?\d)")
# A diameter read as a leading zero: "038" is not how a drawing writes 38 (only "0.5" starts with 0).
_DIAMETER_AS_ZERO = re.compile(
    r"(?:(?<=^)|(?<=[\s(x×X]))0(?=[1-9]\d*(?:[.,]\d+)?(?:\s?[A-Za-z]\d{1,2})?(?:\s|$|[±+]))"
)
# A diameter read as the letter O: no word starts with O followed only by a number ("O42", "O38 H12").
_DIAMETER_AS_O = re.compile(
    r"(?:(?<=^)|(?<=[\s(x×X]))[Oo](?=\d+(?:[.,]\d+)?(?:\s?[A-Za-z]\d{1,2})?(?:\s|$|[±+]))"
)
# The sign read twice, as itself and as a leading zero: "⌀038".
_DOUBLE_READ_DIAMETER = re.compile(r"⌀0(?=[1-9])")
_DIAMETER_AFTER_COUNT = re.compile(r"(?<=\d[x×X])\s?[Oo@©®](?=\d)")
_PLUS_MINUS = re.compile(r"\+\s?/\s?-|\+-(?=\s?\d)|£(?=\s?\d)")
_DEGREE = re.compile(r"(?<=\d)\s?[º˚](?!\w)")
_NEWTON_METRE = re.compile(r"(?<=\d)\s?N\s?[.\-*•·x]?\s?m\b")
# Letter O or o inside a number ("RO.5", "1O0", "0,O5") and l/I inside a number ("1l.5").
_O_IN_NUMBER = re.compile(r"(?<=[\dR.,±+\-⌀])[Oo](?=[\d.,])|(?<=[R⌀±+\-])[Oo](?=[.,]\d)")
_O_BEFORE_DECIMAL = re.compile(r"(?<![A-Za-z])[Oo](?=[.,]\d)")
_L_IN_NUMBER = re.compile(r"(?<=\d)[lI|](?=[\d.,])|(?<=[.,])[lI|](?=\d)")
# Not a thousands separator: "$43,456.78" and "1,234,567" keep their commas (a comma followed by
# three digits and another separator, or following one).
_DECIMAL_COMMA = re.compile(r"(?<=\d)(?<!,\d{3}),(?=\d)(?!\d{3}[.,]\d)")
_SPACE_IN_PLUS_MINUS = re.compile(r"±\s+(?=\d)")
# A lone "+t" closing a dimension with no lower deviation is a "±t" read without its minus bar:
# ISO 129 tolerances always give both deviations.
_LONE_PLUS_TOLERANCE = re.compile(r"^(?P<head>.*\d)\s+\+(?P<tol>\d+(?:\.\d+)?)$")


def normalise_symbols(text: str) -> str:
    """Engineering-symbol clean-up of one word or line; digits and letters elsewhere are kept."""
    text = _DIAMETER_VARIANTS.sub(DIAMETER, text)
    text = _DIAMETER_MISREAD.sub(DIAMETER, text)
    text = _DIAMETER_AFTER_COUNT.sub(DIAMETER, text)
    text = _DIAMETER_AS_ZERO.sub(DIAMETER, text)
    text = _DIAMETER_AS_O.sub(DIAMETER, text)
    text = _DOUBLE_READ_DIAMETER.sub(DIAMETER, text)
    text = _PLUS_MINUS.sub("±", text)
    text = _SPACE_IN_PLUS_MINUS.sub("±", text)
    text = _DEGREE.sub("°", text)
    text = _NEWTON_METRE.sub(" N·m", text)
    for _ in range(2):  # "1OO" needs two passes: each O is looked at with its neighbours
        text = _O_IN_NUMBER.sub("0", text)
    text = _O_BEFORE_DECIMAL.sub("0", text)
    text = _L_IN_NUMBER.sub("1", text)
    return text


def normalise_decimals(text: str) -> str:
    """Decimal commas to points ("12,5" -> "12.5"); drawings in mm have no thousands separators."""
    return _DECIMAL_COMMA.sub(".", text)


# Drawing-only rules (a line of a drawing made of numbers): the diameter sign read as a letter after a
# count ("2x D19.9") or before a decimal number ("D 16.5", "B60"), and 1 read as i/l ("Bi5").
_DIAMETER_LETTER_AFTER_COUNT = re.compile(r"(?<=\d[x×X])\s?[BDO@©®]\s?(?=\d)")
_DIAMETER_LETTER_LEADING = re.compile(
    r"^[BD]\s?(?=\d+[.,]\d)|^B(?=[i1l]?\d{1,3}(?:\s|$))|^B(?=[i1l|]\s\d{1,2}(?:\s|$))"
)
_FOUR_AS_A = re.compile(r"^A(?=[xX]\s?[⌀\d])")
_ONE_AS_LETTER = re.compile(r"(?<=[⌀\d])[iIl](?=\d)|(?<=⌀)[iIl|]\s(?=\d)")
_PLUS_AS_PLUS_MINUS = re.compile(r"(?<=\d)\s?[+#](?=\d+(?:\.\d+)?$)")


def normalise_dimension_line(text: str) -> str:
    """Line-level rules for a line of a drawing that is made of numbers (see the rules above)."""
    text = _DIAMETER_LETTER_AFTER_COUNT.sub(DIAMETER, text)
    text = _DIAMETER_LETTER_LEADING.sub(DIAMETER, text)
    text = _ONE_AS_LETTER.sub("1", text)
    text = _FOUR_AS_A.sub("4", text)  # "AX ⌀3.2": a hole count read as a letter
    if "-" not in text and "±" not in text:
        # "⌀21.5+0.1", "3 #0.02": a single closing deviation without its partner is a ± (ISO 129).
        # Written with a space, as ISO 129 does: value and tolerance are separate search terms.
        text = _PLUS_AS_PLUS_MINUS.sub(" ±", text)
    match = _LONE_PLUS_TOLERANCE.match(text)
    if match and "-" not in match.group("head") and "±" not in match.group("head"):
        return f"{match.group('head')} ±{match.group('tol')}"
    return text


_EDGE_JUNK = "|[]{}()\"“”‘’`'/\\_~—"


def strip_edge_junk(word: str) -> str:
    """Drop leader ends, frame strokes and stray quotes OCR glues to a word ("4.00|", "“DEBURR").

    Brackets that pair up inside the word ("(25.5)", "[mm]") are kept.
    """
    stripped = word.strip(_EDGE_JUNK)
    if not stripped:
        return word
    start = word.index(stripped)
    end = start + len(stripped)
    for opening, closing in ("()", "[]"):
        if start > 0 and word[start - 1] == opening and end < len(word) and word[end] == closing:
            start, end = start - 1, end + 1
    return word[start:end]


def normalise(text: str) -> str:
    """Everything: symbols, then decimal commas. Used for indexed text and for search queries."""
    return normalise_decimals(normalise_symbols(text))


#: A unit word standing alone after a number: "25 Nm", "4 N-m".
_NEWTON_METRE_WORD = re.compile(r"N\s?[.\-*•·]?\s?m")


#: A steel grade's S read as a dollar sign: "$355J2", "$235JR" (EN 10025: S, three digits, letters).
_DOLLAR_FOR_S = re.compile(r"^\$(?=\d{3}[A-Z]{1,2}\d?\+?[A-Z]*$)")
#: A ruling line or a leader's end read as a small letter glued to the front of a code written in
#: capitals: "rMM-2207-3", "lGB-4410-01".
_STROKE_BEFORE_CODE = re.compile(r"^[rli|](?=[A-Z]{2,}[-_]?\d)")


def mend_code(word: str) -> str:
    """A code's OCR slips: "$355J2" -> "S355J2", "rMM-2207-3" -> "MM-2207-3"."""
    return _STROKE_BEFORE_CODE.sub("", _DOLLAR_FOR_S.sub("S", word))


def normalise_word(word: str) -> str:
    """One OCR word of a drawing: edge junk removed, then :func:`normalise`."""
    word = mend_code(normalise(strip_edge_junk(word)))
    return "N·m" if _NEWTON_METRE_WORD.fullmatch(word) else word


def canonical_for_matching(text: str) -> str:
    """The form two strings are compared in by the benchmarks: normalised, without whitespace."""
    return re.sub(r"\s+", "", normalise(text))
