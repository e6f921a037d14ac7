"""PDFs through PyMuPDF: text-layer pages become blocks with boxes; pages without text go to OCR.

Pages are processed one at a time and nothing but the blocks is kept, so a 500-page PDF is read in
bounded memory; a progress callback reports each page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pymupdf

from appliance.document import Box, DocumentSlice, SliceKind
from appliance.ingest.chunking import Block
from appliance.ingest.errors import IngestError, scrub

if TYPE_CHECKING:
    from appliance.config import Config

#: Resolution at which pages without a text layer are rendered for OCR.
OCR_DPI = 300
#: Lowest resolution a large page may be rendered at before it is refused: below this Tesseract
#: misses the small print of a drawing, so a smaller render would only index noise.
MIN_OCR_DPI = 150
#: Most pixels one rendered page may have (3 bytes each: 64 Mpx = 192 MB), whatever
#: ``vision.max_image_pixels`` allows: an A0 sheet at 150 dpi is 35 Mpx.
MAX_PAGE_PIXELS = 64_000_000
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
) -> Iterator[tuple[int, list[Block | DocumentSlice]]]:
    """(page number, blocks from the text layer or OCR slices) for every page, in order; a
    drawing's text-layer page also gives its title block, read in its ruled cells."""
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
                yield index + 1, [*blocks, *_title_block(page, index + 1)]
            else:
                yield index + 1, [*_ocr_page(page, index + 1, config, path)]
            if progress is not None:
                progress(index + 1, total)
    finally:
        doc.close()


def _title_block(page: pymupdf.Page, page_no: int) -> list[DocumentSlice]:
    """A drawing page's title block from its text layer (the vision package finds the cells)."""
    # Imported here, not at the top: see :func:`_ocr_page`.
    from appliance.vision.pdftitle import title_block_slices

    return title_block_slices(page, page_no)


def _ocr_page(page: pymupdf.Page, page_no: int, config: Config, path: Path) -> list[DocumentSlice]:
    """Render a page without a text layer and hand it to the vision package's OCR."""
    # Imported here, not at the top: the vision path loads OpenCV and its own modules (0.2 s on a
    # development PC), which reading a PDF's text layer never needs.
    from appliance.vision.ingest import ocr_page_image

    max_pixels = page_pixel_limit(config)
    scale = render_scale(page.rect.width, page.rect.height, max_pixels, path=path, page_no=page_no)
    image = render_page(page, scale, path=path, page_no=page_no, max_pixels=max_pixels)
    return ocr_page_image(image, page=page_no, config=config, scale=scale)


def page_pixel_limit(config: Config) -> int:
    """Most pixels one rendered page may have under this configuration."""
    return min(MAX_PAGE_PIXELS, config.vision.max_image_pixels)


def render_page(
    page: pymupdf.Page, scale: float, *, path: Path, page_no: int, max_pixels: int
) -> npt.NDArray[np.uint8]:
    """A page as an RGB array at ``scale`` (from :func:`render_scale`); MuPDF's failures coded."""
    try:
        pix = page.get_pixmap(
            matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csRGB, alpha=False
        )
        image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3).copy()
    except MemoryError:
        raise _too_large(path, page_no, page.rect.width, page.rect.height, max_pixels) from None
    except (pymupdf.mupdf.FzErrorBase, RuntimeError, ValueError) as err:
        raise IngestError(
            path, f"page {page_no} cannot be rendered ({scrub(str(err), path)})", code="pdf_corrupt"
        ) from None
    return image


def render_scale(
    width_pt: float, height_pt: float, max_pixels: int, *, path: Path, page_no: int
) -> float:
    """The zoom at which a page is rendered: OCR_DPI, lowered to fit ``max_pixels``.

    The size is checked from the page's own dimensions before a single pixel is allocated; a page
    too large even at MIN_OCR_DPI is refused with ``page_too_large``.
    """
    if not (width_pt > 0 and height_pt > 0):
        raise IngestError(path, f"page {page_no} has no area", code="pdf_corrupt")
    scale = OCR_DPI / 72.0
    pixels = width_pt * scale * height_pt * scale
    if pixels > max_pixels:
        scale *= (max_pixels / pixels) ** 0.5
    if scale < MIN_OCR_DPI / 72.0:
        raise _too_large(path, page_no, width_pt, height_pt, max_pixels)
    return scale


def _too_large(
    path: Path, page_no: int, width_pt: float, height_pt: float, max_pixels: int
) -> IngestError:
    mm = 25.4 / 72.0
    return IngestError(
        path,
        f"page {page_no} is {width_pt * mm:.0f} x {height_pt * mm:.0f} mm; rendered for OCR at "
        f"{MIN_OCR_DPI} dpi it would be over the limit of {max_pixels // 1_000_000} Mpx",
        code="page_too_large",
    )


def pdf_title(path: Path) -> str:
    """The title from the PDF's metadata, when it has one."""
    doc = open_pdf(path)
    try:
        return str((doc.metadata or {}).get("title") or "")
    finally:
        doc.close()
