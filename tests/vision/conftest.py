"""Fixtures for the vision tests: real drawings, a fresh data folder, fakes of external programs.

Fakes here are failure-injection programs put first on PATH (a Tesseract that hangs or crashes, an
``rpicam-still`` that hangs): they live in the tests, never in the product.
"""

from __future__ import annotations

import stat
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.config import Config, load_config


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """A configuration whose data directory is a fresh temporary folder."""
    return load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data")})


@pytest.fixture(scope="session")
def drawings(shared_data: Path) -> Path:
    """The eDOCr2 drawing samples (read in place, never copied)."""
    return shared_data / "drawings-edocr2" / "test_samples"


@pytest.fixture(scope="session")
def candle_rgb(drawings: Path) -> np.ndarray:
    """Candle_holder.jpg (1653x2339, title block with drawing number 2022001) as RGB."""
    return cv2.cvtColor(cv2.imread(str(drawings / "Candle_holder.jpg")), cv2.COLOR_BGR2RGB)


@pytest.fixture
def fake_program(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write an executable Python script named ``name`` into a bin folder of the test; returns it."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)

    def make(name: str, body: str) -> Path:
        path = folder / name
        path.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return path

    return make


@pytest.fixture(scope="session")
def make_photo() -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    """The :func:`photo_of` scene maker."""
    return photo_of


def photo_of(
    page_rgb: np.ndarray, *, frame: tuple[int, int] = (3000, 4000), seed: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """A camera-like photo: the page warped onto a darker desk; returns (photo, page->photo matrix)."""
    rng = np.random.default_rng(seed)
    height, width = frame
    desk = np.empty((height, width, 3), np.uint8)
    desk[:] = (92, 74, 58)  # brown bench top
    desk = np.clip(desk + rng.normal(0, 6, desk.shape), 0, 255).astype(np.uint8)
    ph, pw = page_rgb.shape[:2]
    src = np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    dst = np.float32(
        [
            [0.22 * width, 0.08 * height],
            [0.8 * width, 0.1 * height],
            [0.83 * width, 0.93 * height],
            [0.18 * width, 0.9 * height],
        ]
    )
    matrix = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(page_rgb, matrix, (width, height), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), matrix, (width, height))
    photo = np.where(mask[..., None] > 0, (warped * 0.85).astype(np.uint8), desk)
    return photo, matrix


@pytest.fixture(scope="session")
def make_soft_photo() -> Callable[[np.ndarray], np.ndarray]:
    """The :func:`soft_photo` maker."""
    return soft_photo


def soft_photo(page_rgb: np.ndarray) -> np.ndarray:
    """The page as a soft 12 MP camera shot (RGB): the sheet on a desk, seen a little from the side,
    light falling off across it, blurred (sigma 1.2 px), noisy and saved as JPEG 80."""
    height, width = 3000, 4000
    ph, pw = page_rgb.shape[:2]
    fit = 0.86 * min(width / pw, height / ph)
    x0, y0 = (width - pw * fit) / 2, (height - ph * fit) / 2
    x1, y1 = x0 + pw * fit, y0 + ph * fit
    src = np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    dst = np.float32(
        [[x0 + 40, y0 - 30], [x1 - 20, y0 + 35], [x1 + 30, y1 - 25], [x0 - 35, y1 + 20]]
    )
    matrix = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(page_rgb.astype(np.float32), matrix, (width, height))
    mask = cv2.warpPerspective(np.ones((ph, pw), np.float32), matrix, (width, height))
    frame = warped * mask[..., None] + np.float32([88, 72, 60]) * (1 - mask[..., None])
    light = 0.8 + 0.15 * np.linspace(0, 1, width, dtype=np.float32)[None, :]
    frame = cv2.GaussianBlur(frame * light[..., None], (0, 0), 1.2)
    frame += np.random.default_rng(7).normal(0, 4.0, frame.shape).astype(np.float32)
    ok, data = cv2.imencode(
        ".jpg", np.clip(frame, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 80]
    )
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)
