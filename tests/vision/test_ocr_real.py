"""Real Tesseract on real drawings: title blocks, dimensions, vertical text, boxes in source coordinates."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.config import Config, load_config
from appliance.document import Box, SliceKind, SourceDocument
from appliance.vision.analysis import analyse_image
from appliance.vision.ingest import ingest_image, ocr_page_image
from appliance.vision.page import map_box

pytestmark = pytest.mark.slow  # real Tesseract on full drawings


def _overlap(a: Box, b: Box) -> float:
    """Intersection over the smaller box."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0))


@pytest.fixture(scope="module")
def candle_doc(
    drawings: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[SourceDocument, Config]:
    config = load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path_factory.mktemp("data"))})
    doc = ingest_image(
        drawings / "Candle_holder.jpg", namespace="shop", source="Candle_holder.jpg", config=config
    )
    return doc, config


def test_title_block_fields(candle_doc: tuple[SourceDocument, Config]) -> None:
    doc, _ = candle_doc
    fields = doc.extra["title_block"]
    assert fields["drawing_number"] == "2022001"
    assert fields["date"] == "2022-08-26"
    assert fields["scale"] == "1:1"
    assert fields["size"] == "A4"
    assert fields["sheet"] == "1 of 1"
    title_slices = [s for s in doc.slices if s.kind is SliceKind.TITLE_BLOCK]
    assert len(title_slices) == 1
    assert title_slices[0].extra["title_block"] == fields
    # The title block sits in the bottom right of the sheet (1653 x 2339 pixels).
    box = title_slices[0].box
    assert box is not None and box.y0 > 1800 and box.x1 > 1400


def test_every_slice_carries_the_drawing_number(candle_doc: tuple[SourceDocument, Config]) -> None:
    doc, _ = candle_doc
    assert doc.slices
    assert {s.drawing_number for s in doc.slices} == {"2022001"}
    assert {s.page for s in doc.slices} == {1}


def test_source_identity_and_artifacts(
    candle_doc: tuple[SourceDocument, Config], drawings: Path
) -> None:
    doc, config = candle_doc
    assert (
        doc.content_hash
        == hashlib.sha256((drawings / "Candle_holder.jpg").read_bytes()).hexdigest()
    )
    assert doc.media_type == "image/jpeg"
    assert doc.namespace == "shop"
    artifacts = doc.extra["artifacts"]
    assert artifacts["corrected"].startswith(f"artifacts/{doc.content_hash[:16]}/")
    corrected = cv2.imread(
        str(config.paths.data_dir / artifacts["corrected"]), cv2.IMREAD_GRAYSCALE
    )
    thumbnail = cv2.imread(str(config.paths.data_dir / artifacts["thumbnail"]))
    assert corrected is not None and corrected.shape == (2339, 1653)
    assert thumbnail is not None and max(thumbnail.shape[:2]) == config.vision.thumbnail_px
    json.dumps(doc.extra)  # everything stored must be JSON


def test_dimensions_with_boxes_in_image_pixels(candle_doc: tuple[SourceDocument, Config]) -> None:
    doc, _ = candle_doc
    dims = {s.text: s for s in doc.slices if s.kind is SliceKind.DIMENSION}
    # Ground truth from Candle_holder.csv: "⌀42" at (130,459)-(205,493).
    assert "⌀42" in dims
    assert _overlap(dims["⌀42"].box, Box(130, 459, 205, 493)) > 0.5  # type: ignore[arg-type]


def test_vertical_dimension_is_read_from_the_turned_page(
    candle_doc: tuple[SourceDocument, Config],
) -> None:
    doc, _ = candle_doc
    # "1x45°" is written bottom-to-top at (703,793)-(739,892) in Candle_holder.csv.
    vertical = [s for s in doc.slices if s.extra.get("vertical") and "45°" in s.text]
    assert vertical, [s.text for s in doc.slices if s.kind is SliceKind.DIMENSION]
    assert any(_overlap(s.box, Box(703, 793, 739, 892)) > 0.5 for s in vertical)  # type: ignore[arg-type]


def test_photo_boxes_map_back_to_the_photo(
    candle_rgb: np.ndarray, make_photo, config: Config
) -> None:  # type: ignore[no-untyped-def]
    photo, page_to_photo = make_photo(candle_rgb)
    analysis = analyse_image(photo, config.vision, strict=True)
    assert analysis.page.page_found
    assert analysis.fields.get("drawing_number") == "2022001"
    expected = map_box(Box(130, 459, 205, 493), page_to_photo)
    # The text may come out as "⌀42" or "M42" from a photo; where it lies is what is tested here.
    found = [s for s in analysis.slices if s.text.endswith("42") and s.box is not None]
    assert found, [s.text for s in analysis.slices]
    assert max(_overlap(s.box, expected) for s in found) > 0.4  # type: ignore[arg-type]


def test_scanned_pdf_page_boxes_are_in_points(shared_data: Path, config: Config) -> None:
    folder = shared_data / "drawings-edocr2" / "derived_pdf_textlayer"
    render = cv2.cvtColor(cv2.imread(str(folder / "Aufspannung.300dpi.png")), cv2.COLOR_BGR2RGB)
    slices = ocr_page_image(render, page=3, config=config, scale=300 / 72)
    assert slices and {s.page for s in slices} == {3}
    words = json.loads((folder / "Aufspannung.words.json").read_text())["words"]
    truth = next(w for w in words if w["text"] == "60.00")
    hit = next(s for s in slices if "60.00" in s.text)
    assert _overlap(hit.box, Box(truth["x0"], truth["y0"], truth["x1"], truth["y1"])) > 0.5  # type: ignore[arg-type]
    title = next(s for s in slices if s.kind is SliceKind.TITLE_BLOCK)
    assert title.extra["title_block"].get("material") == "PLA"


def test_blank_pdf_render_gives_no_slices(config: Config) -> None:
    white = np.full((3508, 2481, 3), 255, np.uint8)
    assert ocr_page_image(white, page=1, config=config, scale=300 / 72) == []


def test_service_sample_drawings_title_blocks(config: Config) -> None:
    """The demo drawings the service generates: number, one-letter revision and N·m notes are read."""
    from appliance.service import samples

    for sample in samples.SAMPLES:
        page = np.asarray(samples.draw_sample(sample).convert("RGB"))
        analysis = analyse_image(page, config.vision, strict=False)
        assert analysis.fields.get("drawing_number") == sample.number
        assert analysis.fields.get("revision") == sample.revision
        assert {s.revision for s in analysis.slices} == {sample.revision}
        notes = " ".join(s.text for s in analysis.slices if s.kind is SliceKind.NOTE)
        assert "N·m" in notes


def test_slanted_dimension_is_read(drawings: Path) -> None:
    """Gripper's "⌀68.50" is written at about 20 degrees in a box: the leftover pass reads the number."""
    from appliance.vision.ocr import read_page
    from appliance.vision.settings import VisionSettings

    gray = cv2.imread(str(drawings / "Gripper.jpg"), cv2.IMREAD_GRAYSCALE)
    page = read_page(gray, VisionSettings())
    slanted = [
        line for line in page.lines if line.source_pass == "slanted" and "68.50" in line.text
    ]
    assert slanted, [line.text for line in page.lines]
    assert _overlap(slanted[0].box, Box(1369, 894, 1548, 1007)) > 0.5


def test_a_black_and_white_page_goes_to_tesseract_as_a_bitmap_and_reads_the_same() -> None:
    """The prepared page (only 0 and 255) is handed over 1-bit, which spares Tesseract its own
    thresholding; the words, boxes and confidences must be those of the same page sent as grey."""
    from appliance.vision.tesseract import _uncompressed, run_tesseract

    page = np.full((220, 900), 255, np.uint8)
    cv2.putText(page, "SHAFT 2x 16.50 +0.1", (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.4, 0, 3)
    cv2.putText(page, "MATERIAL S355", (20, 170), cv2.FONT_HERSHEY_SIMPLEX, 1.4, 0, 3)
    page = np.where(page < 128, 0, 255).astype(np.uint8)
    grey = page.copy()
    grey[0, 0] = 254  # one grey pixel: sent as an 8-bit image, thresholded by Tesseract
    assert _uncompressed(page).mode == "1"
    assert _uncompressed(grey).mode == "L"
    settings = Config().vision
    as_bitmap = run_tesseract(page, psm=11, settings=settings)
    as_grey = run_tesseract(grey, psm=11, settings=settings)
    assert [w.text for w in as_bitmap] == [w.text for w in as_grey]
    assert "MATERIAL" in [w.text for w in as_bitmap]
    assert as_bitmap == as_grey
