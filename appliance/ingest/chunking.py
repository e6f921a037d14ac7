"""Packing blocks of a document into slices of about N tokens with overlap.

Blocks come from the format-specific parsers (Markdown, plain text, PDF text layer). Prose blocks are
packed greedily up to the target size, with the last ~overlap tokens repeated at the start of the next
slice so a sentence on the boundary is findable from both sides. Atomic blocks (tables, code, title
blocks) are never cut: each becomes a slice of its own, however long.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from appliance.index.slices import Box, DocumentSlice, SliceKind

_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")
ATOMIC_KINDS = frozenset({SliceKind.TABLE, SliceKind.CODE, SliceKind.TITLE_BLOCK})


def token_count(text: str) -> int:
    """Approximate tokens: whitespace-separated words, plus one per Chinese character."""
    cjk = len(_CJK_CHAR.findall(text))
    return len(_CJK_CHAR.sub(" ", text).split()) + cjk


@dataclass(frozen=True)
class Block:
    """A structural unit of a document: a paragraph, list, table, code block or PDF text block."""

    #: The block's text.
    text: str
    #: Its kind; tables, code and title blocks are atomic.
    kind: SliceKind = SliceKind.PROSE
    #: Heading path it sits under.
    section: str = ""
    #: First source line (1-based; 0 when not line-based).
    line_start: int = 0
    #: Last source line.
    line_end: int = 0
    #: Page (0 when none).
    page: int = 0
    #: Region on the page.
    box: Box | None = None


def _split_long(block: Block, limit: int) -> Iterator[Block]:
    """Split an over-long prose block at sentence ends, then at word boundaries."""
    if token_count(block.text) <= limit:
        yield block
        return
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(block.text):
        if token_count(sentence) <= limit:
            pieces.append(sentence)
            continue
        words = sentence.split()
        for i in range(0, len(words), limit):
            pieces.append(" ".join(words[i : i + limit]))
    for piece in pieces:
        yield replace(block, text=piece)


def pack(blocks: Iterable[Block], *, target: int, overlap: int) -> list[DocumentSlice]:
    """Turn blocks into slices: prose packed to ~target tokens with overlap, atomic blocks whole."""
    slices: list[DocumentSlice] = []
    current: list[Block] = []
    size = 0
    fresh = (
        0  # blocks added since the last flush; a slice of carried overlap alone says nothing new
    )

    def flush(keep_overlap: bool) -> None:
        nonlocal current, size, fresh
        if not fresh:
            current, size = [], 0
            return
        slices.append(_merge(current))
        fresh = 0
        if keep_overlap and overlap > 0:
            carried: list[Block] = []
            carried_size = 0
            for b in reversed(current):
                n = token_count(b.text)
                if carried_size + n > overlap:
                    break
                carried.insert(0, b)
                carried_size += n
            current, size = carried, carried_size
        else:
            current, size = [], 0

    for block in blocks:
        if not block.text.strip():
            continue
        if block.kind in ATOMIC_KINDS:
            flush(keep_overlap=False)
            slices.append(_merge([block]))
            continue
        for piece in _split_long(block, target):
            n = token_count(piece.text)
            new_context = bool(current) and (
                piece.section != current[-1].section or piece.page != current[-1].page
            )
            if new_context:
                flush(keep_overlap=False)
            elif size + n > target:
                flush(keep_overlap=True)
                # The overlap must leave room for the new piece.
                while current and size + n > target:
                    size -= token_count(current.pop(0).text)
            current.append(piece)
            size += n
            fresh += 1
    flush(keep_overlap=False)
    return slices


def _merge(blocks: list[Block]) -> DocumentSlice:
    first, last = blocks[0], blocks[-1]
    box: Box | None = None
    for b in blocks:
        if b.box is not None:
            box = b.box if box is None else box.union(b.box)
    kind = first.kind if len(blocks) == 1 else SliceKind.PROSE
    return DocumentSlice(
        text="\n\n".join(b.text.strip() for b in blocks),
        kind=kind,
        page=first.page,
        box=box,
        section=first.section,
        line_start=first.line_start,
        line_end=last.line_end,
    )
