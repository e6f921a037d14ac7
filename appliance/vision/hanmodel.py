"""The lines of a Chinese drawing read again by a neural line recogniser.

Tesseract's Chinese model, even after the re-reading of ``hanlines``, leaves much of a Chinese
drawing unreadable: notes come out as Latin junk ("2. RHC, WEEE 8~12pm" for
"2.表面镀锌钝化，镀层厚度8~12um"), "淬火" as "淳火", sign-offs as "BK: HN" (审核：孙磊), and the
CJK font's "±" as a 4 ("9040.05" for "90±0.05"). The line recogniser of
:mod:`appliance.vision.linemodel` reads the same line boxes right. Each upright line of the page
is read by it in runs of words (a cell's rule or a wide gap ends a run, so a table row keeps a word
per cell), and its reading replaces Tesseract's when it is sure and one of these holds:

- it has Chinese characters, no fewer than Tesseract's reading (fewer: the crop cut one off), and,
  on a line Tesseract read confidently, the same digits;
- it has a "±" where Tesseract's reading has a 4 and is otherwise the same;
- Tesseract was unsure of the line and the model is very sure.

A confident Tesseract line with other digits keeps its own: the model is not trusted to change a
number that Tesseract read surely. The recogniser's alphabet has no diameter sign: it reads "⌀" as a
leading 0 ("010H7"), which no number on a drawing has, so such a 0 is the sign again.

Two more readings: the ruled cells in which Tesseract found no text at all (whole columns of a
parts list), and the title block's Chinese values in their cells.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

import numpy as np

from appliance.document import Box
from appliance.vision.hanlines import UNSURE_CONF, digits, has_han, joined_han, words_in_box
from appliance.vision.imageops import binarise
from appliance.vision.linemodel import LineModel
from appliance.vision.ocrlines import OcrLine, OcrWord
from appliance.vision.titleblock import TitleBlock
from appliance.vision.titlegrid import find_cells

#: Least mean character probability of a reading that may replace a line.
SURE = 0.8
#: Least mean character probability of a reading without Chinese that replaces an unsure line.
VERY_SURE = 0.9
#: Margin around a line's box, as a share of its height (the box is tight on the ink).
_MARGIN = 0.15
#: A 0 that starts a number: the diameter sign read by a model that has none.
_LEADING_ZERO = re.compile(r"(?<![\d.,:/\-])0(?=\d)")
#: Block number of the lines read from cells Tesseract left empty (Tesseract numbers from 1).
CELL_BLOCK = 0
#: Height in pixels a cell may have on any page (a tenth of the page on a big one).
_TALLEST_CELL = 120
#: Fewest ink pixels of a cell worth reading (specks and the stubs of ruling lines are fewer).
_MIN_INK = 20
#: A cell's rule between two words of a line.
_RULE_INSIDE = re.compile(r"\S\s*[|\[\]「」]\s*\S")
#: Words that are a cell's rule read as a character.
_RULES = frozenset({"|", "[", "]", "「", "」"})
#: Gap between two words, in line heights, that parts them into runs read separately.
_GAP = 3.0
#: The model's full-width punctuation as Tesseract writes it ("审核 : 孙磊"), which the title-block
#: and note readers split on; its "×" as the "x" of "4xM8".
_SPACED = str.maketrans({"：": " : ", "，": ", ", "；": "; ", "（": " (", "）": ") ", "×": "x"})
#: Full-width punctuation as ASCII, to compare two readings.
_FULL_WIDTH = str.maketrans({"：": ":", "，": ",", "；": ";", "（": "(", "）": ")", "×": "x"})


def with_model_readings(gray: np.ndarray, lines: list[OcrLine], model: LineModel) -> list[OcrLine]:
    """``lines`` with the runs of words the model reads better replaced (see the module); ``gray``
    is the page the lines' boxes are in."""
    out = list(lines)
    for index, line in enumerate(lines):
        if line.source_pass != "upright" or any(w.vertical for w in line.words):
            continue
        words: list[OcrWord] = []
        for run in runs(line.words):
            words.extend(_read_run(gray, run, model))
        if words != list(line.words):
            out[index] = dataclasses.replace(line, words=tuple(words))
    return out


def with_fields_read_by_model(gray: np.ndarray, block: TitleBlock, model: LineModel) -> None:
    """A Chinese title block's Chinese values read again where their cell is known: the block's
    own reading gives "克明 nM 细栏" for "见明细栏" (see the parts list). A value without Chinese
    is the block reader's, and so are its digits; a reading with fewer Chinese characters read
    a box that holds part of the value only ("法" of "法兰盘")."""
    for name, value in list(block.fields.items()):
        box = block.boxes.get(name)
        if box is None or not has_han(value):
            continue
        crop = _crop(gray, box)
        if crop is None:
            continue
        reading = model.read(crop)
        read = reading.text.translate(_SPACED)
        if (
            reading.conf >= SURE
            and has_han(read)
            and _han_count(read) >= _han_count(value)
            and digits(read) == digits(value)
            and _compact(read) != _compact(value)
        ):
            block.fields[name] = " ".join(joined_han(read.split()))


def cells_read_by_model(gray: np.ndarray, lines: list[OcrLine], model: LineModel) -> list[OcrLine]:
    """Lines for the ruled cells that hold ink but no word Tesseract read: on a Chinese parts list
    it finds no text at all in whole columns (名称, 数量), which the model reads cell by cell. Each
    is one upright line of one word with the box of the cell's ink, so the table reader puts it in
    its column; the lines are of a block of their own (:data:`CELL_BLOCK`)."""
    ink = binarise(gray)
    read = [w.box for line in lines for w in line.words]
    page_h, page_w = gray.shape
    found: list[OcrLine] = []
    for cell in find_cells(gray, max(20, min(page_h, page_w) // 40)):
        box = cell.box
        if box.x1 - box.x0 > page_w / 2 or box.y1 - box.y0 > max(page_h / 10, _TALLEST_CELL):
            continue  # the drawing's area, a view's frame: not a cell of a table
        if any(_overlap(box, other) for other in read):
            continue
        inside = _ink_box(ink, box)
        if inside is None:
            continue
        crop = _crop(gray, inside)
        reading = model.read(crop) if crop is not None else None
        if reading is None or reading.conf < SURE or not reading.text.strip():
            continue
        spaced = reading.text.translate(_SPACED)
        words = words_in_box(joined_han(spaced.split()), inside, reading.conf * 100)
        found.append(OcrLine(words=words, block=CELL_BLOCK, source_pass="upright"))
    return found


def _overlap(a: Box, b: Box) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _ink_box(ink: np.ndarray, cell: Box) -> Box | None:
    """The box of the ink inside a cell, its ruling lines left out; None for an empty cell."""
    border = 4
    x0, y0 = int(cell.x0) + border, int(cell.y0) + border
    inner = ink[y0 : int(cell.y1) - border, x0 : int(cell.x1) - border]
    if inner.size == 0 or np.count_nonzero(inner) < _MIN_INK:
        return None
    ys, xs = np.nonzero(inner)
    return Box(float(x0 + xs.min()), float(y0 + ys.min()), x0 + xs.max() + 1.0, y0 + ys.max() + 1.0)


def runs(words: Sequence[OcrWord]) -> list[list[OcrWord]]:
    """A line's words in runs that are read as one: a wide gap or a cell's rule ("序号 | 代号")
    ends a run, so a parts-list row keeps a word per cell where its columns are."""
    out: list[list[OcrWord]] = []
    for word in words:
        height = word.box.y1 - word.box.y0
        rule = word.text in _RULES
        if (
            not out
            or rule
            or out[-1][-1].text in _RULES
            or word.box.x0 - out[-1][-1].box.x1 > _GAP * height
        ):
            out.append([word])
        else:
            out[-1].append(word)
    return out


def _read_run(gray: np.ndarray, run: list[OcrWord], model: LineModel) -> list[OcrWord]:
    if run[0].text in _RULES:
        return run
    box = run[0].box
    for word in run[1:]:
        box = box.union(word.box)
    outer = _margined(gray, box)
    if outer is None:
        return run
    # A cell's rule inside the run (Tesseract read two cells as one word): each side is read
    # alone, as the model would join the two cells' text.
    parts: list[tuple[Box, str, float]] = []
    for part in _between_rules(gray, outer):
        reading = model.read(gray[int(part.y0) : int(part.y1), int(part.x0) : int(part.x1)])
        if reading.text:
            parts.append((part, reading.text, reading.conf))
    if not parts:
        return run
    text = " ".join(w.text for w in run)
    conf = sum(w.conf for w in run) / len(run)
    read = " | ".join(t for _, t, _ in parts)
    taken = taken_reading(text, conf, read, min(c for _, _, c in parts))
    if taken is None:
        return run
    if len(parts) > 1:
        taken_parts = [(b, _with_diameters(t), c) for b, t, c in parts]
    else:
        taken_parts = [(box, taken, parts[0][2])]
    words: list[OcrWord] = []
    for part_box, part_text, part_conf in taken_parts:
        # Full-width punctuation as Tesseract writes it ("审核 : 孙磊"), which the title-block
        # and note readers split on.
        spaced = part_text.translate(_SPACED)
        words.extend(words_in_box(joined_han(spaced.split()), part_box, part_conf * 100))
    return words


def _between_rules(gray: np.ndarray, box: Box) -> list[Box]:
    """``box`` cut at the vertical ruling lines inside it (columns dark from top to bottom)."""
    x0, y0, x1, y1 = int(box.x0), int(box.y0), int(box.x1), int(box.y1)
    # Dark over the whole height, the margin above and below the words included: a character's
    # stroke stops at the words' box, a rule runs on.
    full = np.flatnonzero((gray[y0:y1, x0:x1] < 128).mean(axis=0) >= 0.95)
    parts: list[Box] = []
    left = 0
    for column in [*full.tolist(), x1 - x0]:
        if column - left >= 4:
            parts.append(Box(float(x0 + left), float(y0), float(x0 + column), float(y1)))
        left = column + 1
    return parts


def taken_reading(line_text: str, line_conf: float, read: str, read_conf: float) -> str | None:
    """The model's reading when it replaces Tesseract's line (see the module), else None."""
    if not read or read_conf < SURE:
        return None
    if _RULE_INSIDE.search(line_text):
        return None  # "序号 | 代号": two cells, which the model, blind to rules, would join
    if _han_count(read) < _han_count(line_text):
        return None  # Chinese the model lost at the crop's edge ("改文件号" for "更改文件号")
    read = _with_diameters(read)
    if _compact(read) == _compact(line_text):
        return None
    if _bare(read) == _bare(line_text) and len(_compact(read)) < len(_compact(line_text)):
        return None  # a reading that only lost punctuation ("3." read "3")
    plus_minus = "±" in read and _compact(read.replace("±", "4")) == _compact(line_text)
    if plus_minus:
        return read
    if line_conf >= UNSURE_CONF and digits(read) != digits(line_text):
        return None
    if has_han(read):
        return read
    if line_conf < UNSURE_CONF and read_conf >= VERY_SURE:
        return read
    return None


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", text.translate(_FULL_WIDTH)).casefold()


def _with_diameters(read: str) -> str:
    """The model's reading with its stand-ins for the diameter sign (a leading 0, Φ) as "⌀"."""
    return _LEADING_ZERO.sub("⌀", read.replace("Φ", "⌀"))


def _han_count(text: str) -> int:
    return sum(1 for ch in text if has_han(ch))


def _bare(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _crop(gray: np.ndarray, box: Box) -> np.ndarray | None:
    outer = _margined(gray, box)
    if outer is None:
        return None
    return gray[int(outer.y0) : int(outer.y1), int(outer.x0) : int(outer.x1)]


def _margined(gray: np.ndarray, box: Box) -> Box | None:
    """``box`` with its margin around it, cut to the page in whole pixels; None when less than
    4 px remain either way."""
    margin = max(2, int((box.y1 - box.y0) * _MARGIN))
    x0, y0 = max(0, int(box.x0) - margin), max(0, int(box.y0) - margin)
    x1 = min(gray.shape[1], int(box.x1) + margin)
    y1 = min(gray.shape[0], int(box.y1) + margin)
    if y1 - y0 < 4 or x1 - x0 < 4:
        return None
    return Box(float(x0), float(y0), float(x1), float(y1))
