"""Finding the sheet in a photo and making it flat, straight and evenly lit.

The steps, each cheap enough for a Raspberry Pi: find the sheet as the largest bright quadrilateral
(a page photographed on a bench), warp it to a rectangle, correct the remaining skew from the
horizontal structure of the page, and divide out uneven light. The transform from the corrected page
back to the original photo is kept, so every OCR box can be reported in the photo's own pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from appliance.document import Box

#: Long side of the working copy used to find the page and measure skew.
WORK_PX = 1000


@dataclass(frozen=True)
class CorrectedPage:
    """A page ready for OCR and the way back to the original image."""

    #: Flattened, deskewed, evenly lit greyscale page.
    gray: np.ndarray
    #: 3x3 matrix mapping corrected-page pixels to original-image pixels.
    to_original: np.ndarray
    #: True when a sheet edge was found and the page was warped to it.
    page_found: bool
    #: Corners of the sheet in the original image (tl, tr, br, bl), or None when not found.
    quad: np.ndarray | None
    #: Skew removed after flattening, in degrees (positive = counter-clockwise).
    skew_deg: float
    #: Share of the frame that looks like paper (bright, colourless).
    paper_share: float

    def box_to_original(self, box: Box) -> Box:
        """A box on the corrected page as the axis-aligned box around it in the original image."""
        return map_box(box, self.to_original)


def map_box(box: Box, matrix: np.ndarray) -> Box:
    """Transform a box's four corners with a 3x3 matrix and take their bounding box."""
    corners = np.array(
        [[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]], dtype=np.float64
    ).reshape(-1, 1, 2)
    mapped = cv2.perspectiveTransform(corners, matrix).reshape(-1, 2)
    return Box(
        float(mapped[:, 0].min()),
        float(mapped[:, 1].min()),
        float(mapped[:, 0].max()),
        float(mapped[:, 1].max()),
    )


def to_gray(image: np.ndarray) -> np.ndarray:
    """Greyscale from RGB (or a copy of an already grey image)."""
    if image.ndim == 2:
        return image.copy()
    return cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)


def paper_mask(rgb_small: np.ndarray) -> np.ndarray:
    """Pixels that look like paper: brighter than the frame's Otsu split and nearly colourless."""
    hsv = cv2.cvtColor(rgb_small, cv2.COLOR_RGB2HSV) if rgb_small.ndim == 3 else None
    gray = to_gray(rgb_small)
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    threshold, bright = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if threshold < 60:
        # A dark frame with a few grey pixels: Otsu splits noise, not paper from desk.
        bright = (blurred > 120).astype(np.uint8) * 255
    if hsv is not None:
        bright = cv2.bitwise_and(bright, (hsv[:, :, 1] < 90).astype(np.uint8) * 255)
    # Close the ink strokes so the sheet is one region.
    return cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))


def find_sheet(rgb: np.ndarray) -> tuple[np.ndarray | None, float]:
    """Corners of the sheet (tl, tr, br, bl) in original pixels, and the frame's paper share."""
    height, width = rgb.shape[:2]
    factor = WORK_PX / max(height, width)
    small = (
        cv2.resize(rgb, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        if factor < 1
        else rgb
    )
    factor = min(factor, 1.0)
    mask = paper_mask(small)
    share = float(np.count_nonzero(mask)) / mask.size
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None, share
    largest = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(largest)
    frame_area = mask.shape[0] * mask.shape[1]
    if area < 0.15 * frame_area:
        return None, share
    hull = cv2.convexHull(largest)
    quad = None
    for epsilon in (0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, epsilon * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    if quad is None:
        return None, share
    x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
    margin = 0.01 * max(mask.shape)
    touches = x <= margin and y <= margin and x + w >= mask.shape[1] - margin
    if touches and y + h >= mask.shape[0] - margin and area > 0.9 * frame_area:
        return None, share  # the sheet fills the frame: a scan or a clean render, nothing to warp
    return _order_corners(quad / factor), share


def _order_corners(points: np.ndarray) -> np.ndarray:
    """Top-left, top-right, bottom-right, bottom-left."""
    sums = points.sum(axis=1)
    diffs = np.diff(points, axis=1).ravel()
    return np.array(
        [
            points[np.argmin(sums)],
            points[np.argmin(diffs)],
            points[np.argmax(sums)],
            points[np.argmax(diffs)],
        ],
        dtype=np.float64,
    )


def estimate_skew(gray: np.ndarray, limit: float = 8.0) -> float:
    """Skew angle in degrees that maximises the row-profile variance of the ink (coarse, then fine)."""
    factor = WORK_PX / max(gray.shape)
    small = (
        cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        if factor < 1
        else gray
    )
    ink = cv2.adaptiveThreshold(
        small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 25, 15
    )
    if np.count_nonzero(ink) < 200:
        return 0.0
    center = (ink.shape[1] / 2, ink.shape[0] / 2)

    def score(angle: float) -> float:
        matrix = cv2.getRotationMatrix2D(center, angle, 1.0)
        turned = cv2.warpAffine(ink, matrix, (ink.shape[1], ink.shape[0]), flags=cv2.INTER_NEAREST)
        return float(np.var(turned.sum(axis=1, dtype=np.float64)))

    coarse = max(np.arange(-limit, limit + 0.01, 1.0), key=score)
    fine = max(np.arange(coarse - 1.0, coarse + 1.01, 0.1), key=score)
    return float(round(fine, 2))


def even_out_light(gray: np.ndarray) -> np.ndarray:
    """Divide by the paper's own brightness so shadows and light gradients vanish."""
    factor = 0.25 if max(gray.shape) > 1200 else 1.0
    small = (
        cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        if factor < 1
        else gray
    )
    kernel = max(5, int(min(small.shape) / 60) | 1)
    # Dilation removes the dark strokes; what remains is the light falling on the paper.
    background = cv2.dilate(small, np.ones((kernel, kernel), np.uint8))
    background = cv2.medianBlur(
        background, max(3, (kernel * 2 + 1) | 1) if kernel * 2 + 1 <= 255 else 255
    )
    background = cv2.resize(
        background, (gray.shape[1], gray.shape[0]), interpolation=cv2.INTER_LINEAR
    )
    flat = gray.astype(np.float32) * (255.0 / np.maximum(background.astype(np.float32), 1.0))
    return np.clip(flat, 0, 255).astype(np.uint8)


def correct_page(image: np.ndarray, *, find_page: bool = True) -> CorrectedPage:
    """Flatten, deskew and even out the light of a page photo or scan (RGB or greyscale)."""
    gray = to_gray(image)
    rgb = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2RGB)
    quad, share = find_sheet(rgb) if find_page else (None, 1.0)
    to_original: np.ndarray = np.eye(3)
    if quad is not None:
        top = np.linalg.norm(quad[1] - quad[0])
        bottom = np.linalg.norm(quad[2] - quad[3])
        left = np.linalg.norm(quad[3] - quad[0])
        right = np.linalg.norm(quad[2] - quad[1])
        out_w, out_h = int(max(top, bottom)), int(max(left, right))
        target = np.array(
            [[0, 0], [out_w - 1, 0], [out_w - 1, out_h - 1], [0, out_h - 1]], dtype=np.float64
        )
        warp = cv2.getPerspectiveTransform(quad.astype(np.float32), target.astype(np.float32))
        gray = cv2.warpPerspective(
            gray, warp, (out_w, out_h), flags=cv2.INTER_LINEAR, borderValue=255
        )
        to_original = np.linalg.inv(warp)
    skew = estimate_skew(gray)
    if abs(skew) >= 0.2:
        h, w = gray.shape
        rotation = cv2.getRotationMatrix2D((w / 2, h / 2), skew, 1.0)
        gray = cv2.warpAffine(gray, rotation, (w, h), flags=cv2.INTER_LINEAR, borderValue=255)
        rotation3 = np.vstack([rotation, [0, 0, 1]])
        to_original = to_original @ np.linalg.inv(rotation3)
    gray = even_out_light(gray)
    return CorrectedPage(
        gray=gray,
        to_original=to_original,
        page_found=quad is not None,
        quad=quad,
        skew_deg=skew if abs(skew) >= 0.2 else 0.0,
        paper_share=share,
    )
