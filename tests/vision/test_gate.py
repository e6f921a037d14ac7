"""The quality gate on camera-like frames made from a real drawing: each rejection says why."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from appliance.config import Config
from appliance.vision.analysis import analyse_image
from appliance.vision.errors import PageQualityError
from appliance.vision.page import correct_page
from appliance.vision.quality import assess


def _verdict(image: np.ndarray, config: Config) -> str:
    return assess(image, correct_page(image), config.vision).code


def _rejected(image: np.ndarray, config: Config, *, strict: bool = True) -> PageQualityError:
    with pytest.raises(PageQualityError) as caught:
        analyse_image(image, config.vision, strict=strict)
    return caught.value


@pytest.fixture(scope="module")
def photo(candle_rgb: np.ndarray, make_photo) -> np.ndarray:  # type: ignore[no-untyped-def]
    return make_photo(candle_rgb)[0]


def test_sharp_photo_passes(photo: np.ndarray, config: Config) -> None:
    report = assess(photo, correct_page(photo), config.vision)
    assert report.ok, report
    assert report.metrics["page_found"] == 1.0


def test_all_black_frame_is_too_dark_even_for_the_inbox(config: Config) -> None:
    black = np.zeros((1200, 1600, 3), np.uint8)
    err = _rejected(black, config, strict=False)
    assert err.code == "too_dark"
    assert err.report.message.startswith("Too dark")


def test_blank_sheet(config: Config, make_photo) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(3)
    sheet = np.clip(225 + rng.normal(0, 3, (2339, 1653, 3)), 0, 255).astype(np.uint8)
    err = _rejected(make_photo(sheet)[0], config, strict=False)
    assert err.code == "page_blank"


def test_photo_without_a_page(config: Config) -> None:
    rng = np.random.default_rng(4)
    scene = np.empty((1500, 2000, 3), np.uint8)
    scene[:] = (70, 90, 60)
    for _ in range(40):  # tools and parts lying on a green bench mat
        colour = tuple(int(c) for c in rng.integers(0, 200, 3))
        centre = (int(rng.integers(0, 2000)), int(rng.integers(0, 1500)))
        axes = (int(rng.integers(20, 200)), int(rng.integers(10, 80)))
        cv2.ellipse(scene, centre, axes, float(rng.integers(0, 180)), 0, 360, colour, -1)
    err = _rejected(scene, config, strict=False)
    assert err.code == "page_not_found"


def test_blurred_shot_is_rejected_with_advice(photo: np.ndarray, config: Config) -> None:
    blurred = cv2.GaussianBlur(photo, (0, 0), 6)
    err = _rejected(blurred, config)
    assert err.code == "too_blurry"
    assert err.report.message == "Too blurry — hold it still."
    assert err.report.metrics["sharpness"] < config.vision.min_sharpness


def test_glare_spot(photo: np.ndarray, config: Config) -> None:
    shiny = photo.copy()
    cv2.ellipse(shiny, (1500, 1200), (380, 260), 20, 0, 360, (255, 255, 255), -1)
    assert _verdict(shiny, config) == "glare"


def test_page_too_small_in_the_picture(candle_rgb: np.ndarray, config: Config) -> None:
    tiny = cv2.resize(candle_rgb, (250, 354), interpolation=cv2.INTER_AREA)
    assert _verdict(tiny, config) == "resolution_too_low"


def test_strict_gate_rejects_what_the_inbox_accepts(photo: np.ndarray, config: Config) -> None:
    shiny = photo.copy()
    cv2.ellipse(shiny, (1500, 1200), (380, 260), 20, 0, 360, (255, 255, 255), -1)
    err = _rejected(shiny, config, strict=True)
    assert err.code == "glare"
    report = assess(shiny, correct_page(shiny), config.vision)
    assert not report.unusable  # a file dropped in the inbox with glare is still read
