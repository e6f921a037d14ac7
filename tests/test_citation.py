"""One citation type from the answerer to the status page: its two JSON forms."""

from __future__ import annotations

import dataclasses

from appliance.document import Citation

CITED = Citation(
    number=2,
    slice_ids=(41, 42),
    source="drawings/A-1024.png",
    namespace="shop",
    title="Bracket",
    page=1,
    box=[100.0, 50.0, 300.0, 150.0],
    drawing_number="A-1024",
    revision="C",
    label="drawing A-1024, revision C, page 1",
    quote="MATERIAL S235 " * 40,
)


def test_the_answer_form_is_what_ask_json_prints() -> None:
    out = CITED.to_json()
    assert list(out) == [
        "number",
        "slice_ids",
        "source",
        "source_name",
        "namespace",
        "title",
        "page",
        "box",
        "drawing_number",
        "revision",
        "label",
        "quote",
    ]
    assert out["slice_ids"] == [41, 42] and out["quote"] == CITED.quote


def test_the_page_form_names_the_best_slice_and_places_the_region() -> None:
    shown = dataclasses.replace(CITED, thumbnail="artifacts/a.png", page_size=[1000.0, 500.0])
    out = shown.to_page_json()
    assert list(out) == [
        "n",
        "slice_id",
        "source",
        "namespace",
        "text",
        "page",
        "box",
        "drawing_number",
        "revision",
        "thumbnail",
        "page_size",
        "region",
    ]
    assert (out["n"], out["slice_id"], len(out["text"])) == (2, 41, 300)
    assert out["region"] == [0.1, 0.1, 0.3, 0.3]
    # Without a page size there is nothing to place the box on.
    assert "region" not in CITED.to_page_json()
