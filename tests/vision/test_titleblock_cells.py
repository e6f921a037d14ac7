"""Title blocks read cell by cell: rows at one letter height, labels looked at again, fields by vote."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.document import Box
from appliance.vision.ocrlines import OcrWord
from appliance.vision.page import correct_page
from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import RawWord
from appliance.vision.titleblock import read_title_block
from appliance.vision.titlecells import text_rows
from appliance.vision.titlefields import FieldReading, cell_fields, choose_fields, valid_value
from appliance.vision.titlegrid import Cell, find_cells, locate


def _page(drawings: Path, name: str) -> np.ndarray:
    image = cv2.imread(str(drawings / name))
    assert image is not None
    return correct_page(cv2.cvtColor(image, cv2.COLOR_BGR2RGB)).gray


def _words(*texts: str) -> list[OcrWord]:
    """Words side by side on one line inside the 0..1000 x 0..100 cell used below."""
    return [
        OcrWord(text=t, raw_text=t, conf=90.0, box=Box(10 + 60 * i, 40, 50 + 60 * i, 60))
        for i, t in enumerate(texts)
    ]


@pytest.mark.slow
def test_small_labels_beside_big_values_are_read(drawings: Path) -> None:
    """Gripper's 2 mm bold labels (`TITLE:`, `DWG NO.`) over 7 mm values: the block's own pass
    read neither label, so no drawing number or title was found."""
    block = read_title_block(_page(drawings, "Gripper.jpg"), VisionSettings())
    assert block is not None
    assert block.fields["drawing_number"] == "UR10_29.20"
    assert block.fields["title"] == "Weird_Gripper_Cam_Adapter"
    assert block.fields["scale"] == "1:1"
    assert block.fields["sheet"] == "1 OF 1"
    assert block.fields["material"] == "PLA"
    assert "revision" not in block.fields  # the drawing leaves it empty


@pytest.mark.slow
def test_disputed_value_is_settled_by_reading_it_at_other_sizes(drawings: Path) -> None:
    """LIU0010's number: the block's pass read `Liv0010`, the cell pass `LiU0010`; the sizes voted."""
    block = read_title_block(_page(drawings, "LIU0010.jpg"), VisionSettings())
    assert block is not None
    assert block.fields["drawing_number"] == "LiU0010"
    assert block.fields["title"] == "Kolv Cykelpump"
    assert block.fields["revision"] == "A"


def test_a_cells_label_and_value_are_separate_rows(drawings: Path) -> None:
    """In Gripper's DWG NO. cell the label row and the value row are cut apart, each at its size."""
    gray = _page(drawings, "Gripper.jpg")
    box = locate(gray)
    assert box is not None
    crop = gray[int(box.y0) : int(box.y1), int(box.x0) : int(box.x1)]
    cells = [c.box for c in find_cells(crop, max(15, min(crop.shape) // 25))]
    rows = text_rows(crop, cells)
    by_cell: dict[int, list[float]] = {}
    for row in rows:
        by_cell.setdefault(row.cell, []).append(row.box.y1 - row.box.y0)
    # Some cell holds a small row (the label) and a row at least 2.5 times taller (the value).
    assert any(
        len(heights) >= 2 and max(heights) >= 2.5 * min(heights) for heights in by_cell.values()
    )
    for row in rows:
        assert row.mask.shape == (int(row.box.y1 - row.box.y0), int(row.box.x1 - row.box.x0))
        assert row.mask.any()


def test_a_line_stopping_short_of_its_neighbour_still_closes_the_cell() -> None:
    page = np.full((300, 600), 255, np.uint8)
    cv2.rectangle(page, (20, 20), (580, 280), 0, 2)
    cv2.line(page, (20, 150), (580, 150), 0, 2)
    # The divider of the lower row stops 4 px short of the line above it (a faint print).
    cv2.line(page, (300, 156), (300, 280), 0, 2)
    cells = find_cells(page, 40)
    lower = [c for c in cells if c.box.y0 > 140]
    assert len(lower) == 2
    assert all(c.box.x1 - c.box.x0 < 300 for c in lower)


def test_sheet_counted_with_a_stroke_for_one() -> None:
    cell = Cell(Box(0, 0, 1000, 100))
    fields = cell_fields([(cell, _words("SHEET", "1", "OF", "|"))])
    assert fields["sheet"].value == "1 OF 1"
    fields = cell_fields([(cell, _words("SHEET", "1of1"))])
    assert fields["sheet"].value == "1 of 1"


def test_choose_fields_keeps_only_values_of_the_fields_form() -> None:
    chosen = choose_fields(
        {"scale": FieldReading("131", 95.0), "size": FieldReading("A.LL Dy", 40.0)},
        {"scale": FieldReading("1:1", 30.0), "size": FieldReading("A3", 80.0)},
    )
    assert chosen == {"scale": "1:1", "size": "A3"}


def test_choose_fields_takes_the_majority_then_the_most_confident() -> None:
    first = {"drawing_number": FieldReading("Liv0010", 90.0)}
    looks = [{"drawing_number": FieldReading("LiU0010", c)} for c in (30.0, 70.0)]
    assert choose_fields(first, *looks)["drawing_number"] == "LiU0010"
    tie = choose_fields(first, looks[0])
    assert tie["drawing_number"] == "Liv0010"


def test_drawing_number_needs_a_digit() -> None:
    chosen = choose_fields({"drawing_number": FieldReading("SHEET REV", 96.0)})
    assert "drawing_number" not in chosen


def test_a_date_needs_a_month_and_a_day_that_exist() -> None:
    """`80.1/91` (a tolerance misread) has the digits of a date but no month 80 or day 80."""
    assert valid_value("date", "2022-08-26")
    assert valid_value("date", "15.10.2021")
    assert not valid_value("date", "80.1/91")
    assert not valid_value("date", "2022-13-01")


@pytest.mark.slow
def test_failing_cell_calls_degrade_to_the_blocks_own_reading(
    drawings: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every mosaic call of the cell pass fails (injected crash): the block keeps the fields of
    its own pass and says what was lost; a failing second look keeps the first reading."""
    import appliance.vision.titlecells as titlecells
    from appliance.vision.errors import OcrError

    gray = _page(drawings, "halter.jpg")
    real = titlecells.read_row_words
    calls: list[int] = []

    def crash_after(n: int) -> Callable[..., list[list[RawWord]]]:
        def fake(
            rows: list[np.ndarray], settings: VisionSettings, whitelist: str = ""
        ) -> list[list[RawWord]]:
            calls.append(len(rows))
            if len(calls) > n:
                raise OcrError("Tesseract crashed (injected)", code="ocr_crashed")
            return real(rows, settings, whitelist=whitelist)

        return fake

    monkeypatch.setattr(titlecells, "read_row_words", crash_after(0))
    block = read_title_block(gray, VisionSettings())
    assert block is not None
    assert "title-block cells not read: ocr_crashed" in block.warnings
    assert block.fields["drawing_number"] == "Halter1"  # the block's own pass (big-value re-read)

    calls.clear()
    monkeypatch.setattr(titlecells, "read_row_words", crash_after(1))
    cells = [c.box for c in find_cells(gray, 40)]
    rows = titlecells.read_cells(gray, cells, VisionSettings(), is_label=lambda tokens: False)
    assert len(calls) == 2  # the first reading, then the label looks that failed
    assert any(word.text for cell in rows for row in cell for word in row)
