"""Unsure words read again on their own.

Tesseract's sparse-text mode puts neighbouring ink on one line and judges the letters of a word
against that line's height: a small label beside a large border letter or a zone mark (``MFG``
beside a margin's ``A``) is read against the wrong x-height and comes out as junk with a low
confidence. Cut out alone, with a little paper around it and scaled to the height Tesseract reads
best, the same ink is usually read right. All such words of a page are laid one under the other
in one image and read in one Tesseract call (psm 6, a block of lines), so the pass costs one
small call however many words it checks.
"""

from __future__ import annotations

import cv2
import numpy as np

from appliance.index.slices import Box
from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import run_tesseract

#: Most words read again per page (keeps the mosaic and the time bounded on a noisy page).
MAX_WORDS = 40
#: Letter height the words are scaled to (Tesseract's sweet spot).
_ROW_HEIGHT = 32


def read_alone(
    image: np.ndarray, boxes: list[Box], settings: VisionSettings
) -> list[tuple[str, float]]:
    """The reading of each box of ``image`` (black text on white) cut out alone: (text, confidence).

    Words Tesseract splits a box into are joined with a space and their confidence is the lowest
    of them; a box it reads nothing in gives ``("", 0.0)``.
    """
    boxes = boxes[:MAX_WORDS]
    if not boxes:
        return []
    rows = [_cut(image, box) for box in boxes]
    gap = _ROW_HEIGHT
    width = max(r.shape[1] for r in rows) + 2 * gap
    parts = [np.full((gap, width), 255, np.uint8)]
    spans = []
    top = gap
    for row in rows:
        band = np.full((row.shape[0] + gap, width), 255, np.uint8)
        band[: row.shape[0], gap : gap + row.shape[1]] = row
        parts.append(band)
        spans.append((top, top + row.shape[0]))
        top += band.shape[0]
    words = run_tesseract(np.vstack(parts), psm=6, settings=settings)
    found: list[list[tuple[int, str, float]]] = [[] for _ in rows]
    for word in words:
        middle = word.top + word.height / 2
        for index, (start, end) in enumerate(spans):
            if start - gap / 2 <= middle <= end + gap / 2:
                found[index].append((word.left, word.text, word.conf))
                break
    result = []
    for row_words in found:
        row_words.sort()
        if not row_words:
            result.append(("", 0.0))
            continue
        result.append((" ".join(t for _, t, _ in row_words), min(c for _, _, c in row_words)))
    return result


def _cut(image: np.ndarray, box: Box) -> np.ndarray:
    """The box with a quarter of its height of paper around it, scaled to ``_ROW_HEIGHT``."""
    pad = max(2, int(0.25 * (box.y1 - box.y0)))
    crop = image[
        max(0, int(box.y0) - pad) : int(box.y1) + pad, max(0, int(box.x0) - pad) : int(box.x1) + pad
    ]
    scale = _ROW_HEIGHT / max(1.0, box.y1 - box.y0)
    if abs(scale - 1) > 0.1:
        interpolation = cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA
        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=interpolation)
    return crop
