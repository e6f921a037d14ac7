"""Small crops read in one Tesseract call: cut, scaled to one letter height, stacked as lines.

Tesseract's fixed cost per call (program start, model load) is larger than reading a few words,
so passes that re-read many small regions (tolerance stacks, unsure words) lay them one under the
other on white paper and read the whole image once (psm 6, a block of lines); each word read is
given back to the row its middle falls in.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from appliance.document import Box
from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import RawWord, run_tesseract

#: Letter height the rows are scaled to (Tesseract's sweet spot); also the paper between rows.
ROW_HEIGHT = 32

#: One word read in a row: (left edge in the mosaic, text, confidence).
RowWord = tuple[int, str, float]


def scaled(image: np.ndarray, scale: float) -> np.ndarray:
    """The image resized by ``scale`` (cubic when enlarging, area averaging when shrinking)."""
    interpolation = cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=interpolation)


def padded_crop(image: np.ndarray, box: Box) -> np.ndarray:
    """The box with a quarter of its height of paper around it (clipped at the image's edge)."""
    pad = max(2, int(0.25 * (box.y1 - box.y0)))
    return image[
        max(0, int(box.y0) - pad) : int(box.y1) + pad, max(0, int(box.x0) - pad) : int(box.x1) + pad
    ]


def cut_row(image: np.ndarray, box: Box, height: int = ROW_HEIGHT) -> np.ndarray:
    """The box with a quarter of its height of paper around it, scaled to ``height`` pixels."""
    crop = padded_crop(image, box)
    scale = height / max(1.0, box.y1 - box.y0)
    return scaled(crop, scale) if abs(scale - 1) > 0.1 else crop


def read_rows(
    rows: list[np.ndarray], settings: VisionSettings, *, whitelist: str = ""
) -> list[list[RowWord]]:
    """The words of each row image (black text on white), left to right, from one call."""
    return [
        sorted((word.left, word.text, word.conf) for word in row_words)
        for row_words in read_row_words(rows, settings, whitelist=whitelist)
    ]


def read_row_words(
    rows: list[np.ndarray], settings: VisionSettings, *, whitelist: str = ""
) -> list[list[RawWord]]:
    """Tesseract's words of each row image, boxes in the row image's own pixels, from one call."""
    if not rows:
        return []
    gap = ROW_HEIGHT
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
    words = run_tesseract(np.vstack(parts), psm=6, settings=settings, whitelist=whitelist)
    found: list[list[RawWord]] = [[] for _ in rows]
    for word in words:
        middle = word.top + word.height / 2
        for index, (start, end) in enumerate(spans):
            if start - gap / 2 <= middle <= end + gap / 2:
                found[index].append(
                    dataclasses.replace(word, left=word.left - gap, top=word.top - start)
                )
                break
    return found
