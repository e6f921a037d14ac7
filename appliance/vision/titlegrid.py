"""Title-block geometry: the grid of ruled cells, where the block is on the page, which words sit
in which cell and in what order they read.

Works on the corrected greyscale page and on :class:`OcrWord` boxes in page coordinates; reading the
text and naming fields are :mod:`appliance.vision.titlefields` and :mod:`appliance.vision.titleblock`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from appliance.document import Box
from appliance.vision.imageops import binarise, long_line_mask
from appliance.vision.ocrlines import OcrLine, OcrWord


@dataclass(frozen=True)
class Cell:
    """One rectangle of the title-block grid, in page coordinates."""

    #: Its box.
    box: Box


#: How much darker than its surroundings a pixel of a ruling line is (grey levels). Lower than the
#: text's threshold: a thin line on a camera photo is blurred to a pale grey and broke into pieces
#: at the text's threshold, so no cell of the block closed (one cell of a SolidWorks block found
#: on its 12 MP photo, 40 at this offset); only long straight strokes survive
#: :func:`long_line_mask`, so the paper grain a lower threshold lets in does not make lines.
LINE_OFFSET = 10


def find_cells(gray: np.ndarray, min_line: int) -> list[Cell]:
    """Rectangles enclosed by ruling lines."""
    ink = binarise(gray, LINE_OFFSET)
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


def cells_in(gray: np.ndarray, crop: tuple[int, int, int, int]) -> list[Cell]:
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


def outermost(cells: list[Cell]) -> list[Cell]:
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


def cell_words(lines: list[OcrLine], cells: list[Cell]) -> list[tuple[Cell, list[OcrWord]]]:
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
                smallest = min(inside, key=lambda i: box_area(cells[i].box))
                filled.setdefault(smallest, []).append(word)
    result = []
    for i, cell in enumerate(cells):
        result.append((cell, reading_order(filled.get(i, []))))
    return result


def reading_order(words: list[OcrWord]) -> list[OcrWord]:
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


def overlap_area(a: Box, b: Box) -> float:
    return max(0.0, min(a.x1, b.x1) - max(a.x0, b.x0)) * max(0.0, min(a.y1, b.y1) - max(a.y0, b.y0))


def box_area(box: Box) -> float:
    return (box.x1 - box.x0) * (box.y1 - box.y0)
