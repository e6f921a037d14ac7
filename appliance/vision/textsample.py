"""Which way a page's text runs, and which of two opposite turns reads a sample of it better.

Orientation detection (Tesseract's OSD) usually finds the axis of a turned drawing but often not
its direction: a page turned 90 degrees is taken for one turned 270, with a low confidence. Two
cheaper, more direct signals settle it:

- **the axis** from the page's word shapes alone (no OCR): letters smudged together into words
  give blobs that are long along the text line; on a drawing most words run along the page's
  reading direction, so when most word blobs stand upright the page is lying on its side;
- **the direction** by reading: a sample of those words is cut out, scaled to one letter height
  and read both ways up (turned by ``a`` and by ``a + 180`` degrees) in one Tesseract call;
  text read the right way up gets far higher confidences than text read upside down.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from appliance.document import Box
from appliance.vision.imageops import binarise, estimate_text_height, long_line_mask
from appliance.vision.mosaic import read_row_words, scaled
from appliance.vision.settings import VisionSettings

#: Longest side of the copy the word shapes are measured on.
SAMPLE_SIDE = 1600
#: Words read per turn when two turns are compared.
SAMPLE_WORDS = 14
#: Letter height the sampled words are read at.
SAMPLE_TEXT_PX = 28

_TURNS = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}


@dataclass(frozen=True)
class WordShapes:
    """Word-shaped blobs of a page, in page pixels."""

    #: Words lying flat (longer than tall).
    flat: list[Box]
    #: Words standing on end (taller than long).
    standing: list[Box]

    @property
    def sideways(self) -> bool:
        """Most words stand on end: the page lies on its side (turned 90 or 270 degrees)."""
        return len(self.standing) >= 5 and len(self.standing) > 2 * len(self.flat)


def word_shapes(gray: np.ndarray) -> WordShapes:
    """Word blobs of a corrected page: letters joined by a closing of half a letter height."""
    height, width = gray.shape
    factor = min(1.0, SAMPLE_SIDE / max(height, width))
    small = (
        cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        if factor < 1
        else gray
    )
    ink = binarise(small)
    letter = estimate_text_height(ink)
    if letter <= 0:
        return WordShapes([], [])
    ink = cv2.bitwise_and(ink, cv2.bitwise_not(long_line_mask(ink, max(20, int(4 * letter)))))
    size = max(2, round(0.5 * letter))
    joined = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    flat, standing = [], []
    for i in range(1, count):
        x, y, w, h, _ = (int(v) for v in stats[i])
        box = Box(x / factor, y / factor, (x + w) / factor, (y + h) / factor)
        # A word: one letter high across, at least three letters along.
        if 0.7 * letter <= h <= 1.8 * letter and w >= 3 * h:
            flat.append(box)
        elif 0.7 * letter <= w <= 1.8 * letter and h >= 3 * w:
            standing.append(box)
    return WordShapes(flat, standing)


def turn_scores(gray: np.ndarray, shapes: WordShapes, settings: VisionSettings) -> dict[int, float]:
    """How well a sample of the page's words reads under each clockwise turn (0, 90, 180, 270):
    flat words read as they lie and upside down, standing words turned either way onto their
    side, all in one Tesseract call. A score is the sum over words read with two or more letters
    or digits of confidence times that count. Raises
    :class:`~appliance.vision.errors.OcrError` when the call fails."""
    plan = [
        (turn, box)
        for words, pair in ((shapes.flat, (0, 180)), (shapes.standing, (90, 270)))
        for box in _longest(words)
        for turn in pair
    ]
    readings = read_row_words([_cut(gray, box, turn) for turn, box in plan], settings)
    scores = dict.fromkeys((0, 90, 180, 270), 0.0)
    for (turn, _), row in zip(plan, readings, strict=True):
        for word in row:
            letters = sum(ch.isalnum() for ch in word.text)
            if letters >= 2:
                scores[turn] += word.conf * letters
    return scores


def _longest(words: list[Box]) -> list[Box]:
    """The :data:`SAMPLE_WORDS` longest words (the most letters to judge by)."""
    return sorted(words, key=lambda b: -max(b.x1 - b.x0, b.y1 - b.y0))[:SAMPLE_WORDS]


def _cut(gray: np.ndarray, box: Box, turn: int) -> np.ndarray:
    """A word cut out with a little paper, turned ``turn`` degrees clockwise, letters at 28 px."""
    thickness = min(box.x1 - box.x0, box.y1 - box.y0)
    pad = max(2, int(0.3 * thickness))
    crop = gray[
        max(0, int(box.y0) - pad) : int(box.y1) + pad, max(0, int(box.x0) - pad) : int(box.x1) + pad
    ]
    if turn % 360:
        crop = cv2.rotate(crop, _TURNS[turn % 360])
    return scaled(crop, SAMPLE_TEXT_PX / max(1.0, thickness))
