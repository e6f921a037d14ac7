"""Title-block cells that print the value over a small label under it, the labels of further
template wordings, and a neighbour's label never taken as a value."""

from __future__ import annotations

from appliance.document import Box
from appliance.vision.ocrlines import OcrWord
from appliance.vision.titlefields import cell_fields, valid_value
from appliance.vision.titlegrid import Cell


def _row(y: float, height: float, *texts: str, x: float = 10) -> list[OcrWord]:
    """Words side by side on one line at ``y``, ``height`` pixels tall."""
    return [
        OcrWord(text=t, raw_text=t, conf=90.0, box=Box(x + 90 * i, y, x + 80 + 90 * i, y + height))
        for i, t in enumerate(texts)
    ]


def _cell(x: float, *words: list[OcrWord]) -> tuple[Cell, list[OcrWord]]:
    return Cell(Box(x, 0, x + 340, 80)), [w for row in words for w in row]


def test_value_over_its_label() -> None:
    """ "EN-GJL-250" big, "MATL" small under it: the label ends the cell and has nothing after it."""
    fields = cell_fields(
        [
            _cell(0, _row(6, 23, "EN-GJL-250"), _row(52, 15, "MATL")),
            _cell(345, _row(6, 23, "GH-7702-11", x=355), _row(52, 15, "PART", "NO.", x=355)),
            _cell(690, _row(6, 23, "GBX-26", x=700), _row(52, 19, "PROJECT", x=700)),
            _cell(1035, _row(6, 23, "L.", "Vogel", x=1045), _row(52, 15, "Gez.", x=1045)),
        ]
    )
    assert fields["material"].value == "EN-GJL-250"
    assert [w.text for w in fields["material"].words] == ["EN-GJL-250"]
    assert fields["drawing_number"].value == "GH-7702-11"
    assert fields["project"].value == "GBX-26"
    assert fields["drawn_by"].value == "L. Vogel"


def test_a_label_under_text_of_its_own_size_is_no_value_label() -> None:
    """Two rows of one size ending in a label word: a note, not a value over its label."""
    fields = cell_fields([_cell(0, _row(6, 15, "see", "notes"), _row(30, 15, "MATERIAL"))])
    assert "material" not in fields


def test_further_template_labels() -> None:
    """Revision as "Zust." or "Issue", a checker as "Reviewer", "Konstr." for the designer, "QTY REQD",
    "Material spec." and a heat treatment, beside or after their labels."""
    fields = cell_fields(
        [
            _cell(0, _row(6, 23, "C"), _row(52, 15, "Zust.")),
            _cell(345, _row(20, 20, "Issue:", "04", x=355)),
            _cell(690, _row(20, 20, "Reviewer:", "A.", "Kim", x=700)),
            _cell(1035, _row(20, 20, "Konstr.:", "E.", "Nyström", x=1045)),
            _cell(1380, _row(6, 15, "QTY", "REQD", x=1390), _row(40, 23, "2", x=1390)),
            _cell(1725, _row(20, 20, "Material", "spec.:", "16MnCr5", x=1735)),
            _cell(2070, _row(20, 20, "Heat", "treatment:", "Case", "hardened", x=2080)),
        ]
    )
    assert fields["revision"].value == "C"
    assert fields["checked_by"].value == "A. Kim"
    assert fields["drawn_by"].value == "E. Nyström"
    assert fields["quantity"].value == "2"
    assert fields["material"].value == "16MnCr5"
    assert fields["heat_treatment"].value == "Case hardened"
    assert cell_fields([_cell(0, _row(20, 20, "Issue:", "04"))])["revision"].value == "04"


def test_a_label_is_never_a_value() -> None:
    """A designer's cell whose reading took the checker's label beside it ("设计" | "审核")."""
    assert not valid_value("drawn_by", "审核")
    assert not valid_value("checked_by", "APPROVED BY")
    assert valid_value("drawn_by", "李强")
    assert valid_value("drawn_by", "P. AHMED")


def test_a_label_under_its_value_in_two_languages_or_with_its_unit() -> None:
    """ "材料 MATERIAL", "图号 DWG NO." and "重量(kg)" under their values: the label row says the
    label twice or with its unit, and a bare number under a unit in the label takes the unit."""
    fields = cell_fields(
        [
            _cell(0, _row(6, 23, "Q235-A"), _row(52, 15, "材料", "MATERIAL")),
            _cell(345, _row(6, 23, "DJ-2740-01", x=355), _row(52, 15, "图号", "DWG", "NO.", x=355)),
            _cell(690, _row(6, 23, "1.62", x=700), _row(52, 15, "重量(kg)", x=700)),
            _cell(1035, _row(6, 23, "2", x=1045), _row(52, 15, "件数", "其他", x=1045)),
        ]
    )
    assert fields["material"].value == "Q235-A"
    assert fields["drawing_number"].value == "DJ-2740-01"
    assert fields["weight"].value == "1.62 kg"
    # A label row with another word after the label is a label and its value, not a label alone.
    assert fields["quantity"].value == "其他"


def test_a_chinese_label_read_without_its_first_character() -> None:
    """ "样名称" is "图样名称" with its first character lost against the cell's rule; a short label
    ("幅" of "图幅") is too little to tell."""
    fields = cell_fields(
        [
            _cell(0, _row(6, 15, "样名称"), _row(40, 23, "轴承透盖组件")),
            _cell(345, _row(6, 15, "幅", x=355), _row(40, 23, "A3", x=355)),
        ]
    )
    assert fields["title"].value == "轴承透盖组件"
    assert "size" not in fields or fields["size"].value == "A3"
