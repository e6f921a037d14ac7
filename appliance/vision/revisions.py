"""Revision rows keyed by their letters when OCR lost them, and dates read for their order.

A lone capital in a narrow REV column is what OCR drops most. Revisions are lettered A, B, C as
they are made, so a lost letter is put back from its neighbours' letters, or from the rows' dates
when every row has one.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rows are made in appliance.vision.tables, which calls this module
    from appliance.vision.tables import TableRow


def revisions_lettered(rows: list[TableRow]) -> list[TableRow]:
    """Revision rows keyed by their one letter (a stray mark beside it dropped: "iB" -> B); when no
    letter was read at all, by their order: revisions are lettered A, B, C as they are made, so by
    their dates."""
    rows = [replace(r, key=_revision_key(r.cells.get("key", ""))) for r in rows]
    if any(r.key for r in rows) or len(rows) > 26:
        return _one_letter_filled(rows)
    dated = [date_key(r.cells.get("date", "")) for r in rows]
    if any(d is None for d in dated) or dated != sorted(dated):  # type: ignore[type-var]
        return rows
    return [replace(r, key=chr(ord("A") + i)) for i, r in enumerate(rows)]


def _one_letter_filled(rows: list[TableRow]) -> list[TableRow]:
    """Rows with the letters OCR missed put back when the others run in letter order, down or up
    the table ("", B, C: the first is A); a lone capital in a cell is what OCR drops most, and in
    a narrow REV column it drops most of them. One letter is put back on the order alone; more
    only when every row's date runs the same way as the letters (revisions are made in order)."""
    keys = [r.key for r in rows]
    missing = [i for i, k in enumerate(keys) if not k]
    known = [(i, k) for i, k in enumerate(keys) if k]
    if not missing or not known or any(len(k) != 1 for _, k in known):
        return rows
    first_at, first = known[0]
    for step in (1, -1):

        def letter(i: int, step: int = step) -> str:
            return chr(ord(first) + step * (i - first_at))

        if not all(k == letter(i) for i, k in known):
            continue
        if not all("A" <= letter(i) <= "Z" for i in missing):
            continue
        if len(missing) > 1 and not _dated_in_order(rows, step):
            continue
        return [replace(r, key=letter(i)) if not r.key else r for i, r in enumerate(rows)]
    return rows


def _dated_in_order(rows: list[TableRow], step: int) -> bool:
    """Whether every row has a date and the dates rise down the table (``step`` 1) or up it."""
    dated = [date_key(r.cells.get("date", "")) for r in rows]
    if any(d is None for d in dated):
        return False
    ordered = dated if step == 1 else dated[::-1]
    return ordered == sorted(ordered)  # type: ignore[type-var]


def _revision_key(text: str) -> str:
    capitals = re.findall(r"[A-Z]", text)
    if len(capitals) == 1:
        return capitals[0]
    letters = re.findall(r"[A-Za-z]", text)
    return letters[0].upper() if len(letters) == 1 else ""


def date_key(text: str) -> tuple[int, int, int] | None:
    """A date as (year, month, day), None when the text holds none: 2025-06-10, 10.01.2025 (day
    first, as dotted dates are written), 03/14/2026 or 14/03/2026 (a slash date is read month
    first, as American drawings write it, unless its first number cannot be a month)."""
    if m := re.search(r"(\d{4})-(\d{1,2})-(\d{1,2})", text):
        return int(m[1]), int(m[2]), int(m[3])
    if m := re.search(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", text):
        return int(m[3]), int(m[2]), int(m[1])
    if m := re.search(r"(\d{1,2})/(\d{1,2})/(\d{4})", text):
        first, second = int(m[1]), int(m[2])
        return (int(m[3]), second, first) if first > 12 else (int(m[3]), first, second)
    return None
