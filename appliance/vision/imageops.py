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


#: Paper around a stroke is found by a grey dilation this wide (pixels, square): wider than a
#: stroke of small print, so the dilated image is the paper next to the ink.
PAPER_REACH_PX = 11


def stroke_depth(gray: np.ndarray) -> np.ndarray:
    """How many grey levels each pixel lies below the paper around it (0 on the paper itself).

    The paper level is the brightest grey within :data:`PAPER_REACH_PX`, smoothed: unlike the
    neighbourhood mean that :func:`binarise` compares with, it does not sink where print is dense.
    """
    paper = cv2.GaussianBlur(
        cv2.dilate(gray, np.ones((PAPER_REACH_PX, PAPER_REACH_PX), np.uint8)), (0, 0), 5
    )
    return cv2.subtract(paper, gray)


def stroke_contrast(gray: np.ndarray, depth: np.ndarray | None = None) -> float:
    """The page's print contrast: the median, over character-shaped blobs, of a blob's darkest depth.

    Grey levels between the paper and the core of a typical letter (about 230 on a crisp render,
    120-190 on a soft or pale camera shot); 0 when the page has too few letter-shaped blobs.
    """
    if depth is None:
        depth = stroke_depth(gray)
    ink = binarise(gray)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count <= 1:
        return 0.0
    darkest = np.zeros(count, np.int32)
    np.maximum.at(darkest, labels.ravel().astype(np.intp), depth.ravel())
    heights = stats[1:, cv2.CC_STAT_HEIGHT]
    widths = stats[1:, cv2.CC_STAT_WIDTH]
    chars = (heights >= 6) & (heights <= 60) & (widths <= heights * 1.6)
    if chars.sum() < 8:
        return 0.0
    return float(np.median(darkest[1:][chars]))


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
