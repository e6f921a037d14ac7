"""Broken and hostile image files, made in the test: each gives its own error code, nothing crashes."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import pytest

from appliance.config import Config
from appliance.errors import InputError
from appliance.vision.errors import ImageInputError
from appliance.vision.images import read_image
from appliance.vision.ingest import ingest_image


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims ``width`` x ``height`` with a few bytes of data (a decompression bomb's shape)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


def _ingest(path: Path, config: Config) -> None:
    ingest_image(path, namespace="shop", source=path.name, config=config)


def test_zero_byte_file(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "empty.jpg"
    path.write_bytes(b"")
    with pytest.raises(ImageInputError) as caught:
        _ingest(path, config)
    assert caught.value.code == "image_empty"


def test_truncated_jpeg(tmp_path: Path, config: Config, drawings: Path) -> None:
    data = (drawings / "LIU0010.jpg").read_bytes()
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(ImageInputError) as caught:
        _ingest(path, config)
    assert caught.value.code == "image_truncated"
    assert str(tmp_path) not in caught.value.message  # no absolute path in an error


def test_truncated_png(tmp_path: Path, config: Config, candle_rgb) -> None:  # type: ignore[no-untyped-def]
    ok, encoded = cv2.imencode(".png", candle_rgb)
    assert ok
    path = tmp_path / "cut.png"
    path.write_bytes(encoded.tobytes()[:5000])
    with pytest.raises(ImageInputError) as caught:
        _ingest(path, config)
    assert caught.value.code == "image_truncated"


def test_text_file_named_png(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "notes.png"
    path.write_text("The bracket takes 25 N·m.\n" * 20, encoding="utf-8")
    with pytest.raises(ImageInputError) as caught:
        _ingest(path, config)
    assert caught.value.code == "image_not_an_image"


def test_20000_pixel_square_is_refused_before_decoding(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(_png_header_only(20000, 20000))
    assert path.stat().st_size < 1000  # tiny on disk, 400 megapixels decoded
    with pytest.raises(ImageInputError) as caught:
        _ingest(path, config)
    assert caught.value.code == "image_too_large"
    assert "400000000 pixels" in caught.value.message


def test_pixel_limit_is_configurable(tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    path.write_bytes(_png_header_only(3000, 1000))
    with pytest.raises(ImageInputError) as caught:
        read_image(path, max_pixels=2_000_000)  # between the limit and Pillow's 2x: our own check
    assert caught.value.code == "image_too_large"
    assert "3000x1000 pixels" in caught.value.message


def test_errors_are_input_errors_with_exit_code(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "empty.png"
    path.write_bytes(b"")
    with pytest.raises(InputError) as caught:
        _ingest(path, config)
    assert int(caught.value.exit_code) == 4
    assert caught.value.to_dict() == {
        "code": "image_empty",
        "message": "empty.png: the file is empty (0 bytes)",
    }
