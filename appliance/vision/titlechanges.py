"""GB/T 10609.1 change rows: the ruled rows ``标记 | 处数 | 分区 | 更改文件号 | 签名 | 年月日`` drawn on
top of a Chinese title block, read as the drawing's revision table.

They have no caption and no description column, their marks are small letters (a, b) and a thick
rule parts them from the block, so neither the block's reader (they are outside its cells) nor the
page's table finder (no description or date header it knows; the page's English pass reads 分区 as
"AK") takes them: their cells became loose lines. Here the grid of cells standing on the block is
found from its ruling, read twice in the block's languages — the crop as a block of text, and cell
by cell in the row mosaic of :mod:`appliance.vision.titlecells` (each reads some names the other
misreads: "王海涛" / "亚海涛", "C5" / "cS") — and becomes a ``revisions``
:class:`~appliance.vision.tables.Table` keyed by the mark, with the columns the answers know
(``places``, ``zone``, ``order``, ``by``, ``date``).
"""

from __future__ import annotations

import difflib
import logging
import re
from dataclasses import replace

import numpy as np

from appliance.document import Box
from appliance.vision.errors import OcrError
from appliance.vision.ocr import read_page
from appliance.vision.ocrlines import OcrLine, OcrWord
from appliance.vision.settings import VisionSettings
from appliance.vision.tables import Table, TableRow
from appliance.vision.titlecells import read_cells
from appliance.vision.titlegrid import Cell, cell_words, cells_in, outermost, reading_order

log = logging.getLogger(__name__)

#: Header of a change row's column (Chinese, spaces taken out) -> its column name.
HEADERS: dict[str, str] = {
    "标记": "key",
    "处数": "places",
    "分区": "zone",
    "更改文件号": "order",
    "签名": "by",
    "签字": "by",
    "年月日": "date",
    "日期": "date",
}
#: What a cell of each column looks like, for a column whose header was misread, and to choose
#: between the two readings of a cell.
_FORMS: dict[str, re.Pattern[str]] = {
    "key": re.compile(r"[A-Za-z]"),
    "places": re.compile(r"\d{1,3}"),
    "zone": re.compile(r"[A-H]\d{1,2}"),
    "order": re.compile(r"[A-Z]{2,}[-/]?\d[\w-]*"),
    "by": re.compile(r"[\u3400-\u9fff]{2,4}|[A-Z]\.\s?[A-Za-z]+|[A-Z]{2,3}"),
    "date": re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4}"),
}
_SPACED_HAN = re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")
_HAN = re.compile(r"[\u3400-\u9fff]")


def read_change_rows(
    gray: np.ndarray, block: Box, settings: VisionSettings, *, photographed: bool = False
) -> Table | None:
    """The change rows standing on the title block ``block`` (page coordinates) as a revision
    table, or None when there are none (or their header names no mark and two more columns).
    ``settings``: the languages the block was read in. OCR failures give None (logged)."""
    rows = _grid_above(gray, block)
    if rows is None:
        return None
    cells = [cell for row in rows for cell in row]
    x0 = int(min(c.box.x0 for c in cells)) - 4
    y0 = int(min(c.box.y0 for c in cells)) - 4
    x1 = int(max(c.box.x1 for c in cells)) + 4
    y1 = int(max(c.box.y1 for c in cells)) + 4
    no_vertical = replace(settings, read_vertical_text=False, read_grey_page=False)
    try:
        page = read_page(gray[y0:y1, x0:x1], no_vertical, layout="drawing")
        mosaic = read_cells(gray, [c.box for c in cells], settings, photographed=photographed)
    except OcrError as err:
        log.warning("change rows not read: %s", err)
        return None
    lines = [_shifted(line, x0, y0) for line in page.lines]
    first = [words for _, words in cell_words(lines, cells)]
    second = [reading_order([w for row in found for w in row]) for found in mosaic]
    readings = list(zip(first, second, strict=False))
    width = len(rows[0])
    return _table(rows, [readings[k : k + width] for k in range(0, len(readings), width)])


def _grid_above(gray: np.ndarray, block: Box) -> list[list[Cell]] | None:
    """Rows of ruled cells standing on the block, top to bottom, each with the same columns; the
    lowest within a thick rule's width of the block's top. None when there is no such grid of at
    least two rows of four cells."""
    height = block.y1 - block.y0
    margin = max(8.0, 0.04 * height)
    crop = (
        int(max(0, block.x0 - 2 * margin)),
        int(max(0, block.y0 - 1.2 * height)),
        int(min(gray.shape[1], block.x1 + 2 * margin)),
        int(min(gray.shape[0], block.y0 + margin)),
    )
    cells = [c for c in outermost(cells_in(gray, crop)) if c.box.y1 <= block.y0 + margin]
    rows: list[list[Cell]] = []
    for cell in sorted(cells, key=lambda c: (c.box.y0, c.box.x0)):
        if rows and abs(cell.box.y0 - rows[-1][0].box.y0) < 0.3 * (cell.box.y1 - cell.box.y0):
            rows[-1].append(cell)
        else:
            rows.append([cell])
    # From the block upwards, rows that touch the one under them and share its columns.
    stack: list[list[Cell]] = []
    bottom = block.y0 + margin
    for row in reversed(rows):
        row.sort(key=lambda c: c.box.x0)
        touching = bottom - max(c.box.y1 for c in row) <= 2 * margin
        same = not stack or _same_columns(row, stack[-1])
        if not (touching and same and len(row) >= 4):
            break
        stack.append(row)
        bottom = min(c.box.y0 for c in row)
    return stack[::-1] if len(stack) >= 2 else None


def _same_columns(a: list[Cell], b: list[Cell]) -> bool:
    if len(a) != len(b):
        return False
    slack = 0.01 * (b[-1].box.x1 - b[0].box.x0) + 4
    return all(
        abs(p.box.x0 - q.box.x0) <= slack and abs(p.box.x1 - q.box.x1) <= slack
        for p, q in zip(a, b, strict=True)
    )


def _text(words: list[OcrWord]) -> str:
    return _SPACED_HAN.sub("", " ".join(w.raw_text for w in words)).strip(" |[]_")


def _header(texts: tuple[str, ...]) -> str | None:
    """The column a header cell names, from either reading: exactly, or by most of its characters
    ("分所" for 分区 is not enough, "更改文件" is)."""
    best: tuple[float, str] | None = None
    for text in texts:
        han = "".join(_HAN.findall(text))
        if not han:
            continue
        for header, name in HEADERS.items():
            if han == header:
                return name
            ratio = difflib.SequenceMatcher(None, han, header).ratio()
            if len(header) >= 3 and ratio >= 0.75 and (best is None or ratio > best[0]):
                best = (ratio, name)
    return best[1] if best else None


def _table(
    rows: list[list[Cell]], readings: list[list[tuple[list[OcrWord], list[OcrWord]]]]
) -> Table | None:
    header_texts = [(_text(a), _text(b)) for a, b in readings[0]]
    names = [_header(texts) for texts in header_texts]
    if names[0] != "key" or sum(n is not None for n in names[1:]) < 2:
        return None  # not the change rows (a parts list, a second block)
    body = readings[1:]
    columns: list[str] = []
    for i, name in enumerate(names):
        if name is None or name in columns:
            # A misread header: the column the cells' form says (in either reading of each
            # cell), of those not taken.
            read = [[t for t in (_text(row[i][0]), _text(row[i][1])) if t] for row in body]
            read = [texts for texts in read if texts]
            name = next(
                (
                    n
                    for n, form in _FORMS.items()
                    if n not in columns
                    and n not in names
                    and read
                    and all(any(form.fullmatch(t) for t in texts) for texts in read)
                ),
                f"column {i + 1}",
            )
        columns.append(name)
    headers = {
        name: next((t for t in texts if _header((t,)) == name), texts[0] or texts[1])
        for name, texts in zip(columns, header_texts, strict=True)
    }
    table_rows = []
    for cells, row in zip(rows[1:], body, strict=True):
        values: dict[str, str] = {}
        boxes: dict[str, Box] = {}
        for name, cell, (a, b) in zip(columns, cells, row, strict=True):
            value = _choose(name, a, b)
            if value:
                values[name] = value
                boxes[name] = cell.box
        if not any(v for k, v in values.items() if k != "key"):
            continue  # an empty change row: the block leaves room for more
        key = re.sub(r"[^A-Za-z]", "", values.get("key", ""))
        table_rows.append(TableRow(key.upper() if len(key) == 1 else "", values, boxes))
    if not table_rows:
        return None
    box = rows[0][0].box
    for ruled in rows:
        for one in ruled:
            box = box.union(one.box)
    return Table("revisions", columns, headers, _lettered(table_rows), box)


def _choose(column: str, first: list[OcrWord], second: list[OcrWord]) -> str:
    """A cell's value from its two readings: the one of the column's form, else the one read
    with more confidence; "" when neither read anything."""
    options = [(_text(words), min(w.conf for w in words)) for words in (first, second) if words]
    options = [(text, conf) for text, conf in options if text]
    if not options:
        return ""
    form = _FORMS.get(column)
    fitting = [o for o in options if form is not None and form.fullmatch(o[0])]
    return max(fitting or options, key=lambda o: o[1])[0]


def _lettered(rows: list[TableRow]) -> list[TableRow]:
    """Rows whose mark was not read lettered by their place when every other row's mark follows
    the alphabet in the same order (a lone small letter is what OCR drops most)."""
    known = [(i, r.key) for i, r in enumerate(rows) if r.key]
    if not known or len(known) == len(rows):
        return rows
    for step in (1, -1):
        i0, k0 = known[0]
        if all(ord(k) - ord(k0) == step * (i - i0) for i, k in known):
            letters = [chr(ord(k0) + step * (i - i0)) for i in range(len(rows))]
            if all("A" <= letter <= "Z" for letter in letters):
                return [
                    r if r.key else TableRow(letter, r.cells, r.boxes)
                    for r, letter in zip(rows, letters, strict=True)
                ]
    return rows


def _shifted(line: OcrLine, dx: float, dy: float) -> OcrLine:
    words = tuple(
        replace(w, box=Box(w.box.x0 + dx, w.box.y0 + dy, w.box.x1 + dx, w.box.y1 + dy))
        for w in line.words
    )
    return OcrLine(words=words, block=line.block, source_pass=line.source_pass)
