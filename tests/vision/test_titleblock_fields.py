"""Title-block fields read by cell geometry: labels in four languages, the value after its label,
beside it or under it, and the box each value is written in."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from appliance.document import Box
from appliance.vision.ocrlines import OcrWord
from appliance.vision.page import correct_page
from appliance.vision.settings import VisionSettings
from appliance.vision.slicing import title_block_text
from appliance.vision.titleblock import read_title_block
from appliance.vision.titlefields import (
    FieldReading,
    cell_fields,
    choose_fields,
    field_boxes,
    valid_value,
)
from appliance.vision.titlegrid import Cell


def _row(y: float, height: float, *texts: str, x: float = 10) -> list[OcrWord]:
    """Words side by side on one line at ``y``, ``height`` pixels tall."""
    return [
        OcrWord(text=t, raw_text=t, conf=90.0, box=Box(x + 90 * i, y, x + 80 + 90 * i, y + height))
        for i, t in enumerate(texts)
    ]


def test_value_printed_bigger_under_a_bilingual_label() -> None:
    """LiU0010's weight cell: "Weight /vikt" in small print, "18.19 g" under it, bigger."""
    cell = Cell(Box(0, 0, 400, 100))
    words = _row(5, 12, "Weight", "/vikt") + _row(40, 22, "18.19", "g")
    fields = cell_fields([(cell, words)])
    assert fields["weight"].value == "18.19 g"
    assert [w.text for w in fields["weight"].words] == ["18.19", "g"]


def test_label_in_two_lines_and_two_languages_leaves_only_the_value() -> None:
    """The tolerance note's label runs over two small rows (English, Swedish); the standard is the
    big row under them."""
    cell = Cell(Box(0, 0, 1200, 120))
    words = (
        _row(5, 12, "Tolerance,", "if", "not", "indicated", "acc.", "to", "/")
        + _row(22, 12, "generella", "toleranser", "där", "ej", "annat", "anges", "enligt")
        + _row(50, 24, "ISO", "2768-mK")
    )
    fields = cell_fields([(cell, words)])
    assert fields["general_tolerance"].value == "ISO 2768-mK"


def test_swedish_and_german_labels_name_the_new_fields() -> None:
    cells = [
        (
            Cell(Box(0, 0, 600, 100)),
            _row(5, 12, "Surface", "treatment", "/Ytbehandling")
            + _row(40, 22, "Anodiserad", "15-20µm"),
        ),
        (Cell(Box(0, 100, 600, 200)), _row(105, 12, "Oberflächengüte:", "Ra", "1,6")),
        (Cell(Box(0, 200, 600, 300)), _row(205, 12, "Projekt:", "TMPS34")),
    ]
    fields = cell_fields(cells)
    assert fields["surface_treatment"].value == "Anodiserad 15-20µm"
    assert fields["roughness"].value == "Ra 1,6"
    assert fields["project"].value == "TMPS34"


def test_an_empty_bilingual_label_gives_no_value() -> None:
    """ "Appr. by/Godk. av" with nothing under it: "av" is the label's Swedish end, not a name."""
    cell = Cell(Box(0, 0, 400, 100))
    fields = cell_fields([(cell, _row(5, 12, "Appr.", "by/Godk.", "av"))])
    assert "approved_by" not in fields


def test_a_sub_label_without_its_value_is_not_part_of_the_value() -> None:
    cell = Cell(Box(0, 0, 1000, 60))
    fields = cell_fields([(cell, _row(5, 12, "TOLERANZEN:", "LINEAR:", "+0.1/-0.1", "WINKEL:"))])
    assert fields["general_tolerance"].value == "LINEAR: +0.1/-0.1"


def test_a_name_beside_its_label_but_never_the_next_rows_label() -> None:
    """A signature table: "DRAWN BY" | name. Under "DRAWN BY" is "CHECKED BY", not a value."""
    drawn = Cell(Box(0, 0, 200, 20))
    name = Cell(Box(202, 0, 400, 20))
    checked = Cell(Box(0, 22, 200, 42))
    blank = Cell(Box(202, 22, 400, 42))
    fields = cell_fields(
        [
            (drawn, _row(4, 12, "DRAWN", "BY")),
            (name, _row(4, 12, "A.Berg", x=210)),
            (checked, _row(26, 12, "CHECKED", "BY")),
            (blank, []),
        ]
    )
    assert fields["drawn_by"].value == "A.Berg"
    assert "checked_by" not in fields


def test_a_weight_needs_a_unit_and_a_roughness_a_number() -> None:
    assert valid_value("weight", "18.19 g")
    assert valid_value("weight", "1,2 kg")
    assert not valid_value("weight", "3")  # a zone number of the frame under an empty cell
    assert valid_value("roughness", "Ra 3,2")
    assert not valid_value("roughness", "V")  # the surface symbol alone
    chosen = choose_fields({"weight": FieldReading("3", 90.0)})
    assert "weight" not in chosen


def test_field_boxes_are_the_value_words() -> None:
    words = _row(40, 22, "18.19", "g")
    reading = {"weight": FieldReading("18.19 g", 90.0, tuple(words))}
    no_boxes = {"weight": FieldReading("18.19 g", 95.0)}
    boxes = field_boxes({"weight": "18.19 g"}, no_boxes, reading)
    assert boxes["weight"] == Box(10, 40, 180, 62)
    # A value chosen from a pass without boxes is placed where another reading of it was.
    other = {"weight": FieldReading("18.18 g", 90.0, tuple(words))}
    assert field_boxes({"weight": "18.19 g"}, other)["weight"] == Box(10, 40, 180, 62)
    assert field_boxes({"weight": "18.19 g"}, no_boxes) == {}


def test_summary_gives_the_english_sense_of_a_foreign_value() -> None:
    text = title_block_text(
        {"title": "Ljushållare HT2022", "surface_treatment": "Anodiserad", "material": "PLA"}
    )
    assert "Title: Ljushållare HT2022 (candle holder HT2022)" in text
    assert "Surface treatment: Anodiserad (anodised)" in text
    assert "Material: PLA\n" in text + "\n"


@pytest.mark.slow
def test_liu0010_weight_treatment_roughness_and_tolerance(drawings: Path) -> None:
    """LiU0010's bilingual (English/Swedish) block: the fields beyond the classic eight, each with
    the box it is written in, inside the block."""
    image = cv2.imread(str(drawings / "LIU0010.jpg"))
    assert image is not None
    gray = correct_page(cv2.cvtColor(image, cv2.COLOR_BGR2RGB)).gray
    block = read_title_block(gray, VisionSettings())
    assert block is not None
    assert block.fields["weight"] == "18.19 g"
    assert block.fields["roughness"] == "Ra 3,2"
    assert block.fields["general_tolerance"] == "ISO 2768-mK"
    assert block.fields["surface_treatment"].startswith("Anodiserad 15-20")
    assert "approved_by" not in block.fields  # the "Appr. by" box is empty
    assert set(block.boxes) == set(block.fields)
    for box in block.boxes.values():
        assert block.box.x0 <= box.x0 < box.x1 <= block.box.x1
        assert block.box.y0 <= box.y0 < box.y1 <= block.box.y1


def test_a_treatment_value_is_mended_where_ocr_slipped() -> None:
    """The English model reads "Kulör" as "Kul6or" and "µm" as "um"."""
    cell = Cell(Box(0, 0, 600, 100))
    words = _row(5, 12, "Surface", "treatment", "/Ytbehandling") + _row(
        40, 22, "Anodiserad", "15-20um", "Kul6or:", "Natur"
    )
    fields = cell_fields([(cell, words)])
    assert fields["surface_treatment"].value == "Anodiserad 15-20µm Kulör: Natur"


def test_value_in_the_cell_beside_a_label_centred_in_its_own() -> None:
    """A Swedish block: "Benämning" | "Hjulnav", each in a cell of its own, in one row."""
    label = Cell(Box(0, 0, 250, 55))
    value = Cell(Box(252, 0, 1000, 55))
    fields = cell_fields(
        [(label, _row(20, 16, "Benämning")), (value, _row(15, 26, "Hjulnav", x=260))]
    )
    assert fields["title"].value == "Hjulnav"
    # A label at the top of a taller cell keeps room for its value there: nothing from beside.
    top = Cell(Box(0, 0, 250, 100))
    fields = cell_fields([(top, _row(4, 14, "Appr.", "by")), (Cell(Box(252, 0, 1000, 100)), [])])
    assert "approved_by" not in fields


def test_iso_7200_fields() -> None:
    cells = [
        (Cell(Box(0, 100 * i, 600, 100 * i + 90)), _row(100 * i + 5, 12, *label) + value)
        for i, (label, value) in enumerate(
            [
                (("Identification", "number"), _row(40, 22, "GB-4410-01")),
                (("Responsible", "department"), _row(140, 22, "DRIVES", "ENG.")),
                (("Document", "status"), _row(240, 22, "Released")),
                (("Date", "of", "issue"), _row(340, 22, "2025-11-03")),
            ]
        )
    ]
    fields = cell_fields(cells)
    assert fields["drawing_number"].value == "GB-4410-01"
    assert fields["department"].value == "DRIVES ENG."  # an abbreviation keeps its stop
    assert fields["document_status"].value == "Released"
    assert fields["date"].value == "2025-11-03"


def test_an_eszett_misread_still_names_the_label() -> None:
    """The English model reads "Maßstab" as "MaRstab" or "MaBstab"."""
    for misread in ("MaRstab", "MaBstab"):
        fields = cell_fields([(Cell(Box(0, 0, 400, 60)), _row(5, 12, misread, "1:5"))])
        assert fields["scale"].value == "1:5"


def test_sheet_strokes_around_von_are_ones() -> None:
    for read in ("lvonl", "1vonil"):
        fields = cell_fields([(Cell(Box(0, 0, 400, 60)), _row(5, 12, "Blatt", read))])
        assert fields["sheet"].value == "1 von 1"


def test_an_ansi_size_letter_under_its_label() -> None:
    fields = cell_fields([(Cell(Box(0, 0, 400, 60)), _row(5, 12, "SIZE:", "B"))])
    assert choose_fields(fields)["size"] == "B"


def test_chinese_labels_spaced_apart_by_ocr() -> None:
    """With ``eng+chi_sim`` Tesseract spaces Chinese characters ("名 称", "表面 处 理")."""
    cells = [
        (Cell(Box(0, 0, 400, 60)), _row(5, 14, "名", "称") + _row(30, 22, "轴承", "座")),
        (Cell(Box(0, 60, 400, 120)), _row(65, 14, "表面", "处", "理") + _row(90, 22, "发", "黑")),
        (
            Cell(Box(0, 120, 400, 180)),
            _row(125, 14, "张", "数") + _row(150, 22, "共", "2", "张", "第", "1", "张"),
        ),
    ]
    fields = choose_fields(cell_fields(cells))
    assert fields["title"] == "轴承座"
    assert fields["surface_treatment"] == "发黑"
    assert fields["sheet"] == "共 2 张 第 1 张"


def test_a_name_under_its_label_in_a_table_column() -> None:
    """ "设计" over "王明" (a column), but not "GEZEICHNET" over a misread "GEPROFT"."""
    label = Cell(Box(0, 0, 200, 20))
    under = Cell(Box(0, 22, 200, 42))
    fields = cell_fields([(label, _row(4, 12, "设计")), (under, _row(26, 12, "王明"))])
    assert fields["drawn_by"].value == "王明"
    fields = cell_fields([(label, _row(4, 12, "GEZEICHNET")), (under, _row(26, 12, "GEPROFT"))])
    assert "drawn_by" not in fields


def test_a_revision_letter_is_a_capital() -> None:
    for read in ("c", "Cc"):
        fields = cell_fields([(Cell(Box(0, 0, 400, 60)), _row(5, 12, "REV:", read))])
        assert fields["revision"].value == "C"


def test_a_label_cell_takes_the_value_beside_it_before_a_value_spanning_under_it() -> None:
    """A German block: "Gezeichnet" | "F. Wagner" in one row; under them one wide cell holds the
    next row's value ("Geprüft" | "U. Klein"), which spans under the "Gezeichnet" cell too."""
    per_cell = [
        (Cell(Box(0, 0, 300, 56)), _row(18, 18, "Format")),
        (Cell(Box(300, 0, 600, 56)), _row(12, 28, "A4", x=310)),
        (Cell(Box(600, 0, 815, 56)), _row(18, 18, "Gezeichnet", x=605)),
        (Cell(Box(815, 0, 1130, 56)), _row(12, 28, "F.", "Wagner", x=825)),
        (Cell(Box(0, 56, 285, 112)), _row(74, 18, "Geprüft")),
        (Cell(Box(285, 56, 1130, 112)), _row(68, 28, "U.", "Klein", x=295)),
    ]
    fields = cell_fields(per_cell)
    assert fields["drawn_by"].value == "F. Wagner"
    assert fields["checked_by"].value == "U. Klein"


def test_a_row_of_labels_over_a_row_of_values_still_reads_downwards() -> None:
    """A Chinese block: 设计 | 审核 | 批准 over 李强 | 张伟 | (empty)."""
    per_cell = [
        (Cell(Box(0, 0, 200, 50)), _row(15, 20, "设计", x=10)),
        (Cell(Box(200, 0, 400, 50)), _row(15, 20, "审核", x=210)),
        (Cell(Box(400, 0, 600, 50)), _row(15, 20, "批准", x=410)),
        (Cell(Box(0, 50, 200, 100)), _row(62, 26, "李强", x=10)),
        (Cell(Box(200, 50, 400, 100)), _row(62, 26, "张伟", x=210)),
        (Cell(Box(400, 50, 600, 100)), []),
    ]
    fields = cell_fields(per_cell)
    assert fields["drawn_by"].value == "李强"
    assert fields["checked_by"].value == "张伟"
    assert "approved_by" not in fields


def test_a_chinese_name_read_spaced_apart_is_still_a_name() -> None:
    per_cell = [
        (Cell(Box(0, 0, 200, 50)), _row(15, 20, "设计", x=10)),
        (Cell(Box(200, 0, 400, 50)), _row(15, 20, "审核", x=210)),
        (Cell(Box(0, 50, 200, 100)), _row(62, 26, "李强", x=10)),
        (Cell(Box(200, 50, 400, 100)), _row(62, 26, "张", "伟", x=210)),
    ]
    fields = cell_fields(per_cell)
    assert fields["checked_by"].value.replace(" ", "") == "张伟"


def test_a_chinese_label_is_not_joined_to_the_value_after_it() -> None:
    """ "张数: 共 2 张 第 1 张" read without its colon and spaced apart: "张 数 共 2 张 ..."."""
    cell = Cell(Box(0, 0, 600, 60))
    fields = cell_fields([(cell, _row(15, 26, "张", "数", "共", "2", "张", "第", "1", "张"))])
    assert fields["sheet"].value == "共 2 张 第 1 张"
