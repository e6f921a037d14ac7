"""One image through the whole vision path: correct, gate, OCR, title block, slices.

Shared by the inbox (``ingest_image``), the camera (``openclaw scan``) and ``openclaw ocr``. The gate
is strict for camera shots (any failed check rejects the shot, so a person can retake it) and lenient
for files dropped in the inbox (only an unusable page is refused; other findings become warnings).
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from appliance.document import Box, DocumentSlice
from appliance.vision.errors import PageQualityError
from appliance.vision.germanlines import (
    german_spellings,
    is_german,
    respell,
    with_german_words_reread,
)
from appliance.vision.hanlines import has_han, with_han_lines_reread
from appliance.vision.hanmodel import (
    cells_read_by_model,
    with_fields_read_by_model,
    with_model_readings,
)
from appliance.vision.linemodel import line_model
from appliance.vision.notelists import read_numbers
from appliance.vision.ocr import read_page
from appliance.vision.ocrlines import OcrPage
from appliance.vision.orientation import upright
from appliance.vision.page import CorrectedPage, correct_page
from appliance.vision.quality import QualityReport, assess
from appliance.vision.settings import VisionSettings
from appliance.vision.slicing import build_slices
from appliance.vision.tesseract import title_block_languages
from appliance.vision.titleblock import TitleBlock, fill_from_page, read_title_block

log = logging.getLogger(__name__)


@dataclass
class Analysis:
    """Everything the vision path learned about one image."""

    #: The corrected page and the transform back to the image.
    page: CorrectedPage
    #: The quality gate's verdict.
    quality: QualityReport
    #: OCR lines on the corrected page.
    ocr: OcrPage
    #: The title block, when one was found.
    title_block: TitleBlock | None
    #: Slices with boxes in original-image coordinates.
    slices: list[DocumentSlice]
    #: Seconds spent per stage.
    timings: dict[str, float] = field(default_factory=dict)
    #: Degrees the page was turned clockwise to stand upright (0, 90, 180 or 270).
    turned_deg: int = 0

    @property
    def fields(self) -> dict[str, str]:
        """Title-block fields ({} when none were read)."""
        return dict(self.title_block.fields) if self.title_block else {}

    @property
    def warnings(self) -> list[str]:
        """Degraded parts and gate findings that did not stop the page."""
        found = list(self.ocr.warnings)
        if self.title_block is not None:
            found.extend(self.title_block.warnings)
        if not self.quality.ok:
            found.extend([self.quality.code, *self.quality.also])
        return found


def _read(page: CorrectedPage, settings: VisionSettings) -> tuple[OcrPage, TitleBlock | None]:
    """Whole-page OCR and the title block, side by side (separate Tesseract processes).

    The title block is looked for before the page's layout is known; on a text page its result is
    dropped. A failing title-block pass degrades inside ``read_title_block``.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        block_future = pool.submit(
            read_title_block, page.gray, settings, photographed=page.page_found
        )
        ocr = read_page(page.gray, settings, photographed=page.page_found)
        title_block = block_future.result()
    if ocr.layout != "drawing":
        return ocr, None
    if title_block is not None:
        languages = title_block_languages(settings)
        block_text = " ".join(
            [*title_block.fields.values(), *(ln.text for ln in title_block.lines)]
        )
        if languages != settings.ocr_languages and has_han(block_text):
            # A Chinese title block: the drawing's notes are Chinese too.
            ocr.lines = with_han_lines_reread(page.gray, ocr.lines, settings, languages, ocr)
            model = line_model(settings.chinese_line_model, settings.models_dir)
            if model is not None:
                ocr.lines = with_model_readings(page.gray, ocr.lines, model)
                ocr.lines += cells_read_by_model(page.gray, ocr.lines, model)
                with_fields_read_by_model(page.gray, title_block, model)
    if settings.german_languages and is_german(ocr.lines):
        english = ocr.lines
        ocr.lines = with_german_words_reread(page.gray, english, settings, ocr)
        if title_block is not None:
            respell(title_block, german_spellings(english, ocr.lines))
    if title_block is not None:
        fill_from_page(title_block, ocr.lines)
    return ocr, title_block


def analyse_image(image: np.ndarray, settings: VisionSettings, *, strict: bool) -> Analysis:
    """Run the path on an RGB image; raises :class:`PageQualityError` for a rejected page."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    page = correct_page(image)
    timings["correct"] = time.perf_counter() - start
    mark = time.perf_counter()
    report = assess(image, page, settings)
    timings["gate"] = time.perf_counter() - mark
    if (strict and not report.ok) or report.unusable:
        raise PageQualityError(report)
    mark = time.perf_counter()
    page, turned, orientation_warnings = upright(page, settings)
    timings["orient"] = time.perf_counter() - mark
    mark = time.perf_counter()
    ocr, title_block = _read(page, settings)
    ocr.warnings.extend(orientation_warnings)
    timings["ocr"] = time.perf_counter() - mark
    slices = build_slices(
        ocr,
        title_block,
        page_no=1,
        page_size=page.gray.shape[:2],
        to_source=page.box_to_original,
        low_confidence=settings.low_confidence,
        numbers=partial(read_numbers, page.gray, settings),
    )
    if not slices:
        empty = QualityReport(
            code="page_blank",
            message="I found no text on the page — is the printed side up?",
            metrics=dict(report.metrics),
        )
        raise PageQualityError(empty)
    timings["total"] = time.perf_counter() - start
    return Analysis(
        page=page,
        quality=report,
        ocr=ocr,
        title_block=title_block,
        slices=slices,
        timings=timings,
        turned_deg=turned,
    )


def analyse_render(
    image: np.ndarray, settings: VisionSettings, *, page_no: int, scale: float
) -> list[DocumentSlice]:
    """Slices of a rendered PDF page without a text layer; boxes in PDF points (pixels / ``scale``).

    No gate and no sheet finding (a render is the page); an empty page gives no slices.
    """
    page = correct_page(image, find_page=False)
    page, _, orientation_warnings = upright(page, settings)
    ocr, title_block = _read(page, settings)
    ocr.warnings.extend(orientation_warnings)

    def to_points(box: Box) -> Box:
        b = page.box_to_original(box)
        return Box(b.x0 / scale, b.y0 / scale, b.x1 / scale, b.y1 / scale)

    return build_slices(
        ocr,
        title_block,
        page_no=page_no,
        page_size=page.gray.shape[:2],
        to_source=to_points,
        low_confidence=settings.low_confidence,
        numbers=partial(read_numbers, page.gray, settings),
    )
