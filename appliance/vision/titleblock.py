"""Title blocks: find the boxed table in the bottom-right corner, read it on its own, name its fields.

A title block is a grid of cells; each cell holds a small label ("DWG NO.", "Werkstoff", "Scale") and
its value. The grid is found from the ruling lines of the page (:mod:`appliance.vision.titlegrid`),
the block is cropped and OCRed separately at a scale suited to its small labels (a whole-page pass
reads them badly), and each word is put into the cell it sits in. A cell whose text begins with a
known label gives that field; a label alone in its cell takes its value from the cell below (table
columns such as DATE) or to its right (:mod:`appliance.vision.titlefields`). This module runs the
passes and the re-reads of values the first pass reads badly, and chooses between their readings.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from appliance.document import Box
from appliance.drawing_terms import split_label
from appliance.vision.errors import OcrError
from appliance.vision.hanlines import has_han
from appliance.vision.ocr import PSM_LINE, read_page
from appliance.vision.ocrlines import OcrLine, OcrWord
from appliance.vision.settings import VisionSettings
from appliance.vision.tables import Table
from appliance.vision.tesseract import run_tesseract, title_block_languages
from appliance.vision.titlecells import read_at_heights, read_cells
from appliance.vision.titlechanges import read_change_rows
from appliance.vision.titlefields import (
    FieldReading,
    cell_fields,
    cell_tokens,
    choose_fields,
    clean_value,
    field_boxes,
    match_label,
    valid_value,
)
from appliance.vision.titlegrid import (
    Cell,
    box_area,
    cell_words,
    cells_in,
    locate_rows,
    outermost,
    overlap_area,
    reading_order,
)

#: Tesseract page segmentation: one uniform block of text (a wrapped title).
PSM_BLOCK = 6

log = logging.getLogger(__name__)


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
    #: Tables ruled on the block, read with it: a Chinese block's change rows
    #: (:mod:`appliance.vision.titlechanges`).
    tables: list[Table] = field(default_factory=list)

    @property
    def text(self) -> str:
        """All text of the block."""
        return "\n".join(line.text for line in self.lines)


#: A title block read in the page's languages giving fewer fields than this is read again in
#: ``title_block_languages`` (a Chinese block read by the English model gives one or two).
FEW_FIELDS = 3


def read_title_block(
    gray: np.ndarray, settings: VisionSettings, *, photographed: bool = False
) -> TitleBlock | None:
    """Locate, OCR and parse the title block of a corrected drawing page; None when there is none.

    OCR failures of this separate pass degrade to a title block without fields (with a warning).
    The block is read in the page's languages; when that gives fewer than :data:`FEW_FIELDS`
    fields, it is read again in ``settings.title_block_languages`` and the reading with more
    fields is kept. Reading every block with Chinese added cost fields of English ones (a "LINEAR"
    read "UNEAR") and a quarter more time; a second reading of the few unreadable blocks costs
    neither. ``photographed``: the page is a camera shot, its cells' small
    lettering soft (:func:`~appliance.vision.titlecells.cut_row`).
    """
    block = _read_block(gray, settings, photographed)
    other = title_block_languages(settings)
    if block is None or other == settings.ocr_languages or len(block.fields) >= FEW_FIELDS:
        return _with_change_rows(gray, block, settings, photographed)
    chinese = replace(settings, ocr_languages=other)
    again = _read_block(gray, chinese, photographed)
    if again is not None and len(again.fields) > len(block.fields):
        return _with_change_rows(gray, again, chinese, photographed)
    return _with_change_rows(gray, block, settings, photographed)


def _with_change_rows(
    gray: np.ndarray, block: TitleBlock | None, settings: VisionSettings, photographed: bool
) -> TitleBlock | None:
    """The block with the GB/T 10609.1 change rows ruled on it, when it is a Chinese block (the
    only kind that has them; other blocks pay nothing), read in the languages it was read in."""
    if block is None or not has_han(block.text + " ".join(block.fields.values())):
        return block
    changes = read_change_rows(gray, block.box, settings, photographed=photographed)
    if changes is not None:
        block.tables.append(changes)
    return block


def _read_block(
    gray: np.ndarray, settings: VisionSettings, photographed: bool = False
) -> TitleBlock | None:
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
    cells = cells_in(gray, (cx0, cy0, cx1, cy1))
    side = [
        c
        for c in cells_in(gray, (x0, y0, x1, y1))
        if not any(overlap_area(c.box, core.box) > 0.5 * box_area(c.box) for core in cells)
    ]
    found = cell_fields(cell_words(block.lines, cells))
    found.update(_reread_big_values(gray, block.lines, cells, settings))
    if "revision" not in found:
        revision = _reread_revision(gray, block.lines, cells, settings)
        if revision:
            found["revision"] = FieldReading(revision, 100.0)
    per_cell: list[tuple[Cell, list[OcrWord]]] = []
    for group in (outermost(cells), outermost(side)):
        if not group:
            continue
        try:
            by_cell = read_cells(
                gray, [c.box for c in group], settings, _is_label, photographed=photographed
            )
        except OcrError as err:
            block.warnings.append(f"title-block cells not read: {err.code}")
            log.warning("title-block cell pass failed: %s", err)
            continue
        per_cell.extend(
            (cell, reading_order([w for row in rows for w in row]))
            for cell, rows in zip(group, by_cell, strict=False)
        )
    by_cells = cell_fields(per_cell)
    block.fields = choose_fields(found, by_cells, *_second_looks(gray, found, by_cells, settings))
    block.boxes = field_boxes(block.fields, by_cells, found)
    return block


def _is_label(tokens: list[str]) -> bool:
    return bool(tokens) and match_label(tokens, 0) is not None


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
                readings[k][name] = FieldReading(clean_value(name, text), conf)
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
    for cell, words in cell_words(lines, cells):
        tokens = cell_tokens(words)
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
            found[match[0]] = FieldReading(clean_value(match[0], text), min(w.conf for w in read))
    return found


def _reread_revision(
    gray: np.ndarray, lines: list[OcrLine], cells: list[Cell], settings: VisionSettings
) -> str:
    """A revision is often one big letter, which sparse-text OCR skips: read the space under a lone
    REV label again as a single line. Failures of this extra call only leave the field empty."""
    for cell, words in cell_words(lines, cells):
        tokens = [t for t, _ in cell_tokens(words)]
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


#: "SCALE 1:2", "SCALE:2:1", "Maßstab 1:5" anywhere in a line.
_SCALE_IN_TEXT = re.compile(
    r"(?:scale|massstab|maßstab|skala)\s*[:.]?\s*(\d+(?:[.,]\d+)?\s?[:/]\s?\d+(?:[.,]\d+)?)",
    re.IGNORECASE,
)


def fill_from_page(block: TitleBlock, page_lines: list[OcrLine]) -> None:
    """Fields the title-block pass missed or misread, taken from the whole-page reading of the
    same area.

    The two passes see the block at different scales and with different preparation; a labelled
    scale the crop misread is often read correctly on the page (and the reverse). On a Chinese
    block, whose page lines were read again with the Chinese model (:mod:`hanlines`), a line
    "表面处理：发黑" gives its field when the block has none, or has only a value without Chinese
    where the page read one with it (the block's reading of a bold Chinese value is Latin junk).
    """
    inside = [line for line in page_lines if _inside(line.box, block.box)]
    for line in inside:
        found = split_label(line.text) if has_han(line.text) else None
        value = found.rest.strip() if found is not None else ""
        if found is None or not has_han(value) or line.conf < _PAGE_FIELD_CONF:
            continue
        current = block.fields.get(found.field, "")
        if not current or not has_han(current):
            block.fields[found.field] = value
            block.boxes.pop(found.field, None)
    if "scale" in block.fields:
        return
    for line in inside:
        match = _SCALE_IN_TEXT.search(line.text)
        if match:
            block.fields["scale"] = re.sub(r"\s+", "", match.group(1))
            return


#: Least confidence of a page line whose Chinese value replaces a title-block field.
_PAGE_FIELD_CONF = 80


def _inside(box: Box, block: Box) -> bool:
    return (
        box.x0 >= block.x0 - 2
        and box.y0 >= block.y0 - 2
        and box.x1 <= block.x1 + 2
        and box.y1 <= block.y1 + 2
    )
