"""Full stops Tesseract leaves out of a word.

Tesseract often drops a point inside or after a short word (``Q.A`` read ``QA``, ``min.`` read
``min``), although the point is plainly in the ink. A point is a small, filled, roughly square blob
sitting on the word's baseline, with nothing above it (that would be a colon or a semicolon) and
no letter over it (the dot of an ``i`` or ``j`` sits above the x-height anyway). When the word's
letters are each one blob, so the letters before the point can be counted, the point is put back
in its place.
"""

from __future__ import annotations

import cv2
import numpy as np

from appliance.document import Box


def restore_points(ink: np.ndarray, text: str, box: Box) -> str:
    """``text`` with the points found in the ink of ``box`` put back (unchanged when unsure).

    ``ink`` is 255 on 0, in the same pixels as ``box``; only words of letters are looked at.
    """
    if not text.isalpha():
        return text
    h = box.y1 - box.y0
    if h < 8:
        return text
    x0 = max(0, int(box.x0))
    y0 = max(0, int(box.y0 - 0.2 * h))
    x1 = min(ink.shape[1], int(box.x1 + 0.5 * h))
    y1 = min(ink.shape[0], int(box.y1 + 0.1 * h) + 1)
    crop = ink[y0:y1, x0:x1]
    count, _, stats, _ = cv2.connectedComponentsWithStats(crop, connectivity=8)
    blobs = [tuple(int(v) for v in stats[i]) for i in range(1, count)]
    # Letters of the word (a next word's letters, right of its box, are left out).
    tall = sorted((b for b in blobs if b[3] >= 0.4 * h and b[0] < box.x1 - x0), key=lambda b: b[0])
    # Each letter one blob: otherwise the count of letters before a point means nothing.
    if len(tall) != len(text):
        return text
    baseline = float(np.median([b[1] + b[3] for b in tall]))
    points = []
    for bx, by, bw, bh, area in blobs:
        if not (2 <= bw <= 0.25 * h and 2 <= bh <= 0.25 * h and 0.6 <= bw / bh <= 1.6):
            continue
        if area < 0.5 * bw * bh or abs(by + bh - baseline) > 0.15 * h:
            continue
        centre = bx + bw / 2
        if any(t[0] <= centre <= t[0] + t[2] for t in tall):
            continue  # under or inside a letter
        if any(
            o[1] + o[3] <= by and o[0] <= centre <= o[0] + o[2] for o in blobs if o[3] < 0.4 * h
        ):
            continue  # a mark above it: a colon or a semicolon
        before = sum(1 for t in tall if t[0] + t[2] <= centre)
        if before == 0 or (before == len(tall) and bx - (tall[-1][0] + tall[-1][2]) > 0.4 * h):
            continue  # nothing before it, or too far after the last letter to belong to the word
        points.append(before)
    for position in sorted(set(points), reverse=True):
        text = text[:position] + "." + text[position:]
    return text
