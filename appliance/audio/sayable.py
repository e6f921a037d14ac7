"""Text as an English voice can say it: Chinese in English or pinyin, drawing marks in words.

The appliance's voices (Piper's en_US voice and espeak-ng's en-us) read a Chinese character as
"Chinese letter", so an answer quoting a Chinese drawing ("表面镀锌") was heard as a row of
"Chinese letter"s, and a short note took 13 seconds to say. They say nothing for a diameter sign
("⌀40 H7" was heard as "487") and "slash" for a tolerance pair. :func:`sayable` rewrites a sentence
before it is synthesised:

- a known drawing term of Chinese is said by its English sense ("镀锌" -> "galvanised"), from the
  drawing glossary (:mod:`appliance.drawing_terms`);
- characters the glossary does not know are said in pinyin without tones ("李华" -> "Li Hua"; a
  name of two to four characters is written as a name, surname first);
- the English sense the index writes after a Chinese title-block line ("镀锌 (galvanised)"), or
  an answer after a value ("镀锌, galvanised"), is not said twice;
- Chinese punctuation becomes its Latin counterpart, so the voice pauses where the text does, and
  a Chinese block's sheet cell ("共 2 张 第 1 张") is said as "sheet 1 of 2";
- a date written year first is said as a date ("2024-11-04" -> "November 4, 2024"), and a
  decimal comma as a point ("0,12 kg");
- a drawing number named as one ("drawing FL-3306") is said as people read one out, letter by
  letter and digit by digit ("F L, 3 3 0 6");
- drawing marks become words: the diameter signs, plus-or-minus, a tolerance's two deviations,
  micrometres, a scale's ratio ("1 to 2"), the roughness parameters letter by letter
  ("R.A. 3.2"), at most / at least, and the geometric tolerance symbols.

The status page and the answer's text keep the original; only what is said changes. The pinyin
table comes from the ``pypinyin`` package's character file (one reading per character, the first
it lists), read as data without importing that package: 13 MB and 70 ms at the first Chinese
sentence, where its full converter takes 55 MB.
"""

from __future__ import annotations

import importlib.util
import json
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from appliance.drawing_terms import english

_HAN = re.compile(r"[\u3400-\u9fff]+")
#: One Chinese character left in the glossary's English rendering (it keeps unknown ones).
_HAN_CHAR = re.compile(r"[\u3400-\u9fff]")
#: A Chinese run followed by the English sense the index wrote after it, in brackets.
_GLOSSED = re.compile(r"([\u3400-\u9fff]+)\s*\(([^()]*)\)")

#: A phrase said again right after a comma.
_REPEATED = re.compile(r"\b([^\W\d_][\w ]*?)(?:,\s*\1\b)+", re.IGNORECASE)

#: A Chinese block's sheet cell: "共 2 张 第 1 张" (2 sheets in all, this the first), either order.
_SHEETS = (
    (re.compile(r"共\s*(\d+)\s*张\s*第\s*(\d+)\s*张"), r" sheet \2 of \1 "),
    (re.compile(r"第\s*(\d+)\s*张\s*共\s*(\d+)\s*张"), r" sheet \1 of \2 "),
    (re.compile(r"第\s*(\d+)\s*张"), r" sheet \1 "),
    (re.compile(r"共\s*(\d+)\s*张"), r" \1 sheets "),
)

#: A drawing number of letters and digit groups ("FL-3306", "KMM-2024-017"), where it is named as
#: one ("drawing FL-3306", "the drawing number is FL-3306"): a material's designation of the same
#: shape ("EN AW-6061") is said as people say it, "sixty sixty-one".
_DRAWING_NUMBER = re.compile(
    r"(?:(?<=\b[Dd]rawing )|(?<=\bnumber is ))([A-Z]{2,4})((?:-\d{2,}){1,3})\b"
)

#: Chinese punctuation -> what an English voice pauses at.
_PUNCTUATION = str.maketrans(
    {
        "，": ", ",
        "、": ", ",
        "。": ". ",
        "；": "; ",
        "：": ": ",
        "（": " (",
        "）": ") ",
        "！": "! ",
        "？": "? ",
        "～": " to ",
    }
)

#: Drawing marks -> words, in order (a signed tolerance pair before a lone sign).
_MARKS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # "⌀40", "Ø 12", "Φ20", "∅6": the diameter signs of ISO, ANSI and Chinese drawings.
    (re.compile(r"[⌀∅]\s*"), " diameter "),
    (re.compile(r"[ØøΦφϕ]\s*(?=\d)"), " diameter "),
    # Standing alone ("Ø H7"); inside a word it is a letter.
    (re.compile(r"(?<![^\W\d_])[ØøΦφϕ](?![^\W\d_])"), " diameter "),
    (re.compile(r"±\s*"), " plus or minus "),
    # "+0.02/-0.01": a tolerance's upper and lower deviation.
    (
        re.compile(r"(?<![\w.])\+\s*(\d[\d.,]*)\s*/\s*-\s*(\d[\d.,]*)"),
        r" plus \1, minus \2",
    ),
    # "0/-0.1": an upper deviation of nought written without its sign.
    (
        re.compile(r"(?<![\w.])0\s*/\s*-\s*(\d[\d.,]*)"),
        r" plus 0, minus \1",
    ),
    (re.compile(r"(?<![\w.])\+(?=\d)"), " plus "),
    (re.compile(r"(?<![\w.])-(?=\d)"), " minus "),
    # The micro sign is often typed, or read by OCR, as "u" ("15 um", "63 uin").
    (re.compile(r"(?<=\d)\s*[µμu]m\b"), " micrometres"),
    (re.compile(r"(?<=\d)\s*[µμu]in\b"), " microinches"),
    # A decimal comma ("0,12 kg", "Ra 3,2") was said as a pause between two numbers; a comma
    # before three digits is a thousands separator and stays.
    (re.compile(r"(?<=\d),(?=\d{1,2}(?!\d))"), "."),
    # "Ra 3.2" was heard as "raw 3.2": the roughness parameters are said letter by letter.
    (re.compile(r"\bR([az])(?=\s*\d)"), lambda m: f"R.{m.group(1).upper()}."),
    # A scale "1:2" is "1 to 2", not "1 colon 2".
    (re.compile(r"(?<![\d:])(\d+)\s*:\s*(\d+)(?![\d:])"), r"\1 to \2"),
    # "2 OF 3" in a sheet cell: capitals are read as a shout, and "OF" was heard as "or".
    (re.compile(r"(?<=\d )OF(?= \d)"), "of"),
    (re.compile(r"≤\s*"), " at most "),
    (re.compile(r"≥\s*"), " at least "),
)

#: The geometric tolerance symbols -> their names.
_GEOMETRIC = str.maketrans(
    {
        "⏥": " flatness ",
        "⏤": " straightness ",
        "∥": " parallelism ",
        "⊥": " perpendicularity ",
        "⌭": " cylindricity ",
        "◎": " concentricity ",
        "↗": " runout ",
        "⌖": " position ",
    }
)


@lru_cache(maxsize=1)
def _pinyin_table() -> dict[str, str]:
    """Character -> its first pinyin reading without tones; empty when pypinyin is not installed."""
    spec = importlib.util.find_spec("pypinyin")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / "pinyin_dict.json"
    try:
        readings: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    table: dict[str, str] = {}
    for code, listed in readings.items():
        first = listed.split(",", 1)[0]
        # Tone marks are combining accents once decomposed; "ü" is said as "u" by an English voice.
        plain = "".join(
            ch for ch in unicodedata.normalize("NFD", first) if not unicodedata.combining(ch)
        )
        table[chr(int(code))] = plain
    return table


def pinyin(run: str) -> list[str]:
    """The toneless pinyin syllables of a run of Chinese characters ("李华" -> ["li", "hua"]).

    A character the table lacks (or every character, without pypinyin) is left out: saying
    nothing for it beats "Chinese letter"."""
    table = _pinyin_table()
    return [table[ch] for ch in run if ch in table]


def _as_name(syllables: list[str]) -> str:
    """Pinyin of a Chinese name as a name is written: surname, then the given name joined."""
    surname, *given = syllables
    return " ".join(part.capitalize() for part in (surname, "".join(given)) if part)


def _said_han(run: str) -> str:
    """A run of Chinese characters as an English voice can say it."""
    sense = english(run)
    if sense is None:
        syllables = pinyin(run)
        if 2 <= len(syllables) <= 4 and len(syllables) == len(run):
            return _as_name(syllables)  # a run the glossary knows nothing of is mostly a name
        return " ".join(syllables)
    # The glossary keeps each unknown character as it is; those are said in pinyin.
    return _HAN_CHAR.sub(lambda m: " ".join(pinyin(m.group(0))), sense)


def _drop_index_gloss(match: re.Match[str]) -> str:
    """A Chinese run without the brackets after it when they hold its own English sense:
    "镀锌 (galvanised)" -> "镀锌"."""
    run, inside = match.group(1), match.group(2)
    sense = english(run)
    if sense is not None and " ".join(inside.split()) == " ".join(sense.split()):
        return run
    return match.group(0)


_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

#: A date written year first: "2024-11-04", "2026.05.20", "2026/01/08".
_DATE = re.compile(r"\b((?:19|20)\d\d)([-./])(\d{1,2})\2(\d{1,2})\b")


def _said_date(match: re.Match[str]) -> str:
    """A date as a date, "2024-11-04" -> "November 4, 2024": read as digits it was heard as
    "2020 4-11-04"."""
    year, month, day = int(match.group(1)), int(match.group(3)), int(match.group(4))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return match.group(0)
    return f"{_MONTHS[month - 1]} {day}, {year}"


def _spelled_number(match: re.Match[str]) -> str:
    """A drawing number read out, "FL-3306" -> "F L, 3 3 0 6": the voice said "fell 3306" and was
    heard "a fell 3,306"; said as people read a drawing number out, it was heard "FL 3306"."""
    groups = [" ".join(group) for group in match.group(2).split("-") if group]
    return ", ".join([" ".join(match.group(1)), *groups])


def sayable(text: str) -> str:
    """``text`` as an English voice can say it (see the module's description)."""
    if _HAN.search(text):
        text = _GLOSSED.sub(_drop_index_gloss, text)
        for sheet, said in _SHEETS:
            text = sheet.sub(said, text)
        text = text.translate(_PUNCTUATION)
        text = _HAN.sub(lambda m: f" {_said_han(m.group(0))} ", text)
    for mark, words in _MARKS:
        text = mark.sub(words, text)
    text = text.translate(_GEOMETRIC)
    text = _DATE.sub(_said_date, text)
    text = _DRAWING_NUMBER.sub(_spelled_number, text)
    # The rewrites leave doubled spaces and spaces before punctuation.
    text = re.sub(r"\s+([,.;:!?)])", r"\1", text)
    text = re.sub(r"\s{2,}", " ", text).strip()
    # "镀锌, galvanised" (a value and its sense) is "galvanised, galvanised" once translated.
    return _REPEATED.sub(r"\1", text)
