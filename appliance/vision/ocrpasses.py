"""The passes over a drawing after its first reading: confident words painted out before the
side passes, unsure words read again alone, lost points put back, tolerance stacks and degree signs
read apart, and numbers at an angle that no pass read.

Each takes the prepared page and the lines read so far and returns the lines with its findings; a
failing pass leaves the lines as they were and notes a warning on the page.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable

import cv2
import numpy as np

from appliance.document import Box
from appliance.vision.diameters import mend_leading_diameter
from appliance.vision.errors import OcrError
from appliance.vision.leftovers import read_leftovers
from appliance.vision.ocrlines import (
    OcrLine,
    OcrPage,
    OcrWord,
    PreparedPage,
    fix_dimension_line,
    is_numeric,
    letters_and_digits,
    overlap_share,
)
from appliance.vision.points import restore_points
from appliance.vision.rereads import read_alone
from appliance.vision.settings import VisionSettings
from appliance.vision.symbols import normalise_word
from appliance.vision.tolerances import degree_mark, find_stack, read_stacks

log = logging.getLogger(__name__)


#: Confidence above which a word of the prepared page's reading is not read again on the grey page.
_SURE_CONF = 85


def blank_sure_words(gray: np.ndarray, lines: list[OcrLine], scale: float) -> np.ndarray:
    """A page (grey or prepared) with the confidently read words of text lines painted out (paper
    white).

    Only words of lines that are not dimensions, of three letters or more and at least
    ``_SURE_CONF``: there the grey reading cannot win (the merge keeps the more confident word),
    while on a dimension it may still add the ⌀ or ± the prepared page lost.
    """
    blanked = gray.copy()
    height, width = gray.shape[:2]
    for line in lines:
        if is_numeric(line.text):
            continue
        for word in line.words:
            b = word.box
            if word.conf < _SURE_CONF or len(letters_and_digits(word.text)) < 3:
                continue
            x0, y0 = max(0, int(b.x0 * scale) - 1), max(0, int(b.y0 * scale) - 1)
            x1, y1 = min(width, int(b.x1 * scale) + 2), min(height, int(b.y1 * scale) + 2)
            blanked[y0:y1, x0:x1] = 255
    return blanked


#: Below this confidence a word of a text line is read again on its own (see :mod:`rereads`).
_UNSURE_CONF = 70
#: Confidence the reading alone needs to replace the word (and it must beat the word's by 10).
_REREAD_CONF = 80


def with_unsure_words_reread(
    prepared: PreparedPage, lines: list[OcrLine], settings: VisionSettings, page: OcrPage
) -> list[OcrLine]:
    """Unsure words of text lines read again alone; a confident reading replaces the word.

    Only words of letters (no digits) on upright lines that are not dimensions: a dimension's
    digits are checked by the stack and degree-sign rules, and a word read on its side would have
    to be cut out turned.
    """
    s = prepared.scale
    spots: list[tuple[int, int]] = []
    boxes: list[Box] = []
    for li, line in enumerate(lines):
        if line.source_pass != "upright" or is_numeric(line.text):
            continue
        for wi, word in enumerate(line.words):
            if word.vertical or word.conf >= _UNSURE_CONF or not _lettered(word.text):
                continue
            b = word.box
            spots.append((li, wi))
            boxes.append(Box(b.x0 * s, b.y0 * s, b.x1 * s, b.y1 * s))
    if not spots:
        return lines
    try:
        readings = read_alone(prepared.image, boxes, settings)
    except OcrError as err:
        page.warnings.append(f"unsure words not read again: {err.code}")
        log.warning("unsure-word pass skipped: %s", err)
        return lines
    lines = list(lines)
    for (li, wi), (text, conf) in zip(spots, readings, strict=False):
        word = lines[li].words[wi]
        if conf < max(_REREAD_CONF, word.conf + 10) or not _lettered(text):
            continue
        words = list(lines[li].words)
        words[wi] = dataclasses.replace(word, text=normalise_word(text), raw_text=text, conf=conf)
        lines[li] = dataclasses.replace(lines[li], words=tuple(words))
    return lines


def with_points_restored(prepared: PreparedPage, lines: list[OcrLine]) -> list[OcrLine]:
    """Points Tesseract left out of upright words of letters put back (see :mod:`points`)."""
    s = prepared.scale
    ink = cv2.bitwise_not(prepared.image)
    result = []
    for line in lines:
        words = list(line.words)
        for wi, word in enumerate(words):
            if word.vertical or line.source_pass != "upright" or not word.text.isalpha():
                continue
            b = word.box
            text = restore_points(ink, word.text, Box(b.x0 * s, b.y0 * s, b.x1 * s, b.y1 * s))
            if text != word.text:
                words[wi] = dataclasses.replace(word, text=text, raw_text=text)
        result.append(dataclasses.replace(line, words=tuple(words)))
    return result


def with_diameter_signs_mended(prepared: PreparedPage, lines: list[OcrLine]) -> list[OcrLine]:
    """Diameter signs read as ``9``, ``G``, ``Q``, ``B`` or ``6`` at the start of an upright number
    put back where the ink is a ring crossed by a stroke, and a ``B`` taken for one given back
    (see :mod:`diameters`)."""
    s = prepared.scale
    ink = cv2.bitwise_not(prepared.image)
    result = []
    for line in lines:
        words = list(line.words)
        for wi, word in enumerate(words):
            if word.vertical or line.source_pass != "upright":
                continue
            b = word.box
            text = mend_leading_diameter(
                ink, word.text, word.raw_text, Box(b.x0 * s, b.y0 * s, b.x1 * s, b.y1 * s)
            )
            if text != word.text:
                words[wi] = dataclasses.replace(word, text=text)
        result.append(dataclasses.replace(line, words=tuple(words)))
    return result


def _lettered(text: str) -> bool:
    """Two letters or more and no digit: a word, not a number or a stray mark."""
    return sum(ch.isalpha() for ch in text) >= 2 and not any(ch.isdigit() for ch in text)


def with_tolerance_stacks(
    prepared: PreparedPage, lines: list[OcrLine], settings: VisionSettings, page: OcrPage
) -> list[OcrLine]:
    """Deviation stacks after the numbers of dimension lines, read apart (see :mod:`tolerances`)."""
    s = prepared.scale
    height = prepared.image.shape[0]
    upright_ink = cv2.bitwise_not(prepared.image)
    frames: dict[bool, tuple[np.ndarray, np.ndarray]] = {False: (prepared.image, upright_ink)}

    def to_frame(box: Box, turned: bool) -> Box:
        b = Box(box.x0 * s, box.y0 * s, box.x1 * s, box.y1 * s)
        return Box(height - b.y1, b.x0, height - b.y0, b.x1) if turned else b

    def to_page(box: Box, turned: bool) -> Box:
        if turned:
            box = Box(box.y0, height - box.x1, box.y1, height - box.x0)
        return Box(box.x0 / s, box.y0 / s, box.x1 / s, box.y1 / s)

    found: list[tuple[int, int, bool]] = []
    spots = []
    lines = list(lines)
    for li, line in enumerate(lines):
        if line.source_pass == "slanted" or not is_numeric(line.text):
            continue
        lines[li] = line = _with_degree_signs(line, frames, to_frame, prepared.image)
        for wi, word in enumerate(line.words):
            if not word.text[-1:].isdigit():
                continue
            turned = word.vertical
            if turned not in frames:
                image = cv2.rotate(prepared.image, cv2.ROTATE_90_CLOCKWISE)
                frames[turned] = (image, cv2.bitwise_not(image))
            image, ink = frames[turned]
            spot = find_stack(ink, to_frame(word.box, turned))
            if spot is not None:
                found.append((li, wi, turned))
                spots.append((image, spot))
                break
    if not spots:
        return lines
    try:
        stacks = read_stacks(spots, settings)
    except OcrError as err:
        page.warnings.append(f"tolerance stacks not read: {err.code}")
        log.warning("tolerance-stack pass skipped: %s", err)
        return lines
    replaced: dict[int, OcrLine] = {}
    taken: list[tuple[int, Box]] = []
    for (li, wi, turned), stack in zip(found, stacks, strict=False):
        if stack is None:
            continue
        line = lines[li]
        area = to_page(stack.spot.box, turned)
        tail = [w for w in line.words[wi + 1 :] if overlap_share(w.box, area) < 0.5]
        added = tuple(
            OcrWord(
                text=normalise_word(raw),
                raw_text=raw,
                conf=stack.conf,
                box=to_page(box, turned),
                vertical=turned,
            )
            for raw, box in ((stack.upper, stack.spot.upper), (stack.lower, stack.spot.lower))
        )
        words = (*line.words[: wi + 1], *added, *tail)
        replaced[li] = OcrLine(words=words, block=line.block, source_pass=line.source_pass)
        taken.append((li, area))
    result = []
    for li, line in enumerate(lines):
        if li in replaced:
            result.append(replaced[li])
            continue
        b = line.box
        cx, cy = (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2
        if any(a.x0 <= cx <= a.x1 and a.y0 <= cy <= a.y1 for _, a in taken):
            continue  # a fragment of a stack now read whole
        result.append(line)
    return result


_ANGLE_WORD = re.compile(r"\d{1,3}(?:[.,]\d)?")


def _with_degree_signs(
    line: OcrLine,
    frames: dict[bool, tuple[np.ndarray, np.ndarray]],
    to_frame: Callable[[Box, bool], Box],
    image: np.ndarray,
) -> OcrLine:
    """Numbers whose last mark is a small raised ring end in a degree sign ("459" -> "45°")."""
    words = list(line.words)
    changed = False
    for wi, word in enumerate(words):
        text = word.text
        if "°" in text or not text[-1:].isalnum():
            continue
        turned = word.vertical
        if turned not in frames:
            turned_image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
            frames[turned] = (turned_image, cv2.bitwise_not(turned_image))
        where = new_text = ""
        if _ANGLE_WORD.fullmatch(text[:-1]) and text[-1] in "9oO0":
            where = degree_mark(frames[turned][1], to_frame(word.box, turned))
            new_text = text[:-1] + "°" if where == "inside" else ""
        elif _ANGLE_WORD.fullmatch(text):
            where = degree_mark(frames[turned][1], to_frame(word.box, turned))
            new_text = text + "°" if where == "after" else ""
        if where and new_text:
            words[wi] = dataclasses.replace(word, text=new_text)
            changed = True
    if not changed:
        return line
    return OcrLine(words=tuple(words), block=line.block, source_pass=line.source_pass)


def slanted_lines(
    prepared: PreparedPage, lines: list[OcrLine], settings: VisionSettings, page: OcrPage
) -> list[OcrLine]:
    """Numbers at an angle or in boxes that neither pass read (see :mod:`leftovers`)."""
    s = prepared.scale
    covered = [Box(b.x0 * s, b.y0 * s, b.x1 * s, b.y1 * s) for b in (line.box for line in lines)]
    try:
        found = read_leftovers(prepared.image, prepared.text_height * s, covered, settings)
    except OcrError as err:
        page.warnings.append(f"slanted text not read: {err.code}")
        log.warning("slanted-text pass skipped: %s", err)
        return []
    result = []
    for item in found:
        if not is_numeric(item.text):
            continue
        box = Box(item.box.x0 / s, item.box.y0 / s, item.box.x1 / s, item.box.y1 / s)
        words = tuple(
            OcrWord(text=normalise_word(token), raw_text=token, conf=item.conf, box=box)
            for token in item.text.split()
        )
        result.append(fix_dimension_line(OcrLine(words=words, block=0, source_pass="slanted")))
    return result
