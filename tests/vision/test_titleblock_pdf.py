"""Title blocks of CAD PDFs read from their text layer, placed in the cells of their vector lines."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from appliance.document import DocumentSlice, SliceKind
from appliance.vision.pdftitle import looks_like_drawing, ruling, title_block_slices


@pytest.fixture(scope="module")
def pdfs(shared_data: Path) -> Path:
    """The three SolidWorks exports of the eDOCr2 set (read in place)."""
    return shared_data / "drawings-edocr2"


def _first_page_slices(path: Path) -> list[DocumentSlice]:
    with pymupdf.open(path) as doc:
        return title_block_slices(doc[0], 1)


def test_labels_listed_apart_from_their_values_are_joined_by_cell(pdfs: Path) -> None:
    """The text layer lists "MATERIAL:" ... "PLA" far apart; in the cells they are together."""
    (block,) = _first_page_slices(pdfs / "Aufspannung.PDF")
    assert block.kind is SliceKind.TITLE_BLOCK
    assert block.extra["title_block"] == {
        "drawing_number": "Micro_Vu-4.20",
        "title": "Micro-Vu Turm Halter",
        "material": "PLA",
        "scale": "2:1",
        "sheet": "1 OF 1",
        "size": "A4",
    }
    assert block.drawing_number == "Micro_Vu-4.20"
    assert "Material: PLA" in block.text
    # Each value's box, in PDF points, inside the block's.
    assert block.box is not None
    for x0, y0, x1, y1 in block.extra["field_boxes"].values():
        assert block.box.x0 <= x0 < x1 <= block.box.x1 and block.box.y0 <= y0 < y1 <= block.box.y1


def test_a_number_lettered_across_its_cells_border(pdfs: Path) -> None:
    """ "Aufspannung_Ecken" runs over the size cell's border: the cells come from the vector lines
    alone, so the size cell stays a cell of its own."""
    (block,) = _first_page_slices(pdfs / "Aufspannung_Ecke.PDF")
    fields = block.extra["title_block"]
    assert fields["drawing_number"] == "Aufspannung_Ecken"
    assert fields["size"] == "A4"
    assert "title" not in fields  # the TITLE cell is empty on this drawing


def test_a_text_page_is_not_searched_for_a_title_block(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "The bracket takes 25 N m. Check the torque after a week.")
    assert title_block_slices(page, 1) == []
    assert not looks_like_drawing(["The", "bracket", "takes", "25", "N", "m"])
    assert looks_like_drawing(["SCALE:", "1:2", "MATERIAL:", "PLA"])
    # The ruling of a page without lines is blank paper.
    assert ruling(page, 1.0).min() == 255
    doc.close()
