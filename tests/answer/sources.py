"""One builder of the answer tests' retrieved sources: a drawing's slice as answering sees it."""

from __future__ import annotations

from appliance.answer.context import Source
from appliance.document import Box
from appliance.vision.dimensions import parse_dimensions
from appliance.vision.tables import Table

#: The page box every test source covers (a landscape drawing's pixels).
PAGE = Box(0, 0, 1000, 700)


def drawing_source(
    number: int,
    text: str,
    *,
    fields: dict[str, str] | None = None,
    boxes: dict[str, Box] | None = None,
    title: str = "",
    drawing: str = "",
    source: str = "",
    namespace: str = "shop",
    revision: str = "",
    dims: str = "",
    tables: list[Table] | None = None,
    box: Box | None = PAGE,
) -> Source:
    """Source ``number`` holding ``text``: titled "Part <number>" and named ``d<number>.png``
    unless told; ``dims`` is dimension text, one or more per line, parsed as the index parses it."""
    return Source(
        number=number,
        slice_ids=[number],
        source=source or f"d{number}.png",
        namespace=namespace,
        title=title or f"Part {number}",
        page=1,
        box=box,
        drawing_number=drawing,
        revision=revision,
        section="",
        score=1.0,
        text=text,
        fields=fields or {},
        field_boxes=boxes or {},
        dimensions=[d.to_json() for line in dims.splitlines() for d in parse_dimensions(line)],
        tables=[t.to_json() for t in tables or []],
    )
