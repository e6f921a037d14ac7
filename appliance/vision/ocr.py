"""OCR of a corrected page: preparation, Tesseract passes, vertical text, lines with boxes.

A drawing is read upright from the prepared image (psm 11, sparse text: drawings have no reading
order), then, side by side, turned 90 degrees clockwise (dimension text written bottom-to-top along
vertical dimension lines becomes upright) and from the grey page with its ruling lines kept; those
two see the page with the text the upright pass read confidently painted out. Words of the turned
pass are kept where they beat what the upright pass saw in the same place. A text page (a scanned letter, an article) is read once with
automatic page segmentation, which keeps its reading order.

Everything here works in the coordinates of the image it is given; callers map boxes further.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor

import cv2
import numpy as np

from appliance.vision.errors import OcrError
from appliance.vision.imageops import (
    binarise,
    drop_non_text,
    estimate_text_height,
    long_line_mask,
    stroke_contrast,
    stroke_depth,
)
from appliance.vision.ocrlines import (
    OcrPage,
    PreparedPage,
    build_lines,
    merge_readings,
    merge_turned,
)
from appliance.vision.ocrpasses import (
    blank_sure_words,
    slanted_lines,
    with_diameter_signs_mended,
    with_points_restored,
    with_tolerance_stacks,
    with_unsure_words_reread,
)
from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import RawWord, run_tesseract

log = logging.getLogger(__name__)

PSM_AUTO = 3
PSM_SPARSE = 11
PSM_LINE = 7


#: A photographed page's ink: pixels deeper below the paper than this share of the page's print
#: contrast (:func:`~appliance.vision.imageops.stroke_contrast`). The usual threshold compares a
#: pixel with its neighbourhood's mean, which sinks where print is dense and leaves blurred letters
#: fat or broken by how much ink is near; measured from the paper and scaled by the page's own
#: contrast, the threshold cuts a soft stroke at the same relative depth on a pale or a crisp shot.
PHOTO_INK_SHARE = 0.3


def page_ink(gray: np.ndarray, contrast: float, depth: np.ndarray | None = None) -> np.ndarray:
    """Ink of a page: the usual threshold, or, given a print contrast, the photographed page's
    (``depth``: the page's :func:`~appliance.vision.imageops.stroke_depth`, when already made)."""
    if contrast <= 0:
        return binarise(gray)
    if depth is None:
        depth = stroke_depth(gray)
    return cv2.threshold(depth, PHOTO_INK_SHARE * contrast, 255, cv2.THRESH_BINARY)[1]


def prepare(
    gray: np.ndarray, settings: VisionSettings, *, photographed: bool = False
) -> PreparedPage:
    """Scale text to Tesseract's preferred height, binarise, and remove long ruling lines.

    ``photographed``: the page is a camera shot; its ink is measured from the paper against its
    print contrast (:func:`page_ink`).
    """
    depth = stroke_depth(gray) if photographed else None
    contrast = stroke_contrast(gray, depth) if depth is not None else 0.0
    ink = page_ink(gray, contrast, depth)
    height = estimate_text_height(ink)
    scale = settings.ocr_text_height_px / height if height > 0 else 1.0
    scale = float(np.clip(scale, 0.25, 2.0))
    # Tesseract reads 15-45 px text equally well; rescaling inside that band only costs time.
    if (
        height > 0
        and not 0.7 * settings.ocr_text_height_px <= height <= 2 * settings.ocr_text_height_px
    ):
        interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
        scaled = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=interpolation)
        ink = page_ink(scaled, contrast)
    else:
        scale = 1.0
        scaled = gray
    text_ink = ink
    if contrast > 0:
        # Ruling lines are found in the usual ink: at the contrast threshold a blurred 1 px rule
        # breaks into dashes that are not long enough to be lines and stay under the text
        # ("1.750" underlined in a hole table). Widened by a pixel for the rule's soft edges.
        ink = binarise(scaled)
    # A stroke four characters long and perfectly straight is a line of the drawing, not a glyph.
    lines = long_line_mask(ink, max(24, int(settings.ocr_text_height_px * 4)))
    # Solid areas (photos, black scan borders) are neither text nor ruling lines: leave them out of
    # the share that tells a drawing from a text page.
    solid = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
    not_solid = cv2.bitwise_not(solid)
    ink_total = max(1, int(np.count_nonzero(cv2.bitwise_and(ink, not_solid))))
    share = float(np.count_nonzero(cv2.bitwise_and(lines, not_solid))) / ink_total
    if contrast > 0:
        lines = cv2.dilate(lines, np.ones((3, 3), np.uint8))
    text_only = cv2.bitwise_and(text_ink, cv2.bitwise_not(lines))
    if height > 0:
        text_only = drop_non_text(text_only, height * scale)
    return PreparedPage(
        image=cv2.bitwise_not(text_only),
        gray=scaled if scale != 1.0 else gray,
        scale=scale,
        text_height=height,
        line_ink_share=share,
    )


def read_page(
    gray: np.ndarray,
    settings: VisionSettings,
    *,
    layout: str | None = None,
    photographed: bool = False,
) -> OcrPage:
    """OCR a corrected greyscale page; boxes in the coordinates of ``gray``.

    ``layout`` forces "drawing", "text" or "line"; by default it is decided from how much of the ink is ruling
    lines. Only the first pass may raise :class:`OcrError`; a failing vertical-text pass degrades to
    ``warnings``. ``photographed``: the page is a camera shot (see :func:`prepare`).
    """
    prepared = prepare(gray, settings, photographed=photographed)
    if layout is None:
        if gray.shape[0] < 3 * max(prepared.text_height, 8):
            layout = "line"  # a single text line (a crop or a line image)
        else:
            layout = "drawing" if prepared.line_ink_share > 0.12 else "text"
    page = OcrPage(layout=layout, scale=prepared.scale)
    psm = {"drawing": PSM_SPARSE, "line": PSM_LINE}.get(layout, PSM_AUTO)
    drawing = layout == "drawing"
    turned_future: Future[list[RawWord]] | None = None
    grey_future: Future[list[RawWord]] | None = None
    with ThreadPoolExecutor(max_workers=2) as pool:
        # The passes are independent Tesseract processes: the turned and grey-page passes run side
        # by side once the upright reading is known.
        source = prepared.image if drawing else prepared.gray
        upright = run_tesseract(source, psm=psm, settings=settings)
        lines = build_lines(upright, prepared.scale, "upright", None, drawing=drawing)
        if drawing and settings.read_vertical_text:
            # Confident text words painted out here too: read on their side they only give junk.
            turned_image = cv2.rotate(
                blank_sure_words(prepared.image, lines, prepared.scale), cv2.ROTATE_90_CLOCKWISE
            )
            turned_future = pool.submit(
                run_tesseract, turned_image, psm=PSM_SPARSE, settings=settings
            )
        if drawing and settings.read_grey_page:
            # The grey page with its lines kept, read as Tesseract would read it unaided: text
            # touching a ruling line or set in a boxed cell loses strokes in the prepared image,
            # so this reading wins there, and the page is never read worse than plain Tesseract.
            # Words the prepared page gave with confidence are painted out first (the grey reading
            # would not replace them), so Tesseract spends its time on the rest.
            grey_future = pool.submit(
                run_tesseract,
                blank_sure_words(prepared.gray, lines, prepared.scale),
                psm=PSM_SPARSE,
                settings=settings,
            )
        if grey_future is not None:
            try:
                grey = grey_future.result()
            except OcrError as err:
                page.warnings.append(f"grey-page pass not read: {err.code}")
                log.warning("grey-page pass skipped: %s", err)
            else:
                lines = merge_readings(lines, build_lines(grey, prepared.scale, "upright", None))
        if turned_future is not None:
            try:
                turned = turned_future.result()
            except OcrError as err:
                page.warnings.append(f"vertical text not read: {err.code}")
                log.warning("vertical-text pass skipped: %s", err)
            else:
                turned_lines = build_lines(
                    turned, prepared.scale, "turned", prepared.image.shape[:2], drawing=True
                )
                lines = merge_turned(lines, turned_lines)
    if drawing:
        lines = with_unsure_words_reread(prepared, lines, settings, page)
        lines = with_points_restored(prepared, lines)
        lines = with_diameter_signs_mended(prepared, lines)
    if drawing and settings.read_vertical_text:
        # Whole drawings only (the title block is read without it: it holds no dimensions).
        lines = with_tolerance_stacks(prepared, lines, settings, page)
    if layout == "drawing" and settings.read_vertical_text:
        lines += slanted_lines(prepared, lines, settings, page)
    page.lines = lines
    return page
