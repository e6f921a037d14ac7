"""Numbered note lists: each note line given back its number ("6. TIGHTEN CLAMP SCREW TO 25 N·m").

Drawings list their general notes under a header ("GENERAL NOTES:", "Anmerkungen", "Anmärkningar",
"技术要求") with the number in a column of its own (a hanging indent). Tesseract's sparse-text pass
reads such a number apart from its note, as a line of its own, or not at all; the lone digit then
looks like a dimension and the note loses the number a person asks for it by ("what does note 6
say"). Chinese lists are read with the number glued ("4, ..." or "1.未注...").

Under a header, the list is the run of rows in its column at a steady pitch, down to a large gap.
Each row's note line gets its number: the one read on its baseline, or else the small region left
of the note read again (one Tesseract call for the page, digits only) when it reads the expected
next number. Only when no re-read could be made is a number inferred from the order, and only on a
list whose pitch is regular and whose read numbers agree with the order. Without a header, a run of
lines that carry their own numbers 1, 2, 3 ... in one column is a list too (the Chinese header is
often not read); its numbers are only tidied ("4," -> "4."). The lines of a numbered list stay
notes (a short note such as "2. 调质处理 HB220-250" is not a dimension), and a lone number joined
to its note is not a line of its own any more. A page without such a list keeps its lines as read.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import re
import statistics
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from appliance.document import Box
from appliance.vision.errors import OcrError
from appliance.vision.mosaic import cut_row, read_rows
from appliance.vision.ocrlines import OcrLine, OcrWord
from appliance.vision.settings import VisionSettings

log = logging.getLogger(__name__)

#: Headers of a notes list, compared without accents, case, spaces and a trailing colon.
HEADERS = frozenset(
    {
        "generalnotes",
        "notes",
        "note",
        "anmerkungen",
        "anmerkung",
        "hinweise",
        "allgemeinehinweise",
        "anmarkningar",
        "anmarkning",
        "noter",
        "技术要求",
        "注",
    }
)
#: A number read alone: "6", "6.", "6)".
_LONE = re.compile(r"^(\d{1,2})[.,)]?$")
#: A number glued before its note's first word: "1.未注倒角", "4,".
_GLUED = re.compile(r"^(\d{1,2})([.,、)]?)(.*)$")
_PUNCT = frozenset(".,、)")

#: Reads the text in each box of the page (one call for all): (text, confidence) per box. Raises
#: :class:`~appliance.vision.errors.OcrError` when Tesseract fails.
NumberReader = Callable[[list[Box]], list[tuple[str, float]]]

#: Rows further below the previous one than this many letter heights end the list.
_GAP = 2.5
#: A row's note line starts within this many letter heights of the first row's.
_ALIGN = 1.0
#: Pitches within this share of their median are regular.
_PITCH_SPREAD = 0.15
#: Most rows of one list.
_MAX_ROWS = 30
#: A line further along a note's baseline within this many letter heights goes on the note.
_TAIL_GAP = 2.0
#: Confidence given to a number inferred from the order (below the usual "unsure" mark: the answer
#: stage sees the guess).
_INFERRED_CONF = 50.0


@dataclass
class NumberedLines:
    """A page's lines with the numbers of its note lists joined to their notes."""

    #: The lines, in the page's order; a joined lone number is left out.
    lines: list[OcrLine]
    #: ``id`` of each numbered note line in ``lines`` (kept a note, never a dimension).
    notes: set[int]


@dataclass
class _Row:
    text: OcrLine
    number: OcrLine | None = None
    #: The number this row carries (read, re-read or inferred), or None.
    value: int | None = None
    #: Where it came from: "read", "glued", "reread", "inferred".
    how: str = ""
    reread_text: str = ""
    reread_conf: float = 0.0
    #: Lines further along the note's baseline that Tesseract cut off it ("TOLERANCES:" and
    #: "XX ±.01 .XXX ±.005"), joined to it.
    tail: list[OcrLine] = dataclasses.field(default_factory=list)


def is_header(text: str) -> bool:
    """Whether a line is a notes header ("GENERAL NOTES:", "Anmärkningar", "技术要求")."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    plain = re.sub(r"[\s:：.]", "", plain).lower()
    return plain in HEADERS


def _height(line: OcrLine) -> float:
    return line.box.y1 - line.box.y0


def _middle(line: OcrLine) -> float:
    return (line.box.y0 + line.box.y1) / 2


def _glued_number(line: OcrLine, *, bare: bool = True) -> int | None:
    """The number a note line starts with ("1. ...", "4, ...", "1.未注..."; with ``bare``, also
    "6 TIGHTEN ..."), or None."""
    match = _GLUED.match(line.words[0].text)
    if match is None:
        return None
    rest = match[3]
    if rest:
        # Glued to its word only behind a point ("1.5" is a number, "1.未注" a note).
        return int(match[1]) if match[2] and not rest[0].isdigit() else None
    if len(line.words) < 2:
        return None
    if match[2] or line.words[1].text in _PUNCT:
        return int(match[1])
    return int(match[1]) if bare else None


def _rows(header: OcrLine, lines: list[OcrLine]) -> list[_Row]:
    """The list's rows under ``header``: lines in its column, down to a large gap."""
    h = _height(header)
    col = header.box.x0
    below = sorted(
        (
            ln
            for ln in lines
            if ln is not header
            and ln.box.y0 >= header.box.y1 - 0.3 * h
            and col - 1.5 * h <= ln.box.x0 <= col + 5 * h
        ),
        key=lambda ln: ln.box.y0,
    )
    groups: list[list[OcrLine]] = []
    for line in below:
        if groups and abs(_middle(line) - _middle(groups[-1][0])) <= 0.5 * _height(groups[-1][0]):
            groups[-1].append(line)
        else:
            groups.append([line])
    rows: list[_Row] = []
    bottom = header.box.y1
    text_x: float | None = None
    for group in groups[:_MAX_ROWS]:
        top = min(ln.box.y0 for ln in group)
        if top - bottom > _GAP * h:
            break
        group.sort(key=lambda ln: ln.box.x0)
        number = None
        if len(group) > 1 and _LONE.match(group[0].text.strip()):
            number, group = group[0], group[1:]
        text = group[0]
        glued = _glued_number(text) if number is None else None
        if glued is not None and abs(text.box.x0 - col) <= _ALIGN * h:
            rows.append(_Row(text=text, value=glued, how="glued"))
            bottom = text.box.y1
            continue
        if text_x is None:
            if text.box.x0 - col < 0.8 * h:
                break  # no room for a number: not a hanging-indent list
            text_x = text.box.x0
        if abs(text.box.x0 - text_x) > _ALIGN * h:
            break
        rows.append(_Row(text=text, number=number))
        bottom = max(ln.box.y1 for ln in ([number] if number else []) + [text])
    return rows


def _with_tails(rows: list[_Row], lines: list[OcrLine]) -> None:
    """Each row's note with the lines that go on along its baseline after a small gap."""
    taken = {id(r.text) for r in rows} | {id(r.number) for r in rows if r.number is not None}
    for row in rows:
        end, h = row.text.box.x1, _height(row.text)
        along = sorted(
            (
                ln
                for ln in lines
                if id(ln) not in taken
                and ln.box.x0 > end
                and abs(_middle(ln) - _middle(row.text)) <= 0.3 * h
                and abs(_height(ln) - h) <= 0.3 * h
            ),
            key=lambda ln: ln.box.x0,
        )
        for line in along:
            if line.box.x0 - end > _TAIL_GAP * h:
                break
            row.tail.append(line)
            taken.add(id(line))
            end = line.box.x1


def _headerless_rows(first: OcrLine, lines: list[OcrLine]) -> list[_Row]:
    """Rows of a list without a (read) header: lines numbered 1, 2, 3 ... glued, in one column."""
    h = _height(first)
    rows = [_Row(text=first, value=1, how="glued")]
    below = sorted((ln for ln in lines if ln.box.y0 > first.box.y0), key=lambda ln: ln.box.y0)
    for line in below:
        last = rows[-1].text
        if line.box.y0 - last.box.y1 > _GAP * h:
            break
        if abs(line.box.x0 - first.box.x0) > _ALIGN * h:
            continue  # another region at the same height (a title block cell)
        if _glued_number(line, bare=False) != len(rows) + 1:
            break
        rows.append(_Row(text=line, value=len(rows) + 1, how="glued"))
        if len(rows) >= _MAX_ROWS:
            break
    return rows if len(rows) >= 2 else []


def _regular(rows: list[_Row]) -> bool:
    tops = [r.text.box.y0 for r in rows]
    pitches = [b - a for a, b in itertools.pairwise(tops)]
    if len(pitches) < 2:
        return False
    mid = statistics.median(pitches)
    return mid > 0 and all(abs(p - mid) <= _PITCH_SPREAD * mid for p in pitches)


def _number(rows: list[_Row], col: float, reader: NumberReader | None) -> None:
    """Give each row its number (see the module's docstring)."""
    for row in rows:
        lone = _LONE.match(row.number.text.strip()) if row.number is not None else None
        if lone is not None:
            row.value, row.how = int(lone[1]), "read"
    unread = [r for r in rows if r.value is None]
    reread_ok = False
    if unread and reader is not None:
        boxes = []
        for r in unread:
            b = r.text.box
            h = b.y1 - b.y0
            boxes.append(Box(min(col, b.x0 - 3 * h) - 0.3 * h, b.y0, b.x0 - 0.25 * h, b.y1))
        try:
            readings = reader(boxes)
            reread_ok = True
        except OcrError as err:
            log.warning("note numbers not read again: %s", err)
            readings = []
        for r, (text, conf) in zip(unread, readings, strict=False):
            r.reread_text, r.reread_conf = text.strip(), conf
    # In order: a number must follow the one before it (a skipped row may be a wrapped line).
    prev, skipped = 0, 0
    agree = True
    for index, row in enumerate(rows):
        if row.value is not None and not prev < row.value <= prev + 1 + skipped:
            row.value, row.how = None, ""
        if row.value is None and row.reread_text:
            match = _LONE.match(row.reread_text)
            if match and prev < int(match[1]) <= prev + 1 + skipped:
                row.value, row.how = int(match[1]), "reread"
        if row.value is None:
            skipped += 1
            continue
        agree = agree and row.value == index + 1
        prev, skipped = row.value, 0
    read = [r for r in rows if r.value is not None]
    if reread_ok or not unread or not agree or len(read) < 2 or not _regular(rows):
        return
    # No re-read could be made: the order numbers the rest of a regular, agreeing list.
    for index, row in enumerate(rows):
        if row.value is None:
            row.value, row.how = index + 1, "inferred"


def _numbered_line(row: _Row) -> OcrLine:
    """The row's note line, starting with its number and a point."""
    assert row.value is not None
    label = f"{row.value}."
    words = list(row.text.words)
    if row.how == "glued":
        first = words[0]
        match = _GLUED.match(first.text)
        assert match is not None
        rest = match[3]
        if rest:
            # "1.未注倒角": the number and the word split, each with its share of the box.
            b = first.box
            cut = b.x0 + (b.x1 - b.x0) * (len(first.text) - len(rest)) / len(first.text)
            number = dataclasses.replace(first, text=label, box=Box(b.x0, b.y0, cut, b.y1))
            word = dataclasses.replace(first, text=rest, box=Box(cut, b.y0, b.x1, b.y1))
            words[0:1] = [number, word]
        else:
            words[0] = dataclasses.replace(first, text=label)
            if not match[2] and len(words) > 1 and words[1].text in _PUNCT:
                del words[1]
        return dataclasses.replace(row.text, words=tuple(words))
    b = row.text.box
    h = b.y1 - b.y0
    if row.number is not None:
        read = row.number.words
        number = OcrWord(
            text=label,
            raw_text=" ".join(w.raw_text for w in read),
            conf=min(w.conf for w in read),
            box=row.number.box,
        )
    else:
        conf = row.reread_conf if row.how == "reread" else _INFERRED_CONF
        raw = row.reread_text if row.how == "reread" else ""
        number = OcrWord(
            text=label,
            raw_text=raw or label,
            conf=conf,
            box=Box(b.x0 - 2 * h, b.y0, b.x0 - 0.5 * h, b.y1),
        )
    return dataclasses.replace(row.text, words=(number, *words))


def number_note_lists(
    lines: list[OcrLine],
    *,
    skip: Callable[[OcrLine], bool] = lambda _: False,
    reader: NumberReader | None = None,
) -> NumberedLines:
    """The page's lines with each numbered note line carrying its number.

    ``skip``: lines that are no list's (the title block's, a table's); ``reader`` reads small boxes
    of the page again (None: nothing is read again, and missing numbers may only be inferred).
    """
    candidates = [ln for ln in lines if ln.source_pass != "turned" and not skip(ln)]
    lists: list[tuple[list[_Row], float]] = []
    taken: set[int] = set()
    for header in candidates:
        if is_header(header.text):
            rows = _rows(header, candidates)
            if rows:
                lists.append((rows, header.box.x0))
                taken.update(id(r.text) for r in rows)
    for line in candidates:
        if id(line) not in taken and _glued_number(line, bare=False) == 1:
            rows = _headerless_rows(line, [c for c in candidates if id(c) not in taken])
            if rows:
                lists.append((rows, line.box.x0))
                taken.update(id(r.text) for r in rows)
    if not lists:
        return NumberedLines(lines=lines, notes=set())
    replaced: dict[int, OcrLine] = {}
    dropped: set[int] = set()
    for rows, col in lists:
        _number(rows, col, reader)
        rows = [r for r in rows if r.value is not None]
        _with_tails(rows, candidates)
        for row in rows:
            line = _numbered_line(row)
            if row.tail:
                words = [w for tail in row.tail for w in tail.words]
                line = dataclasses.replace(line, words=(*line.words, *words))
            replaced[id(row.text)] = line
            dropped.update(id(tail) for tail in row.tail)
            if row.number is not None:
                dropped.add(id(row.number))
    out = [replaced.get(id(ln), ln) for ln in lines if id(ln) not in dropped]
    return NumberedLines(lines=out, notes={id(ln) for ln in replaced.values()})


def read_numbers(
    image: np.ndarray, settings: VisionSettings, boxes: list[Box]
) -> list[tuple[str, float]]:
    """The number in each box of ``image`` (a page, dark text on light), read in one call, digits
    and a point only: (text, lowest confidence), ``("", 0.0)`` where nothing was read."""
    rows = read_rows([cut_row(image, box) for box in boxes], settings, whitelist="0123456789.")
    return [
        ("".join(t for _, t, _ in words), min(c for _, _, c in words)) if words else ("", 0.0)
        for words in rows
    ]
