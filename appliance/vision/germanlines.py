"""Words of a German drawing read again with the German model: umlauts and ß, nothing else.

A page is read with the English model (``ocr_languages``): it reads numbers, tolerances and drawing
symbols best, and a page read whole with the German model loses many of them ("⌀", "±", digits).
But the English model has no umlauts or ß: it reads "Oberfläche brüniert" as "Oberflache briiniert"
and "Maßstab" as "MaBstab", which no glossary word and no spoken answer can use.

So on a page whose words are German title-block words (:data:`GERMAN_CUES`), the lines with words
are cut out, laid in one image and read once more with the German model. A word of the second
reading replaces its twin of the first only when the two differ in letters alone: the digits,
signs and punctuation of the word must be the same, so a size or a tolerance never changes here.
"""

from __future__ import annotations

import dataclasses
import logging
import re

import numpy as np

from appliance.spelling import fold
from appliance.vision.errors import OcrError
from appliance.vision.mosaic import RowWord, cut_row, read_rows
from appliance.vision.ocrlines import OcrLine, OcrPage
from appliance.vision.settings import VisionSettings
from appliance.vision.symbols import normalise_word
from appliance.vision.titleblock import TitleBlock

log = logging.getLogger(__name__)

#: German title-block and note words, folded (no umlauts, ß as "ss", lower case) as the English
#: model leaves them readable; words shared with Swedish or English ("Datum", "Name") are left out.
GERMAN_CUES = frozenset(
    {
        "benennung",
        "werkstoff",
        "massstab",
        "mabstab",
        "gezeichnet",
        "gepruft",
        "geprueft",
        "zeichnungsnummer",
        "zeichnungsnr",
        "oberflache",
        "oberflachenbehandlung",
        "gewicht",
        "blatt",
        "anderung",
        "stuckliste",
        "menge",
        "halbzeug",
        "rohteil",
        "freigabe",
        "freigegeben",
        "bearbeiter",
        "allgemeintoleranzen",
        "werkstuck",
        "gebrochen",
        "entgratet",
    }
)
#: A page is German when this many different cue words are on it.
MIN_CUES = 2
#: Most lines read again per page (one call; keeps it small on a page full of text).
MAX_LINES = 80
#: Least confidence of a German word that replaces the English reading.
_SURE_CONF = 60
#: A word with this many letters or more may hold an umlaut worth reading again.
_MIN_LETTERS = 3

_LETTERS = re.compile(r"[^\W\d_]")


def is_german(lines: list[OcrLine]) -> bool:
    """Whether the page's words hold at least :data:`MIN_CUES` different German cue words."""
    found = set()
    for line in lines:
        for word in line.words:
            folded = fold(word.text.strip(".:;,()"))
            if folded in GERMAN_CUES:
                found.add(folded)
                if len(found) >= MIN_CUES:
                    return True
    return False


def _worded(line: OcrLine) -> bool:
    """A line with a word that may hold an umlaut: letters, of a few at least."""
    return any(len(_LETTERS.findall(w.raw_text)) >= _MIN_LETTERS for w in line.words)


def _skeleton(word: str) -> str:
    """The word without its letters: digits, signs and punctuation in order."""
    return _LETTERS.sub("", word)


def _merged(line: OcrLine, reading: list[RowWord]) -> OcrLine:
    """``line`` with each word the German reading read differently in letters alone (same
    skeleton, about the same length, sure enough) replaced; its box stays the English word's."""
    if len(reading) != len(line.words):
        return line  # words split or joined differently: the two readings do not pair up
    words = list(line.words)
    changed = False
    for i, (word, (_, text, conf)) in enumerate(zip(line.words, reading, strict=True)):
        if (
            text != word.raw_text
            and conf >= _SURE_CONF
            and _skeleton(text) == _skeleton(word.raw_text)
            and abs(len(text) - len(word.raw_text)) <= 2
        ):
            words[i] = dataclasses.replace(
                word, text=normalise_word(text), raw_text=text, conf=max(word.conf, conf)
            )
            changed = True
    return dataclasses.replace(line, words=tuple(words)) if changed else line


def with_german_words_reread(
    gray: np.ndarray, lines: list[OcrLine], settings: VisionSettings, page: OcrPage
) -> list[OcrLine]:
    """``lines`` with the words of their upright worded lines read again in
    ``settings.german_languages`` (see the module); ``gray`` is the page the lines' boxes are in.
    A failing call leaves them as they were."""
    spots = [
        i
        for i, line in enumerate(lines)
        if line.source_pass == "upright"
        and not any(w.vertical for w in line.words)
        and _worded(line)
    ][:MAX_LINES]
    if not spots:
        return lines
    try:
        readings = read_rows(
            [cut_row(gray, lines[i].box) for i in spots],
            dataclasses.replace(settings, ocr_languages=settings.german_languages),
        )
    except OcrError as err:
        page.warnings.append(f"German words not read again: {err.code}")
        log.warning("German-word pass skipped: %s", err)
        return lines
    lines = list(lines)
    for index, reading in zip(spots, readings, strict=True):
        lines[index] = _merged(lines[index], reading)
    return lines


def german_spellings(before: list[OcrLine], after: list[OcrLine]) -> dict[str, str]:
    """English-model word -> German-model word for every word the German reading changed, when
    the English one was always changed to the same German one ("briiniert" -> "brüniert"): what
    a title-block value read by the English model becomes."""
    seen: dict[str, set[str]] = {}
    for old, new in zip(before, after, strict=True):
        if old is new:
            continue
        for a, b in zip(old.words, new.words, strict=True):
            if a.text != b.text:
                seen.setdefault(a.text, set()).add(b.text)
    return {word: next(iter(spelt)) for word, spelt in seen.items() if len(spelt) == 1}


def respell(block: TitleBlock, spellings: dict[str, str]) -> None:
    """The title block's values and lines with the English model's words spelt as the German
    model read them on the page (:func:`german_spellings`)."""
    if not spellings:
        return
    for name, value in block.fields.items():
        block.fields[name] = " ".join(spellings.get(w, w) for w in value.split(" "))
    block.lines = [
        dataclasses.replace(
            line,
            words=tuple(
                dataclasses.replace(w, text=spellings[w.text], raw_text=spellings[w.text])
                if w.text in spellings
                else w
                for w in line.words
            ),
        )
        for line in block.lines
    ]
