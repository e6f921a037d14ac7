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


def test_a_date_asked_of_a_role_is_the_date_beside_that_name() -> None:
    pulley = drawing_source(
        1,
        "Title block.\n皮带轮 DL-5208-01\nDrawn by: 王磊 2026.02.10\nDate: 2026.02.25",
        title="皮带轮",
        drawing="DL-5208-01",
        fields={"drawn_by": "王磊 2026.02.10", "date": "2026.02.25"},
    )
    found = find_extract(
        "When was DL-5208-01 designed, what date is next to the designer?", [pulley]
    )
    assert found is not None and found.quote == "2026.02.10"
    found = find_extract("What date is on DL-5208-01?", [pulley])
    assert found is not None and found.quote == "2026.02.25"


def test_a_counterbore_asked_of_a_hole_is_its_callout() -> None:
    rows = [
        TableRow(
            "C1",
            {"key": "C1", "size": "⌀.750", "description": "C'BORE ⌀1.12 .38 DP"},
            {},
        )
    ]
    holes = Table("holes", ["key", "size", "description"], {}, rows, Box(0, 0, 10, 10))
    plate = drawing_source(
        1, "JIG PLATE JP-55187", title="JIG PLATE", drawing="JP-55187", tables=[holes]
    )
    ask = asks_table("How deep is the counterbore on hole C1 of JP-55187?")
    assert ask is not None and (ask.kind, ask.column) == ("holes", "description")
    found = find_extract("How deep is the counterbore on hole C1 of JP-55187?", [plate])
    assert found is not None and found.quote == "C'BORE ⌀1.12 .38 DP"
    assert found.field == "callout of hole C1"
    found = find_extract("What size is hole C1 of JP-55187?", [plate])
    assert found is not None and found.quote == "⌀.750"


def test_a_line_ending_with_the_fields_label_gives_no_value() -> None:
    holder = drawing_source(
        1,
        "Title block.\nMicro_Vu-4.20\nTOLERANCES ±0.10\nDO NOT SCALE DRAWING REVISION",
        title="Micro_Vu-4.20",
    )
    assert find_extract("What revision is the Micro_Vu-4.20 at?", [holder]) is None


def test_a_note_about_the_thread_answers_what_else_is_asked_of_it() -> None:
    clevis = drawing_source(
        1,
        "GABELKOPF GK-4520-10\nM10x1.25\n4. Gewindefreistich DIN 76-B\n5. Gängan rullas",
        title="Gabelkopf",
        drawing="GK-4520-10",
        dims="M10x1.25",
    )
    found = find_extract("What thread undercut does the GK-4520-10 drawing call for?", [clevis])
    assert found is not None and found.quote == "4. Gewindefreistich DIN 76-B"
    found = find_extract("On the Gabelkopf, is the thread cut or rolled?", [clevis])
    assert found is not None and found.quote == "5. Gängan rullas"
    # The thread itself is still the dimension.
    found = find_extract("What thread does the Gabelkopf have?", [clevis])
    assert found is not None and found.quote == "M10x1.25"


def test_a_parts_list_row_by_its_name_its_number_and_a_standard_parts_size() -> None:
    rows = [
        TableRow("2", {"key": "2", "qty": "1", "name": "Stirnrad", "part_no": "VW-3318-02"}, {}),
        TableRow(
            "3", {"key": "3", "qty": "1", "name": "Passfeder", "part_no": "DIN 6885-A 8x7x28"}, {}
        ),
    ]
    parts = Table("parts", ["key", "qty", "name", "part_no"], {}, rows, Box(0, 0, 10, 10))
    shaft = drawing_source(
        1, "VORGELEGEWELLE VW-3318-00", title="Vorgelegewelle", drawing="VW-3318-00", tables=[parts]
    )
    found = find_extract("What's the part number of the spur gear on VW-3318-00?", [shaft])
    assert found is not None and found.quote == "VW-3318-02"
    found = find_extract("VW-3318-00, what size is the Passfeder?", [shaft])
    assert found is not None and found.quote == "DIN 6885-A 8x7x28"
    found = find_extract("How many spur gears are on VW-3318-00?", [shaft])
    assert found is not None and found.quote == "1" and found.field == "quantity of item 2"


def test_a_parts_list_row_line_answers_for_no_other_part() -> None:
    fixture = drawing_source(
        1,
        "夹具底座 JJ-4820-00\nParts list of 夹具底座 JJ-4820-00.\nItem 4: 名称 支承钉; 材料 T8; 备注 HRC 55~60.",
        title="夹具底座",
        drawing="JJ-4820-00",
    )
    # The row is the support pins'; the locating pins' hardness is not stated.
    assert find_extract("How hard are the locating pins of JJ-4820-00?", [fixture]) is None
