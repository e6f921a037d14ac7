"""Pages photographed sideways or upside down are turned upright before they are read.

An upright drawing has its title block in the bottom-right corner (ISO 7200), wider than tall;
when one is found there and the page's words lie flat (``textsample.word_shapes``: a page on its
side can have a table of its own in that corner), the page is taken as upright without OCR.
Otherwise Tesseract's orientation detection (OSD, ``--psm 0``) is asked on the page prepared as
for OCR (lines removed, 16 px characters), and the page is turned by the quarter turns it reports
when it is confident enough (a turn that leaves no title block where the opposite turn has one is
taken the other way). When OSD is unsure, a sample of the page's words is read under each of the
four turns in one call (``textsample.turn_scores``) and a clear winner is taken; failing that,
OSD's turn is taken when it puts a title block across the bottom-right corner. Boxes still map
back to the original image: the turn is composed into the page's transform."""

from __future__ import annotations

import dataclasses
import logging

import cv2
import numpy as np

from appliance.vision.errors import OcrError
from appliance.vision.ocr import prepare
from appliance.vision.page import CorrectedPage
from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import detect_orientation
from appliance.vision.textsample import turn_scores, word_shapes
from appliance.vision.titlegrid import locate

log = logging.getLogger(__name__)

#: Character height OSD reads the prepared page at (smaller is faster; at 6 px it guesses).
OSD_TEXT_PX = 16

#: How much better the best turn must read than the next for the word sample to decide.
SAMPLE_MARGIN = 2.0
#: Least score of the best turn (confidence x letters of its words; about five short words read
#: well) for the word sample to decide: a page with almost no text leaves it unsure.
MIN_SAMPLE_SCORE = 300.0

_ROTATIONS = {
    90: cv2.ROTATE_90_CLOCKWISE,
    180: cv2.ROTATE_180,
    270: cv2.ROTATE_90_COUNTERCLOCKWISE,
}


def turn_page(page: CorrectedPage, rotate: int) -> CorrectedPage:
    """The page turned ``rotate`` degrees clockwise (0, 90, 180, 270), transform kept consistent."""
    if rotate % 360 == 0:
        return page
    height, width = page.gray.shape[:2]
    # Matrix from turned-page coordinates back to the unturned page.
    back = {
        90: np.array([[0, 1, 0], [-1, 0, height], [0, 0, 1]], np.float64),
        180: np.array([[-1, 0, width], [0, -1, height], [0, 0, 1]], np.float64),
        270: np.array([[0, -1, width], [1, 0, 0], [0, 0, 1]], np.float64),
    }[rotate % 360]
    return dataclasses.replace(
        page,
        gray=cv2.rotate(page.gray, _ROTATIONS[rotate % 360]),
        to_original=page.to_original @ back,
    )


def upright(page: CorrectedPage, settings: VisionSettings) -> tuple[CorrectedPage, int, list[str]]:
    """The page turned upright, the clockwise turn applied, and warnings of a failed detection."""
    if not settings.detect_orientation:
        return page, 0, []
    shapes = word_shapes(page.gray)
    if not shapes.sideways and _title_block_across_corner(page):
        # A title block lies across the bottom-right corner and the words lie flat: upright. (A
        # page on its side can have a table of its own in that corner.)
        return page, 0, []
    # OSD reads the page as OCR would see it (ruling lines and geometry removed, text at a fixed
    # height): on the grey page the drawing's lines and hatching drown its letters.
    prepared = prepare(page.gray, dataclasses.replace(settings, ocr_text_height_px=OSD_TEXT_PX))
    try:
        found = detect_orientation(prepared.image, settings)
    except OcrError as err:
        log.warning("orientation not detected: %s", err)
        return page, 0, [f"orientation not detected: {err.code}"]
    turned = turn_page(page, found.rotate)
    if found.confidence >= settings.min_orientation_confidence:
        if found.rotate == 0:
            return page, 0, []
        if not _title_block_across_corner(turned):
            # OSD sometimes mistakes a page for its upside-down self; a drawing's title block
            # tells the two apart.
            opposite = (found.rotate + 180) % 360
            other = turn_page(page, opposite)
            if _title_block_across_corner(other):
                return other, opposite, []
        return turned, found.rotate, []
    # OSD unsure: read a sample of the page's words under each turn and take a clear winner.
    try:
        scores = turn_scores(page.gray, shapes, settings)
    except OcrError as err:
        log.warning("orientation sample not read: %s", err)
        scores = dict.fromkeys((0, 90, 180, 270), 0.0)
    best, second = sorted(scores, key=lambda turn: -scores[turn])[:2]
    if scores[best] >= MIN_SAMPLE_SCORE and scores[best] >= SAMPLE_MARGIN * scores[second]:
        return turn_page(page, best), best, []
    if found.rotate and _title_block_across_corner(turned):
        # OSD unsure, but its turn puts a title block where ISO 7200 wants it: both agree.
        return turned, found.rotate, []
    return page, 0, []


def _title_block_across_corner(page: CorrectedPage) -> bool:
    """A title block found in the bottom-right corner, wider than tall (one standing on end is a
    turned page's block)."""
    block = locate(page.gray)
    return block is not None and block.x1 - block.x0 >= 1.2 * (block.y1 - block.y0)
