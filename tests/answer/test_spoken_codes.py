"""A drawing number as a recogniser writes it ("A1024", without the dash) still names the drawing
that states "A-1024": neither the designation check nor the absent-drawing check refuses it; a
number that is not there ("A1025") is still refused."""

from __future__ import annotations

import dataclasses

from appliance.answer.finding import as_named, find_extract, unstated_designations
from tests.answer.sources import drawing_source

_BRACKET = drawing_source(
    1,
    "MOUNTING BRACKET A-1024\nMATERIAL 6061-T6\n3. TORQUE M8 BOLTS TO 25 N·m",
    fields={"material": "6061-T6", "scale": "1:2"},
    title="MOUNTING BRACKET",
    drawing="A-1024",
    source="A-1024_revC.png",
    namespace="global",
    revision="C",
)


def test_a_code_heard_without_its_dash_names_the_drawing() -> None:
    for heard in ("what material is drawing A1024", "what material is drawing a 1024"):
        found = find_extract(heard, [_BRACKET])
        assert found is not None and "6061-T6" in found.quote, (heard, found)
    assert unstated_designations("the M8 bolts of A1024", [_BRACKET]) == []


def test_a_code_that_is_not_there_is_still_refused() -> None:
    assert find_extract("what material is drawing A1025", [_BRACKET]) is None
    assert unstated_designations("the M6 bolts of A1024", [_BRACKET]) == ["M6"]


def test_a_heard_code_close_to_the_drawings_own_number_names_it() -> None:
    """Through a recogniser, "PB-441-001" is how GB-4410-01 arrives: a code within an
    identifier's edits of one source's number (or its tail) is read as that number. Typed, the
    same code is read as written and refused."""
    cover = dataclasses.replace(
        _BRACKET,
        source="GB-4410-01.png",
        title="BEARING COVER",
        drawing_number="GB-4410-01",
        text="BEARING COVER GB-4410-01\nMATERIAL HT200",
        fields={"material": "HT200"},
    )
    sources = [_BRACKET, dataclasses.replace(cover, number=2, slice_ids=[2])]
    asked = "What is the material of the part on drawing PB-441-001?"
    assert as_named(asked, sources) == "What is the material of the part on drawing GB-4410-01?"
    assert as_named("what scale is drawing at 1024", sources) == "what scale is drawing at A-1024"
    spoken = find_extract(asked, sources, heard=True)
    assert spoken is not None and "HT200" in spoken.quote
    assert find_extract(asked, sources) is None  # typed, a code is read as written
    # A code close to no source's number (a size) is left as it was heard; the number without
    # its dash is written as the drawing writes it.
    assert as_named("the M6 bolts of A1024", sources) == "the M6 bolts of A-1024"
