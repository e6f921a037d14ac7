"""Slices built outside chunking (vision title blocks, OCR text blocks) are fitted by the store."""

from __future__ import annotations

from appliance.document import Box, DocumentSlice, SliceKind, SourceDocument
from appliance.index.search import SearchOptions, search
from appliance.index.store import IndexStore

# A title block as the vision path builds it: summary fields, then every OCR'd line of the block.
OCR_LINES = [
    f"Row {i}: Zeichnungsnummer 2022{i:03d} Werkstoff S235JR Oberfläche Ra 3.2" for i in range(40)
]
TITLE_BLOCK = "Title block.\nDrawing number: 2022001\nTitle: Adapterplatte\n" + "\n".join(OCR_LINES)


def test_long_title_block_is_stored_as_parts_the_model_sees_whole(store: IndexStore) -> None:
    tokens = store.embedder.tokens
    assert tokens.seen(TITLE_BLOCK) > tokens.max_length
    box = Box(10, 20, 300, 400)
    sl = DocumentSlice(
        text=TITLE_BLOCK,
        kind=SliceKind.TITLE_BLOCK,
        page=1,
        box=box,
        section="title block",
        drawing_number="2022001",
        extra={"title_block": {"drawing_number": "2022001", "title": "Adapterplatte"}},
    )
    note = DocumentSlice(text="Alle Kanten gebrochen.", kind=SliceKind.NOTE, page=1)
    result = store.replace_source(
        SourceDocument("Adapterplatte.jpg", "shop", "h1", (sl, note), media_type="image/jpeg")
    )
    stored = store.source_slices("shop", "Adapterplatte.jpg")
    assert result.slices == len(stored) > 2
    parts = [s for s in stored if s.kind is SliceKind.TITLE_BLOCK]
    assert len(parts) == len(stored) - 1 and stored[-1].text == note.text
    for i, part in enumerate(parts, 1):
        assert tokens.seen(part.text) <= tokens.max_length
        assert part.text.startswith("Title block.\n")
        assert part.box == box and part.drawing_number == "2022001"
        assert part.extra["part"] == [i, len(parts)]
        assert part.extra["title_block"]["title"] == "Adapterplatte"
    lines = [line for p in parts for line in p.text.split("\n")[1:]]
    assert lines == TITLE_BLOCK.split("\n")[1:]  # every line once, in order
    # The last row, past what the model reads of the whole block, is found by meaning now.
    hits = search(
        store,
        "Zeichnungsnummer 2022039 Werkstoff",
        ["shop"],
        options=SearchOptions(channels=("vector",)),
        include_global=False,
    )
    assert "Row 39:" in hits[0].text


def test_a_slice_that_fits_is_stored_unchanged(store: IndexStore) -> None:
    sl = DocumentSlice(text="Title block.\nDrawing number: 7", kind=SliceKind.TITLE_BLOCK)
    store.replace_source(SourceDocument("a.png", "shop", "h", (sl,)))
    (stored,) = store.source_slices("shop", "a.png")
    assert stored.text == sl.text and "part" not in stored.extra
