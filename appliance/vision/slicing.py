"""From OCR lines and a title block to the index's slices: kinds, boxes, drawing number on each.

Dimensions become one slice each (an answer cites "⌀42, drawing 2022001" with its exact box); other
text on a drawing is grouped by Tesseract block into notes; a text page's blocks become prose. The
title block is one slice of its own, never cut. Words Tesseract was unsure of stay in the text but are
listed in ``extra["uncertain_words"]``, and a slice made mostly of them carries
``extra["low_confidence"] = True`` so the answer stage does not cite it as fact on its own.

Each dimension slice, and each note with a thread or diameter callout ("4x M8 Gewinde
durchgehend"), carries its typed dimensions (:mod:`appliance.vision.dimensions`) in
``extra["dimensions"]``, each with its own box; one more slice per page lists them all by kind
("Threads: 4 x M8. Diameters: ...") for questions over the whole set, and the title-block slice
carries the set too (a question that names the drawing finds its title block).

Hole and revision tables (:mod:`appliance.vision.tables`) are read as rows and columns: their lines
become one table slice each ("Hole H5: X -47,6; Y 15,5; Dimension M12x1.5."), with the rows and every
cell's box in ``extra["table"]``, and are kept out of the notes and dimensions; the title-block slice
carries the page's tables in ``extra["tables"]``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from appliance.document import Box, DocumentSlice, SliceKind
from appliance.drawing_terms import FIELD_NAMES, english
from appliance.vision.dimensions import Dimension, DimensionKind, parse_dimensions
from appliance.vision.notelists import NumberedLines, NumberReader, number_note_lists
from appliance.vision.ocrlines import OcrLine, OcrPage
from appliance.vision.tables import Table, find_tables, table_text
from appliance.vision.titleblock import TitleBlock
from appliance.vision.titlefields import FIELDS

_LETTER_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
#: Border zone markers (1-8, A-F) sit in this outer share of the page.
_MARGIN = 0.05


def is_dimension(text: str) -> bool:
    """A line that is a dimension, tolerance, angle, radius, thread or diameter callout."""
    compact = text.replace(" ", "")
    if not compact or not any(ch.isdigit() for ch in compact):
        return False
    if re.fullmatch(r"(?:\d+x)?(?:CH|M|R|SW)\d+(?:[.]\d+)?(?:x\d+(?:[.]\d+)?)?", compact):
        return True  # chamfer, thread, radius, across-flats callouts
    if _LETTER_WORD.search(text):
        return False
    digits = sum(ch.isdigit() for ch in compact)
    return digits / len(compact) >= 0.4


def _stacked(upper: OcrLine, lower: OcrLine) -> bool:
    """True when ``lower`` sits right under ``upper`` in reading direction (limits, tolerances)."""
    a, b = upper.box, lower.box
    if upper.source_pass == "turned":
        # Turned text reads bottom-to-top; its "under" is to the right on the page.
        size = min(a.x1 - a.x0, b.x1 - b.x0)
        gap = b.x0 - a.x1
        shared = min(a.y1, b.y1) - max(a.y0, b.y0)
        span = min(a.y1 - a.y0, b.y1 - b.y0)
    else:
        size = min(a.y1 - a.y0, b.y1 - b.y0)
        gap = b.y0 - a.y1
        shared = min(a.x1, b.x1) - max(a.x0, b.x0)
        span = min(a.x1 - a.x0, b.x1 - b.x0)
    return -0.3 * size <= gap <= 0.6 * size and shared >= 0.5 * span


def stack_dimensions(lines: list[OcrLine]) -> list[list[OcrLine]]:
    """Group dimension lines stacked on each other (upper/lower limits) into one dimension each."""

    def direction(line: OcrLine) -> str:
        # Upright, grey-page and slanted readings all run left to right; only turned text differs.
        return "turned" if line.source_pass == "turned" else "upright"

    def reading_key(line: OcrLine) -> tuple[str, float]:
        box = line.box
        return (direction(line), box.x0 if line.source_pass == "turned" else box.y0)

    stacks: list[list[OcrLine]] = []
    for line in sorted(lines, key=reading_key):
        for stack in stacks:
            if direction(stack[-1]) == direction(line) and _stacked(stack[-1], line):
                stack.append(line)
                break
        else:
            stacks.append([line])
    return stacks


def title_block_text(fields: dict[str, str]) -> str:
    """A readable summary of the fields, one per line in a fixed order (no separator glued to a
    value, so "2022001" stays a word of its own for search)."""
    names = {
        "drawing_number": "Drawing number",
        "title": "Title",
        "revision": "Revision",
        "material": "Material",
        "scale": "Scale",
        "sheet": "Sheet",
        "size": "Size",
        "date": "Date",
    }
    lines = []
    for k in FIELDS:
        if fields.get(k):
            # A value in Swedish, German or Chinese is followed by its English sense, which is
            # what a question asks with ("Anodiserad 15-20µm (anodised)").
            sense = english(fields[k])
            gloss = f" ({sense})" if sense and sense.lower() != fields[k].lower() else ""
            lines.append(f"{names.get(k) or FIELD_NAMES[k].capitalize()}: {fields[k]}{gloss}")
    return "\n".join(lines)


_SPACED_HAN = re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")
_HAN_LINE = re.compile(r"[\u3400-\u9fff]+")


def _glossed_chinese(line: str) -> str:
    """A title-block line of Chinese with the spaces Tesseract puts between its characters taken
    out, and its English sense after it ("轴承 座" -> "轴承座 (bearing housing)"): when the title
    cell's label was not read, the part's name is still found by what a person calls it."""
    joined = _SPACED_HAN.sub("", line.strip())
    if not _HAN_LINE.fullmatch(joined):
        return line
    sense = english(joined)
    return f"{joined} ({sense})" if sense and sense != joined else joined


def _inside(line: OcrLine, box: Box) -> bool:
    b = line.box
    cx, cy = (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2
    return box.x0 <= cx <= box.x1 and box.y0 <= cy <= box.y1


def _inside_box(box: Box, outer: Box) -> bool:
    cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
    return outer.x0 <= cx <= outer.x1 and outer.y0 <= cy <= outer.y1


def _union(lines: list[OcrLine]) -> Box:
    box = lines[0].box
    for line in lines[1:]:
        box = box.union(line.box)
    return box


def _in_margin(line: OcrLine, size: tuple[int, int]) -> bool:
    height, width = size
    b = line.box
    return (
        b.x1 < _MARGIN * width
        or b.x0 > (1 - _MARGIN) * width
        or b.y1 < _MARGIN * height
        or b.y0 > (1 - _MARGIN) * height
    )


def _extra(lines: list[OcrLine], low_confidence: float) -> dict[str, object]:
    words = [w for line in lines for w in line.words]
    uncertain = [w.text for w in words if w.conf < low_confidence]
    mean = sum(w.conf for w in words) / len(words)
    extra: dict[str, object] = {"ocr_confidence": round(mean, 1)}
    if uncertain:
        extra["uncertain_words"] = uncertain
    if len(uncertain) * 2 > len(words) or mean < low_confidence:
        extra["low_confidence"] = True
    if any(line.source_pass == "turned" for line in lines):
        extra["vertical"] = True
    raw = " ".join(w.raw_text for w in words)
    if raw != " ".join(line.text for line in lines):
        extra["raw_text"] = raw
    return extra


def build_slices(
    page: OcrPage,
    title_block: TitleBlock | None,
    *,
    page_no: int,
    page_size: tuple[int, int],
    to_source: Callable[[Box], Box],
    low_confidence: float,
    numbers: NumberReader | None = None,
) -> list[DocumentSlice]:
    """Slices for one page; ``to_source`` maps a page box to the source's coordinates.

    ``numbers`` reads small boxes of the page again: the numbers of a note list Tesseract did not
    read beside their notes (:mod:`appliance.vision.notelists`).
    """
    fields = title_block.fields if title_block else {}
    number = fields.get("drawing_number", "")
    revision = fields.get("revision", "")
    slices: list[DocumentSlice] = []
    if title_block is not None and (fields or title_block.lines):
        summary = title_block_text(fields)
        body = title_block.text
        # The whole-page pass sometimes reads a cell the block's own pass missed: keep both readings
        # searchable (the fields come from the block's own pass only).
        seen = {line.text for line in title_block.lines}
        extra_lines = [
            line.text
            for line in page.lines
            if _inside(line, title_block.box) and line.text not in seen and len(line.text) > 1
        ]
        if extra_lines:
            body = body + "\n" + "\n".join(extra_lines)
        body = "\n".join(_glossed_chinese(line) for line in body.splitlines())
        text = f"Title block.\n{summary}\n{body}".strip() if summary else f"Title block.\n{body}"
        extra: dict[str, object] = {"title_block": dict(fields)}
        if title_block.boxes:
            # Where each value is written, so a field answer can point at its own cell.
            extra["field_boxes"] = {
                k: _rounded(to_source(b)).to_list() for k, b in title_block.boxes.items()
            }
        if title_block.lines:
            extra.update(_extra(title_block.lines, low_confidence))
            extra.pop("low_confidence", None)  # the parsed fields are the claim, not each word
        slices.append(
            DocumentSlice(
                text=text,
                kind=SliceKind.TITLE_BLOCK,
                box=_rounded(to_source(title_block.box)),
                section="title block",
                extra=extra,
                page=page_no,
                drawing_number=number,
                revision=revision,
            )
        )
    tables = (
        find_tables(page.lines, skip=title_block.box if title_block is not None else None)
        if page.layout == "drawing"
        else []
    )
    if title_block is not None and page.layout == "drawing":
        # Tables read with the block (a Chinese block's change rows): the page's lines in them are
        # theirs, not notes; a table the page's finder found there too is the same one, read worse.
        for ruled in title_block.tables:
            tables = [t for t in tables if not _inside_box(t.box, ruled.box)]
            tables.append(
                replace(ruled, lines=[line for line in page.lines if _inside(line, ruled.box)])
            )
    in_tables = {id(line) for table in tables for line in table.lines}
    numbered = (
        number_note_lists(
            page.lines,
            skip=lambda line: (
                (title_block is not None and _inside(line, title_block.box))
                or id(line) in in_tables
            ),
            reader=numbers,
        )
        if page.layout == "drawing"
        else NumberedLines(lines=page.lines, notes=set())
    )
    groups: dict[tuple[str, int], list[OcrLine]] = {}
    order: list[tuple[str, int]] = []
    dimensions: list[OcrLine] = []
    for line in numbered.lines:
        if title_block is not None and _inside(line, title_block.box):
            continue
        if id(line) in in_tables:
            continue  # read as a row of its table, not as a dimension or a note
        if page.layout == "drawing" and len(line.text.strip()) <= 1 and _in_margin(line, page_size):
            continue  # zone letters and numbers of the drawing frame
        if page.layout == "drawing" and is_dimension(line.text) and id(line) not in numbered.notes:
            dimensions.append(line)
            continue
        key = (line.source_pass, line.block)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(line)
    rest: list[DocumentSlice] = []
    typed: list[Dimension] = []
    for stack in stack_dimensions(dimensions):
        extra = _extra(stack, low_confidence)
        found = _stack_dimensions_typed(stack, to_source)
        if found:
            extra["dimensions"] = [d.to_json() for d in found]
            typed.extend(found)
        rest.append(
            DocumentSlice(
                text=" ".join(line.text for line in stack),
                kind=SliceKind.DIMENSION,
                box=_rounded(to_source(_union(stack))),
                section="dimensions",
                extra=extra,
                page=page_no,
                drawing_number=number,
                revision=revision,
            )
        )
    kind = SliceKind.NOTE if page.layout == "drawing" else SliceKind.PROSE
    for key in order:
        lines = groups[key]
        text = "\n".join(line.text for line in lines)
        if sum(ch.isalnum() for ch in text) < 2:
            continue
        extra = _extra(lines, low_confidence)
        if kind is SliceKind.NOTE:
            found = _note_dimensions(lines, to_source)
            if found:
                extra["dimensions"] = [d.to_json() for d in found]
                typed.extend(found)
        rest.append(
            DocumentSlice(
                text=text,
                kind=kind,
                box=_rounded(to_source(_union(lines))),
                section="notes" if kind is SliceKind.NOTE else "",
                extra=extra,
                page=page_no,
                drawing_number=number,
                revision=revision,
            )
        )
    name = " ".join(v for v in (fields.get("title", ""), number) if v)
    mapped = [_mapped(table, to_source) for table in tables]
    for table in mapped:
        rest.append(
            DocumentSlice(
                text=table_text(table, name),
                kind=SliceKind.TABLE,
                box=table.box,
                section={"holes": "hole table", "parts": "parts list"}.get(table.kind, "revisions"),
                extra={"table": table.to_json()},
                page=page_no,
                drawing_number=number,
                revision=revision,
            )
        )
    if mapped and slices and slices[0].kind is SliceKind.TITLE_BLOCK:
        # A question naming the drawing finds its title block first: its tables go with it.
        records = [table.to_json() for table in mapped]
        slices[0] = replace(slices[0], extra={**slices[0].extra, "tables": records})
    if typed:
        if slices and slices[0].kind is SliceKind.TITLE_BLOCK:
            # A question naming the drawing finds its title block first: the set goes with it.
            records = [d.to_json() for d in typed]
            slices[0] = replace(slices[0], extra={**slices[0].extra, "dimensions": records})
        slices.append(
            dimension_summary(
                typed, fields, page_no=page_no, drawing_number=number, revision=revision
            )
        )
    return slices + rest


def _stack_dimensions_typed(
    stack: list[OcrLine], to_source: Callable[[Box], Box]
) -> list[Dimension]:
    """The typed dimensions of a stack, each with the box of its own line where it has one.

    A stack is read as one text first (limits and deviations span its lines); when that gives just
    what its lines give one by one, the lines were separate dimensions and keep their own boxes.
    """
    turned = any(line.source_pass == "turned" for line in stack)
    whole = parse_dimensions(
        " ".join(line.text for line in stack), _rounded(to_source(_union(stack))), vertical=turned
    )
    if len(stack) > 1:
        apart = [
            d
            for line in stack
            for d in parse_dimensions(
                line.text, _rounded(to_source(line.box)), vertical=line.source_pass == "turned"
            )
        ]
        if len(apart) == len(whole) and all(
            a.kind is w.kind and a.value == w.value for a, w in zip(apart, whole, strict=True)
        ):
            return apart
    return whole


#: In a note, only callouts a sign marks as dimensions count ("4x M8 Gewinde durchgehend"); its bare
#: numbers are dates, standards and quantities.
_NOTE_KINDS = (DimensionKind.THREAD, DimensionKind.DIAMETER, DimensionKind.RADIUS)


def _note_dimensions(lines: list[OcrLine], to_source: Callable[[Box], Box]) -> list[Dimension]:
    found = []
    for line in lines:
        for dim in parse_dimensions(line.text, _rounded(to_source(line.box))):
            if dim.kind in _NOTE_KINDS:
                found.append(dim)
    return found


_SUMMARY_GROUPS = (
    (DimensionKind.THREAD, "Threads"),
    (DimensionKind.DIAMETER, "Diameters"),
    (DimensionKind.RADIUS, "Radii"),
    (DimensionKind.LINEAR, "Lengths"),
    (DimensionKind.ANGLE, "Angles"),
    (DimensionKind.CHAMFER, "Chamfers"),
)


def dimension_summary(
    typed: list[Dimension],
    fields: dict[str, str],
    *,
    page_no: int,
    drawing_number: str,
    revision: str,
) -> DocumentSlice:
    """One slice listing a page's dimensions by kind, carrying the whole typed set.

    Questions over the set ("the largest diameter", "the thread size") name a kind, not a value;
    this slice is what such a question finds, and its ``extra["dimensions"]`` is the set the answer
    is taken from (each record with its own box, so the answer cites the dimension, not the page).
    """
    name = " ".join(v for v in (fields.get("title", ""), drawing_number) if v)
    lines = [f"Dimensions of {name}." if name else "Dimensions."]
    for kind, label in _SUMMARY_GROUPS:
        items = [d.callout() for d in typed if d.kind is kind]
        if items:
            lines.append(f"{label}: {', '.join(dict.fromkeys(items))}.")
    # Tolerances and fits show in their dimensions' entries; a line of its own headed "Tolerances"
    # would be quoted for the general tolerance standard, which is not among them.
    box = typed[0].box
    for dim in typed[1:]:
        if dim.box is not None:
            box = dim.box if box is None else box.union(dim.box)
    return DocumentSlice(
        text="\n".join(lines),
        kind=SliceKind.DIMENSION,
        box=box,
        section="dimensions",
        extra={"dimensions": [d.to_json() for d in typed], "dimension_summary": True},
        page=page_no,
        drawing_number=drawing_number,
        revision=revision,
    )


def _mapped(table: Table, to_source: Callable[[Box], Box]) -> Table:
    """The table with every box in the source's coordinates."""
    rows = [
        replace(row, boxes={k: _rounded(to_source(b)) for k, b in row.boxes.items()})
        for row in table.rows
    ]
    return replace(table, rows=rows, box=_rounded(to_source(table.box)), lines=[])


def _rounded(box: Box) -> Box:
    return Box.from_list(box.to_list())
