"""From search hits to numbered sources: neighbours merged, best first, within a token budget.

A drawing or a long note often comes back as several adjacent slices; offered separately they would
waste the small context of an on-device model and split one citation into three. Hits of the same
source and page whose positions are adjacent, or that belong to the same drawing number and revision
on the same page, are merged into one :class:`Source` that keeps every slice id it covers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from appliance.document import Box
from appliance.errors import public_name

#: Characters per token assumed when budgeting. Drawing text is dense in digits and symbols, which
#: tokenise short, so the estimate is cautious (real SmolLM2 figure on drawing text: about 2.8).
CHARS_PER_TOKEN = 2.5


class HitLike(Protocol):
    """What the answer code reads from a search hit (``appliance.index.search.Hit``)."""

    @property
    def id(self) -> int: ...

    @property
    def source(self) -> str: ...

    @property
    def namespace(self) -> str: ...

    @property
    def ord(self) -> int: ...

    @property
    def text(self) -> str: ...

    @property
    def page(self) -> int: ...

    @property
    def box(self) -> Box | None: ...

    @property
    def section(self) -> str: ...

    @property
    def drawing_number(self) -> str: ...

    @property
    def revision(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def extra(self) -> dict[str, Any]: ...

    @property
    def score(self) -> float: ...


@dataclass(frozen=True)
class Region:
    """One merged slice's place on the page: where a line quoted from it is cited."""

    #: The slice's section ("title block", "notes", "dimensions", a heading path).
    section: str
    #: The slice's box (None when it has none).
    box: Box | None
    #: The slice's text.
    text: str


@dataclass
class Source:
    """One numbered source offered to the model and cited in the answer."""

    #: 1-based number used in ``[n]`` citations.
    number: int
    #: Slice ids merged into this source, best hit first.
    slice_ids: list[int]
    #: Source identifier as indexed.
    source: str
    #: Namespace it came from.
    namespace: str
    #: Source title.
    title: str
    #: Page (0 when none).
    page: int
    #: Union of the merged slices' boxes.
    box: Box | None
    #: Drawing number ("" when none).
    drawing_number: str
    #: Revision ("" when none).
    revision: str
    #: Section / heading path.
    section: str
    #: Best fused score among the merged hits.
    score: float
    #: Text of the merged slices in document order (possibly cut to the budget).
    text: str
    #: Title-block or other structured fields of the merged slices (field name -> value).
    fields: dict[str, str] = field(default_factory=dict)
    #: Typed dimensions of the merged slices (JSON records of :class:`appliance.vision.dimensions.Dimension`,
    #: each with its own box), without repeats.
    dimensions: list[dict[str, Any]] = field(default_factory=list)
    #: Where each field's value is written (field name -> box in source coordinates), when known.
    field_boxes: dict[str, Box] = field(default_factory=dict)
    #: Hole and revision tables of the merged slices (JSON records of
    #: :class:`appliance.vision.tables.Table`, rows with their cells' boxes), without repeats.
    tables: list[dict[str, Any]] = field(default_factory=list)
    #: Whether the text was cut to fit the budget.
    truncated: bool = False
    #: The merged slices' own sections and boxes, in the order they were merged.
    regions: list[Region] = field(default_factory=list, repr=False)
    _ords: list[int] = field(default_factory=list, repr=False)

    def region_of(self, line: str) -> Region | None:
        """The merged slice a quoted line was read from (the first that holds it), so that a
        note quoted from a source led by its title block is cited in the notes, at the note."""
        wanted = " ".join(line.split())
        for region in self.regions:
            if wanted and wanted in " ".join(region.text.split()):
                return region
        return None

    def label(self) -> str:
        """How the source is named to the model and the listener: drawing, revision, page."""
        parts = []
        if self.drawing_number:
            parts.append(f"drawing {self.drawing_number}")
            if self.revision:
                parts.append(f"revision {self.revision}")
        else:
            parts.append(self.title or public_name(self.source))
        if self.page:
            parts.append(f"page {self.page}")
        if self.section:
            parts.append(self.section)
        return ", ".join(parts)


def same_page(src: Source, sources: Sequence[Source]) -> list[Source]:
    """The sources of ``src``'s drawing page (its file and page; ``src`` among them), in order."""
    return [s for s in sources if (s.source, s.page) == (src.source, src.page)]


def _fields(extra: dict[str, Any]) -> dict[str, str]:
    """Structured fields a slice carries (the vision package puts title-block fields there)."""
    out: dict[str, str] = {}
    for key in ("title_block", "fields"):
        value = extra.get(key)
        if isinstance(value, dict):
            for name, val in value.items():
                if isinstance(val, str | int | float) and str(val).strip():
                    out[str(name).lower()] = str(val).strip()
    field_name = extra.get("field")
    if isinstance(field_name, str) and isinstance(extra.get("value"), str):
        out[field_name.lower()] = str(extra["value"])
    return out


def _add_tables(src: Source, extra: dict[str, Any]) -> None:
    """Add a slice's tables (a table slice's ``extra["table"]``, a title block's
    ``extra["tables"]``) to the source, each once."""
    found = [extra["table"]] if isinstance(extra.get("table"), dict) else []
    listed = extra.get("tables")
    if isinstance(listed, list):
        found.extend(t for t in listed if isinstance(t, dict))
    for table in found:
        if table not in src.tables:
            src.tables.append(table)


def _add_field_boxes(src: Source, extra: dict[str, Any]) -> None:
    """The boxes of the slice's field values (the vision package puts them in
    ``extra["field_boxes"]`` as ``[x0, y0, x1, y1]``); a field keeps the first box met."""
    boxes = extra.get("field_boxes")
    if not isinstance(boxes, dict):
        return
    for name, value in boxes.items():
        if str(name).lower() in src.field_boxes or not isinstance(value, list | tuple):
            continue
        if len(value) == 4 and all(isinstance(v, int | float) for v in value):
            src.field_boxes[str(name).lower()] = Box(*(float(v) for v in value))


def _add_dimensions(src: Source, extra: dict[str, Any]) -> None:
    """The slice's typed dimensions (the vision package puts them in ``extra["dimensions"]``)."""
    records = extra.get("dimensions")
    if not isinstance(records, list):
        return
    seen = {json.dumps(d, sort_keys=True) for d in src.dimensions}
    for record in records:
        key = json.dumps(record, sort_keys=True, default=str)
        if isinstance(record, dict) and key not in seen:
            src.dimensions.append(record)
            seen.add(key)


def _mergeable(src: Source, hit: HitLike) -> bool:
    if hit.source != src.source or hit.namespace != src.namespace or hit.page != src.page:
        return False
    if (
        src.drawing_number
        and hit.drawing_number == src.drawing_number
        and hit.revision == src.revision
    ):
        return True
    return any(abs(hit.ord - o) <= 1 for o in src._ords)


def _cut(text: str, max_chars: int) -> str:
    """Cut at a line (or word) boundary below ``max_chars``."""
    if len(text) <= max_chars:
        return text
    cut = text[:max_chars]
    for sep in ("\n", " "):
        pos = cut.rfind(sep)
        if pos > max_chars // 2:
            return cut[:pos].rstrip()
    return cut


def build_sources(hits: Sequence[HitLike], *, budget_tokens: int, max_sources: int) -> list[Source]:
    """Numbered sources from hits (best first), merged and cut to ``budget_tokens`` in total."""
    groups: list[Source] = []
    texts: list[dict[int, str]] = []
    for hit in hits:
        for src, parts in zip(groups, texts, strict=True):
            if _mergeable(src, hit):
                src.slice_ids.append(hit.id)
                src._ords.append(hit.ord)
                src.regions.append(Region(hit.section, hit.box, hit.text))
                parts[hit.ord] = hit.text
                if hit.box is not None:
                    src.box = hit.box if src.box is None else src.box.union(hit.box)
                src.fields.update(
                    {k: v for k, v in _fields(hit.extra).items() if k not in src.fields}
                )
                _add_dimensions(src, hit.extra)
                _add_field_boxes(src, hit.extra)
                _add_tables(src, hit.extra)
                break
        else:
            if len(groups) >= max_sources:
                continue
            groups.append(
                Source(
                    number=0,
                    slice_ids=[hit.id],
                    source=hit.source,
                    namespace=hit.namespace,
                    title=hit.title,
                    page=hit.page,
                    box=hit.box,
                    drawing_number=hit.drawing_number,
                    revision=hit.revision,
                    section=hit.section,
                    score=hit.score,
                    text="",
                    fields=_fields(hit.extra),
                    regions=[Region(hit.section, hit.box, hit.text)],
                    _ords=[hit.ord],
                )
            )
            _add_dimensions(groups[-1], hit.extra)
            _add_field_boxes(groups[-1], hit.extra)
            _add_tables(groups[-1], hit.extra)
            texts.append({hit.ord: hit.text})
    remaining = int(budget_tokens * CHARS_PER_TOKEN)
    out: list[Source] = []
    for src, parts in zip(groups, texts, strict=True):
        if remaining < 80:  # not enough room left for a useful excerpt
            break
        full = "\n".join(parts[o] for o in sorted(parts))
        src.text = _cut(full, remaining)
        src.truncated = len(src.text) < len(full)
        remaining -= len(src.text) + 40  # the source's header line counts too
        src.number = len(out) + 1
        out.append(src)
    return out


def within_budget(sources: Sequence[Source], budget_tokens: int) -> list[Source]:
    """The sources as the model is shown them: best first, cut to ``budget_tokens`` in total.

    Numbers are kept, so a citation of the cut source is a citation of the whole one. The prompt's
    length sets how long the model takes to its first word, so the model sees less than the
    extractive answerer searches.
    """
    remaining = int(budget_tokens * CHARS_PER_TOKEN)
    out: list[Source] = []
    for src in sources:
        if remaining < 80:
            break
        text = _cut(src.text, remaining)
        out.append(replace(src, text=text, truncated=src.truncated or len(text) < len(src.text)))
        remaining -= len(text) + 40
    return out
