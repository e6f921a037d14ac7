"""Title-block cells read one text row at a time, every row at the same letter height.

A title block mixes lettering of very different sizes: labels of 2 mm ("DWG NO.", "TITLE:") beside
values of 7 mm ("UR10_29.20"). Read as one picture, Tesseract judges all of it at one scale, and
the small labels, often set in a bold face whose letters touch, come out as junk or not at all; a
cell whose label is not read gives no field. Here each cell's ink is split into text rows (glyphs
of one size side by side), every row is cut out alone (the ruling lines around it painted white)
and scaled so that its letters are :data:`ROW_HEIGHT` pixels tall, and all rows of the block are
stacked into one image read in one Tesseract call (``mosaic.read_row_words``). Each cell then
holds its rows' words, in reading order, with boxes mapped back to the page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from appliance.document import Box
from appliance.vision.errors import OcrError
from appliance.vision.imageops import binarise
from appliance.vision.mosaic import padded_crop, read_row_words, scaled
from appliance.vision.ocrlines import OcrWord
from appliance.vision.settings import VisionSettings
from appliance.vision.symbols import normalise_word

log = logging.getLogger(__name__)

#: Height a row's ink box is scaled to. Measured on the title blocks of the eDOCr2 drawings: at 28 px
#: Tesseract read `LiU0010`, `Halter1` and `Weird_Gripper_Cam_` right; at 32 px (the tolerance
#: reader's height) it read `LiUv0010` and `Halter` at confidence 0.
ROW_HEIGHT = 28
#: Most rows read per block (a bounded mosaic on a noisy photo).
MAX_ROWS = 80
#: Smallest letter height, in page pixels, taken for text (smaller blobs are dots and specks).
MIN_LETTER_PX = 6


@dataclass(frozen=True)
class TextRow:
    """Glyphs of one size side by side on one line of a cell."""

    #: Index of the cell it lies in.
    cell: int
    #: Its ink's box on the page.
    box: Box
    #: The row's ink alone (255) inside ``box``, the same size as the box.
    mask: np.ndarray


def _cell_ink(gray: np.ndarray, box: Box) -> tuple[np.ndarray, int, int]:
    """Ink of a cell's inside with the straight strokes that cross most of it (rules) removed."""
    x0, y0 = int(box.x0) + 1, int(box.y0) + 1
    x1, y1 = int(box.x1) - 1, int(box.y1) - 1
    region = gray[y0:y1, x0:x1]
    if region.size == 0:
        return np.zeros((0, 0), np.uint8), x0, y0
    ink = binarise(region)
    height, width = ink.shape
    # Only strokes spanning half the cell are rules: a glued word ("EIGH" of "WEIGHT") is not.
    across = cv2.getStructuringElement(cv2.MORPH_RECT, (max(15, width // 2), 1))
    down = cv2.getStructuringElement(cv2.MORPH_RECT, (1, max(15, int(0.8 * height))))
    rules = cv2.bitwise_or(
        cv2.morphologyEx(ink, cv2.MORPH_OPEN, across), cv2.morphologyEx(ink, cv2.MORPH_OPEN, down)
    )
    return cv2.bitwise_and(ink, cv2.bitwise_not(rules)), x0, y0


class _Line:
    """A row being grown: its box (cell-region pixels) and the blob labels in it."""

    def __init__(self, box: list[int], label: int) -> None:
        self.box = box
        self.labels = [label]

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]

    def add(self, box: list[int], label: int) -> None:
        self.box = [
            min(self.box[0], box[0]),
            min(self.box[1], box[1]),
            max(self.box[2], box[2]),
            max(self.box[3], box[3]),
        ]
        self.labels.append(label)


def _fits(line: _Line, box: list[int]) -> int:
    """How far a letter ``box`` overlaps ``line`` vertically when it continues it; 0 when it does not.

    A letter continues a line when it starts within a word space of the line's end, overlaps it by
    half its height, and is of the same size (not 1.7 times taller or smaller: a 2 mm label beside
    a 7 mm value is two rows). Lower-case letters sit inside a line of capitals.
    """
    height = box[3] - box[1]
    top, bottom = line.box[1], line.box[3]
    overlap = min(bottom, box[3]) - max(top, box[1])
    gap = box[0] - line.box[2]
    if gap > max(line.height, height) or gap < -0.5 * height:
        return 0
    if overlap < 0.5 * min(height, line.height) or height > 1.7 * line.height:
        return 0
    if height * 1.7 < line.height and not (box[1] >= top - 1 and box[3] <= bottom + 1):
        return 0
    return max(1, overlap)


def _rows_of_cell(ink: np.ndarray) -> list[tuple[list[int], np.ndarray]]:
    """Rows of one cell's ink: (box in the region, mask of the row's blobs)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    letters: list[tuple[list[int], int]] = []
    marks: list[tuple[list[int], int]] = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 3:
            continue
        box = [x, y, x + w, y + h]
        # Underscores, rules and dots are marks; glued letters ("EIGH") are wide but not solid.
        solid_bar = w >= 2.5 * h and area >= 0.75 * w * h
        (marks if h < MIN_LETTER_PX or solid_bar else letters).append((box, i))
    lines: list[_Line] = []
    for box, i in sorted(letters, key=lambda item: item[0][0]):
        scored = [(_fits(line, box), k) for k, line in enumerate(lines)]
        best = max(scored, default=(0, -1))
        if best[0] > 0:
            lines[best[1]].add(box, i)
        else:
            lines.append(_Line(box, i))
    # A letter alone and less than half a line's height beside it (an i's dot above the cap line,
    # a colon's upper dot) belongs to that line.
    lines.sort(key=lambda line: -line.height)
    kept: list[_Line] = []
    for line in lines:
        host = next((k for k in kept if len(line.labels) == 1 and _beside(k, line.box)), None)
        if host is None:
            kept.append(line)
        else:
            host.add(line.box, line.labels[0])
    for box, i in marks:
        near = [k for k in kept if _beside(k, box, reach=0.6)]
        if near:
            min(near, key=lambda k: _distance(k.box, box)).add(box, i)
    rows = []
    for line in kept:
        x0, y0, x1, y1 = line.box
        mask = np.isin(labels[y0:y1, x0:x1], line.labels).astype(np.uint8) * 255
        rows.append((line.box, mask))
    return rows


def _beside(line: _Line, box: list[int], reach: float = 0.3) -> bool:
    """A small mark close enough to ``line`` to be part of it."""
    height = box[3] - box[1]
    gx = max(line.box[0] - box[2], box[0] - line.box[2], 0)
    gy = max(line.box[1] - box[3], box[1] - line.box[3], 0)
    return (
        height <= 0.6 * line.height
        and gx <= reach * line.height
        and gy <= 0.35 * line.height
        and (reach > 0.3 or height <= 0.45 * line.height)
    )


def _distance(a: list[int], b: list[int]) -> int:
    return max(a[0] - b[2], b[0] - a[2], 0) + max(a[1] - b[3], b[1] - a[3], 0)


def text_rows(gray: np.ndarray, cells: list[Box]) -> list[TextRow]:
    """The text rows of every cell, top to bottom and left to right within a cell."""
    found = []
    for index, cell in enumerate(cells):
        ink, x0, y0 = _cell_ink(gray, cell)
        if ink.size == 0:
            continue
        rows = _rows_of_cell(ink)
        rows.sort(key=lambda row: (row[0][1] + row[0][3], row[0][0]))
        for (bx0, by0, bx1, by1), mask in rows:
            if by1 - by0 < MIN_LETTER_PX:
                continue
            found.append(
                TextRow(cell=index, box=Box(bx0 + x0, by0 + y0, bx1 + x0, by1 + y0), mask=mask)
            )
    return found


#: Around a photographed row's ink mask, the grey kept (pixels, square): a blurred stroke's pale
#: edges fall outside the mask found at the text threshold, and painting them white left letters
#: cut thin and broken.
SOFT_KEEP_PX = 7
#: A photographed row enlarged more than this is sharpened after enlarging (small labels: a 2 mm
#: label is 8-10 px tall on a 12 MP shot of an A4-A3 sheet).
SOFT_SHARPEN_SCALE = 1.5


def cut_row(
    gray: np.ndarray,
    row: TextRow,
    height: int = ROW_HEIGHT,
    thin: int = 0,
    *,
    photographed: bool = False,
) -> tuple[np.ndarray, float, int]:
    """The row's grey ink alone on white, with paper around it, scaled so its ink is ``height``
    pixels tall, strokes thinned by ``thin`` pixels: (image, scale, padding in page pixels).

    ``photographed``: the page is a camera shot, whose small lettering is soft (lens, focus,
    JPEG): more grey is kept around the ink, and a row enlarged much is sharpened.
    """
    box = row.box
    ink_height = int(box.y1 - box.y0)
    pad = max(2, ink_height // 4)
    crop = gray[int(box.y0) : int(box.y1), int(box.x0) : int(box.x1)].copy()
    reach = SOFT_KEEP_PX if photographed else 3
    keep = cv2.dilate(row.mask, np.ones((reach, reach), np.uint8))
    crop[keep == 0] = 255  # the cell's lines and neighbouring rows
    crop = cv2.copyMakeBorder(crop, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    scale = height / max(1, ink_height)
    if abs(scale - 1) > 0.1:
        crop = scaled(crop, scale)
    else:
        scale = 1.0
    if thin:
        # Paper grown into the strokes: bold letters that touch come apart.
        crop = cv2.dilate(crop, np.ones((thin + 1, thin + 1), np.uint8))
    if photographed and scale > SOFT_SHARPEN_SCALE:
        crop = unsharp(crop, 0.8 * scale)
    return crop, scale, pad


def unsharp(image: np.ndarray, sigma: float, amount: float = 1.0) -> np.ndarray:
    """The image with its detail finer than ``sigma`` pixels boosted by ``amount`` (unsharp mask):
    an enlarged blurred letter's edges steepen again, so Tesseract's own threshold finds them."""
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    sharp = image.astype(np.float32) * (1 + amount) - blurred.astype(np.float32) * amount
    return np.clip(sharp, 0, 255).astype(np.uint8)


#: Other looks at a label Tesseract did not recognise: (letter height, stroke thinning). Measured on
#: the bold, touching labels of the eDOCr2 title blocks (`TITLE:` read `TIME:`, `DWG` read `OWG`).
LABEL_LOOKS = ((36, 0), (24, 2))


def read_cells(
    gray: np.ndarray,
    cells: list[Box],
    settings: VisionSettings,
    is_label: Callable[[list[str]], bool] | None = None,
    *,
    photographed: bool = False,
) -> list[list[list[OcrWord]]]:
    """The words of each cell's rows (cells in the order given, rows top to bottom), read in one
    Tesseract call, plus one more when a label needs another look (a failure of that one only
    loses the second look).

    ``is_label`` tells whether a row's words begin with a known label. A cell's first row that
    does not, printed smaller than the cell's biggest row (a label over its value), is read again
    at :data:`LABEL_LOOKS`; the first look that reads a label replaces the row's words. Raises
    :class:`~appliance.vision.errors.OcrError` when the first call fails. ``photographed``: the
    page is a camera shot (see :func:`cut_row`).
    """
    rows = text_rows(gray, cells)[:MAX_ROWS]
    words = _read(gray, rows, [(ROW_HEIGHT, 0)] * len(rows), settings, photographed)
    if is_label is not None:
        first: dict[int, int] = {}
        tallest: dict[int, float] = {}
        for index, row in enumerate(rows):
            first.setdefault(row.cell, index)
            tallest[row.cell] = max(tallest.get(row.cell, 0.0), row.box.y1 - row.box.y0)
        unsure = [
            index
            for cell, index in first.items()
            if rows[index].box.y1 - rows[index].box.y0 <= 0.8 * tallest[cell]
            and not is_label([w.raw_text for w in words[index]])
        ]
        looks = [(index, look) for index in unsure for look in LABEL_LOOKS]
        try:
            again = _read(
                gray,
                [rows[i] for i, _ in looks],
                [look for _, look in looks],
                settings,
                photographed,
            )
        except OcrError as err:
            # The rows' first reading stands; only the second look at the labels is lost.
            log.warning("title-block label look failed: %s", err)
            again = [[] for _ in looks]
        replaced: set[int] = set()
        for (index, _), reading in zip(looks, again, strict=True):
            if index not in replaced and is_label([w.raw_text for w in reading]):
                words[index] = reading
                replaced.add(index)
    per_cell: list[list[list[OcrWord]]] = [[] for _ in cells]
    for row, row_words in zip(rows, words, strict=True):
        per_cell[row.cell].append(row_words)
    return per_cell


def _read(
    gray: np.ndarray,
    rows: list[TextRow],
    looks: list[tuple[int, int]],
    settings: VisionSettings,
    photographed: bool = False,
) -> list[list[OcrWord]]:
    """Each row's words (page boxes), rows cut at the given (height, thinning), one call."""
    if not rows:
        return []
    cuts = [
        cut_row(gray, row, height, thin, photographed=photographed)
        for row, (height, thin) in zip(rows, looks, strict=True)
    ]
    readings = read_row_words([image for image, _, _ in cuts], settings)
    found: list[list[OcrWord]] = []
    for row, (_, scale, pad), raw_words in zip(rows, cuts, readings, strict=True):
        row_words = []
        for raw in sorted(raw_words, key=lambda w: w.left):
            x0 = row.box.x0 - pad + raw.left / scale
            y0 = row.box.y0 - pad + raw.top / scale
            row_words.append(
                OcrWord(
                    text=normalise_word(raw.text),
                    raw_text=raw.text,
                    conf=raw.conf,
                    box=Box(x0, y0, x0 + raw.width / scale, y0 + raw.height / scale),
                )
            )
        found.append(row_words)
    return found


def read_at_heights(
    gray: np.ndarray, boxes: list[Box], heights: tuple[int, ...], settings: VisionSettings
) -> list[list[tuple[str, float]]]:
    """Each box of ``gray`` cut out (a little paper around it) and read at each letter height, all
    in one call: per box, per height, (text, lowest word confidence), ("", 0.0) when nothing."""
    images = []
    for box in boxes:
        crop = padded_crop(gray, box)
        for height in heights:
            images.append(scaled(crop, height / max(1.0, box.y1 - box.y0)))
    readings = read_row_words(images, settings)
    found = []
    for i in range(len(boxes)):
        per_height = []
        for words in readings[i * len(heights) : (i + 1) * len(heights)]:
            ordered = sorted(words, key=lambda w: w.left)
            text = " ".join(w.text for w in ordered)
            per_height.append((text, min((w.conf for w in ordered), default=0.0)))
        found.append(per_height)
    return found
