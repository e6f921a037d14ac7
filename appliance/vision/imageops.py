"""Image operations on a page's grey or ink image that the OCR and the quality gate share.

Ink images are ``uint8`` with ink as 255 on 0 (:func:`binarise`). Everything here is pure OpenCV and
numpy: no Tesseract, no settings.
"""

from __future__ import annotations

import cv2
import numpy as np


def binarise(gray: np.ndarray, offset: int = 15) -> np.ndarray:
    """Ink as 255 on 0, tolerant of uneven light (adaptive threshold over ~1/40 of the page).

    A pixel is ink when it is ``offset`` grey levels darker than its neighbourhood: a smaller
    offset keeps fainter strokes (and more paper grain).
    """
    block = max(15, (min(gray.shape[:2]) // 60) | 1)
    return cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY_INV, block, offset
    )


def estimate_text_height(ink: np.ndarray) -> float:
    """Median height of blobs shaped like characters; 0 when the page has none."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count <= 1:
        return 0.0
    heights = stats[1:, cv2.CC_STAT_HEIGHT]
    widths = stats[1:, cv2.CC_STAT_WIDTH]
    areas = stats[1:, cv2.CC_STAT_AREA]
    fill = areas / np.maximum(1, heights * widths)
    chars = (
        (heights >= 6) & (heights <= 300) & (widths <= heights * 1.6) & (widths >= 2) & (fill > 0.1)
    )
    if chars.sum() < 8:
        return 0.0
    return float(np.median(heights[chars]))


def long_line_mask(ink: np.ndarray, min_length: int) -> np.ndarray:
    """Horizontal and vertical strokes at least ``min_length`` long (borders, tables, dimension lines)."""
    horizontal = cv2.getStructuringElement(cv2.MORPH_RECT, (min_length, 1))
    vertical = cv2.getStructuringElement(cv2.MORPH_RECT, (1, min_length))
    return cv2.bitwise_or(
        cv2.morphologyEx(ink, cv2.MORPH_OPEN, horizontal),
        cv2.morphologyEx(ink, cv2.MORPH_OPEN, vertical),
    )


def drop_non_text(ink: np.ndarray, text_height: float) -> np.ndarray:
    """Remove blobs no character makes: arcs and circles (large, thin) and shapes far taller than text.

    Tesseract's sparse-text mode otherwise glues the pieces of a drawing's geometry to the nearest
    dimension and reads the lot as one garbled line.
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count <= 1:
        return ink
    widths = stats[:, cv2.CC_STAT_WIDTH].astype(np.float64)
    heights = stats[:, cv2.CC_STAT_HEIGHT].astype(np.float64)
    fill = stats[:, cv2.CC_STAT_AREA] / np.maximum(1.0, widths * heights)
    extent = np.maximum(widths, heights)
    drop = (heights > 4.0 * text_height) | ((extent > 2.5 * text_height) & (fill < 0.12))
    drop[0] = False
    if not drop.any():
        return ink
    return np.where(drop[labels], 0, ink).astype(np.uint8)
