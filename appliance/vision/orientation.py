"""Pages photographed sideways or upside down are turned upright before they are read.

An upright drawing has its title block in the bottom-right corner (ISO 7200); when one is found
there, the page is taken as upright at no cost. Otherwise Tesseract's orientation detection (OSD,
``--psm 0``) is asked on a copy reduced to 10 px characters, and the page is turned by the quarter turns it reports when
it is confident enough. Boxes still map back to the original image: the turn is composed into the
page's transform.
"""

from __future__ import annotations

import dataclasses
import logging

import cv2
import numpy as np

from appliance.vision.errors import OcrError
from appliance.vision.ocr import binarise, estimate_text_height
from appliance.vision.page import CorrectedPage
from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import detect_orientation
from appliance.vision.titleblock import locate

log = logging.getLogger(__name__)

#: Character height OSD reads the page at: it is as sure at 10 px as at full size and several
#: times faster; at 6 px it guesses.
OSD_TEXT_PX = 10.0

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
    if not settings.detect_orientation or locate(page.gray) is not None:
        return page, 0, []
    gray = page.gray
    half = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    text_height = 2 * estimate_text_height(binarise(half))
    factor = float(np.clip(OSD_TEXT_PX / text_height, 0.4, 1.0)) if text_height else 1.0
    if factor < 1:
        gray = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    try:
        found = detect_orientation(gray, settings)
    except OcrError as err:
        log.warning("orientation not detected: %s", err)
        return page, 0, [f"orientation not detected: {err.code}"]
    if found.rotate == 0 or found.confidence < settings.min_orientation_confidence:
        return page, 0, []
    return turn_page(page, found.rotate), found.rotate, []
