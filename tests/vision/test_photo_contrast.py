"""A photographed page's print is cut at a threshold set by the page's own print contrast.

The pages are drawn here and then made to look like a bench camera shot: blurred (sigma 1.2 px),
given sensor noise and saved as JPEG 80. Each test compares the photographed path with the usual
one on the same image, so it fails when the contrast threshold stops making the difference.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from appliance.vision.imageops import stroke_contrast
from appliance.vision.ocr import prepare, read_page
from appliance.vision.settings import VisionSettings

_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"


def _shot(image: Image.Image) -> np.ndarray:
    """The drawn page (grey) as a soft camera shot."""
    page = cv2.GaussianBlur(np.asarray(image, np.float32), (0, 0), 1.2)
    page += np.random.default_rng(3).normal(0, 4.0, page.shape).astype(np.float32)
    ok, data = cv2.imencode(
        ".jpg", np.clip(page, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 80]
    )
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)


def _notes_page(small_ink: int, title_ink: int = 20) -> np.ndarray:
    """A frame, a title and two lines of small print (12 px letters) in grey ``small_ink``."""
    image = Image.new("L", (1400, 500), 235)
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, 1390, 490), outline=20, width=3)
    draw.text((40, 40), "SECTION A-A 2:1", font=ImageFont.truetype(_FONT, 40), fill=title_ink)
    small = ImageFont.truetype(_FONT, 12)
    draw.text((40, 200), "BREAK ALL SHARP EDGES AND REMOVE BURRS", font=small, fill=small_ink)
    draw.text((40, 300), "DIMENSIONS ARE IN MILLIMETERS", font=small, fill=small_ink)
    return _shot(image)


#: Rows of the drawn hole table: (y of the rule above the row, the row's cells).
_ROWS = (
    (100, ("A1", "0.266 THRU", "4.625", "0.500")),
    (150, ("B1", "3/8-16 UNC", "1.500", "1.750")),
    (200, ("B2", "3/8-16 UNC", "3.750", "1.750")),
)
_RULES_Y = (100, 150, 200, 250)


def _table_page() -> np.ndarray:
    """A hole table ruled with 1 px lines, its text close under each rule."""
    image = Image.new("L", (1400, 600), 235)
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, 1390, 590), outline=20, width=3)
    for y in _RULES_Y:
        draw.line((100, y, 1200, y), fill=40, width=1)
    for x in (100, 250, 600, 900, 1200):
        draw.line((x, _RULES_Y[0], x, _RULES_Y[-1]), fill=40, width=1)
    font = ImageFont.truetype(_MONO, 26)
    for y, cells in _ROWS:
        for x, text in zip((110, 260, 610, 910), cells, strict=True):
            draw.text((x, y + 12), text, font=font, fill=20)
    draw.text((100, 400), "SECTION A-A 2:1", font=ImageFont.truetype(_MONO, 40), fill=20)
    return _shot(image)


@pytest.fixture(scope="module")
def pale_notes() -> np.ndarray:
    return _notes_page(90)


def _text(gray: np.ndarray, *, photographed: bool) -> str:
    page = read_page(gray, VisionSettings(), layout="drawing", photographed=photographed)
    return " ".join(line.text for line in page.lines)


def test_pale_small_print_of_a_photo_is_read_at_the_contrast_threshold(
    pale_notes: np.ndarray,
) -> None:
    usual = _text(pale_notes, photographed=False)
    photo = _text(pale_notes, photographed=True)
    assert "SECTION" in usual  # the dark title is read either way
    assert "SHARP" not in usual and "BURRS" not in usual
    assert "SHARP" in photo and "BURRS" in photo


def test_print_contrast_is_the_depth_of_the_page_letters() -> None:
    dark = stroke_contrast(_notes_page(20))
    pale = stroke_contrast(_notes_page(130, title_ink=130))
    assert dark > 100
    assert pale < 0.7 * dark
    assert stroke_contrast(np.full((400, 400), 235, np.uint8)) == 0.0  # no letters: no contrast


def test_the_thin_rules_of_a_photographed_table_leave_no_dashes_under_its_text() -> None:
    gray = _table_page()
    prepared = prepare(gray, VisionSettings(), photographed=True)
    assert prepared.scale == 1.0
    ink = prepared.image < 128
    # At the contrast threshold a blurred 1 px rule breaks into dashes too short to be found as a
    # line; the rules are found in the usual ink, so nothing of them is left for Tesseract.
    on_rules = sum(int(ink[y - 1 : y + 2, 100:1200].sum()) for y in _RULES_Y)
    assert on_rules < 50
    text = " ".join(w.text for w in read_page(gray, VisionSettings(), photographed=True).lines)
    assert "3.750" in text and "3/8-16 UNC" in text
