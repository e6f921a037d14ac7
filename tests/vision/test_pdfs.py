"""PDFs on the vision path: broken ones are refused with their code and leave the index unchanged;
a page without a text layer is rendered and OCRed with boxes in PDF points."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from appliance.config import Config
from appliance.document import SliceKind
from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore
from appliance.ingest.pipeline import build_document, ingest_path

pytestmark = pytest.mark.slow  # real Tesseract on full drawings


def _scanned_pdf(path: Path, image: Path, pages: int = 1) -> Path:
    """An image-only PDF (no text layer), like a scanner makes."""
    with pymupdf.open() as pdf:
        for _ in range(pages):
            page = pdf.new_page(width=595.28, height=841.89)
            page.insert_image(page.rect, filename=str(image))
        pdf.save(path)
    return path


def _broken_pdfs(tmp_path: Path, good: Path) -> dict[str, Path]:
    encrypted = tmp_path / "encrypted.pdf"
    with pymupdf.open(good) as pdf:
        pdf.save(
            encrypted, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner"
        )
    corrupt = tmp_path / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 8)
    empty = tmp_path / "empty.pdf"
    # A syntactically valid PDF whose page tree holds no page (PyMuPDF refuses to save one).
    empty.write_bytes(
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n"
    )
    return {"pdf_encrypted": encrypted, "pdf_corrupt": corrupt, "pdf_empty": empty}


def test_scanned_pdf_page_goes_through_ocr(
    tmp_path: Path, config: Config, shared_data: Path
) -> None:
    render = (
        shared_data / "drawings-edocr2" / "derived_pdf_textlayer" / "Elevator_bottom.300dpi.png"
    )
    pdf = _scanned_pdf(tmp_path / "scan.pdf", render)
    doc = build_document(pdf, namespace="shop", config=config, source="scan.pdf")
    assert {s.page for s in doc.slices} == {1}
    for item in doc.slices:
        assert item.box is not None
        assert 0 <= item.box.x0 < item.box.x1 <= 596 and 0 <= item.box.y0 < item.box.y1 <= 842
    assert any(s.kind is SliceKind.TITLE_BLOCK for s in doc.slices)
    assert any("90.00" in s.text for s in doc.slices if s.kind is SliceKind.DIMENSION)


def test_broken_pdfs_leave_the_index_unchanged(
    tmp_path: Path, config: Config, shared_data: Path, embedder: Embedder
) -> None:
    good = shared_data / "drawings-edocr2" / "Aufspannung.PDF"
    broken = _broken_pdfs(tmp_path, good)
    with IndexStore.open(config, embedder=embedder) as store:
        first = ingest_path(store, good, "shop", config=config)
        assert first.indexed == 1, first.failures
        before = [(s.source, s.content_hash) for s in store.list_sources()]
        for code, path in broken.items():
            report = ingest_path(store, path, "shop", config=config)
            assert [err.code for _, err in report.failures] == [code]
            assert str(tmp_path) not in report.failures[0][1].message
        assert [(s.source, s.content_hash) for s in store.list_sources()] == before
