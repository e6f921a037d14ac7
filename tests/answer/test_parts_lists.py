"""Questions about a row of a drawing's parts list, and a field that says "see parts list"."""

from __future__ import annotations

from appliance.answer import finding
from appliance.document import Box
from appliance.vision.tables import Table, TableRow
from tests.answer.sources import drawing_source

_COLUMNS = ["key", "qty", "unit", "name", "part_no", "material"]
_HEADERS = {
    "key": "Pos.",
    "qty": "Menge",
    "unit": "Einheit",
    "name": "Benennung",
    "part_no": "Sachnummer",
    "material": "Werkstoff",
}


def _row(y: float, *cells: str) -> TableRow:
    values = dict(zip(_COLUMNS, cells, strict=True))
    boxes = {c: Box(100 * i, y, 100 * i + 90, y + 20) for i, c in enumerate(_COLUMNS)}
    return TableRow(values["key"], values, boxes)


def _stueckliste(*extra: TableRow) -> Table:
    rows = [
        _row(500, "1", "1", "Stk", "Welle", "VW-3318-01", "42CrMo4"),
        _row(530, "2", "1", "Stk", "Stirnrad", "VW-3318-02", "16MnCr5"),
        _row(560, "3", "1", "Stk", "Passfeder", "DIN 6885-A 8x7x28", "C45+C"),
        _row(590, "4", "2", "Stk", "Rillenkugellager", "DIN 625 6206-2RS", "100Cr6"),
        _row(620, "5", "2", "Stk", "Sicherungsring", "DIN 471 30x1,5", "C75S"),
        *extra,
    ]
    return Table("parts", list(_COLUMNS), dict(_HEADERS), rows, Box(0, 480, 600, 650))


def _assembly(table: Table | None = None, material: str = "siehe Stückliste"):
    return drawing_source(
        1,
        "Title block.\nVorgelegewelle kpl. VW-3318-00\nWerkstoff: " + material,
        fields={"title": "Vorgelegewelle kpl.", "material": material},
        boxes={"material": Box(700, 600, 900, 620)},
        title="Vorgelegewelle kpl.",
        drawing="VW-3318-00",
        tables=[table or _stueckliste()],
    )


def _other() -> object:
    return drawing_source(
        2,
        "Title block.\nLagerdeckel LD-100\nMaterial: S235JR",
        drawing="LD-100",
        title="Lagerdeckel",
    )


def _ask(question: str, *sources: object) -> finding.Extract | None:
    return finding.find_extract(question, list(sources or (_assembly(), _other())))  # type: ignore[arg-type]


def test_a_row_named_by_its_item_number() -> None:
    qty = _ask("How many of item 4 go into VW-3318-00?")
    assert qty is not None and qty.quote == "2"
    assert qty.box == Box(100, 590, 190, 610)  # the quantity's own cell
    shaft = _ask("What is the shaft, Pos. 1, of VW-3318-00 made of?")
    assert shaft is not None and shaft.quote == "42CrMo4"
    item5 = _ask("What is item 5 in the Stückliste of the Vorgelegewelle?")
    assert item5 is not None and item5.quote == "Sicherungsring"


def test_a_row_named_by_what_the_part_is() -> None:
    bearings = _ask("How many bearings go into VW-3318-00?")
    assert bearings is not None and bearings.quote == "2"
    which = _ask("Which bearings are used on VW-3318-00?")
    assert which is not None and "6206-2RS" in which.quote
    key = _ask("Which standard is the feather key of VW-3318-00 made to?")
    assert key is not None and key.quote == "DIN 6885-A 8x7x28"


def test_the_unit_of_the_list() -> None:
    unit = _ask("In what unit does the parts list of VW-3318-00 count its quantities?")
    assert unit is not None and unit.quote == "Stk"


def test_an_item_the_list_does_not_have_is_not_taken_from_another_row() -> None:
    found = _ask("How many of item 9 go into VW-3318-00?")
    assert found is None or found.quote != "2"


def test_a_question_about_the_drawing_itself_is_not_a_row() -> None:
    # No row named: the material field, which sends the reader to the parts list; no row is the
    # assembly itself and five rows give a material, so the field stands as written.
    found = _ask("What material is VW-3318-00?")
    assert found is not None and found.quote == "siehe Stückliste"


def test_see_parts_list_followed_to_the_row_of_the_part_itself() -> None:
    own = _row(650, "6", "1", "Stk", "Vorgelegewelle kpl.", "VW-3318-00", "42CrMo4V")
    found = _ask("What material is VW-3318-00?", _assembly(_stueckliste(own)), _other())
    assert found is not None and found.quote == "42CrMo4V"
    assert found.box == Box(500, 650, 590, 670)
    # The same for the Chinese 见明细栏 and a list where one row alone gives a material.
    one = Table(
        "parts",
        ["key", "name", "material"],
        {"key": "序号", "name": "名称", "material": "材料"},
        [
            TableRow("1", {"key": "1", "name": "底板", "material": "HT250"}, {}),
            TableRow("2", {"key": "2", "name": "螺钉"}, {}),
        ],
        Box(0, 0, 10, 10),
    )
    chinese = drawing_source(
        3,
        "Title block.\n底板 DB-1\n材料 见明细栏",
        fields={"title": "底板", "material": "见明细栏"},
        drawing="DB-1",
        tables=[one],
    )
    found = finding.find_extract("What material is DB-1 made of?", [chinese])
    assert found is not None and found.quote == "HT250"


def test_an_item_whose_cell_was_not_read_is_not_answered_from_another_line() -> None:
    rows = [TableRow("3", {"key": "3", "part_no": "GB/T 70.1 M8x25"}, {})]
    table = Table(
        "parts", ["key", "part_no"], {"key": "序号", "part_no": "代号"}, rows, Box(0, 0, 9, 9)
    )
    src = drawing_source(
        1,
        "Title block.\n夹具底座 JJ-4820-00\n重量 6.8 kg\n4 x M8",
        drawing="JJ-4820-00",
        tables=[table],
    )
    assert finding.find_extract("How many screws, item 3, go into JJ-4820-00?", [src]) is None


def test_how_many_counts_the_thing_named_after_it() -> None:
    # "How many teeth does the spur gear have": teeth are counted, no row is of teeth.
    assert _ask("How many teeth does the shaft of VW-3318-00 have?") is None


def test_which_asks_for_the_thing_named_after_it() -> None:
    # "Which grease are the bearings filled with": a grease, which no row is.
    found = _ask("Which grease are the bearings of VW-3318-00 filled with?")
    assert found is None or "6206" not in found.quote
