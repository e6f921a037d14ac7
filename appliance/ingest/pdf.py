"""PDFs through PyMuPDF: text-layer pages become blocks with boxes; pages without text go to OCR.

Pages are processed one at a time and nothing but the blocks is kept, so a 500-page PDF is read in
bounded memory; a progress callback reports each page.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pymupdf

from appliance.index.slices import Box, DocumentSlice, SliceKind
from appliance.ingest.chunking import Block
from appliance.ingest.errors import IngestError, scrub

if TYPE_CHECKING:
    from appliance.config import Config

#: Resolution at which pages without a text layer are rendered for OCR.
OCR_DPI = 300
#: A page whose text layer has fewer characters than this is treated as a scan.
MIN_TEXT_CHARS = 20

ProgressFn = Callable[[int, int], None]


def open_pdf(path: Path) -> pymupdf.Document:
    """Open a PDF, refusing corrupt, encrypted and empty files with specific errors."""
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as err:
        raise IngestError(
            path, f"is not a readable PDF ({scrub(str(err), path)})", code="pdf_corrupt"
        ) from None
    if doc.needs_pass:
        doc.close()
        raise IngestError(path, "is encrypted with a password", code="pdf_encrypted")
    if doc.page_count == 0:
        doc.close()
        raise IngestError(path, "has no pages", code="pdf_empty")
    return doc


def _text_blocks(page: pymupdf.Page, page_no: int) -> list[Block]:
    blocks = []
    for x0, y0, x1, y1, text, _no, kind in page.get_text("blocks", sort=True):
        if kind != 0 or not text.strip():
            continue  # kind 1 is an image block
        blocks.append(
            Block(
                text=" ".join(text.split()),
                kind=SliceKind.PROSE,
                page=page_no,
                box=Box(x0, y0, x1, y1),
            )
        )
    return blocks


def pdf_pages(
    path: Path, *, config: Config, progress: ProgressFn | None = None
) -> Iterator[tuple[int, list[Block] | list[DocumentSlice]]]:
    """(page number, blocks from the text layer or OCR slices) for every page, in order."""
    doc = open_pdf(path)
    try:
        total = doc.page_count
        for index in range(total):
            try:
                page = doc.load_page(index)
                blocks = _text_blocks(page, index + 1)
            except (RuntimeError, ValueError) as err:
                raise IngestError(
                    path,
                    f"page {index + 1} cannot be read ({scrub(str(err), path)})",
                    code="pdf_corrupt",
                ) from None
            if sum(len(b.text) for b in blocks) >= MIN_TEXT_CHARS:
                yield index + 1, blocks
            else:
                yield index + 1, _ocr_page(page, index + 1, config)
            if progress is not None:
                progress(index + 1, total)
    finally:
        doc.close()


def _ocr_page(page: pymupdf.Page, page_no: int, config: Config) -> list[DocumentSlice]:
    """Render a page without a text layer and hand it to the vision package's OCR."""
    import numpy as np

    try:
        vision = importlib.import_module("appliance.vision.ingest")
    except ModuleNotFoundError:
        return []  # a build without the vision package indexes text-layer pages only
    scale = OCR_DPI / 72.0
    pix = page.get_pixmap(
        matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csRGB, alpha=False
    )
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3).copy()
    del pix
    slices: list[DocumentSlice] = vision.ocr_page_image(
        image, page=page_no, config=config, scale=scale
    )
    return slices


def pdf_title(path: Path) -> str:
    """The title from the PDF's metadata, when it has one."""
    doc = open_pdf(path)
    try:
        return str((doc.metadata or {}).get("title") or "")
    finally:
        doc.close()
