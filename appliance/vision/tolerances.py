"""Tolerance stacks: the two deviations written one over the other right after a nominal value.

ISO 129 / ISO 286 write limit deviations as a stack beside the value, ``16,5`` followed by ``+0,1``
over ``0``, usually in smaller type. Whole-page sparse-text OCR reads such a stack as one garbled
word (``*o``, ``9``, ``po``) or as a lone fragment, because two short lines share the height of one.

This pass looks, for every number of a dimension line, at the ink just after it in reading
direction: when that ink splits into two rows, one above and one below the value's middle, each
row is cut out, enlarged and read on its own (all rows of a page in one Tesseract call, digits and
signs, and the letters of ISO 286 classes). The reading is kept only when it has the form of a
deviation pair (two numbers, at least one of them signed, the other signed or zero) or of a fit
(hole class over shaft class, ``H7`` over ``k6``). The value then reads ``⌀16.5 +0.1 0`` (value,
upper, lower), and whatever the page passes had read in the stack's place is dropped.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import cv2
import numpy as np

from appliance.document import Box
from appliance.vision.mosaic import cut_row, read_rows
from appliance.vision.settings import VisionSettings
from appliance.vision.symbols import normalise

#: Most stacks read per page (bounds the mosaic on a page full of numbers).
MAX_STACKS = 60
#: Characters of a deviation and of ISO 286 tolerance classes (which never use I, L, O, Q, W, so
#: a zero cannot be read as a letter).
WHITELIST = "0123456789+-.,ABCDEFGHJKMNPRSTUVXYZabcdefghjkmnprstuvxyz"
_DEVIATION = re.compile(r"[+\-]?\d+(?:[.,]\d+)?")
#: ISO 286 fit: the hole's class (capital letters) over the shaft's (small letters), "H7" over "k6".
_HOLE_CLASS = re.compile(r"[A-Z]{1,2}\d{1,2}")
_SHAFT_CLASS = re.compile(r"[a-z]{1,2}\d{1,2}")


@dataclass(frozen=True)
class StackSpot:
    """Where a stack was found, in the frame it was looked for in (text upright)."""

    #: The whole stack.
    box: Box
    #: The upper row.
    upper: Box
    #: The lower row.
    lower: Box


@dataclass(frozen=True)
class Stack:
    """A read tolerance stack."""

    #: Upper deviation as read ("+0,1").
    upper: str
    #: Lower deviation as read ("0").
    lower: str
    #: Mean Tesseract confidence of the two rows.
    conf: float
    #: Where it is.
    spot: StackSpot


def find_stack(ink: np.ndarray, value: Box) -> StackSpot | None:
    """A two-row stack of characters right after ``value`` (ink 255 on 0, text upright), or None.

    When nothing follows the word box, the value is re-measured from its ink (the box may have
    taken the stack in) and looked after again.
    """
    found = _stack_after(ink, value)
    if found is None:
        glyphs = _value_glyphs(ink, value)
        if glyphs is not None and glyphs.x1 < value.x1 - 2:
            found = _stack_after(ink, glyphs)
    return found


def _stack_after(ink: np.ndarray, value: Box) -> StackSpot | None:
    h = value.y1 - value.y0
    if h < 6:
        return None
    mid = (value.y0 + value.y1) / 2
    x0 = int(max(0, value.x1 - 0.1 * h))
    x1 = int(min(ink.shape[1], value.x1 + 6 * h))
    y0 = int(max(0, value.y0 - 1.0 * h))
    y1 = int(min(ink.shape[0], value.y1 + 1.0 * h))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink[y0:y1, x0:x1], connectivity=8)
    comps = sorted(
        (
            (int(s[0]) + x0, int(s[1]) + y0, int(s[2]), int(s[3]))
            for s in stats[1:count]
            if s[cv2.CC_STAT_AREA] >= 2
        ),
        key=lambda c: c[0],
    )
    right = value.x1
    chosen: list[tuple[int, int, int, int]] = []
    for cx, cy, cw, ch in comps:
        if cx < value.x1 - 0.1 * h:
            continue  # part of the value itself
        if cx > right + (1.2 if not chosen else 0.8) * h:
            break
        centre = cy + ch / 2
        if not value.y0 - 0.9 * h <= centre <= value.y1 + 0.9 * h:
            continue
        if ch > 1.1 * h or cw > 1.5 * h or (cw > 0.6 * h and cw > 2 * ch):
            if cy < value.y1 and cy + ch > value.y0:
                break  # a drawing stroke, an arrow head or a big glyph beside the value ends it
            continue  # a stroke above or below (another dimension's line) is not part of it
        chosen.append((cx, cy, cw, ch))
        right = max(right, cx + cw)
    # A row is a run of glyph-sized blobs (signs, points and commas ride along).
    glyphs = [c for c in chosen if c[3] >= 0.3 * h and c[2] <= 1.2 * c[3]]
    if len(glyphs) < 2:
        return None
    # The two rows split at the widest gap between glyph centres (a fit's shaft class may sit on
    # the value's own line, so the value's middle is not always between them).
    centres = sorted(c[1] + c[3] / 2 for c in glyphs)
    gap, split = max((b - a, (a + b) / 2) for a, b in itertools.pairwise(centres))
    if gap < 0.3 * h or not centres[0] < mid < centres[-1] + 0.25 * h:
        return None
    upper = [c for c in glyphs if c[1] + c[3] / 2 < split]
    lower = [c for c in glyphs if c[1] + c[3] / 2 >= split]
    up_box = _union(upper)
    low_box = _union(lower)
    if up_box.y1 > low_box.y0 + 0.25 * h:
        return None  # the rows overlap: one line of text, not a stack
    if abs(up_box.x0 - low_box.x0) > 1.5 * h:
        return None  # deviations are written left-aligned under each other
    # Small marks (points, signs) join the row whose band they sit in.
    for c in chosen:
        if c in glyphs:
            continue
        centre = c[1] + c[3] / 2
        if up_box.y0 - 0.2 * h <= centre <= up_box.y1 + 0.1 * h:
            up_box = up_box.union(_box(c))
        elif low_box.y0 - 0.1 * h <= centre <= low_box.y1 + 0.2 * h:
            low_box = low_box.union(_box(c))
    return StackSpot(box=up_box.union(low_box), upper=up_box, lower=low_box)


def _value_glyphs(ink: np.ndarray, word: Box) -> Box | None:
    """The box of the value's own digits inside an OCR word box.

    A word box often takes in a stack beside the value (Tesseract read it as one more character),
    so the value is re-measured from the ink: the tall glyphs sharing one baseline band, from the
    left, up to the first gap as wide as a word space (a decimal point bridges its gap).
    """
    x0, y0 = int(max(0, word.x0)), int(max(0, word.y0))
    x1, y1 = int(min(ink.shape[1], word.x1)), int(min(ink.shape[0], word.y1))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink[y0:y1, x0:x1], connectivity=8)
    marks = sorted(
        (int(s[0]) + x0, int(s[1]) + y0, int(s[2]), int(s[3]))
        for s in stats[1:count]
        if s[cv2.CC_STAT_AREA] >= 2
    )
    tall = [c for c in marks if c[3] >= 0.6 * (y1 - y0)]
    if not tall:
        return None
    digit = float(np.median([c[3] for c in tall]))
    centre = float(np.median([c[1] + c[3] / 2 for c in tall]))
    run = [tall[0]]
    reach = tall[0][0] + tall[0][2]
    for c in marks:
        if c[0] < tall[0][0] or max(c[2], c[3]) < 0.12 * digit:
            continue  # left of the value, or a speck of noise
        if c[0] - reach > 0.45 * digit:
            break  # a word space: what follows is not the value
        reach = max(reach, c[0] + c[2])
        if c[3] >= 0.8 * digit and abs(c[1] + c[3] / 2 - centre) <= 0.25 * digit:
            run.append(c)  # (raised or lowered glyphs are a stack's, not the value's)
    return Box(
        float(min(c[0] for c in run)),
        centre - digit / 2,
        float(max(c[0] + c[2] for c in run)),
        centre + digit / 2,
    )


def read_stacks(
    spots: list[tuple[np.ndarray, StackSpot]], settings: VisionSettings
) -> list[Stack | None]:
    """Read the rows of every spot in one Tesseract call; None where no deviation pair was read.

    Each spot comes with the frame it was found in (black text on white, text upright).
    """
    spots = spots[:MAX_STACKS]
    if not spots:
        return []
    rows = [cut_row(image, box) for image, spot in spots for box in (spot.upper, spot.lower)]
    texts = read_rows(rows, settings, whitelist=WHITELIST)
    results: list[Stack | None] = []
    for index, (_, spot) in enumerate(spots):
        found = texts[2 * index], texts[2 * index + 1]
        upper, lower = ("".join(t for _, t, _ in row) for row in found)
        confs = [c for row in found for _, _, c in row]
        if is_deviation_pair(upper, lower) or is_fit_pair(upper, lower):
            results.append(Stack(upper, lower, float(np.mean(confs)), spot))
        else:
            results.append(None)
    return results


def is_deviation_pair(upper: str, lower: str) -> bool:
    """Two numbers, at least one signed, the other signed or zero (``+0,1``/``0``, ``0``/``-0,1``)."""
    if not (_DEVIATION.fullmatch(upper) and _DEVIATION.fullmatch(lower)):
        return False

    def signed(text: str) -> bool:
        return text[0] in "+-"

    def zero(text: str) -> bool:
        return float(normalise(text).lstrip("+-")) == 0

    if not (signed(upper) or signed(lower)):
        return False
    return (signed(upper) or zero(upper)) and (signed(lower) or zero(lower))


def is_fit_pair(upper: str, lower: str) -> bool:
    """An ISO 286 fit written as a stack: hole class over shaft class (``H7`` over ``k6``)."""
    return bool(_HOLE_CLASS.fullmatch(upper) and _SHAFT_CLASS.fullmatch(lower))


def _box(c: tuple[int, int, int, int]) -> Box:
    return Box(float(c[0]), float(c[1]), float(c[0] + c[2]), float(c[1] + c[3]))


def _union(comps: list[tuple[int, int, int, int]]) -> Box:
    box = _box(comps[0])
    for c in comps[1:]:
        box = box.union(_box(c))
    return box


def degree_mark(ink: np.ndarray, value: Box) -> str:
    """Whether a number ends in a degree sign, judged by the shape of its last mark.

    A degree sign is a small ring raised to the top of the digits (ISO 129 angles). OCR reads it
    as ``9``, ``o`` or ``0`` glued to the number, or drops it. Returns ``"inside"`` when the word's
    own last mark is such a ring (its last character is the sign), ``"after"`` when the ring
    follows the word directly, and ``""`` otherwise.
    """
    h = value.y1 - value.y0
    if h < 8:
        return ""
    x0 = int(max(0, value.x0))
    x1 = int(min(ink.shape[1], value.x1 + 0.8 * h))
    y0 = int(max(0, value.y0 - 0.2 * h))
    y1 = int(min(ink.shape[0], value.y1 + 0.1 * h))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return ""
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink[y0:y1, x0:x1], connectivity=8)
    marks = sorted(
        (
            (int(s[0]) + x0, int(s[1]) + y0, int(s[2]), int(s[3]), int(s[4]))
            for s in stats[1:count]
            if s[cv2.CC_STAT_HEIGHT] >= 0.15 * h
        ),
        key=lambda m: m[0],
    )
    inside = [m for m in marks if m[0] + m[2] / 2 <= value.x1]
    after = [m for m in marks if m[0] + m[2] / 2 > value.x1 and m[0] <= value.x1 + 0.5 * h]
    if after and _is_ring(after[0], value, ink):
        ring = after[0]
        below = [
            m for m in after[1:] if m[0] < ring[0] + ring[2] + 0.3 * h and m[1] >= ring[1] + ring[3]
        ]
        # A raised ring with a mark under it is the upper row of a deviation stack ("+0" over "0").
        return "" if below else "after"
    if len(inside) >= 2 and _is_ring(inside[-1], value, ink):
        return "inside"
    return ""


def _is_ring(mark: tuple[int, int, int, int, int], value: Box, ink: np.ndarray) -> bool:
    x, y, w, hh, _area = mark
    h = value.y1 - value.y0
    if not (
        0.18 * h <= hh <= 0.55 * h
        and 0.6 * hh <= w <= 1.6 * hh
        and y + hh <= value.y0 + 0.6 * h  # raised: it ends above the digits' middle
    ):
        return False
    # Hollow and closed: the centre is paper, with ink on all four sides of it (a "+" or a
    # comma is not).
    cx, cy = x + w // 2, y + hh // 2
    row, column = ink[cy, x : x + w], ink[y : y + hh, cx]
    return bool(
        ink[cy, cx] == 0
        and row[: w // 2].any()
        and row[w // 2 :].any()
        and column[: hh // 2].any()
        and column[hh // 2 :].any()
    )
