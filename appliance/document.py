"""The shared vocabulary of documents: what every ingester produces, vision reads boxes in, and the
index stores — :class:`SourceDocument`, its :class:`DocumentSlice` s, their :class:`SliceKind` and
:class:`Box`.

It sits below ``ingest``, ``vision``, ``index`` and ``answer`` and imports none of them.
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, field
from typing import Any


class SliceKind(enum.StrEnum):
    """What a slice of a document is; chunking never cuts through a title block, table or code."""

    PROSE = "prose"
    HEADING = "heading"
    TITLE_BLOCK = "title-block"
    TABLE = "table"
    CODE = "code"
    NOTE = "note"
    DIMENSION = "dimension"
    MEMORY = "memory"


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in the source's own coordinates (pixels of the original image or PDF points)."""

    #: Left edge.
    x0: float
    #: Top edge.
    y0: float
    #: Right edge.
    x1: float
    #: Bottom edge.
    y1: float

    def to_list(self) -> list[float]:
        """``[x0, y0, x1, y1]`` rounded for storage."""
        return [round(self.x0, 1), round(self.y0, 1), round(self.x1, 1), round(self.y1, 1)]

    @classmethod
    def from_list(cls, values: list[float] | tuple[float, ...]) -> Box:
        """Inverse of :meth:`to_list`."""
        x0, y0, x1, y1 = (float(v) for v in values)
        return cls(x0, y0, x1, y1)

    def union(self, other: Box) -> Box:
        """The smallest box holding both."""
        return Box(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )


@dataclass(frozen=True)
class DocumentSlice:
    """One searchable piece of a document, with everything needed to cite it."""

    #: The slice's text as indexed and quoted.
    text: str
    #: What kind of content it is.
    kind: SliceKind = SliceKind.PROSE
    #: 1-based page (PDF page, image = 1); 0 when the source has no pages.
    page: int = 0
    #: Region on the page in original coordinates, when known.
    box: Box | None = None
    #: Heading path or section name the slice sits under ("" when none).
    section: str = ""
    #: First line of the slice in the source text (1-based; 0 when not line-based).
    line_start: int = 0
    #: Last line of the slice in the source text (inclusive; 0 when not line-based).
    line_end: int = 0
    #: Drawing number, when the slice belongs to a drawing whose title block was read.
    drawing_number: str = ""
    #: Drawing revision, when known.
    revision: str = ""
    #: Any further metadata (title-block fields, OCR confidence, language ...); JSON-serialisable.
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def content_hash(self) -> str:
        """sha256 of the text: identifies identical slices across re-indexing."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SourceDocument:
    """A whole source (file or capture) as handed to the index: its identity and its slices."""

    #: Stable identifier: the path relative to its inbox, or ``capture:<id>`` for camera captures.
    source: str
    #: Namespace (room document set) the source belongs to.
    namespace: str
    #: sha256 of the source's bytes; an unchanged hash means the source is skipped.
    content_hash: str
    #: The slices, in document order.
    slices: tuple[DocumentSlice, ...]
    #: File modification time (UNIX seconds), or the capture time.
    mtime: float = 0.0
    #: MIME-like type: ``text/markdown``, ``application/pdf``, ``image/png`` ...
    media_type: str = "text/plain"
    #: Title (first heading, PDF title, drawing title) when known.
    title: str = ""
    #: Source-level metadata (title-block fields, page count, OCR engine ...).
    extra: dict[str, Any] = field(default_factory=dict)
