"""A last pass for text neither reading saw: dimension text written at an angle, or boxed.

After the upright and turned passes, the character-sized blobs that no read line covers are grouped
into clusters; each cluster is cut out along its own direction (minimum-area rectangle), laid flat,
and all of them are put one under the other into a single image (both ways up, since the direction of
a slanted line is ambiguous), which Tesseract reads in one call. A reading is kept only when it is
confident and contains a digit: on a drawing, slanted text is dimensions.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from appliance.document import Box
from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import run_tesseract

#: Most clusters read per page (keeps the mosaic and the time bounded on a noisy page).
MAX_CLUSTERS = 40


@dataclass(frozen=True)
class Leftover:
    """One cluster's reading."""

    #: The text as read (not yet normalised).
    text: str
    #: Mean Tesseract confidence.
    conf: float
    #: Axis-aligned box around the cluster, in the prepared image's pixels.
    box: Box


def _clusters(ink: np.ndarray, text_height: float, covered: list[Box]) -> list[np.ndarray]:
    """Pixel coordinates (N x 2, x/y) of each unread cluster of character-sized blobs."""
    _count, labels, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights = stats[:, cv2.CC_STAT_HEIGHT]
    widths = stats[:, cv2.CC_STAT_WIDTH]
    chars = (
        (heights >= 0.35 * text_height)
        & (heights <= 2.2 * text_height)
        & (widths <= 2.2 * text_height)
    )
    chars[0] = False
    # Blobs whose centre lies in (or right beside) a line already read are not left over.
    read = np.zeros(ink.shape, np.uint8)
    margin = int(0.3 * text_height)
    for b in covered:
        cv2.rectangle(
            read,
            (int(b.x0) - margin, int(b.y0) - margin),
            (int(b.x1) + margin, int(b.y1) + margin),
            255,
            -1,
        )
    cx = np.clip(centroids[:, 0].astype(int), 0, ink.shape[1] - 1)
    cy = np.clip(centroids[:, 1].astype(int), 0, ink.shape[0] - 1)
    chars &= read[cy, cx] == 0
    if not chars.any():
        return []
    mask = np.where(chars[labels], 255, 0).astype(np.uint8)
    size = max(3, int(0.9 * text_height))
    joined = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    _n, groups = cv2.connectedComponents(joined, connectivity=8)
    ys, xs = np.nonzero(mask)
    group_of = groups[ys, xs]
    component_of = labels[ys, xs]
    order = np.argsort(group_of, kind="stable")
    ys, xs, group_of, component_of = ys[order], xs[order], group_of[order], component_of[order]
    bounds = np.flatnonzero(np.diff(group_of)) + 1
    found = []
    for part_x, part_y, part_c in zip(
        np.split(xs, bounds), np.split(ys, bounds), np.split(component_of, bounds), strict=True
    ):
        if 3 <= len(np.unique(part_c)) <= 40:
            found.append(np.column_stack([part_x, part_y]).astype(np.float32))
    found.sort(key=len, reverse=True)
    return found[:MAX_CLUSTERS]


def _flatten(image: np.ndarray, points: np.ndarray, text_height: float) -> np.ndarray | None:
    """The cluster cut out along its minimum-area rectangle and laid flat (long side horizontal)."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    if w < h:
        w, h, angle = h, w, angle + 90
    if w < 1.5 * h or h > 5 * text_height:
        return None  # not a line of text (a blob or several lines)
    pad = 0.5 * text_height
    out_w, out_h = int(w + 2 * pad), int(h + 2 * pad)
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    matrix[0, 2] += out_w / 2 - cx
    matrix[1, 2] += out_h / 2 - cy
    return cv2.warpAffine(image, matrix, (out_w, out_h), flags=cv2.INTER_LINEAR, borderValue=255)


def read_leftovers(
    image: np.ndarray, text_height: float, covered: list[Box], settings: VisionSettings
) -> list[Leftover]:
    """Readings of unread text clusters; ``image`` is black text on white at OCR scale."""
    if text_height <= 0:
        return []
    ink = cv2.bitwise_not(image)
    clusters = _clusters(ink, text_height, covered)
    patches: list[tuple[int, np.ndarray]] = []
    for index, points in enumerate(clusters):
        flat = _flatten(image, points, text_height)
        if flat is not None:
            patches.append((index, flat))
            patches.append((index, cv2.rotate(flat, cv2.ROTATE_180)))
    if not patches:
        return []
    gap = int(1.5 * text_height)
    width = max(p.shape[1] for _, p in patches) + 2 * gap
    rows = []
    spans = []
    top = gap
    for index, patch in patches:
        row = np.full((patch.shape[0] + gap, width), 255, np.uint8)
        row[: patch.shape[0], gap : gap + patch.shape[1]] = patch
        rows.append(row)
        spans.append((index, top, top + patch.shape[0]))
        top += row.shape[0]
    mosaic = np.vstack([np.full((gap, width), 255, np.uint8), *rows])
    words = run_tesseract(mosaic, psm=11, settings=settings)
    readings: dict[tuple[int, int], list[tuple[str, float, int]]] = {}
    for word in words:
        middle = word.top + word.height / 2
        for slot, (index, start, end) in enumerate(spans):
            if start <= middle <= end:
                readings.setdefault((index, slot), []).append((word.text, word.conf, word.left))
                break
    best: dict[int, tuple[str, float]] = {}
    for (index, _), found in readings.items():
        found.sort(key=lambda item: item[2])
        text = " ".join(t for t, _, _ in found)
        conf = float(np.mean([c for _, c, _ in found]))
        if index not in best or _score((text, conf)) > _score(best[index]):
            best[index] = (text, conf)
    results = []
    for index, (text, conf) in best.items():
        if (
            conf < 60
            or not any(ch.isdigit() for ch in text)
            or sum(ch.isalnum() for ch in text) < 2
        ):
            continue
        xs, ys = clusters[index][:, 0], clusters[index][:, 1]
        box = Box(float(xs.min()), float(ys.min()), float(xs.max()) + 1, float(ys.max()) + 1)
        results.append(Leftover(text=text, conf=conf, box=box))
    return results


def _score(reading: tuple[str, float]) -> float:
    text, conf = reading
    return conf * sum(ch.isalnum() for ch in text)
