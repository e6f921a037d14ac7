"""Pages and images are capped in pixels before anything is rendered or decoded."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pymupdf
import pytest

from appliance.config import Config
from appliance.errors import InputError
from appliance.ingest import pdf
from appliance.ingest.errors import IngestError
from appliance.ingest.pipeline import build_document

OPENCLAW = str(Path(sys.executable).with_name("openclaw"))


def huge_page_pdf(path: Path, side_pt: float = 5000) -> Path:
    """A PDF of a few hundred bytes whose one page, without text, is ``side_pt`` points square."""
    doc = pymupdf.open()
    doc.new_page(width=side_pt, height=side_pt)
    doc.save(path)
    doc.close()
    return path


def bomb_png(path: Path, width: int = 30000, height: int = 30000, colour_type: int = 2) -> Path:
    """A valid PNG header claiming ``width`` x ``height`` pixels, with almost no data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    path.write_bytes(png)
    return path


def test_a_huge_page_is_refused_before_rendering(config: Config, tmp_path: Path) -> None:
    path = huge_page_pdf(tmp_path / "huge.pdf")
    assert path.stat().st_size < 1000
    with pytest.raises(IngestError) as caught:
        build_document(path, namespace="global", config=config)
    assert caught.value.code == "page_too_large"
    assert "huge.pdf: page 1" in caught.value.message and str(tmp_path) not in caught.value.message


def test_the_cli_reports_the_huge_page_with_its_code(config_file: Path, tmp_path: Path) -> None:
    path = huge_page_pdf(tmp_path / "huge.pdf")
    proc = subprocess.run(
        [OPENCLAW, "--config", str(config_file), "index", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=dict(os.environ),
    )
    assert proc.returncode == 4, proc.stderr
    assert "[page_too_large]" in proc.stderr and "Traceback" not in proc.stderr


def test_large_sheets_are_rendered_at_a_lower_resolution_within_the_cap() -> None:
    a4 = pdf.render_scale(595, 842, pdf.MAX_PAGE_PIXELS, path=Path("a.pdf"), page_no=1)
    assert a4 == pytest.approx(pdf.OCR_DPI / 72)
    a0 = pdf.render_scale(2384, 3370, pdf.MAX_PAGE_PIXELS, path=Path("a.pdf"), page_no=1)
    assert pdf.MIN_OCR_DPI / 72 <= a0 < pdf.OCR_DPI / 72
    assert 2384 * a0 * 3370 * a0 <= pdf.MAX_PAGE_PIXELS * 1.0001
    with pytest.raises(IngestError) as caught:
        pdf.render_scale(5000, 5000, pdf.MAX_PAGE_PIXELS, path=Path("a.pdf"), page_no=3)
    assert caught.value.code == "page_too_large" and "page 3" in caught.value.message
    with pytest.raises(IngestError) as degenerate:
        pdf.render_scale(0, 800, pdf.MAX_PAGE_PIXELS, path=Path("a.pdf"), page_no=1)
    assert degenerate.value.code == "pdf_corrupt"


def test_a_decompression_bomb_png_is_refused_from_its_header(
    config: Config, tmp_path: Path
) -> None:
    path = bomb_png(tmp_path / "bomb.png")
    with pytest.raises(InputError) as caught:
        build_document(path, namespace="global", config=config)
    assert caught.value.code == "image_too_large"


def test_an_image_is_also_capped_in_memory(tmp_path: Path) -> None:
    from appliance.vision.images import read_image

    # Under the pixel limit, but RGBA: decoding it and its RGB copy would take over the memory cap.
    path = bomb_png(tmp_path / "wide.png", 10900, 10900, colour_type=6)
    with pytest.raises(InputError) as caught:
        read_image(path, max_pixels=120_000_000)
    assert caught.value.code == "image_too_large" and "MB to decode" in caught.value.message
