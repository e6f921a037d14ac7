"""What a part was before a change is the change's description; the sheet's own words ("title
block") name no field; a cast iron grade is a material."""

from __future__ import annotations

from appliance.answer.fields import asked_field
from appliance.answer.finding import find_extract
from appliance.answer.tables import asks_table
from appliance.document import Box
from appliance.vision.tables import Table, TableRow
from tests.answer.sources import drawing_source


def _changes() -> Table:
    rows = [
        TableRow("A", {"key": "A", "description": "Första utgåva", "date": "2025-10-06"}, {}),
        TableRow("B", {"key": "B", "description": "Kamprofil ändrad R42 var R40"}, {}),
        TableRow("C", {"key": "C", "description": "Not 3 tillagd", "date": "2026-02-20"}, {}),
    ]
    return Table("revisions", ["key", "description", "date"], {}, rows, Box(0, 0, 10, 10))


_CAM = drawing_source(
    1,
    "Title block.\nKAMSKIVA KM-6027-02\nDatum: 2025-10-06\n3. Sätthärdas 58-62 HRC",
    title="Kamskiva",
    drawing="KM-6027-02",
    fields={"material": "16MnCr5", "date": "2025-10-06"},
    tables=[_changes()],
)


def test_a_former_value_is_the_change_that_gives_it() -> None:
    asked = "The cam profile radius on the Kamskiva got changed, what was it before the change?"
    ask = asks_table(asked)
    assert ask is not None and ask.before and ask.column == "description"
    found = find_extract(asked, [_CAM])
    assert found is not None and found.quote == "Kamprofil ändrad R42 var R40"


def test_a_former_value_no_change_gives_is_not_a_change() -> None:
    plain = drawing_source(
        1,
        "KAMSKIVA KM-6027-02\nHARDNESS WAS 45-50 HRC",
        title="Kamskiva",
        drawing="KM-6027-02",
        tables=[Table("revisions", ["key", "description"], {}, [], Box(0, 0, 10, 10))],
    )
    # No row: a note that says what it was still answers.
    found = find_extract("What was the hardness of the Kamskiva previously?", [plain])
    assert found is not None and found.quote == "HARDNESS WAS 45-50 HRC"


def test_made_of_before_a_revision_asks_the_change_not_its_date() -> None:
    ask = asks_table("What alloy was the bracket made of before they changed it in rev D?")
    assert ask is not None and (ask.key, ask.column) == ("D", "description")
    ask = asks_table("When was revision D made?")
    assert ask is not None and ask.column == "date"


def test_the_title_block_names_no_field() -> None:
    assert asked_field("What's the date on the title block of GK-4520-10?") == ("date", "date")
    assert asked_field("What's the title in the title block?") == ("title", "title")
    assert asked_field("What does the title block say?") == ("", "")
    found = find_extract("What date is in the title block of the Kamskiva?", [_CAM])
    assert found is not None and found.quote == "2025-10-06"


def test_a_cast_iron_grade_is_the_material() -> None:
    assert asked_field("What cast iron grade is the part in DL-5208-01.png?")[0] == "material"
