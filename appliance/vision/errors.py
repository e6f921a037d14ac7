"""Errors of the vision path, each with a stable code the CLI, logs and status page show."""

from __future__ import annotations

from typing import TYPE_CHECKING

from appliance.errors import ExternalProgramError, HardwareError, InputError

if TYPE_CHECKING:
    from appliance.vision.quality import QualityReport


class ImageInputError(InputError):
    """An image file cannot be used: empty, truncated, too large or not an image at all.

    Codes: ``image_empty``, ``image_truncated``, ``image_too_large``, ``image_not_an_image``.
    """

    code = "image_invalid"


class PageQualityError(InputError):
    """A page was rejected by the quality gate; ``report`` says why in words a person can act on.

    Codes: ``too_blurry``, ``too_dark``, ``overexposed``, ``glare``, ``page_not_found``,
    ``resolution_too_low``, ``page_blank``.
    """

    code = "page_quality"

    def __init__(self, report: QualityReport) -> None:
        super().__init__(report.message, code=report.code)
        #: The full gate result (measurements and advice).
        self.report = report


class OcrError(ExternalProgramError):
    """Tesseract is missing, timed out, crashed or returned output that cannot be read.

    Codes: ``ocr_missing``, ``ocr_timeout``, ``ocr_crashed``, ``ocr_language_missing``.
    """

    code = "ocr_failed"


class CameraError(HardwareError):
    """The camera cannot be opened, returned no frame, or its capture program failed.

    Codes: ``camera_unavailable``, ``camera_timeout``, ``camera_failed``, ``camera_empty``.
    """

    code = "camera_failed"
