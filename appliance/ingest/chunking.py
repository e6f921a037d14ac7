"""Packing blocks of a document into slices sized in the embedding model's own tokens.

Blocks come from the format-specific parsers (Markdown, plain text, PDF text layer). Sizes are
counted with the embedder's tokenizer (:class:`~appliance.index.tokens.PassageTokens`), and a
slice never holds more than the model reads (its ``max_length`` less the special tokens and the
passage prefix), so the vector channel sees every word of every slice.

Prose is cut into sentences (a sentence longer than a slice at word boundaries) and packed greedily
up to the target, with the last ~overlap tokens of whole sentences repeated at the start of the
next slice so a sentence on the boundary is findable from both sides (when the last sentence alone
is longer than the overlap, its last words are repeated). Sentences of one block are joined again
with the whitespace that separated them, so a slice's text is the document's text.

Atomic blocks (tables, code, title blocks) are never packed with other text. One that fits is one
slice; one longer than the model reads is split at line ends into consecutive parts of the same
kind, a table's header rows repeated in each (:mod:`appliance.index.fit`).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from appliance.document import Box, DocumentSlice, SliceKind
from appliance.index.fit import fit_slice
from appliance.index.tokens import PassageTokens

# Latin sentence ends need whitespace after them ("3.5", "e.g.x" stay whole); CJK ones do not.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")
ATOMIC_KINDS = frozenset({SliceKind.TABLE, SliceKind.CODE, SliceKind.TITLE_BLOCK})


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


@dataclass(frozen=True)
class _Unit:
    """A sentence (or a cut piece of one) of a prose block, with its size."""

    #: The block it comes from.
    block: Block
    #: Position of that block in the document (pieces of one block are joined as they were).
    origin: int
    #: The piece's text.
    text: str
    #: Whitespace that preceded it in its block ("" for the block's first piece).
    sep: str
    #: Content tokens.
    tokens: int


def sentences(text: str) -> Iterator[tuple[str, str]]:
    """(whitespace before, sentence) of a text in order; the first has "" before it."""
    start, sep = 0, ""
    for m in _SENTENCE_END.finditer(text):
        if m.end() == start:
            continue
        piece = text[start : m.start()]
        if piece.strip():
            yield sep, piece
            sep = m.group(0) or ""
        start = m.end()
    if text[start:].strip():
        yield sep, text[start:]


def _units(block: Block, origin: int, tokens: PassageTokens, target: int) -> Iterator[_Unit]:
    pieces = [(sep, s.strip()) for sep, s in sentences(block.text.strip())]
    counts = tokens.counts([s for _, s in pieces])
    for (sep, sentence), n in zip(pieces, counts, strict=True):
        if n <= target:
            yield _Unit(block, origin, sentence, sep, n)
            continue
        for i, part in enumerate(tokens.split(sentence, target)):
            yield _Unit(block, origin, part, sep if i == 0 else " ", tokens.count(part))


def pack(
    blocks: Iterable[Block], *, target: int, overlap: int, tokens: PassageTokens
) -> list[DocumentSlice]:
    """Turn blocks into slices of at most ``target`` content tokens (lowered to what the model
    reads), prose with ``overlap`` tokens carried over, atomic blocks whole or in parts."""
    target = min(target, tokens.limit)
    overlap = min(overlap, target // 2)
    slices: list[DocumentSlice] = []
    run: list[_Unit] = []  # prose of one section and page, packed together

    def end_run() -> None:
        slices.extend(_pack_run(run, target, overlap, tokens))
        run.clear()

    for origin, block in enumerate(blocks):
        if not block.text.strip():
            continue
        if block.kind in ATOMIC_KINDS:
            end_run()
            slices.extend(fit_slice(_slice_of(block), tokens, target))
            continue
        if run and (block.section, block.page) != (run[-1].block.section, run[-1].block.page):
            end_run()
        run.extend(_units(block, origin, tokens, target))
    end_run()
    # Joining with line ends is additive for WordPiece; a tokenizer that is not is still held to
    # the limit here.
    return [part for sl in slices for part in fit_slice(sl, tokens, target)]


def _pack_run(
    units: list[_Unit], target: int, overlap: int, tokens: PassageTokens
) -> list[DocumentSlice]:
    """Consecutive prose of one section and page as slices of about equal size, with overlap."""
    total = sum(u.tokens for u in units)
    if not units:
        return []
    if total <= target:
        return [_merge(units)]
    # As many slices as the target needs, each about as long as the others: a short last slice
    # would rank high on its few words by their density alone (BM25 favours short rows).
    n = math.ceil((total - overlap) / (target - overlap))
    goal = min(target, math.ceil(1.1 * (total + (n - 1) * overlap) / n))
    slices: list[DocumentSlice] = []
    current: list[_Unit] = []
    size = 0
    fresh = 0  # units added since the last flush; a slice of carried overlap alone says nothing new
    for unit in units:
        if current and size + unit.tokens > goal and fresh:
            slices.append(_merge(current))
            current = _carried(current, overlap, tokens)
            size = sum(u.tokens for u in current)
            fresh = 0
            # The overlap must leave room for the new piece.
            while current and size + unit.tokens > target:
                size -= current.pop(0).tokens
        current.append(unit)
        size += unit.tokens
        fresh += 1
    if fresh:
        slices.append(_merge(current))
    return slices


def _carried(current: list[_Unit], overlap: int, tokens: PassageTokens) -> list[_Unit]:
    """The end of a slice repeated at the start of the next: whole sentences up to ``overlap``
    tokens, or the last words of the last sentence when it alone is longer."""
    if overlap <= 0:
        return []
    carried: list[_Unit] = []
    size = 0
    for unit in reversed(current):
        if size + unit.tokens > overlap:
            break
        carried.insert(0, unit)
        size += unit.tokens
    if carried:
        return carried
    last = current[-1]
    tail = tokens.tail(last.text, overlap)
    return [replace(last, text=tail, tokens=tokens.count(tail))] if tail else []


def _slice_of(block: Block) -> DocumentSlice:
    return DocumentSlice(
        text=block.text.strip(),
        kind=block.kind,
        page=block.page,
        box=block.box,
        section=block.section,
        line_start=block.line_start,
        line_end=block.line_end,
    )


def _merge(units: list[_Unit]) -> DocumentSlice:
    first, last = units[0], units[-1]
    text = first.text
    box: Box | None = first.block.box
    for prev, unit in itertools.pairwise(units):
        if unit.origin == prev.origin:
            text += unit.sep
        else:
            text += "\n\n"
            if unit.block.box is not None:
                box = unit.block.box if box is None else box.union(unit.block.box)
        text += unit.text
    single = all(u.origin == first.origin for u in units)
    return DocumentSlice(
        text=text,
        kind=first.block.kind if single else SliceKind.PROSE,
        page=first.block.page,
        box=box,
        section=first.block.section,
        line_start=first.block.line_start,
        line_end=last.block.line_end,
    )
