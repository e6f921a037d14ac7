"""Fuzzing the file readers: mutated drawings, PDFs, notes and WAVs under hostile names.

Each example starts from a real small file (a PNG/JPEG/TIFF drawing with text, a PDF with a text
layer, a scanned PDF page, a Markdown note, a WAV) and flips, cuts, inserts or overwrites bytes,
then hands it to the reader the appliance uses (``build_document`` for documents, ``read_wav`` for
audio). The file is either read or refused with a coded error; no other exception escapes.
"""

from __future__ import annotations

import io
import os
import struct
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pymupdf
import pytest
import soundfile as sf
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from appliance.audio.wavio import read_wav
from appliance.config import Config, load_config
from appliance.errors import OpenClawError
from appliance.ingest.pipeline import build_document
from tests.fuzzing import long, quick


def _drawing(fmt: str) -> bytes:
    image = Image.new("L", (220, 90), 255)
    draw = ImageDraw.Draw(image)
    draw.rectangle((4, 4, 215, 85), outline=0, width=2)
    draw.text((12, 20), "A-1024 REV C", fill=0)
    draw.text((12, 50), "TORQUE 25 N m", fill=0)
    out = io.BytesIO()
    image.save(out, format=fmt)
    return out.getvalue()


def _pdf(scanned: bool) -> bytes:
    with pymupdf.open() as doc:
        page = doc.new_page(width=300, height=200)
        if scanned:
            page.insert_image(page.rect, stream=_drawing("PNG"))
        else:
            page.insert_text((20, 40), "Note 3: the bracket bolts take 25 N m.")
        return bytes(doc.tobytes())


def _wav() -> bytes:
    out = io.BytesIO()
    tone = (np.sin(np.arange(1600) * 0.2) * 8000).astype(np.int16)
    sf.write(out, tone, 16000, subtype="PCM_16", format="WAV")
    return out.getvalue()


#: Suffix -> a real, small file of that kind.
SEEDS: dict[str, bytes] = {
    ".png": _drawing("PNG"),
    ".jpg": _drawing("JPEG"),
    ".tif": _drawing("TIFF"),
    ".pdf": _pdf(scanned=False),
    ".md": "# Bracket\n\nThe M8 bolts take **25 N m**.\n\n- washer\n- Ø8 H7\n".encode(),
    ".wav": _wav(),
}
SCANNED_PDF = _pdf(scanned=True)
_EXTREMES = [0, 1, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000, 0xFFFF]


def _mutate(data: bytes, ops: list[tuple[int, int, int, bytes]]) -> bytes:
    """Apply (kind, position, value, bytes) edits: flip, cut, insert, overwrite a 32-bit field."""
    buf = bytearray(data)
    for kind, position, value, extra in ops:
        at = position % (len(buf) + 1)
        if kind == 0 and buf:
            buf[at % len(buf)] ^= value & 0xFF or 0x01
        elif kind == 1:
            del buf[at:]
        elif kind == 2:
            buf[at:at] = extra
        elif len(buf) >= 4:
            at = min(at, len(buf) - 4)
            struct.pack_into("<I", buf, at, _EXTREMES[value % len(_EXTREMES)])
    return bytes(buf)


_ops = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.integers(0, 2**31),
        st.integers(0, 255),
        st.binary(max_size=16),
    ),
    min_size=1,
    max_size=4,
)
#: File names of any bytes (but '/' and NUL, which no Linux name holds).
_names = st.binary(min_size=1, max_size=24).map(
    lambda b: b.replace(b"/", b"_").replace(b"\x00", b"_")
)


@st.composite
def mutated_files(draw: Any) -> tuple[bytes, str, bytes]:
    suffix = draw(st.sampled_from([*sorted(SEEDS), ".pdf"]))
    seed = SEEDS[suffix] if draw(st.booleans()) or suffix != ".pdf" else SCANNED_PDF
    return draw(_names), suffix, _mutate(seed, draw(_ops))


@pytest.fixture(scope="module")
def reader_config() -> Config:
    data = tempfile.mkdtemp(prefix="fuzz-readers-")
    return load_config(environ={"OPENCLAW_PATHS__DATA_DIR": data})


def read_one(config: Config, name: bytes, suffix: str, data: bytes) -> None:
    folder = tempfile.mkdtemp(prefix="fuzz-file-")
    raw = os.fsencode(folder) + b"/" + name + suffix.encode()
    with open(raw, "wb") as fh:
        fh.write(data)
    path = Path(os.fsdecode(raw))
    reader: Callable[[], Any] = (
        (lambda: read_wav(path))
        if suffix == ".wav"
        else (lambda: build_document(path, namespace="global", config=config))
    )
    try:
        reader()
    except OpenClawError as err:
        assert err.code and err.message
        assert folder not in err.message  # names only, never folders
        err.message.encode("utf-8")  # printable, loggable, sendable as JSON
    finally:
        os.unlink(raw)
        os.rmdir(folder)


@quick(60)
@given(mutated_files())
def test_every_mutated_file_is_read_or_refused_with_a_code(
    reader_config: Config, case: tuple[bytes, str, bytes]
) -> None:
    read_one(reader_config, *case)


@pytest.mark.fuzz
@long(0.25)
@given(mutated_files())
def test_fuzz_the_file_readers(reader_config: Config, case: tuple[bytes, str, bytes]) -> None:
    read_one(reader_config, *case)


def test_the_seeds_themselves_are_read(reader_config: Config, tmp_path: Path) -> None:
    """The mutations start from files the readers accept (else the fuzz only tests refusals)."""
    for suffix, data in [*SEEDS.items(), (".pdf", SCANNED_PDF)]:
        path = tmp_path / f"seed{suffix}"
        path.write_bytes(data)
        if suffix == ".wav":
            assert len(read_wav(path)[0]) == 1600
        else:
            assert build_document(path, namespace="global", config=reader_config).slices
