"""A title block's empty cell is not answered from its neighbour, a change that is not drawn is not
answered from a note that only names the index, a step of a treatment is the line saying both, a
call-out asks no title, a hole table without a size column gives the size its description holds,
and a question asked in Chinese names its field by the title block's label."""

from __future__ import annotations

from appliance.answer.fields import asked_field
from appliance.answer.finding import find_extract
from appliance.document import Box
from appliance.vision.tables import Table, TableRow
from tests.answer.sources import drawing_source


def test_the_approver_asked_is_not_the_drafter_of_the_line_beside() -> None:
    """ "Godkänd:" left empty: "Ritad av: S. Nyberg" names a person, but the drafter."""
    src = drawing_source(
        1,
        "Benämning: Bottenplatta\nRitad av: S. Nyberg\nGodkand:\nGranskad: L. Ahlgren",
        title="Bottenplatta",
        drawing="BP-5531-01",
    )
    assert find_extract("Who approved BP-5531-01, godkänd av?", [src]) is None
    checked = find_extract("Who checked BP-5531-01?", [src])
    assert checked is not None and "Ahlgren" in checked.quote


def test_a_label_with_its_english_sense_is_no_value() -> None:
    """An empty 批准 cell over the 单位名称 label: the index wrote the label's sense after it."""
    src = drawing_source(
        1,
        "设计 (designed by)\n审核 (checked by)\n批准 (approved by)\n刘晓东\n陈静\n单位名称 (company)\n"
        "江南减速机",
        title="轴承透盖组件",
        drawing="TG-6214-03",
    )
    assert find_extract("Who approved TG-6214-03?", [src]) is None


def test_a_change_not_drawn_is_not_a_note_naming_the_index() -> None:
    src = drawing_source(
        1,
        "1) Allgemeintoleranz DIN ISO 2768-mK\n7) Kennzeichnen mit Zeichn.-Nr. und Index",
        title="Führungsplatte",
        drawing="FP-3619-02",
        revision="B",
    )
    assert find_extract("What changed in index b of FP-3619-02?", [src]) is None


def test_a_step_of_a_treatment_is_the_line_saying_both() -> None:
    src = drawing_source(
        1,
        "5. FINISH: BLACK ANODIZE PER MIL-A-8625 TYPE II, CLASS 2\n"
        "6. MASK ⌀1.5010/1.5000 BORE FROM ANODIZE",
        fields={"surface_treatment": "BLK ANODIZE, SEE NOTE 5"},
        title="ADAPTER PLATE, SPINDLE MOTOR",
        drawing="AP-6613-01",
    )
    masked = find_extract("Does AP-6613-01 say to mask anything before anodize?", [src])
    assert masked is not None and "MASK" in masked.quote
    spec = find_extract("What spec is the anodize on AP-6613-01 called out to?", [src])
    assert spec is not None and "MIL-A-8625" in spec.quote


def test_a_call_out_asks_no_title() -> None:
    assert asked_field("What spec is the anodize called out to?")[0] != "title"
    assert asked_field("What is the part called?")[0] == "title"


def test_a_hole_size_from_the_description_column() -> None:
    rows = [
        TableRow("A1", {"key": "A1", "x": ".500", "y": ".500", "description": "1/4-20 UNC-2B"}, {}),
        TableRow("C1", {"key": "C1", "x": "1.250", "y": "2.000", "description": "⌀.2505 THRU"}, {}),
    ]
    holes = Table("holes", ["key", "x", "y", "description"], {}, rows, Box(0, 0, 10, 10))
    src = drawing_source(1, "ADAPTER PLATE AP-6613-01", title="Adapter plate", tables=[holes])
    found = find_extract("What size is hole C1 on the adapter plate?", [src])
    assert found is not None and found.quote == "⌀.2505 THRU"
    thread = find_extract("What size is hole A1 on the adapter plate?", [src])
    assert thread is not None and thread.quote == "1/4-20 UNC-2B"


def test_a_question_asked_in_chinese_names_its_field_by_the_label() -> None:
    assert asked_field("谁设计的 TG-6214-03?") == ("drawn_by", "设计")
    assert asked_field("TG-6214-03 的材料是什么?")[0] == "material"
    src = drawing_source(
        1, "设计 刘晓东\n审核 陈静", fields={"drawn_by": "刘晓东"}, drawing="TG-6214-03"
    )
    found = find_extract("谁设计的 TG-6214-03?", [src])
    assert found is not None and found.quote == "刘晓东"


def _plate_holes() -> Table:
    rows = [
        TableRow("A1", {"key": "A1", "x": "25", "y": "25", "size": "⌀9"}, {}),
        TableRow("B1", {"key": "B1", "x": "100", "y": "80", "size": "⌀52H8"}, {}),
        TableRow("C1", {"key": "C1", "x": "60", "y": "80", "size": "M6-6H"}, {}),
        TableRow("C2", {"key": "C2", "x": "140", "y": "80", "size": "M6-6H"}, {}),
        TableRow("D1", {"key": "D1", "x": "10", "y": "10", "size": "⌀5"}, {}),
        TableRow("D2", {"key": "D2", "x": "20", "y": "10", "size": "⌀6"}, {}),
    ]
    return Table("holes", ["key", "x", "y", "size"], {}, rows, Box(0, 0, 10, 10))


def test_holes_named_as_a_group_by_their_letter() -> None:
    """ "The C holes" are C1 and C2, both M6-6H; the D holes differ, so no one size answers."""
    src = drawing_source(1, "电机安装板 DJ-2740-01", drawing="DJ-2740-01", tables=[_plate_holes()])
    found = find_extract("What thread are the C holes in DJ-2740-01?", [src])
    assert found is not None and found.quote == "M6-6H"
    assert find_extract("What size are the D holes in DJ-2740-01?", [src]) is None


def test_a_change_named_in_chinese() -> None:
    rows = [
        TableRow("A", {"key": "A", "description": "螺钉孔 Ø9 改为 Ø11", "date": "2026-05-02"}, {})
    ]
    changes = Table("revisions", ["key", "description", "date"], {}, rows, Box(0, 0, 10, 10))
    src = drawing_source(1, "轴承透盖组件 TG-6214-03", drawing="TG-6214-03", tables=[changes])
    found = find_extract("What was changed in 更改 a on TG-6214-03?", [src])
    assert found is not None and "Ø11" in found.quote


def test_a_drawing_number_asked_as_the_dwg_number() -> None:
    assert asked_field("What's the dwg number for the spindle motor adapter plate?")[0] == (
        "drawing_number"
    )
    assert asked_field("What's the drawing # of the bracket?")[0] == "drawing_number"
