"""A slice longer than the embedding model reads becomes consecutive parts the model sees whole.

Chunking already sizes prose by the model's tokens, but a table, a code block or a title block is
kept whole by chunking, and the vision path builds its slices (title block, notes, text-page
blocks) itself. When one of them is longer than the model reads, its tail would be invisible to
the vector channel. Such a slice is split at line ends into parts of the same kind, page, box and
metadata; a table's header rows (up to its ``|---|`` row) and a title block's first line start
every part, so each part still says what it is; ``extra["part"]`` is ``[i, n]``. A single line
longer than a part is cut at word boundaries.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from appliance.document import DocumentSlice, SliceKind
from appliance.index.tokens import PassageTokens

_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")


def header_lines(kind: SliceKind, lines: list[str]) -> list[str]:
    """The lines repeated at the start of every part of a split slice."""
    if kind is SliceKind.TABLE:
        for i, line in enumerate(lines[:3]):
            if _TABLE_RULE.match(line):
                return lines[: i + 1]
        return lines[:1]
    if kind is SliceKind.TITLE_BLOCK:
        return lines[:1]
    return []


def fit_slice(
    sl: DocumentSlice, tokens: PassageTokens, limit: int | None = None
) -> list[DocumentSlice]:
    """``[sl]`` when it fits in ``limit`` content tokens (default: all the model reads), else its
    parts in order."""
    limit = tokens.limit if limit is None else min(limit, tokens.limit)
    if tokens.count(sl.text) <= limit:
        return [sl]
    lines = sl.text.split("\n")
    header = header_lines(sl.kind, lines)
    header_n = tokens.count("\n".join(header)) if header else 0
    if header_n > limit // 2:  # a header that long would crowd out the content
        header, header_n = [], 0
    room = limit - header_n
    groups: list[list[tuple[int, str]]] = []  # (line offset in the slice, text)
    current: list[tuple[int, str]] = []
    size = 0
    for offset, line in enumerate(lines[len(header) :], len(header)):
        if not line.strip():
            continue
        n_line = tokens.count(line)
        pieces = [line] if n_line <= room else tokens.split(line, room)
        for piece in pieces:
            n = n_line if len(pieces) == 1 else tokens.count(piece)
            if current and size + n > room:
                groups.append(current)
                current, size = [], 0
            current.append((offset, piece))
            size += n
    if current:
        groups.append(current)
    parts: list[DocumentSlice] = []
    for group in groups:
        text = "\n".join([*header, *(piece for _, piece in group)])
        # A tokenizer that is not additive over line ends (sentencepiece) may still overflow.
        texts = [text] if tokens.count(text) <= limit else tokens.split(text, limit)
        for t in texts:
            lines_of = _line_range(sl, group[0][0], group[-1][0])
            parts.append(replace(sl, text=t, line_start=lines_of[0], line_end=lines_of[1]))
    total = len(parts)
    return [
        replace(part, extra={**sl.extra, "part": [i, total]}) for i, part in enumerate(parts, 1)
    ]


def _line_range(sl: DocumentSlice, first: int, last: int) -> tuple[int, int]:
    """Source lines of a part, when the slice is line-based and its text is its lines."""
    if not sl.line_start or sl.line_end - sl.line_start != sl.text.count("\n"):
        return sl.line_start, sl.line_end
    return sl.line_start + first, sl.line_start + last


def fit_slices(
    slices: Iterable[DocumentSlice], tokens: PassageTokens, limit: int | None = None
) -> list[DocumentSlice]:
    """Every slice fitted with :func:`fit_slice`, in order."""
    return [part for sl in slices for part in fit_slice(sl, tokens, limit)]
