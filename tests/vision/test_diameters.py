"""Diameter signs told from digits and letters by their ink, on glyphs drawn with real fonts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from appliance.document import Box
from appliance.vision.diameters import first_glyph, is_diameter_sign, mend_leading_diameter

_FONTS = Path("/usr/share/fonts/truetype/dejavu")


def _ink(text: str, font: str = "DejaVuSans.ttf", size: int = 40) -> tuple[np.ndarray, Box]:
    """``text`` drawn black on white, returned as ink (255 on 0, thresholded as a prepared page
    is) with the box of its ink."""
    face = ImageFont.truetype(str(_FONTS / font), size)
    image = Image.new("L", (20 + size * len(text), 2 * size), 255)
    ImageDraw.Draw(image).text((10, size // 3), text, font=face, fill=0)
    ink = np.where(np.asarray(image) < 128, 255, 0).astype(np.uint8)
    ys, xs = np.nonzero(ink)
    return ink, Box(float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf"])
@pytest.mark.parametrize("size", [28, 40, 56])
def test_a_diameter_sign_is_told_from_the_characters_it_is_misread_as(font: str, size: int) -> None:
    for text, is_sign in (("Ø", True), ("9", False), ("G", False), ("B", False), ("6", False)):
        ink, box = _ink(text, font, size)
        glyph = first_glyph(ink, box)
        assert glyph is not None
        assert is_diameter_sign(glyph) is is_sign, (font, text)


def test_a_misread_diameter_is_mended_and_a_number_is_not() -> None:
    ink, box = _ink("Ø25 h6")
    assert mend_leading_diameter(ink, "925", "925", box) == "⌀25"
    ink, box = _ink("Ø.500")
    assert mend_leading_diameter(ink, "9.500", "9.500", box) == "⌀.500"
    # A real 9 and a real G stay: the ink decides, not the text.
    ink, box = _ink("925")
    assert mend_leading_diameter(ink, "925", "925", box) == "925"
    ink, box = _ink("G1/4")
    assert mend_leading_diameter(ink, "G1/4", "G1/4", box) == "G1/4"
    # Words that cannot hide a diameter are not looked at.
    ink, box = _ink("Ø")
    assert mend_leading_diameter(ink, "GB", "GB", box) == "GB"


def test_a_hole_tag_b_taken_for_a_diameter_is_given_back() -> None:
    ink, box = _ink("B2")
    assert mend_leading_diameter(ink, "⌀2", "B2", box) == "B2"
    ink, box = _ink("Ø15")
    assert mend_leading_diameter(ink, "⌀15", "B15", box) == "⌀15"


def test_the_pass_mends_the_words_of_a_prepared_page() -> None:
    from appliance.config import load_config
    from appliance.vision.ocr import prepare
    from appliance.vision.ocrlines import OcrLine, OcrWord
    from appliance.vision.ocrpasses import with_diameter_signs_mended

    face = ImageFont.truetype(str(_FONTS / "DejaVuSans.ttf"), 40)
    page = Image.new("L", (900, 300), 255)
    draw = ImageDraw.Draw(page)
    spots = {"Ø25": (100, 100), "B2": (500, 100), "925": (100, 200)}
    for text, origin in spots.items():
        draw.text(origin, text, font=face, fill=0)
    gray = np.asarray(page)
    prepared = prepare(gray, load_config().vision)

    def word(drawn: str, read: str, raw: str, vertical: bool = False) -> OcrLine:
        x, y = spots[drawn]
        ys, xs = np.nonzero(gray[y : y + 60, x : x + 200] < 128)
        box = Box(x + xs.min(), y + ys.min(), x + xs.max() + 1.0, y + ys.max() + 1.0)
        # Word boxes are in the coordinates of the page given to the reader, not the prepared one.
        box = Box(*(v / prepared.scale for v in (box.x0, box.y0, box.x1, box.y1)))
        ocr_word = OcrWord(text=read, raw_text=raw, conf=80, box=box, vertical=vertical)
        return OcrLine(words=(ocr_word,), block=1, source_pass="upright")

    lines = [word("Ø25", "925", "925"), word("B2", "⌀2", "B2"), word("925", "925", "925")]
    mended = with_diameter_signs_mended(prepared, lines)
    assert [line.text for line in mended] == ["⌀25", "B2", "925"]
    # A word read on its side is not looked at (its box is of the turned page).
    turned = with_diameter_signs_mended(prepared, [word("Ø25", "925", "925", vertical=True)])
    assert turned[0].text == "925"


def test_letters_after_a_confirmed_diameter_sign_are_digits() -> None:
    ink, box = _ink("Ø40 g6")
    assert mend_leading_diameter(ink, "BAO", "BAO", box) == "⌀40"
    ink, box = _ink("BAO")  # a word that is one: the B is no ring
    assert mend_leading_diameter(ink, "BAO", "BAO", box) == "BAO"
    ink, box = _ink("GAP")
    assert mend_leading_diameter(ink, "GAP", "GAP", box) == "GAP"
