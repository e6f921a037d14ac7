"""Title blocks on camera photos: faint ruling lines still close the cells, soft small labels are read.

The photos are made here from the shared drawings the way a 12 MP bench shot looks: the sheet
warped onto a desk, light falling off, the lens's blur, sensor noise and JPEG. Each test compares
the photo mechanism with the plain path on the same image, so it fails when the mechanism stops
making the difference.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.vision import titlegrid
from appliance.vision.page import correct_page
from appliance.vision.settings import VisionSettings
from appliance.vision.titleblock import read_title_block
from appliance.vision.titlecells import cut_row, text_rows


@pytest.fixture(scope="module")
def solidworks_photo_page(shared_data: Path, make_soft_photo) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The corrected page of a soft photo of a SolidWorks drawing (1 px title-block rules)."""
    render = shared_data / "drawings-edocr2" / "derived_pdf_textlayer" / "Aufspannung.300dpi.png"
    page_rgb = cv2.cvtColor(cv2.imread(str(render)), cv2.COLOR_BGR2RGB)
    page = correct_page(make_soft_photo(page_rgb))
    assert page.page_found
    return page.gray


@pytest.fixture(scope="module")
def candle_photo_page(candle_rgb: np.ndarray, make_soft_photo) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The corrected page of a soft photo of Candle_holder.jpg (2 mm labels: SCALE, SHEET)."""
    page = correct_page(make_soft_photo(candle_rgb))
    assert page.page_found
    return page.gray


def _block_cells(gray: np.ndarray) -> list[titlegrid.Cell]:
    found = titlegrid.locate_rows(gray)
    assert found is not None
    box = found[1]
    crop = (int(box.x0), int(box.y0), int(box.x1), int(box.y1))
    return titlegrid.outermost(titlegrid.cells_in(gray, crop))


def test_faint_rules_of_a_photographed_block_close_its_cells(
    solidworks_photo_page: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = len(_block_cells(solidworks_photo_page))
    # At the text's threshold the blurred rules break and the block's cells merge into the paper.
    monkeypatch.setattr(titlegrid, "LINE_OFFSET", 15)
    at_text_threshold = len(_block_cells(solidworks_photo_page))
    assert found >= 20
    assert found > 2 * at_text_threshold


def test_the_photographed_block_gives_its_fields(solidworks_photo_page: np.ndarray) -> None:
    block = read_title_block(solidworks_photo_page, VisionSettings(), photographed=True)
    assert block is not None
    assert block.fields.get("drawing_number") == "Micro_Vu-4.20"
    assert block.fields.get("material") == "PLA"


def test_photographed_rows_keep_the_pale_edges_of_their_strokes(
    candle_photo_page: np.ndarray,
) -> None:
    cells = _block_cells(candle_photo_page)
    rows = text_rows(candle_photo_page, [c.box for c in cells])
    assert rows
    kept_plain = kept_photo = 0
    for row in rows:
        plain, _, _ = cut_row(candle_photo_page, row)
        photo, _, _ = cut_row(candle_photo_page, row, photographed=True)
        kept_plain += int(np.count_nonzero(plain < 128))
        kept_photo += int(np.count_nonzero(photo < 128))
    assert kept_photo > 1.1 * kept_plain


def test_small_labels_of_a_photographed_block_are_read(candle_photo_page: np.ndarray) -> None:
    plain = read_title_block(candle_photo_page, VisionSettings())
    photo = read_title_block(candle_photo_page, VisionSettings(), photographed=True)
    assert plain is not None and photo is not None
    expected = {
        "drawing_number": "2022001",
        "scale": "1:1",
        "sheet": "1 of 1",
        "size": "A4",
        "date": "2022-08-26",
    }
    right_photo = sum(photo.fields.get(k) == v for k, v in expected.items())
    right_plain = sum(plain.fields.get(k) == v for k, v in expected.items())
    assert right_photo >= 4
    assert right_photo > right_plain
