"""The shared vocabulary of documents: what every ingester produces, vision reads boxes in, and the
index stores — :class:`SourceDocument`, its :class:`DocumentSlice` s, their :class:`SliceKind` and
:class:`Box` — and the :class:`Citation` an answer points back into them with.

It sits below ``ingest``, ``vision``, ``index``, ``answer`` and ``service``; of the appliance it imports
only ``errors`` (a source's public name).
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, field
from typing import Any

from appliance.errors import public_name


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


@dataclass(frozen=True)
class Citation:
    """Where a cited fact of an answer comes from: enough for a person to find the exact place.

    The answerer makes it; the service adds what the status page needs to show it (the thumbnail,
    the page size, the best slice's box) and passes the same object on.
    """

    #: The ``[n]`` number in the answer text.
    number: int
    #: Slice ids the source covers (the first is the best hit).
    slice_ids: tuple[int, ...]
    #: Source identifier as indexed.
    source: str
    #: Namespace.
    namespace: str
    #: Source title.
    title: str
    #: Page (0 when none).
    page: int
    #: Region on the page ``[x0, y0, x1, y1]`` in source coordinates, or None.
    box: list[float] | None
    #: Drawing number ("" when none).
    drawing_number: str
    #: Revision ("" when none).
    revision: str
    #: Human label: "drawing A-1024, revision C, page 1".
    label: str
    #: The quoted evidence (extractive) or the start of the source text.
    quote: str
    #: Thumbnail path relative to ``data_dir`` (under ``artifacts/``), or "" (set by the service).
    thumbnail: str = ""
    #: Size ``[width, height]`` of the coordinate space the box is in, when known (set by the
    #: service).
    page_size: list[float] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form of ``openclaw ask --json``."""
        return {
            "number": self.number,
            "slice_ids": list(self.slice_ids),
            "source": self.source,
            "source_name": public_name(self.source),
            "namespace": self.namespace,
            "title": self.title,
            "page": self.page,
            "box": self.box,
            "drawing_number": self.drawing_number,
            "revision": self.revision,
            "label": self.label,
            "quote": self.quote,
        }

    def to_page_json(self) -> dict[str, Any]:
        """The JSON form the status page shows: the best slice, a short quote, the thumbnail."""
        out: dict[str, Any] = {
            "n": self.number,
            "slice_id": self.slice_ids[0] if self.slice_ids else 0,
            "source": self.source,
            "namespace": self.namespace,
            "text": self.quote[:300],
            "page": self.page,
            "box": self.box,
            "drawing_number": self.drawing_number,
            "revision": self.revision,
            "thumbnail": self.thumbnail,
            "page_size": self.page_size,
        }
        if self.box and self.page_size and self.page_size[0] > 0 and self.page_size[1] > 0:
            w, h = self.page_size
            x0, y0, x1, y1 = self.box
            # The region as fractions of the page, so the page can overlay it on any thumbnail size.
            out["region"] = [
                round(max(0.0, x0 / w), 4),
                round(max(0.0, y0 / h), 4),
                round(min(1.0, x1 / w), 4),
                round(min(1.0, y1 / h), 4),
            ]
        return out
