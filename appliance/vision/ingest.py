"""The vision package's contract with the ingest pipeline: image files and scanned PDF pages.

``ingest_image`` turns a drawing photo or scan into a :class:`SourceDocument`; ``ocr_page_image`` turns
a rendered PDF page without a text layer into slices. Both raise coded errors for bad input
(:class:`ImageInputError`, :class:`PageQualityError`) and for Tesseract failures (:class:`OcrError`);
nothing is written to the index here, so a failure leaves the index unchanged.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from appliance.document import DocumentSlice, SourceDocument
from appliance.errors import public_name
from appliance.vision.analysis import Analysis, analyse_image, analyse_render
from appliance.vision.artifacts import write_artifacts
from appliance.vision.errors import ImageInputError
from appliance.vision.images import decode_image

if TYPE_CHECKING:
    from appliance.config import Config


def ingest_image(path: Path, *, namespace: str, source: str, config: Config) -> SourceDocument:
    """Read an image file (JPEG, PNG, TIFF ...), correct the page, OCR it and read its title block.

    Files dropped in the inbox pass the quality gate unless the page is unusable (too dark, blank,
    no page in it): a blurry scan is still read, and the gate's findings are kept in
    ``extra["warnings"]``.
    """
    name = public_name(path)
    try:
        data = path.read_bytes()
        mtime = path.stat().st_mtime
    except FileNotFoundError:
        raise ImageInputError(f"{name}: file not found", code="image_not_found") from None
    except OSError as err:
        raise ImageInputError(
            f"{name}: cannot be read ({err.strerror})", code="image_unreadable"
        ) from None
    image, media_type = decode_image(data, name=name, max_pixels=config.vision.max_image_pixels)
    analysis = analyse_image(image, config.vision, strict=False)
    return source_document(
        analysis,
        image,
        data=data,
        namespace=namespace,
        source=source,
        config=config,
        media_type=media_type,
        mtime=mtime,
        fallback_title=path.stem,
    )


def source_document(
    analysis: Analysis,
    image: np.ndarray,
    *,
    data: bytes,
    namespace: str,
    source: str,
    config: Config,
    media_type: str,
    mtime: float,
    fallback_title: str,
) -> SourceDocument:
    """Package an analysis as a source document and store its artifacts."""
    content_hash = hashlib.sha256(data).hexdigest()
    artifacts = write_artifacts(config, content_hash, original=image, corrected=analysis.page.gray)
    fields = analysis.fields
    height, width = image.shape[:2]
    extra: dict[str, object] = {
        "title_block": fields,
        "artifacts": {k: artifacts[k] for k in ("corrected", "thumbnail")},
        "thumbnail_scale": artifacts["thumbnail_scale"],
        "image_size": [width, height],
        "corrected_to_original": [
            [round(float(v), 6) for v in row] for row in analysis.page.to_original
        ],
        "page_found": analysis.page.page_found,
        "quality": analysis.quality.to_dict(),
        "ocr": {
            "engine": "tesseract",
            "languages": config.vision.ocr_languages,
            "layout": analysis.ocr.layout,
        },
        "timings_s": {k: round(v, 3) for k, v in analysis.timings.items()},
    }
    if analysis.warnings:
        extra["warnings"] = analysis.warnings
    return SourceDocument(
        source=source,
        namespace=namespace,
        content_hash=content_hash,
        slices=tuple(analysis.slices),
        mtime=mtime,
        media_type=media_type,
        title=fields.get("title") or fallback_title,
        extra=extra,
    )


def ocr_page_image(
    image_rgb: np.ndarray, *, page: int, config: Config, scale: float
) -> list[DocumentSlice]:
    """Slices of a PDF page without a text layer, rendered at ``scale`` pixels per point.

    Boxes are divided by ``scale``, so they are in PDF points like the text-layer pages. A blank page
    gives ``[]``; a Tesseract failure raises :class:`OcrError` for the pipeline to report.
    """
    if image_rgb.ndim not in (2, 3) or min(image_rgb.shape[:2]) < 16:
        raise ImageInputError(f"page {page}: the render is empty", code="image_empty")
    return analyse_render(image_rgb, config.vision, page_no=page, scale=scale)
