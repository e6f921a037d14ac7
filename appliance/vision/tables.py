"""Tables on a drawing read as rows and columns: hole tables, revision tables and parts lists.

A table is found by its header row: a word naming the row key (HOLE, TAG, Hål, Bohrung, 孔 for
holes; REV, Index, Änderung for revisions) with at least one more column header on the same line
(X, Y, SIZE, Ø; DESCRIPTION, DATE, Datum). The columns start where their headers start; every word
under the header goes to the column it starts in, and the lines below, as long as they follow each
other at the table's row pitch, are its rows. A row is known by its key ("H5", "B"), so "what size is
hole H5" and "when was revision A made" are answered from the cell, with the cell's box.

Column names are canonical (``key``, ``x``, ``y``, ``size``, ``description``, ``date``, ``by``;
``qty``, ``unit``, ``name``, ``part_no``, ``material``, ``remarks`` of a parts list) where the header
is one of the known words; any other header keeps its own text, lower-cased.

A parts list (Stückliste, 明细栏, stycklista, bill of materials) is told from a hole table by its
columns: a header with a quantity, a part name, a part number or a material column and no X/Y is a
parts list even when its key is a word hole tables use too ("Pos.").
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from appliance.document import Box
from appliance.vision.ocrlines import OcrLine, OcrWord
from appliance.vision.revisions import revisions_lettered

#: Header words of a hole table's key column.
HOLE_KEYS = frozenset(
    {
        "hole",
        "holes",
        "tag",
        "hal",
        "hål",
        "loch",
        "bohrung",
        "pos",
        "pos.",
        "孔",
        "孔号",
        "nr",
        "代号",
    }
)
#: Header words of a parts list's key column (the item number).
PARTS_KEYS = frozenset(
    {"item", "item no", "item no.", "pos", "pos.", "position", "find no", "find no.", "序号"}
)
#: Header words of a revision table's key column.
REVISION_KEYS = frozenset(
    {
        "rev",
        "rev.",
        "revision",
        "index",
        "ind",
        "änd",
        "änd.",
        "and",
        "and.",
        "版本",
        "版次",
        "标记",
    }
)
#: Header words of the other columns, by canonical column name.
COLUMN_WORDS: dict[str, frozenset[str]] = {
    "x": frozenset({"x"}),
    "y": frozenset({"y"}),
    "size": frozenset(
        {
            "size",
            "dia",
            "dia.",
            "diameter",
            "dimension",
            "ø",
            "⌀",
            "grösse",
            "größe",
            "grosse",
            "durchmesser",
            "gewinde",
            "bohrung",  # a column after the key ("Pos. | X | Y | Bohrung"); first, it is the key
            "storlek",
            "尺寸",
            "孔径",
        }
    ),
    "description": frozenset(
        {
            "description",
            "change",
            "änderung",
            "anderung",
            "beschreibung",
            "ändring",
            "andring",
            "beskrivning",
            "ändringsbeskrivning",
            "andringsbeskrivning",
            "änderungsbeschreibung",
            "anderungsbeschreibung",
            "描述",
            "内容",
            "更改内容",
            "说明",
        }
    ),
    "date": frozenset({"date", "datum", "日期"}),
    # A parts list's columns (a hole table of 代号/尺寸/数量/说明 has a count too).
    "qty": frozenset({"qty", "qty.", "quantity", "menge", "anzahl", "antal", "数量", "件数"}),
    "unit": frozenset({"einheit", "unit", "enhet"}),
    "name": frozenset(
        {"benennung", "bezeichnung", "benämning", "benamning", "名称", "part name", "item name"}
    ),
    "part_no": frozenset(
        {
            "sachnummer",
            "sach-nr.",
            "teilenummer",
            "artikelnummer",
            "artikelnr",
            "artikelnr.",
            "art.nr.",
            "part no.",
            "part no",
            "part number",
            "p/n",
            "代号",
            "图号",
        }
    ),
    "material": frozenset({"material", "matl", "matl.", "werkstoff", "材料", "材质"}),
    "remarks": frozenset(
        {"remarks", "remark", "bemerkung", "bemerkungen", "anmärkning", "anmarkning", "备注"}
    ),
}
#: Columns only a parts list has (a hole table's count, ``qty``, is not one of them).
PARTS_COLUMNS = frozenset({"unit", "name", "part_no", "material", "remarks"})
#: Headers of a revision table's column naming who made or approved the change. Named, but not
#: counted as evidence of a table: "Datum | Name" is also a row of German title blocks.
BY_WORDS = frozenset(
    {
        "appd",
        "appd.",
        "app'd",
        "approved",
        "appr",
        "appr.",
        "by",
        "name",
        "namn",
        "godk",
        "godk.",
        "sign",
        "sign.",
        "signed",
        "签名",
        "签字",
    }
)
_KEY = re.compile(r"^[A-Z]{0,3}\d{0,3}$")


@dataclass(frozen=True)
class TableRow:
    """One row of a table."""

    #: The row's key as written in its first column ("H5", "P1", "B"); "" when it was not read.
    key: str
    #: Cell text by column name.
    cells: dict[str, str]
    #: Box of each cell on the page, by column name.
    boxes: dict[str, Box]


@dataclass(frozen=True)
class Table:
    """A hole table or a revision table."""

    #: ``holes`` or ``revisions``.
    kind: str
    #: Column names in page order (canonical where known: key, x, y, size, description, date).
    columns: list[str]
    #: Each column's header as printed.
    headers: dict[str, str]
    #: The rows, top to bottom.
    rows: list[TableRow]
    #: The whole table, header included.
    box: Box
    #: The lines the table was read from (kept out of the page's notes and dimensions).
    lines: list[OcrLine] = field(default_factory=list, repr=False, compare=False)

    def row(self, key: str) -> TableRow | None:
        """The row whose key is ``key`` (compared as :func:`row_key` reads it)."""
        wanted = row_key(key)
        for r in self.rows:
            if r.key and r.key == wanted:
                return r
        return None

    def to_json(self) -> dict[str, object]:
        """JSON form stored with the slice (boxes in the coordinates they were mapped to)."""
        return {
            "kind": self.kind,
            "columns": list(self.columns),
            "headers": dict(self.headers),
            "rows": [
                {
                    "key": r.key,
                    "cells": dict(r.cells),
                    "boxes": {k: b.to_list() for k, b in r.boxes.items()},
                }
                for r in self.rows
            ],
            "box": self.box.to_list(),
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Table:
        """The table stored by :meth:`to_json`."""
        rows = []
        for item in data.get("rows", []):  # type: ignore[attr-defined]
            rows.append(
                TableRow(
                    key=str(item.get("key", "")),
                    cells={str(k): str(v) for k, v in item.get("cells", {}).items()},
                    boxes={str(k): Box.from_list(v) for k, v in item.get("boxes", {}).items()},
                )
            )
        return cls(
            kind=str(data.get("kind", "")),
            columns=[str(c) for c in data.get("columns", [])],  # type: ignore[attr-defined]
            headers={str(k): str(v) for k, v in data.get("headers", {}).items()},  # type: ignore[attr-defined]
            rows=rows,
            box=Box.from_list(data.get("box", [0, 0, 0, 0])),  # type: ignore[arg-type]
        )


#: A letter read twice, once capital and once small ("Cc" for "C"): only letters whose two forms
#: differ in size alone, so Tesseract hesitates between them.
_TWICE_READ = frozenset(f"{c}{c}" for c in "cosvwxz")


def row_key(text: str) -> str:
    """A row key as compared: upper case, OCR's letter-for-digit slips after a letter mended
    ("Pl" -> "P1", "HO" -> "H0"), a bare lower-case revision letter raised ("c" -> "C"), a letter
    read twice in its two sizes made one ("Cc" -> "C")."""
    key = text.strip().strip(".:")
    if len(key) == 2 and key[0] != key[1] and key.lower() in _TWICE_READ:
        key = key[0]  # one letter whose capital and small forms look alike, read as both ("Cc")
    key = key.upper()
    if len(key) >= 2 and key[0].isalpha():
        key = key[0] + key[1:].replace("L", "1").replace("I", "1").replace("O", "0")
    return key if _KEY.match(key) else ""


def _norm(text: str) -> str:
    return text.lower().strip(":").strip()


def _height(word: OcrWord) -> float:
    return max(1.0, word.box.y1 - word.box.y0)


def _middle(word: OcrWord) -> float:
    return (word.box.y0 + word.box.y1) / 2


def _column_of(header: str) -> str | None:
    for name, words in COLUMN_WORDS.items():
        if header in words:
            return name
    return None


def find_tables(lines: Sequence[OcrLine], *, skip: Box | None = None) -> list[Table]:
    """The hole and revision tables among a page's lines (upright text only; ``skip``: the title
    block, whose cells are fields, not a table)."""
    words = [
        piece
        for line in lines
        if line.source_pass == "upright" and not _within(line.box, skip)
        for w in line.words
        for piece in _unruled(w)
    ]
    anchors = sorted(
        (
            w
            for w in words
            if _norm(w.text) in HOLE_KEYS | REVISION_KEYS | PARTS_KEYS or _column_of(_norm(w.text))
        ),
        key=lambda w: (_middle(w), w.box.x0),
    )
    tables: list[Table] = []
    for word in anchors:
        if any(_within(word.box, t.box) for t in tables):
            continue
        table = _table_at(word, words)
        if table is not None:
            used = [
                line
                for line in lines
                if line.source_pass == "upright" and _within(line.box, table.box)
            ]
            tables.append(
                Table(table.kind, table.columns, table.headers, table.rows, table.box, used)
            )
    return tables


#: Ruling lines of a table photographed, read as characters beside the text ("H4__|-29,4", "|0,0").
_RULING = re.compile(r"[|_“”]+")


def _unruled(word: OcrWord) -> list[OcrWord]:
    """The word without the table's ruling read into it; split where a ruling line crossed it."""
    if not _RULING.search(word.text):
        return [word]
    parts = [(m.start(), m.group()) for m in re.finditer(r"[^|_“”]+", word.text)]
    parts = [(i, t) for i, t in parts if any(ch.isalnum() for ch in t)]
    raw = [t for t in _RULING.split(word.raw_text) if any(ch.isalnum() for ch in t)]
    width = (word.box.x1 - word.box.x0) / max(1, len(word.text))
    out = []
    for n, (i, text) in enumerate(parts):
        box = Box(
            word.box.x0 + i * width, word.box.y0, word.box.x0 + (i + len(text)) * width, word.box.y1
        )
        out.append(
            OcrWord(text, raw[n] if len(raw) == len(parts) else text, word.conf, box, word.vertical)
        )
    return out


def _within(box: Box, outer: Box | None) -> bool:
    if outer is None:
        return False
    cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
    return outer.x0 <= cx <= outer.x1 and outer.y0 <= cy <= outer.y1


def _band(words: Sequence[OcrWord], y: float, height: float) -> list[OcrWord]:
    return sorted((w for w in words if abs(_middle(w) - y) <= 0.6 * height), key=lambda w: w.box.x0)


def _cells(band: list[OcrWord], height: float) -> list[list[OcrWord]]:
    """Words of one line grouped into cells: a gap wider than ~1.5 letter heights splits."""
    cells: list[list[OcrWord]] = []
    for word in band:
        if cells and word.box.x0 - cells[-1][-1].box.x1 <= 1.5 * height:
            cells[-1].append(word)
        else:
            cells.append([word])
    return cells


def _too_far(left: OcrWord, right: OcrWord, height: float) -> bool:
    gap = right.box.x0 - left.box.x1
    return gap > 30 * height or (gap > 10 * height and not _header_word(right))


def _header_word(word: OcrWord) -> bool:
    text = _norm(word.text)
    return (
        text in HOLE_KEYS
        or text in REVISION_KEYS
        or text in PARTS_KEYS
        or _column_of(text) is not None
    )


def _header_cells(band: list[OcrWord], height: float) -> list[list[OcrWord]]:
    """Header words in cells; a known column word starts a cell of its own even when the header
    before it is set close ("Index Änderung")."""
    out: list[list[OcrWord]] = []
    for cell in _cells(band, height):
        out.append([cell[0]])
        for word in cell[1:]:
            if _column_of(_norm(word.text)):
                out.append([word])
            else:
                out[-1].append(word)
    return out


def _table_at(anchor: OcrWord, words: Sequence[OcrWord]) -> Table | None:
    height = _height(anchor)
    cells = _header_cells(_band(words, _middle(anchor), height), height)
    at = next(i for i, cell in enumerate(cells) if anchor in cell)
    header_cells = [cells[at]]
    for cell in cells[at + 1 :]:
        if _too_far(header_cells[-1][-1], cell[0], height):
            break  # text far to the right on the same line is not this table's
        header_cells.append(cell)
    for cell in reversed(cells[:at]):
        if _too_far(cell[-1], header_cells[0][0], height) or not _header_word(cell[0]):
            break
        header_cells.insert(0, cell)
    header_band = [w for cell in header_cells for w in cell]
    columns: list[str] = []
    headers: dict[str, str] = {}
    starts: list[float] = []
    known = 0
    kind = ""
    for i, cell in enumerate(header_cells):
        text = " ".join(w.text for w in cell).strip()
        first = _norm(cell[0].text)
        name = None
        if i == 0 and first in HOLE_KEYS | REVISION_KEYS | PARTS_KEYS:
            name = "key"
            kind = (
                "holes"
                if first in HOLE_KEYS
                else ("revisions" if first in REVISION_KEYS else "parts")
            )
        else:
            name = _column_of(_norm(text))  # a header of two words ("Part No.")
            for w in cell if name is None else ():
                name = _column_of(_norm(w.text))
                if name:
                    break
        if name and name != "key":
            known += 1
            kind = kind or ("revisions" if name in ("description", "date") else "holes")
        name = name or ("by" if _norm(text) in BY_WORDS else _norm(text))
        if name in headers:
            name = f"{name} {i}"
        columns.append(name)
        headers[name] = text
        starts.append(cell[0].box.x0)
    # A table has a key column and another known one, or two known ones whose key header was
    # not read (the key column is then found from the rows, left of the headers). A hole key
    # alone will do when every row under it starts with a row key ("K1", "G1"): the one-letter
    # and sign headers beside it (Ø, X, Y) are the ones OCR drops.
    named_columns = set(columns)
    if {"x", "y"} & named_columns:
        kind = "holes" if kind == "parts" else kind  # "Item | X | Y": the rows are holes
    elif (
        kind in ("holes", "parts")
        and "size" not in named_columns
        and (PARTS_COLUMNS & named_columns or {"qty", "description"} <= named_columns)
    ):
        kind = "parts"  # item, quantity, name: a parts list, though "Pos." keys hole tables too
    key_only = known == 0 and kind == "holes"
    if (known == 0 and not key_only) or (columns[0] != "key" and known < 2):
        return None
    if kind == "revisions" and not {"description", "date"} & set(columns):
        return None
    span = starts[-1] - starts[0]
    left = starts[0] - (height if columns[0] == "key" else max(2 * span, 20 * height))
    right = max(w.box.x1 for w in header_cells[-1]) + max(span, 10 * height)
    top = max(w.box.y1 for w in header_band)
    below = sorted((w for w in words if w.box.y0 > top and left <= w.box.x0 <= right), key=_middle)
    beyond = [w for w in words if w.box.y0 > top and w.box.x0 > right]
    bands: list[list[OcrWord]] = []
    last_y = _middle(anchor)
    pitch: float | None = None
    used: set[int] = set()
    for word in below:
        if id(word) in used:
            continue
        y = _middle(word)
        gap = y - last_y
        if gap > (2.5 * pitch if pitch else 4 * height):
            break
        band = _continued(
            [w for w in _band(below, y, height) if id(w) not in used],
            _band(beyond, y, height),
            height,
        )
        used.update(id(w) for w in band)
        if len(_cells(band, height)) < 2:
            break  # one cell alone is a note under the table, not a row of it
        bands.append(band)
        pitch = statistics.median([*([pitch] if pitch else []), gap])
        last_y = y
    if key_only and (len(bands) < 2 or not all(row_key(b[0].text) for b in bands)):
        return None
    starts, columns = _data_columns(kind, bands, starts, columns, height)
    rows = [_row(band, starts, columns, height) for band in bands]
    if not rows:
        return None
    box = Box(
        min(starts[0], *(b.x0 for r in rows for b in r.boxes.values())),
        min(w.box.y0 for w in header_band),
        max(max(w.box.x1 for w in header_band), *(b.x1 for r in rows for b in r.boxes.values())),
        max(b.y1 for r in rows for b in r.boxes.values()),
    )
    rows = _keyed(kind, rows)
    if kind == "parts":
        columns, rows = _material_column(columns, rows)
    return Table(kind, columns, headers, rows, box)


def _continued(band: list[OcrWord], beyond: list[OcrWord], height: float) -> list[OcrWord]:
    """A row with the cells that carry on past the header's reach: when the one-letter headers
    of the last columns (X, Y) were not read, the header ends early but the row does not."""
    for word in beyond:
        if band and 0 <= word.box.x0 - band[-1].box.x1 <= 10 * height:
            band.append(word)
    return band


def _data_columns(
    kind: str, bands: list[list[OcrWord]], starts: list[float], columns: list[str], height: float
) -> tuple[list[float], list[str]]:
    """The header's columns with those only the rows show added: a one-letter header (X, Y) is
    often not read at all, but its column's cells start at the same place row after row."""
    cell_starts = sorted(cell[0].box.x0 for band in bands for cell in _cells(band, height))
    clusters: list[list[float]] = []
    for x in cell_starts:
        if clusters and x - clusters[-1][-1] <= 2 * height:
            clusters[-1].append(x)
        else:
            clusters.append([x])
    out = list(zip(starts, columns, strict=True))
    for cluster in clusters:
        if len(cluster) < max(2, len(bands) // 2):
            continue  # a cell or two out of line: a long entry, not a column
        x = min(cluster)
        if all(abs(x - s) > 2 * height for s, _ in out):
            out.append((x, ""))
    out.sort()
    free = [n for n in (("x", "y", "z") if kind == "holes" else ()) if n not in columns]
    named: list[str] = []
    for i, (x, name) in enumerate(out):
        if not name and i == 0 and "key" not in columns:
            name = "key"  # the key header was not read; its column is the table's first
        if not name and kind == "holes" and "size" not in columns + named:
            # A hole's size column whose header (often a lone "Ø") was not read: its cells
            # are diameters and threads, not coordinates.
            cells = [c for band in bands for c in _cells(band, height)]
            texts = [
                " ".join(w.text for w in c) for c in cells if abs(c[0].box.x0 - x) <= 2 * height
            ]
            if texts and sum(bool(_SIZE_CELL.search(t)) for t in texts) > len(texts) / 2:
                name = "size"
        if not name:
            # One-letter headers (X, Y) are the ones not read, in their order, wherever the
            # table puts them (after the key, or after the size).
            name = free.pop(0) if free and i > 0 else f"column {i + 1}"
        named.append(name)
    return [s for s, _ in out], named


#: A hole's size as a cell writes it: a diameter (also as OCR reads its sign), a metric or
#: unified thread, a through hole.
_SIZE_CELL = re.compile(r"[⌀Ø@]\s*\.?\d|\bM\d|\d/\d+-\d+|\bTHRU\b|\bUN[CF]\b", re.I)


def _row(band: list[OcrWord], starts: list[float], columns: list[str], height: float) -> TableRow:
    cells: dict[str, list[OcrWord]] = {}
    for word in band:
        # By where the word starts, or its middle for a long word (a piece of a word a ruling
        # line split, whose box is only an estimate).
        at = max(word.box.x0, (word.box.x0 + word.box.x1) / 2 - height)
        index = max((i for i, s in enumerate(starts) if at >= s - height), default=None)
        if index is not None:  # (left of the table: not its text)
            cells.setdefault(columns[index], []).append(word)
    texts = {name: " ".join(_as_written(w) for w in ws) for name, ws in cells.items()}
    boxes = {}
    for name, ws in cells.items():
        box = ws[0].box
        for w in ws[1:]:
            box = box.union(w.box)
        boxes[name] = box
    return TableRow(row_key(texts.get("key", "")), texts, boxes)


def _as_written(word: OcrWord) -> str:
    """The word as the drawing writes it where reading changed only its decimal comma ("0,0"),
    else as read (symbols mended: "@52" -> "⌀52", "@.201" -> "⌀.201")."""
    raw = _RULING.sub("", word.raw_text)
    if raw.replace(",", ".") == word.text:
        return _DIAMETER_SLIP.sub("⌀", raw)
    return _DIAMETER_SLIP.sub("⌀", word.text)


#: OCR reads a diameter sign as "@" (or "O", "0" before a decimal point is too ambiguous).
_DIAMETER_SLIP = re.compile(r"^@(?=\.?\d)")


def _keyed(kind: str, rows: list[TableRow]) -> list[TableRow]:
    """Rows keyed where OCR lost their keys: parts-list items by their order, revisions by their
    letters (:mod:`appliance.vision.revisions`)."""
    if kind == "parts":
        return _parts_keyed(rows)
    if kind != "revisions":
        return rows
    return revisions_lettered(rows)


def _parts_keyed(rows: list[TableRow]) -> list[TableRow]:
    """Parts-list rows numbered from the header when no item number was read at all (a lone digit
    in a narrow cell is what OCR drops most; items are numbered 1, 2, 3 away from the header)."""
    if rows and not any(r.key for r in rows):
        return [TableRow(str(i + 1), r.cells, r.boxes) for i, r in enumerate(rows)]
    return rows


def _material_column(columns: list[str], rows: list[TableRow]) -> tuple[list[str], list[TableRow]]:
    """A parts list's column of materials whose header was not read, named ``material`` by how
    its cells are written (HT250, GCr15, 45 钢)."""
    if "material" in columns:
        return columns, rows
    for name in columns:
        if not name.startswith("column "):
            continue
        cells = [r.cells[name] for r in rows if name in r.cells]
        if len(cells) >= 2 and sum(bool(_MATERIAL_CELL.search(c)) for c in cells) > len(rows) / 2:
            renamed = [_renamed(r, name, "material") for r in rows]
            return ["material" if c == name else c for c in columns], renamed
    return columns, rows


#: A material as a parts list writes it: a steel, cast iron or alloy grade, or 钢 (steel).
_MATERIAL_CELL = re.compile(
    r"^(?:HT\d{3}|QT\d{3}|GCr\d+|\d{2}\s*钢|T\d{1,2}A?|Q\d{3}\w*|C\d{2}\w*|\d{2,3}Cr\w+"
    r"|\d{2}Mn\w*|S\d{3}\w*|EN[- ]?AW[- ]?\w+|AlMg\w*|CuZn\w*|X\d+\w+|PA\s?\d+|POM\w*)$"
)


def _renamed(row: TableRow, old: str, new: str) -> TableRow:
    cells = {new if k == old else k: v for k, v in row.cells.items()}
    boxes = {new if k == old else k: v for k, v in row.boxes.items()}
    return TableRow(row.key, cells, boxes)


#: What each kind of table calls its rows in :func:`table_text` ("Hole H1: ...", "Item 3: ...").
_ROW_NOUNS = {"holes": "Hole", "parts": "Item"}
#: A parts-list row as :func:`table_text` writes it ("Item 3: Menge 1; Einheit Stk; ...").
PARTS_ROW = re.compile(_ROW_NOUNS["parts"] + r" [^:]{1,4}: ")


def table_text(table: Table, name: str) -> str:
    """The table as searchable lines: "Hole table of Hjulnav HN-5520." then
    "Hole H1: X 0,0; Y 50,0; Dimension M12x1.5." per row; "Parts list of ..." then
    "Item 3: Menge 1; Einheit Stk; Benennung Passfeder; ..." for a parts list."""
    noun = _ROW_NOUNS.get(table.kind, "Revision")
    title = {"holes": "Hole table", "parts": "Parts list"}.get(table.kind, "Revisions")
    lines = [f"{title} of {name}." if name else f"{title}."]
    for r in table.rows:
        parts = [
            f"{table.headers.get(c, c.upper() if len(c) == 1 else c)} {r.cells[c]}"
            for c in table.columns
            if c != "key" and c in r.cells
        ]
        lines.append(f"{noun} {r.key or '?'}: {'; '.join(parts)}.")
    return "\n".join(lines)
