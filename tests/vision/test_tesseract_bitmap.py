"""A black-and-white page goes to Tesseract as a 1-bit bitmap, except when that bitmap's first byte
is one Leptonica's PNM reader takes for white space: then Tesseract exited with a read error and
the page went unread (a speck of ink in the top row's first eight pixels was enough)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import run_tesseract


@pytest.mark.parametrize("first_byte", [0x00, 0x09, 0x0A, 0x20, 0x23])
def test_a_page_with_specks_in_its_top_row_is_read(first_byte: int) -> None:
    page = np.full((200, 600), 255, np.uint8)
    cv2.putText(page, "HELLO 123", (20, 120), cv2.FONT_HERSHEY_SIMPLEX, 2, 0, 4)
    for bit in range(8):
        if first_byte & (0x80 >> bit):
            page[0, bit] = 0  # black pixels are the 1 bits of a PBM raster
    words = run_tesseract(page, psm=6, settings=VisionSettings())
    assert [w.text for w in words] == ["HELLO", "123"]
