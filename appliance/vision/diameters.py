"""Diameter signs Tesseract read as a digit or a letter, recognised by their shape.

Tesseract's English model has never seen ``⌀`` and reads it as whatever it resembles: ``9`` ("⌀25 h6"
read ``925 h6``), ``G``, ``Q`` or ``B``. From the text alone "925" and "9.500" are plausible numbers;
the ink is not ambiguous. A diameter sign is a ring crossed by a stroke from its lower left to its
upper right corner, so the line between those two corners of the glyph's box runs on ink all the way,
while the opposite diagonal crosses the empty inside of the ring. A ``9`` or a ``G`` leaves the rising
diagonal in their empty bowl; a ``B`` (and an ``8``) are inked along both diagonals.
"""

from __future__ import annotations

import re

import cv2
import numpy as np

from appliance.document import Box
from appliance.vision.symbols import DIAMETER

#: Letters OCR reads for digits of the same shape ("BAO" for "⌀40").
_DIGIT_SHAPES = str.maketrans(
    {"A": "4", "O": "0", "o": "0", "S": "5", "Z": "2", "l": "1", "I": "1"}
)
#: First characters a diameter sign is read as (a leading 0, @ or O is mended from the text alone).
MISREAD_AS = frozenset("9GQB6")
#: Share of the rising diagonal that must be ink (after a one-pixel widening, for photos' blur): all
#: of it. A diameter sign measured 1.0 in every font, size and photo tried; a 9, G or 6 at most 0.975.
_RISING_INK = 0.99
#: Most of the falling diagonal that may be ink: the ring's empty inside must show (a bold ring of
#: 15 pixels measures 0.83, a bold ``B`` 0.95 and more).
_FALLING_INK = 0.9
#: Least of the falling diagonal a ``B`` inks (its bowls are narrow; a ring's inside is wide: a
#: diameter sign whose stroke stops short of the corners measures 0.40 there).
_B_FALLING_INK = 0.6
#: Points sampled along each diagonal, away from the very corners (rounded on a glyph).
_SAMPLES = np.linspace(0.05, 0.95, 40)


def diagonal_ink(glyph: np.ndarray) -> tuple[float, float]:
    """Shares of ink along the rising and the falling diagonal of ``glyph`` (ink > 0, one shape)."""
    h, w = glyph.shape
    ink = cv2.dilate((glyph > 0).astype(np.uint8), np.ones((3, 3), np.uint8))
    rising = float(np.mean([ink[int((1 - t) * (h - 1)), int(t * (w - 1))] for t in _SAMPLES]))
    falling = float(np.mean([ink[int(t * (h - 1)), int(t * (w - 1))] for t in _SAMPLES]))
    return rising, falling


def is_diameter_sign(glyph: np.ndarray) -> bool:
    """True when ``glyph`` (ink > 0, cropped to one connected shape) looks like ``⌀``."""
    h, w = glyph.shape
    if h < 8 or w < 5:
        return False  # too few pixels to tell a ring from a digit
    rising, falling = diagonal_ink(glyph)
    return rising >= _RISING_INK and falling < _FALLING_INK


def is_letter_b(glyph: np.ndarray) -> bool:
    """True when ``glyph`` is inked along its falling diagonal too: a ``B``, not a ring."""
    h, w = glyph.shape
    if h < 8 or w < 5:
        return False
    rising, falling = diagonal_ink(glyph)
    return falling >= _B_FALLING_INK and not (rising >= _RISING_INK and falling < _FALLING_INK)


def first_glyph(ink: np.ndarray, box: Box) -> np.ndarray | None:
    """The leftmost tall connected shape inside ``box`` of ``ink`` (255 on 0), or None."""
    x0, y0 = max(0, int(box.x0)), max(0, int(box.y0))
    x1, y1 = min(ink.shape[1], int(box.x1) + 1), min(ink.shape[0], int(box.y1) + 1)
    if x1 - x0 < 3 or y1 - y0 < 8:
        return None
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink[y0:y1, x0:x1], connectivity=8)
    # A shape at least half the word's height: a character, not a speck or a point.
    tall = [i for i in range(1, count) if stats[i][3] >= 0.5 * (y1 - y0)]
    if not tall:
        return None
    first = min(tall, key=lambda i: stats[i][0])
    bx, by, bw, bh = (int(v) for v in stats[first][:4])
    return (labels[by : by + bh, bx : bx + bw] == first).astype(np.uint8) * 255


def mend_leading_diameter(ink: np.ndarray, text: str, raw_text: str, box: Box) -> str:
    """``text`` with its first character turned into ``⌀`` when the ink there is one.

    Only a word whose first character is one a diameter sign is misread as, followed by a number
    ("925", "G68", "9.500", "Q5.5"), is looked at. The other way round, a ``B`` the text rules took
    for a diameter sign ("B2" of a hole table read "⌀2") is given back when its ink is a ``B``.
    """
    if text.startswith(DIAMETER) and raw_text.startswith("B") and len(text) > 1:
        glyph = first_glyph(ink, box)
        return "B" + text[1:] if glyph is not None and is_letter_b(glyph) else text
    if len(text) < 2 or text[0] not in MISREAD_AS:
        return text
    rest = text[1:]
    if not (rest[0].isdigit() or rest[0] in ".,"):
        # "BAO" for "⌀40": after a sign the ink confirms, letters shaped like digits are digits.
        number = rest.translate(_DIGIT_SHAPES)
        if not re.fullmatch(r"\d+(?:[.,]\d+)?", number):
            return text
        rest = number
    glyph = first_glyph(ink, box)
    if glyph is None or not is_diameter_sign(glyph):
        return text
    return DIAMETER + rest
