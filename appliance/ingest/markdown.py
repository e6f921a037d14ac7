"""Markdown and plain text into blocks: headings give sections; code fences and tables stay whole."""

from __future__ import annotations

import re
from collections.abc import Iterator

from appliance.document import SliceKind
from appliance.ingest.chunking import Block

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_TABLE_ROW = re.compile(r"^\s*\|")


def markdown_blocks(text: str) -> Iterator[Block]:
    """Blocks of a Markdown document in order, each with its heading path and line range."""
    headings: list[tuple[int, str]] = []
    lines = text.split("\n")
    i = 0
    para: list[str] = []
    para_start = 0

    def section() -> str:
        return " > ".join(h for _, h in headings)

    def end_paragraph(end_line: int) -> Iterator[Block]:
        nonlocal para
        if para and any(p.strip() for p in para):
            yield Block("\n".join(para).strip(), SliceKind.PROSE, section(), para_start, end_line)
        para = []

    while i < len(lines):
        line = lines[i]
        lineno = i + 1
        fence = _FENCE.match(line)
        if fence:
            yield from end_paragraph(lineno - 1)
            marker = fence.group(1)
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith(marker):
                j += 1
            end = min(j, len(lines) - 1)
            code = "\n".join(lines[i : end + 1])
            yield Block(code, SliceKind.CODE, section(), lineno, end + 1)
            i = end + 1
            continue
        heading = _HEADING.match(line)
        if heading:
            yield from end_paragraph(lineno - 1)
            level = len(heading.group(1))
            while headings and headings[-1][0] >= level:
                headings.pop()
            headings.append((level, heading.group(2)))
            i += 1
            continue
        if _TABLE_ROW.match(line):
            yield from end_paragraph(lineno - 1)
            j = i
            while j < len(lines) and _TABLE_ROW.match(lines[j]):
                j += 1
            yield Block("\n".join(lines[i:j]), SliceKind.TABLE, section(), lineno, j)
            i = j
            continue
        if not line.strip():
            yield from end_paragraph(lineno - 1)
        else:
            if not para:
                para_start = lineno
            para.append(line)
        i += 1
    yield from end_paragraph(len(lines))


def text_blocks(text: str) -> Iterator[Block]:
    """Paragraphs of a plain-text document (blank-line separated) with their line ranges."""
    para: list[str] = []
    start = 0
    for i, line in enumerate(text.split("\n"), 1):
        if line.strip():
            if not para:
                start = i
            para.append(line)
        elif para:
            yield Block("\n".join(para), SliceKind.PROSE, "", start, i - 1)
            para = []
    if para:
        yield Block("\n".join(para), SliceKind.PROSE, "", start, start + len(para) - 1)


def first_heading(text: str) -> str:
    """The first heading of a Markdown document, used as its title."""
    for line in text.split("\n"):
        m = _HEADING.match(line)
        if m:
            return m.group(2)
    return ""
