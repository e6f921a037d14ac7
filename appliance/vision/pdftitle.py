"""Title blocks of PDF drawings with a text layer: the text layer's words placed in the ruled cells.

A CAD export (SolidWorks, Inventor) writes its title block as vector lines and text. Its text layer
lists the labels first and the values after them ("MATERIAL:" ... "PLA"), so a label's value is
not the next word of the text. The page is rendered small, its title block and cells are found from
the ruling lines as on a photographed drawing (:mod:`appliance.vision.titlegrid`), and each word
of the text layer, exact and with its box, is put into the cell it sits in; the fields are then read
from the cells as on a photograph (the value after its label, beside it or under it).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import cv2
import numpy as np

from appliance.document import Box, DocumentSlice, SliceKind
from appliance.drawing_terms import split_label
from appliance.vision.ocrlines import OcrLine, OcrWord
from appliance.vision.slicing import title_block_text
from appliance.vision.symbols import normalise_word
from appliance.vision.titlefields import cell_fields, choose_fields, field_boxes
from appliance.vision.titlegrid import cell_words, cells_in, locate_rows, outermost

if TYPE_CHECKING:
    import pymupdf

log = logging.getLogger(__name__)

#: Resolution of the render the ruling lines are found in (the text itself comes from the PDF).
RENDER_DPI = 100
#: Pages with more words than this are documents, not drawings: no title block is looked for.
MAX_WORDS = 1500
#: Distinct title-block labels a page's words must hold before its title block is looked for.
MIN_LABELS = 2


def looks_like_drawing(words: list[str]) -> bool:
    """A page with few words, among them labels of at least :data:`MIN_LABELS` title-block
    fields: worth rendering to look for its title block."""
    if len(words) > MAX_WORDS:
        return False
    fields: set[str] = set()
    for i in range(len(words)):
        found = split_label(" ".join(words[i : i + 3]))
        if found is not None:
            fields.add(found.field)
            if len(fields) >= MIN_LABELS:
                return True
    return False


def ruling(page: pymupdf.Page, scale: float) -> np.ndarray:
    """The page's vector lines and rectangles drawn alone, black on white, ``scale`` pixels per
    point. Text is left out: a value lettered across its cell's border ("Aufspannung_Ecken" over
    the size cell) would break the cell apart."""
    rect = page.rect
    gray = np.full((int(rect.height * scale) + 1, int(rect.width * scale) + 1), 255, np.uint8)

    def px(point: pymupdf.Point) -> tuple[int, int]:
        return round((point.x - rect.x0) * scale), round((point.y - rect.y0) * scale)

    for path in page.get_drawings():
        for item in path["items"]:
            if item[0] == "l":
                cv2.line(gray, px(item[1]), px(item[2]), 0, 1)
            elif item[0] == "re":
                r = item[1]
                cv2.rectangle(gray, px(r.tl), px(r.br), 0, 1)
            elif item[0] == "qu":
                q = item[1]
                corners = np.array([px(q.ul), px(q.ur), px(q.lr), px(q.ll)], np.int32)
                cv2.polylines(gray, [corners], True, 0, 1)
    return gray


def title_block_slices(page: pymupdf.Page, page_no: int) -> list[DocumentSlice]:
    """The title block of a drawing page with a text layer as one slice with its fields and each
    field's box (PDF points), or ``[]`` when the page shows none or its drawing cannot be read (the
    page's text blocks are indexed all the same)."""
    try:
        return _title_block_slices(page, page_no)
    except (RuntimeError, ValueError, cv2.error) as err:
        log.warning("page %d: title block not read from the text layer: %s", page_no, err)
        return []


def _title_block_slices(page: pymupdf.Page, page_no: int) -> list[DocumentSlice]:
    raw = page.get_text("words")
    if not looks_like_drawing([str(w[4]) for w in raw]):
        return []
    scale = RENDER_DPI / 72.0
    gray = ruling(page, scale)
    found = locate_rows(gray)
    if found is None:
        return []
    block = found[1]
    cells = outermost(
        cells_in(gray, (int(block.x0) - 2, int(block.y0) - 2, int(block.x1) + 2, int(block.y1) + 2))
    )
    words = [
        OcrWord(
            text=normalise_word(str(w[4])),
            raw_text=str(w[4]),
            conf=100.0,
            box=Box(w[0] * scale, w[1] * scale, w[2] * scale, w[3] * scale),
        )
        for w in raw
        if str(w[4]).strip()
    ]
    lines = [OcrLine(words=(w,), block=0, source_pass="upright") for w in words]
    readings = cell_fields(cell_words(lines, cells))
    fields = choose_fields(readings)
    if not fields:
        return []
    boxes = field_boxes(fields, readings)

    def points(box: Box) -> list[float]:
        return [round(v / scale, 2) for v in (box.x0, box.y0, box.x1, box.y1)]

    # One line per cell, as the cell reads: a label alone on its line is seen as a bare label.
    body = "\n".join(
        " ".join(w.text for w in in_cell) for _, in_cell in cell_words(lines, cells) if in_cell
    )
    return [
        DocumentSlice(
            text=f"Title block.\n{title_block_text(fields)}\n{body}".strip(),
            kind=SliceKind.TITLE_BLOCK,
            box=Box(*points(block)),
            section="title block",
            extra={
                "title_block": dict(fields),
                "field_boxes": {k: points(b) for k, b in boxes.items()},
            },
            page=page_no,
            drawing_number=fields.get("drawing_number", ""),
            revision=fields.get("revision", ""),
        )
    ]
