"""Title blocks: find the boxed table in the bottom-right corner, read it on its own, name its fields.

A title block is a grid of cells; each cell holds a small label ("DWG NO.", "Werkstoff", "Scale") and
its value. The grid is found from the ruling lines of the page, the block is cropped and OCRed
separately at a scale suited to its small labels (a whole-page pass reads them badly), and each word is
put into the cell it sits in. A cell whose text begins with a known label gives that field; a label
alone in its cell takes its value from the cell below (table columns such as DATE) or to its right.
"""

from __future__ import annotations

import difflib
import logging
import re
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np

from appliance.document import Box
from appliance.drawing_terms import LABELS, known_spelling, split_label, strip_connective
from appliance.vision.errors import OcrError
from appliance.vision.imageops import binarise, long_line_mask
from appliance.vision.ocr import (
    PSM_LINE,
    OcrLine,
    OcrWord,
    read_page,
)
from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import run_tesseract, title_block_languages
from appliance.vision.titlecells import read_at_heights, read_cells

#: Tesseract page segmentation: one uniform block of text (a wrapped title).
PSM_BLOCK = 6

log = logging.getLogger(__name__)

#: Every field a title block can give, in display order.
FIELDS = (
    "drawing_number",
    "title",
    "revision",
    "material",
    "scale",
    "sheet",
    "size",
    "date",
    "weight",
    "surface_treatment",
    "heat_treatment",
    "roughness",
    "general_tolerance",
    "project",
    "quantity",
    "drawn_by",
    "checked_by",
    "approved_by",
    "department",
    "technical_reference",
    "document_type",
    "document_status",
    "owner",
)
#: Field name -> labels that introduce it, lower case, in English, Swedish, German and Chinese
#: (the glossary's labels).
FIELD_LABELS: dict[str, tuple[str, ...]] = {name: LABELS[name] for name in FIELDS}
_ESZETT = {
    label: re.compile(re.escape(label).replace("ß", "."))
    for labels in FIELD_LABELS.values()
    for label in labels
    if "ß" in label
}
_LABELS = sorted(
    ((label, name) for name, labels in FIELD_LABELS.items() for label in labels),
    key=lambda item: -len(item[0]),
)
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})\b")


class FieldReading(NamedTuple):
    """One reading of a field's value."""

    #: The cleaned value.
    value: str
    #: The lowest confidence of the words it was read from.
    conf: float
    #: Those words (page boxes); empty for values read by a pass that gives no word boxes.
    words: tuple[OcrWord, ...] = ()


@dataclass(frozen=True)
class Cell:
    """One rectangle of the title-block grid, in page coordinates."""

    #: Its box.
    box: Box


@dataclass
class TitleBlock:
    """What was read from a drawing's title block."""

    #: Where it is on the corrected page.
    box: Box
    #: Field name -> value ("" fields are left out).
    fields: dict[str, str] = field(default_factory=dict)
    #: Field name -> where its value is written (page coordinates), for fields read with boxes.
    boxes: dict[str, Box] = field(default_factory=dict)
    #: The OCR lines inside it, page coordinates.
    lines: list[OcrLine] = field(default_factory=list)
    #: Problems met while reading it (a degraded but usable result).
    warnings: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """All text of the block."""
        return "\n".join(line.text for line in self.lines)


def find_cells(gray: np.ndarray, min_line: int) -> list[Cell]:
    """Rectangles enclosed by ruling lines."""
    ink = binarise(gray)
    lines = long_line_mask(ink, min_line)
    # A ruling line that stops a few pixels short of the one it meets (blur, a faint print) would
    # join two cells into one: gaps of up to 6 px are closed, between lines twice the shortest
    # length only (the stems of big lettering are longer than ``min_line`` but must not be joined
    # to the cell's border).
    ruling = long_line_mask(ink, 2 * min_line)
    lines = cv2.bitwise_or(
        lines,
        cv2.bitwise_or(
            cv2.morphologyEx(ruling, cv2.MORPH_CLOSE, np.ones((7, 1), np.uint8)),
            cv2.morphologyEx(ruling, cv2.MORPH_CLOSE, np.ones((1, 7), np.uint8)),
        ),
    )
    lines = cv2.dilate(lines, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(lines), connectivity=4)
    cells = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if w < 8 or h < 8 or area < 0.8 * w * h:
            continue  # not a rectangle: the open drawing area, or a cell cut by a gap in a line
        cells.append(Cell(Box(x, y, x + w, y + h)))
    return cells


def locate(gray: np.ndarray) -> Box | None:
    """The title block's box: the cluster of table cells nearest the bottom-right corner."""
    found = locate_rows(gray)
    return found[0] if found else None


def locate_rows(gray: np.ndarray) -> tuple[Box, Box] | None:
    """The title block's box (see :func:`locate`), and that box grown by the cells its rows
    continue into left of the page's right 70 % (a narrow page's block reaches there: LiU0010's
    tolerance and author cells)."""
    height, width = gray.shape
    factor = min(1.0, 1600 / max(height, width))
    small = (
        cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        if factor < 1
        else gray
    )
    sh, sw = small.shape
    page_area = sh * sw
    candidates = []
    side: list[Box] = []
    for cell in find_cells(small, max(20, sw // 40)):
        b = cell.box
        w, h = b.x1 - b.x0, b.y1 - b.y0
        if not 0.0002 * page_area <= w * h <= 0.08 * page_area:
            continue
        if b.y0 > 0.96 * sh or b.x0 > 0.96 * sw or b.y1 < 0.04 * sh or b.x1 < 0.04 * sw:
            continue  # the zone strip between the outer and inner border
        if h > 0.15 * sh:
            continue  # views and frames, not table rows
        if (b.y0 + b.y1) / 2 < 0.55 * sh:
            continue
        if (b.x0 + b.x1) / 2 < 0.3 * sw:
            if (b.x0 + b.x1) / 2 >= 0.05 * sw:
                side.append(b)
            continue
        candidates.append(b)
    if len(candidates) < 3:
        return None
    # Grow a cluster from the cell nearest the bottom-right corner through touching cells.
    gap = 0.004 * max(sh, sw)
    seed = max(candidates, key=lambda b: b.x1 + b.y1)
    cluster = [seed]
    remaining = [b for b in candidates if b is not seed]
    grown = True
    while grown:
        grown = False
        for b in list(remaining):
            if any(_near(b, c, gap) for c in cluster):
                cluster.append(b)
                remaining.remove(b)
                grown = True
    if len(cluster) < 3:
        return None
    box = cluster[0]
    for b in cluster[1:]:
        box = box.union(b)
    core = Box(box.x0 / factor, box.y0 / factor, box.x1 / factor, box.y1 / factor)
    grown = True
    while grown:
        grown = False
        for b in list(side):
            within = b.y0 >= box.y0 - gap and b.y1 <= box.y1 + gap
            if within and any(_near(b, c, gap) for c in cluster):
                cluster.append(b)
                side.remove(b)
                box = box.union(b)
                grown = True
    return core, Box(box.x0 / factor, box.y0 / factor, box.x1 / factor, box.y1 / factor)


def _near(a: Box, b: Box, gap: float) -> bool:
    return not (a.x0 > b.x1 + gap or b.x0 > a.x1 + gap or a.y0 > b.y1 + gap or b.y0 > a.y1 + gap)


#: A title block read in the page's languages giving fewer fields than this is read again in
#: ``title_block_languages`` (a Chinese block read by the English model gives one or two).
FEW_FIELDS = 3


def read_title_block(gray: np.ndarray, settings: VisionSettings) -> TitleBlock | None:
    """Locate, OCR and parse the title block of a corrected drawing page; None when there is none.

    OCR failures of this separate pass degrade to a title block without fields (with a warning).
    The block is read in the page's languages; when that gives fewer than :data:`FEW_FIELDS`
    fields, it is read again in ``settings.title_block_languages`` and the reading with more
    fields is kept. Reading every block with Chinese added cost fields of English ones (a "LINEAR"
    read "UNEAR") and a quarter more time; a second reading of the few unreadable blocks costs
    neither (docs/decisions/0019).
    """
    block = _read_block(gray, settings)
    other = title_block_languages(settings)
    if block is None or other == settings.ocr_languages or len(block.fields) >= FEW_FIELDS:
        return block
    again = _read_block(gray, replace(settings, ocr_languages=other))
    return again if again is not None and len(again.fields) > len(block.fields) else block


def _read_block(gray: np.ndarray, settings: VisionSettings) -> TitleBlock | None:
    found_boxes = locate_rows(gray)
    if found_boxes is None:
        return None
    height, width = gray.shape
    margin = 0.005 * max(height, width)

    def padded(box: Box) -> tuple[int, int, int, int]:
        return (
            int(max(0, box.x0 - margin)),
            int(max(0, box.y0 - margin)),
            int(min(width, box.x1 + margin)),
            int(min(height, box.y1 + margin)),
        )

    # The core block is read as a block of its own (a wider crop reads its small labels worse)
    # and its cells in one mosaic; the cells its rows continue into, in a mosaic of their own, so
    # that the core's readings do not change with them.
    cx0, cy0, cx1, cy1 = padded(found_boxes[0])
    x0, y0, x1, y1 = padded(found_boxes[1])
    block = TitleBlock(box=Box(x0, y0, x1, y1))
    try:
        page = read_page(gray[cy0:cy1, cx0:cx1], _no_vertical(settings), layout="drawing")
    except OcrError as err:
        block.warnings.append(f"title block not read: {err.code}")
        log.warning("title-block pass failed: %s", err)
        return block
    block.lines = [_shift(line, cx0, cy0) for line in page.lines]
    cells = _cells_in(gray, (cx0, cy0, cx1, cy1))
    side = [
        c
        for c in _cells_in(gray, (x0, y0, x1, y1))
        if not any(_overlap(c.box, core.box) > 0.5 * _area(c.box) for core in cells)
    ]
    found = cell_fields(_cell_words(block.lines, cells))
    found.update(_reread_big_values(gray, block.lines, cells, settings))
    if "revision" not in found:
        revision = _reread_revision(gray, block.lines, cells, settings)
        if revision:
            found["revision"] = FieldReading(revision, 100.0)
    per_cell: list[tuple[Cell, list[OcrWord]]] = []
    for group in (_outermost(cells), _outermost(side)):
        if not group:
            continue
        try:
            by_cell = read_cells(gray, [c.box for c in group], settings, _is_label)
        except OcrError as err:
            block.warnings.append(f"title-block cells not read: {err.code}")
            log.warning("title-block cell pass failed: %s", err)
            continue
        per_cell.extend(
            (cell, _reading_order([w for row in rows for w in row]))
            for cell, rows in zip(group, by_cell, strict=False)
        )
    by_cells = cell_fields(per_cell)
    block.fields = choose_fields(found, by_cells, *_second_looks(gray, found, by_cells, settings))
    block.boxes = field_boxes(block.fields, by_cells, found)
    return block


def field_boxes(fields: dict[str, str], *readings: dict[str, FieldReading]) -> dict[str, Box]:
    """Where each chosen value is written: the union of the words of a reading that gave it, or,
    when only a pass without word boxes gave it, of any reading of that field (the same place)."""
    boxes: dict[str, Box] = {}
    for name, value in fields.items():
        options = [r[name] for r in readings if name in r and r[name].words]
        same = [o for o in options if o.value == value]
        chosen = (same or options)[:1]
        if chosen:
            box = chosen[0].words[0].box
            for word in chosen[0].words[1:]:
                box = box.union(word.box)
            boxes[name] = box
    return boxes


def _cells_in(gray: np.ndarray, crop: tuple[int, int, int, int]) -> list[Cell]:
    """The cells found in a crop of the page (page coordinates), those cut by its edge left out."""
    x0, y0, x1, y1 = crop
    region = gray[y0:y1, x0:x1]
    cells = [
        Cell(Box(c.box.x0 + x0, c.box.y0 + y0, c.box.x1 + x0, c.box.y1 + y0))
        for c in find_cells(region, max(15, min(region.shape) // 25))
    ]
    return [
        c
        for c in cells
        if c.box.x0 > x0 + 1 and c.box.y0 > y0 + 1 and c.box.x1 < x1 - 1 and c.box.y1 < y1 - 1
    ]


def _outermost(cells: list[Cell]) -> list[Cell]:
    """Cells not lying inside another cell's box (the counter of a big ``0`` encloses paper too)."""
    return [
        c
        for c in cells
        if not any(
            o is not c
            and o.box.x0 <= c.box.x0
            and o.box.y0 <= c.box.y0
            and o.box.x1 >= c.box.x1
            and o.box.y1 >= c.box.y1
            for o in cells
        )
    ]


def _is_label(tokens: list[str]) -> bool:
    return bool(tokens) and match_label(tokens, 0) is not None


#: Two letters, of any of the four languages: a name, a title, a treatment.
_WORDS_FORM = re.compile(r".*[A-Za-zÀ-ÿ\u3400-\u9fff].*[A-Za-zÀ-ÿ\u3400-\u9fff].*")
#: What a field's value must look like to be taken (a misreading usually breaks the form).
_VALID: dict[str, re.Pattern[str]] = {
    # An identifier: letters, digits and joining marks, with at least one digit; or words joined
    # by underscores ("Aufspannung_Ecken", a CAD file name used as the number).
    "drawing_number": re.compile(
        r"(?=.*\d)[A-Za-z0-9][A-Za-z0-9_.\-/ ]{2,}|[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+"
    ),
    "title": _WORDS_FORM,
    "material": re.compile(r".*[A-Za-z0-9À-ÿ].*[A-Za-z0-9À-ÿ].*"),
    "revision": re.compile(r"[A-Za-z0-9]{1,3}"),
    "sheet": re.compile(
        r"\d+(?:\s*(?:of|von|av|/)\s*\d+)?|(?:共\s*\d+\s*张\s*)?第\s*\d+\s*张(?:\s*共\s*\d+\s*张)?",
        re.IGNORECASE,
    ),
    # ISO A sizes, or the letter of an ANSI size (A-E) written under its SIZE label.
    "size": re.compile(r"A[0-4]|[A-E]"),
    "date": _DATE,
    # A weight, a roughness, a tolerance class or standard, a quantity: a number in it.
    "weight": re.compile(
        r"(?:approx\.?\s*|ca\.?\s*|~\s*)?\d+(?:[.,]\d+)?\s*(?:mg|g|kg|t|lbs?|oz)\b.*", re.IGNORECASE
    ),
    "roughness": re.compile(r".*\d.*"),
    "general_tolerance": re.compile(r".*\d.*"),
    "quantity": re.compile(r"\d+(?:\s*\w+)?"),
    # Words: a treatment, a code, a name.
    "surface_treatment": _WORDS_FORM,
    "heat_treatment": _WORDS_FORM,
    "project": re.compile(r".*[A-Za-z0-9À-ÿ].*[A-Za-z0-9À-ÿ].*"),
    "drawn_by": _WORDS_FORM,
    "checked_by": _WORDS_FORM,
    "approved_by": _WORDS_FORM,
    "department": _WORDS_FORM,
    "technical_reference": _WORDS_FORM,
    "document_type": _WORDS_FORM,
    "document_status": _WORDS_FORM,
    "owner": _WORDS_FORM,
}


def valid_value(name: str, value: str) -> bool:
    """Whether ``value`` has the form of field ``name`` (see :data:`_VALID`; a scale is a ratio,
    a date has a month of 1-12 and a day of 1-31) and is not itself a label."""
    if not (_SCALE if name == "scale" else _VALID[name]).fullmatch(value):
        return False
    label = match_label(value.split(), 0)
    if name != "title" and label is not None and label[1] == len(value.split()):
        return False  # a neighbouring cell's label ("审核" beside "设计"), not a value
    if name == "date":
        parts = [int(p) for p in re.split(r"[-./]", value)]
        if value[4:5] == "-":  # year first (ISO 8601)
            return 1 <= parts[1] <= 12 and 1 <= parts[2] <= 31
        return all(1 <= p <= 31 for p in parts[:2]) and min(parts[:2]) <= 12
    return True


def choose_fields(*readings: dict[str, FieldReading]) -> dict[str, str]:
    """Per field, the value most readings agree on among those with the field's form; between
    equally many, the most confident. Readings are passes or looks at the block."""
    chosen: dict[str, str] = {}
    for name in FIELDS:
        votes: dict[str, list[float]] = {}
        for reading in readings:
            option = reading.get(name)
            if option is not None and valid_value(name, option.value):
                votes.setdefault(option.value, []).append(option.conf)
        if votes:
            chosen[name] = max(votes, key=lambda v: (len(votes[v]), max(votes[v])))
    return chosen


#: Letter heights a disputed value is read again at (the cell pass reads at 28 px).
SECOND_LOOK_HEIGHTS = (20, 24, 36)


def _second_looks(
    gray: np.ndarray,
    first: dict[str, FieldReading],
    second: dict[str, FieldReading],
    settings: VisionSettings,
) -> list[dict[str, FieldReading]]:
    """Where the block's pass and the cell pass read a field differently (both of its form), the
    cell pass's value read again alone at :data:`SECOND_LOOK_HEIGHTS`, in one call: one reading
    per height, so the vote in :func:`choose_fields` has more than two voices.

    Tesseract's reading of a word flips with its size (``LiU0010`` is ``LiU0010`` at 20-28 px and
    ``Liv0010`` at 40-48 px); the value most sizes agree on is the one to keep. A failing call
    leaves the two readings as they are.
    """
    disputed = [
        name
        for name, option in second.items()
        if name in first
        and option.words
        and first[name].value != option.value
        and valid_value(name, option.value)
        and valid_value(name, first[name].value)
        and _one_line(option.words)
    ]
    if not disputed:
        return []
    boxes = []
    for name in disputed:
        box = second[name].words[0].box
        for word in second[name].words[1:]:
            box = box.union(word.box)
        boxes.append(box)
    try:
        looks = read_at_heights(gray, boxes, SECOND_LOOK_HEIGHTS, settings)
    except OcrError as err:
        log.warning("title-block second look failed: %s", err)
        return []
    readings: list[dict[str, FieldReading]] = [{} for _ in SECOND_LOOK_HEIGHTS]
    for name, per_height in zip(disputed, looks, strict=True):
        for k, (text, conf) in enumerate(per_height):
            if text:
                readings[k][name] = FieldReading(_clean_value(name, text), conf)
    return readings


def _one_line(words: tuple[OcrWord, ...]) -> bool:
    top = max(w.box.y0 for w in words)
    bottom = min(w.box.y1 for w in words)
    return bottom - top > 0.5 * min(w.box.y1 - w.box.y0 for w in words)


#: Fields a title block often prints far bigger than its labels.
_BIG_FIELDS = ("drawing_number", "title")


def _reread_big_values(
    gray: np.ndarray, lines: list[OcrLine], cells: list[Cell], settings: VisionSettings
) -> dict[str, FieldReading]:
    """Drawing number and title printed several times the labels' size, read again on their own.

    Sparse-text OCR of the whole block reads lettering four or five times the size of the labels
    with confidence 0 or loses its stems with the ruling lines (``Halter1`` came out as ``Haer``).
    The ink of a labelled cell outside its label is cut out, scaled to text size and read as a
    block of text. The reading replaces the block's own when it is confident (>= 60). Failures of this extra
    call leave the fields as they were.
    """
    found: dict[str, FieldReading] = {}
    for cell, words in _cell_words(lines, cells):
        tokens = _tokens(words)
        match = match_label([t for t, _ in tokens], 0) if tokens else None
        if not match or match[0] not in _BIG_FIELDS or match[0] in found:
            continue
        label_words = {id(w) for _, w in tokens[: match[1]]}
        label = [w for w in words if id(w) in label_words]
        label_height = max(w.box.y1 - w.box.y0 for w in label)
        box = cell.box
        region = gray[int(box.y0) + 3 : int(box.y1) - 3, int(box.x0) + 3 : int(box.x1) - 3].copy()
        for w in label:  # the label itself is not part of the value
            region[
                max(0, int(w.box.y0 - box.y0) - 5) : int(w.box.y1 - box.y0) + 2,
                max(0, int(w.box.x0 - box.x0) - 5) : int(w.box.x1 - box.x0) + 5,
            ] = 255
        if region.size == 0:
            continue
        ys, xs = np.nonzero(region < 128)
        if len(ys) == 0 or ys.max() - ys.min() < 2 * label_height:
            continue  # nothing there, or printed at label size (the block's pass read it)
        glyphs = region[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        # Letters brought to ~32 px (one or two lines of them: a title may wrap).
        count, _, stats, _ = cv2.connectedComponentsWithStats(
            (glyphs < 128).astype(np.uint8), connectivity=8
        )
        letter = float(np.percentile(stats[1:count, cv2.CC_STAT_HEIGHT], 90)) if count > 1 else 0
        if letter < 2 * label_height:
            continue
        factor = 32 / letter
        scaled = cv2.resize(glyphs, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        padded = cv2.copyMakeBorder(scaled, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
        try:
            read = run_tesseract(padded, psm=PSM_BLOCK, settings=settings)
        except OcrError as err:
            log.warning("title-block value re-read failed: %s", err)
            continue
        text = " ".join(w.text for w in read).strip()
        if read and min(w.conf for w in read) >= 60 and sum(ch.isalnum() for ch in text) >= 2:
            found[match[0]] = FieldReading(_clean_value(match[0], text), min(w.conf for w in read))
    return found


def _reread_revision(
    gray: np.ndarray, lines: list[OcrLine], cells: list[Cell], settings: VisionSettings
) -> str:
    """A revision is often one big letter, which sparse-text OCR skips: read the space under a lone
    REV label again as a single line. Failures of this extra call only leave the field empty."""
    for cell, words in _cell_words(lines, cells):
        tokens = [t for t, _ in _tokens(words)]
        match = match_label(tokens, 0) if tokens else None
        if not match or match[0] != "revision" or match[1] != len(tokens):
            continue
        label_bottom = max(w.box.y1 for w in words)
        label_height = max(w.box.y1 - w.box.y0 for w in words)
        box = cell.box
        if box.y1 - label_bottom < label_height or box.y1 - box.y0 > 8 * label_height:
            continue
        region = gray[int(label_bottom) + 1 : int(box.y1) - 2, int(box.x0) + 3 : int(box.x1) - 3]
        if region.size == 0 or int(region.min()) > 128:
            continue  # nothing printed under the label: no revision on this drawing
        ys, xs = np.nonzero(region < 128)
        glyphs = region[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        return _vote_short_text(glyphs, settings)
    return ""


def _vote_short_text(glyphs: np.ndarray, settings: VisionSettings) -> str:
    """One to three characters read at three scales; the most frequent reading wins.

    Tesseract's reading of a lone big letter flips with its size (a bold B is a 5 at one scale, a C
    comes out as "Cc"); the vote removes most of those flips.
    """
    votes: dict[str, float] = {}
    for factor in (0.7, 1.0, 1.5):
        interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
        scaled = cv2.resize(glyphs, None, fx=factor, fy=factor, interpolation=interpolation)
        pad = int(scaled.shape[0] * 0.6) + 5
        padded = cv2.copyMakeBorder(scaled, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
        try:
            words = run_tesseract(padded, psm=PSM_LINE, settings=settings)
        except OcrError as err:
            log.warning("revision re-read failed: %s", err)
            return ""
        text = "".join(w.text for w in words if w.conf >= 40).strip(" .:|")
        if len(text) == 2 and text[0].lower() == text[1].lower():
            text = text[0]  # "Cc": one letter read as its two cases
        if len(text) == 1 and text.isalpha():
            text = text.upper()
        if 1 <= len(text) <= 3 and text.isalnum():
            conf = min((w.conf for w in words), default=0.0)
            votes[text] = votes.get(text, 0.0) + 1000 + conf
    return max(votes, key=lambda k: votes[k]) if votes else ""


def _no_vertical(settings: VisionSettings) -> VisionSettings:
    return replace(settings, read_vertical_text=False, read_grey_page=False)


def _shift(line: OcrLine, dx: float, dy: float) -> OcrLine:
    words = tuple(
        OcrWord(
            text=w.text,
            raw_text=w.raw_text,
            conf=w.conf,
            box=Box(w.box.x0 + dx, w.box.y0 + dy, w.box.x1 + dx, w.box.y1 + dy),
            vertical=w.vertical,
        )
        for w in line.words
    )
    return OcrLine(words=words, block=line.block, source_pass=line.source_pass)


def _cell_words(lines: list[OcrLine], cells: list[Cell]) -> list[tuple[Cell, list[OcrWord]]]:
    """Each cell with the words whose centre lies in it, read top to bottom, left to right."""
    filled: dict[int, list[OcrWord]] = {}
    for line in lines:
        for word in line.words:
            cx, cy = (word.box.x0 + word.box.x1) / 2, (word.box.y0 + word.box.y1) / 2
            inside = [
                i
                for i, c in enumerate(cells)
                if c.box.x0 <= cx <= c.box.x1 and c.box.y0 <= cy <= c.box.y1
            ]
            if inside:
                smallest = min(inside, key=lambda i: _area(cells[i].box))
                filled.setdefault(smallest, []).append(word)
    result = []
    for i, cell in enumerate(cells):
        result.append((cell, _reading_order(filled.get(i, []))))
    return result


def _reading_order(words: list[OcrWord]) -> list[OcrWord]:
    """Rows by vertical centre (a row breaks where the gap exceeds half a word height), then x."""
    ordered = sorted(words, key=lambda w: (w.box.y0 + w.box.y1) / 2)
    rows: list[list[OcrWord]] = []
    for word in ordered:
        centre = (word.box.y0 + word.box.y1) / 2
        if rows:
            last = rows[-1][-1]
            if abs(centre - (last.box.y0 + last.box.y1) / 2) < 0.5 * (last.box.y1 - last.box.y0):
                rows[-1].append(word)
                continue
        rows.append([word])
    return [w for row in rows for w in sorted(row, key=lambda w: w.box.x0)]


def _overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a.x1, b.x1) - max(a.x0, b.x0)) * max(0.0, min(a.y1, b.y1) - max(a.y0, b.y0))


def _area(box: Box) -> float:
    return (box.x1 - box.x0) * (box.y1 - box.y0)


def _tokens(words: list[OcrWord]) -> list[tuple[str, OcrWord]]:
    """Raw tokens, with "LABEL:value" glued by OCR split into "LABEL:" and "value", and Chinese
    characters Tesseract spaced apart ("名 称", "表面 处 理") joined again on their line."""
    tokens: list[tuple[str, OcrWord]] = []
    for word in words:
        match = re.fullmatch(r"([A-Za-zÄÖÜäöüß.]{3,}:)(.+)", word.raw_text)
        if match:
            tokens.append((match.group(1), word))
            tokens.append((match.group(2), word))
        elif (
            tokens
            and _HAN.fullmatch(word.raw_text)
            and _HAN.fullmatch(tokens[-1][0])
            and abs(_centre_y(tokens[-1][1]) - _centre_y(word)) < 0.5 * (word.box.y1 - word.box.y0)
        ):
            tokens[-1] = (tokens[-1][0] + word.raw_text, tokens[-1][1])
        else:
            tokens.append((word.raw_text, word))
    return tokens


_HAN = re.compile(r"[\u3400-\u9fff]+")


def _centre_y(word: OcrWord) -> float:
    return (word.box.y0 + word.box.y1) / 2


def match_label(tokens: list[str], pos: int) -> tuple[str, int] | None:
    """(field, number of tokens used) when a known label starts at ``tokens[pos]``."""
    for label, name in _LABELS:
        width = len(label.split())
        if pos + width > len(tokens):
            continue
        head = " ".join(tokens[pos : pos + width]).lower().strip("|[ ").rstrip(":.;,")
        if "/" in head and not head.startswith("/"):
            # A bilingual label read as one word ("Scale/skala", "Description/benämning"): the
            # first language decides.
            head = head.split("/")[0].rstrip(":.;, ")
        # The English model reads "ß" as "B", "R" or "8": any one letter stands for it.
        exact = head == label or ("ß" in label and _ESZETT[label].fullmatch(head) is not None)
        fuzzy = (
            len(label) >= 6
            and abs(len(head) - len(label)) <= 1
            and difflib.SequenceMatcher(None, head, label).ratio() >= 0.88
        )
        if not (exact or fuzzy):
            continue
        following = tokens[pos + width].lower() if pos + width < len(tokens) else ""
        if label in ("rev", "revision") and following.startswith("by"):
            continue  # "Rev. by": the reviewer's column, not the revision
        previous = tokens[pos - 1].lower() if pos > 0 else ""
        if previous in ("not", "nicht", "no"):
            continue  # "DO NOT SCALE DRAWING"
        return name, width
    return None


def _labels_in(tokens: list[str]) -> list[tuple[int, str, int]]:
    """Positions of labels in a cell's tokens: the first token, or a later one written as a label."""
    found = []
    pos = 0
    while pos < len(tokens):
        match = match_label(tokens, pos)
        as_label = (
            pos == 0
            or tokens[pos].isupper()
            or tokens[pos].endswith(":")
            or (pos <= 1 and len(tokens[0]) <= 2)
        )
        if match and as_label:
            found.append((pos, match[0], match[1]))
            pos += match[1]
        else:
            pos += 1
    return found


def cell_fields(per_cell: list[tuple[Cell, list[OcrWord]]]) -> dict[str, FieldReading]:
    """Field -> its reading, from each cell's words in reading order."""
    fields: dict[str, FieldReading] = {}
    label_cells: set[int] = set()
    pending: list[tuple[int, str, Box]] = []
    for i, (_, words) in enumerate(per_cell):
        pairs = _tokens(words)
        under = _label_under(pairs)
        if under is not None:
            label_cells.add(i)
            name, value_pairs = under
            used = tuple(dict.fromkeys(w for _, w in value_pairs))
            value = _clean_value(name, " ".join(t for t, _ in value_pairs))
            fields.setdefault(name, FieldReading(value, min(w.conf for w in used), used))
            continue
        tokens = [t for t, _ in pairs]
        labels = _labels_in(tokens)
        if labels:
            label_cells.add(i)
        for k, (pos, name, width) in enumerate(labels):
            end = labels[k + 1][0] if k + 1 < len(labels) else len(tokens)
            start = _value_start(tokens, pos, width, end, name)
            label_words = [w for _, w in pairs[pos : pos + width]]
            value_pairs = _value_rows(label_words, pairs[start:end])
            value = " ".join(t for t, _ in value_pairs)
            if value.strip(" .:;|-_—"):
                if name not in fields:
                    used = tuple(dict.fromkeys(w for _, w in value_pairs))
                    fields[name] = FieldReading(
                        _clean_value(name, value), min(w.conf for w in used), used
                    )
            elif len(labels) == 1:
                label_box = label_words[0].box
                for w in label_words[1:]:
                    label_box = label_box.union(w.box)
                pending.append((i, name, label_box))
    for i, name, label_box in pending:
        if name in fields:
            continue
        box = per_cell[i][0].box
        label_height = label_box.y1 - label_box.y0
        # A person's name is written beside its label in its row ("DRAWN" | name | date); under
        # the label is the next row's label. A big cell holding only its label has its value
        # nowhere else: the field is empty on this drawing.
        below: list[OcrWord] = []
        if box.y1 - box.y0 <= 3.5 * label_height:
            below = _below(i, per_cell, label_cells)
            if name in _PERSON_FIELDS and not _NAME.search(" ".join(w.raw_text for w in below)):
                below = []  # a word under "GEZEICHNET" that is no name: the next row's label
        below = below or _right_of(i, label_box, per_cell, label_cells)
        if below:
            value = " ".join(w.raw_text for w in below)
            fields[name] = FieldReading(
                _clean_value(name, value), min(w.conf for w in below), tuple(below)
            )
    if "date" not in fields:
        for _, words in per_cell:
            match = _DATE.search(" ".join(w.raw_text for w in words))
            if match:
                dated = tuple(w for w in words if _DATE.search(w.raw_text)) or tuple(words)
                fields["date"] = FieldReading(match.group(1), min(w.conf for w in words), dated)
                break
    if "size" not in fields:
        for _, words in per_cell:
            text = " ".join(w.raw_text for w in words).strip()
            if re.fullmatch(r"A[0-4]", text):
                fields["size"] = FieldReading(text, min(w.conf for w in words), tuple(words))
                break
    return {k: v for k, v in fields.items() if v.value}


#: What a person's name looks like under its label: an initial ("H. Berger") or Chinese ("王明").
_NAME = re.compile(r"^(?:[A-Z]\.\s?[A-Za-zÀ-ÿ]|[\u3400-\u9fff]{2,4}$)")
_PERSON_FIELDS = ("drawn_by", "checked_by", "approved_by", "technical_reference")


def _value_start(tokens: list[str], pos: int, width: int, end: int, name: str) -> int:
    """Where a label's value begins among a cell's tokens: after the label, its second language
    ("/ritningsnummer", "by/Godk. av") and the words joining it to the value ("acc. to")."""
    start = pos + width
    while start < end and tokens[start].startswith("/"):
        start += 1  # the second language of a bilingual label ("/ritningsnummer")
    found = split_label(" ".join(tokens[pos:end]))
    if found is not None and found.field == name:
        # The glossary knows the label's other spellings: what it leaves is the value.
        start = max(start, end - len(found.rest.split()))
    return start


def _value_rows(
    label: list[OcrWord], pairs: list[tuple[str, OcrWord]]
) -> list[tuple[str, OcrWord]]:
    """A value printed bigger than its label: only its rows. The label's own rows (a second
    language, "generella toleranser där ej annat anges enligt") are the label's size."""
    if not label or not pairs:
        return pairs
    label_height = max(w.box.y1 - w.box.y0 for w in label)
    rows = _text_rows(pairs)
    heights = [max(w.box.y1 - w.box.y0 for _, w in row) for row in rows]
    big = [row for row, h in zip(rows, heights, strict=True) if h >= 1.3 * label_height]
    if not big or len(big) == len(rows):
        return pairs
    return [pair for row in big for pair in row]


def _text_rows(pairs: list[tuple[str, OcrWord]]) -> list[list[tuple[str, OcrWord]]]:
    """Tokens in reading order grouped into the printed rows they stand on."""
    rows: list[list[tuple[str, OcrWord]]] = []
    for pair in pairs:
        word = pair[1]
        if rows:
            last = rows[-1][-1][1]
            if abs(_centre_y(word) - _centre_y(last)) < 0.5 * (last.box.y1 - last.box.y0):
                rows[-1].append(pair)
                continue
        rows.append([pair])
    return rows


def _label_under(
    pairs: list[tuple[str, OcrWord]],
) -> tuple[str, list[tuple[str, OcrWord]]] | None:
    """(field, value tokens) of a cell whose value is written over its label: the last row is a
    label and nothing else, printed smaller than the rows above it (ISO 7200 blocks that put the
    small label under the value). A cell read top to bottom would find the label with nothing
    after it."""
    rows = _text_rows(pairs)
    if len(rows) < 2:
        return None
    tokens = [t for t, _ in rows[-1]]
    match = match_label(tokens, 0)
    if match is None or any(t.strip(".:;,|") for t in tokens[match[1] :]):
        return None
    label_height = max(w.box.y1 - w.box.y0 for _, w in rows[-1])
    above = [pair for row in rows[:-1] for pair in row]
    if max(w.box.y1 - w.box.y0 for _, w in above) < 1.15 * label_height:
        return None
    return match[0], above


def _right_of(
    i: int,
    label: Box,
    per_cell: list[tuple[Cell, list[OcrWord]]],
    label_cells: set[int],
) -> list[OcrWord]:
    """Text of the unlabelled cell touching cell ``i`` on its right in the same row, when cell ``i``
    is a label's cell only ("DRAWN BY" | name, "Benämning" | "Hjulnav"): the label stands in the
    middle of its cell's height. A label at the top of a taller cell leaves room for its value
    under it, in its own cell (an empty "Appr. by" box), and takes nothing from its neighbour."""
    box = per_cell[i][0].box
    height = box.y1 - box.y0
    middle = (label.y0 + label.y1) / 2 - (box.y0 + box.y1) / 2
    if abs(middle) > 0.2 * height or height > 5 * (label.y1 - label.y0):
        return []
    for j, (cell, words) in enumerate(per_cell):
        c = cell.box
        shared = min(c.y1, box.y1) - max(c.y0, box.y0)
        if (
            j != i
            and 0 <= c.x0 - box.x1 <= max(12.0, 0.02 * (box.x1 - box.x0))
            and shared > 0.7 * min(c.y1 - c.y0, box.y1 - box.y0)
        ):
            return [] if j in label_cells else words
    return []


def _below(
    i: int, per_cell: list[tuple[Cell, list[OcrWord]]], label_cells: set[int]
) -> list[OcrWord]:
    """Text of the cell right under cell ``i`` in the same column (table layouts), if unlabelled."""
    box = per_cell[i][0].box
    options = []
    for j, (cell, _) in enumerate(per_cell):
        c = cell.box
        if j == i or c.y0 < box.y1 - 4:
            continue
        shared = min(c.x1, box.x1) - max(c.x0, box.x0)
        if shared > 0.5 * min(c.x1 - c.x0, box.x1 - box.x0):
            options.append((c.y0 - box.y1, j))
    if not options:
        return []
    distance, j = min(options)
    # Only the touching cell counts (the ruling line between them is a few pixels thick).
    if distance > max(12.0, 0.02 * (box.x1 - box.x0)) or j in label_cells:
        return []
    return per_cell[j][1]


_SCALE = re.compile(r"\d+(?:[.,]\d+)?[:/]\d+(?:[.,]\d+)?")
#: "SCALE 1:2", "SCALE:2:1", "Maßstab 1:5" anywhere in a line.
_SCALE_IN_TEXT = re.compile(
    r"(?:scale|massstab|maßstab|skala)\s*[:.]?\s*(\d+(?:[.,]\d+)?\s?[:/]\s?\d+(?:[.,]\d+)?)",
    re.IGNORECASE,
)


def fill_from_page(block: TitleBlock, page_lines: list[OcrLine]) -> None:
    """Fields the title-block pass missed, taken from the whole-page reading of the same area.

    The two passes see the block at different scales and with different preparation; a labelled
    scale the crop misread is often read correctly on the page (and the reverse).
    """
    if "scale" in block.fields:
        return
    for line in page_lines:
        box = line.box
        inside = (
            box.x0 >= block.box.x0 - 2
            and box.y0 >= block.box.y0 - 2
            and box.x1 <= block.box.x1 + 2
            and box.y1 <= block.box.y1 + 2
        )
        match = _SCALE_IN_TEXT.search(line.text) if inside else None
        if match:
            block.fields["scale"] = re.sub(r"\s+", "", match.group(1))
            return


#: Fields written in words (of any language), whose OCR slips the glossary can mend.
_WORDED = ("title", "material", "surface_treatment", "heat_treatment", "project")
#: The further fields of ISO 7200 title blocks (words, names).
_ISO_7200 = ("department", "technical_reference", "document_type", "document_status", "owner")
#: A standard's name: "ISO 2768-mK", "DIN ISO 2768-1 m", "SS-ISO 2768-1", "GB/T 1804-m".
_STANDARD = re.compile(r"\b(?:DIN|ISO|SS|EN|GB/T|JIS|ANSI|ASME|BS)\b[ -]?(?:[A-Z]+[ -]?)?\d")


def _clean_value(name: str, value: str) -> str:
    if name == "drawing_number" and "[" not in value:
        # Drawing numbers hold no brackets: an unpaired "]" closing one is a plain "1" (sans-serif
        # ones without a foot are read so).
        value = re.sub(r"(?<=[A-Za-z0-9])\](?=\s|$)", "1", value)
    if name == "sheet":
        # A sheet is counted in digits: a stroke standing alone ("1 OF |") is a sans-serif 1, and
        # so are the strokes around "von" in "lvonl" or "1vonil".
        value = re.sub(r"(?<!\S)[|Il\]](?!\S)", "1", value)
        value = re.sub(
            r"^[|Iil\]]+(?=\s*(?:of|von|av)\s*\S)|(?<=of|on|av)[|Iil\]]+$|(?<=of |on |av )[|Iil\]]+$",
            "1",
            value,
            flags=re.IGNORECASE,
        )
        value = re.sub(r"(\d)\s*(of|von|av)\s*(?=\d)", r"\1 \2 ", value, flags=re.IGNORECASE)
        # "共2张第1张" (of 2 sheets, sheet 1) spaced as it is written.
        value = re.sub(r"\s*([共第])\s*(\d+)\s*张\s*", r" \1 \2 张 ", value).strip()
    value = re.sub(r"\s+", " ", value).strip()
    if name != "sheet":  # "共 2 张 第 1 张" is spaced as written
        # Chinese is written without spaces; Tesseract puts some between its characters.
        value = re.sub(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])", "", value)
    # A sub-label left without its value ("LINEAR: +0.1/-0.1 WINKEL:"): not part of the value.
    value = re.sub(r"(?<=\S)(?:\s+[^\W\d_]+:)+$", "", value) or value
    abbreviated = bool(re.search(r"(?<![^\W\d_])[^\W\d_]{1,4}\.$", value.rstrip()))
    value = value.strip(" |[]{}_—-:;,.")
    if abbreviated and name in _WORDED + _PERSON_FIELDS + _ISO_7200:
        value += "."  # an abbreviation keeps its full stop ("DRIVES ENG.")
    value = re.sub(r"^/\s*", "", value)  # the slash between a label's two languages
    value = strip_connective(value) or value
    if name in ("drawing_number", "title"):
        # A name wrapped after its underscore ("Weird_Gripper_Cam_" over "Adapter") is one word.
        value = re.sub(r"_ (?=\w)", "_", value)
    if name == "drawing_number":
        # Identifiers have no space beside their joining marks: "Keyence _Lift-12. 19" was read
        # from "Keyence_Lift-12.19".
        value = re.sub(r"\s*([_\-.])\s*(?=\w)", r"\1", value)
        if len(value.split()) <= 2:
            value = value.replace(" ", "")
    if name in _WORDED:
        # Swedish and German words the English OCR model garbled ("Kul6or"), and micrometres.
        value = re.sub(r"[^\s:;,]+", lambda m: known_spelling(m.group(0)) or m.group(0), value)
        value = re.sub(r"(?<=\d)\s?[uμ]m\b", "µm", value)
    if name == "revision" and value.isalpha() and len(value) <= 2:
        # A revision letter is a capital; "Cc" is one letter read as its two cases.
        value = (
            value[0].upper() if len(value) == 1 or value[0].lower() == value[1].lower() else value
        )
    if name == "general_tolerance":
        # The standard the tolerances follow, whatever of the label's wording was read before it.
        standard = _STANDARD.search(value)
        value = value[standard.start() :] if standard else value
    if name == "scale":
        value = value.replace(" ", "").replace(";", ":")
        # A scale is a ratio; anything else is a misreading, and no value is better than a wrong one.
        value = value if _SCALE.fullmatch(value) else ""
    if name == "size":
        match = re.search(r"\bA[0-4]\b", value)
        value = match.group(0) if match else value
    return value
