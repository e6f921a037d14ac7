"""Tolerance stacks, fits, degree signs, split callouts, title-block values and page orientation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.config import Config
from appliance.document import Box
from appliance.vision.ocr import prepare
from appliance.vision.ocrlines import build_lines
from appliance.vision.orientation import turn_page, upright
from appliance.vision.page import correct_page
from appliance.vision.tesseract import Orientation, RawWord, detect_orientation
from appliance.vision.titlefields import clean_value, match_label
from appliance.vision.tolerances import (
    degree_mark,
    find_stack,
    is_deviation_pair,
    is_fit_pair,
    read_stacks,
)


def test_deviation_pairs_and_fits_have_their_iso_forms() -> None:
    assert is_deviation_pair("+0,1", "0")
    assert is_deviation_pair("0", "-0.1")
    assert is_deviation_pair("+0.02", "-0.01")
    assert not is_deviation_pair("0.1", "0")  # no sign: two stacked numbers, not deviations
    assert not is_deviation_pair("+0.1", "12")  # the other is neither signed nor zero
    assert not is_deviation_pair("+0.1", "")
    assert is_fit_pair("H7", "k6")
    assert not is_fit_pair("h7", "K6")  # the hole's class is the capital one, on top
    assert not is_fit_pair("H7", "6")


def test_a_tolerance_stack_after_a_value_is_found_and_read(drawings: Path) -> None:
    """LIU0010: "⌀16,5" followed by "+0,1" over "0" in small type (whole-page OCR reads "*o")."""
    gray = cv2.imread(str(drawings / "LIU0010.jpg"), cv2.IMREAD_GRAYSCALE)
    prepared = prepare(gray, Config().vision)
    s = prepared.scale
    value = Box(452.5 * s, 852 * s, 544 * s, 893.5 * s)  # the word box of "⌀16,5" on the page
    spot = find_stack(cv2.bitwise_not(prepared.image), value)
    assert spot is not None
    assert spot.upper.y1 <= spot.lower.y0 + 2
    assert spot.box.x0 >= value.x1 - 5
    (stack,) = read_stacks([(prepared.image, spot)], Config().vision)
    assert stack is not None
    assert (stack.upper.replace(",", "."), stack.lower) == ("+0.1", "0")


def test_plain_text_after_a_value_is_not_a_stack() -> None:
    """One line of same-size glyphs after the value ("25 mm") has no second row."""
    image = np.full((120, 500), 255, np.uint8)
    cv2.putText(image, "25 mm", (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 0, 3)
    ink = cv2.bitwise_not(image)
    ys, xs = np.nonzero(ink[:, :85])
    value = Box(float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    assert find_stack(ink, value) is None


def _digits_with_mark(mark: str) -> tuple[np.ndarray, Box]:
    """ "45" drawn with a raised ring after it, or with a full-size 9, and the digits' box."""
    image = np.full((140, 320), 255, np.uint8)
    cv2.putText(image, "45", (20, 100), cv2.FONT_HERSHEY_SIMPLEX, 2.2, 0, 4)
    ink = cv2.bitwise_not(image)
    ys, xs = np.nonzero(ink)
    box = Box(float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    height = box.y1 - box.y0
    if mark == "ring":
        radius = int(0.16 * height)
        centre = (int(box.x1 + 0.15 * height + radius), int(box.y0 + radius + 1))
        cv2.circle(image, centre, radius, 0, 3)
    elif mark == "nine":
        cv2.putText(image, "9", (int(box.x1) + 8, 100), cv2.FONT_HERSHEY_SIMPLEX, 2.2, 0, 4)
    return cv2.bitwise_not(image), box


def test_a_small_raised_ring_after_a_number_is_a_degree_sign() -> None:
    ink, digits = _digits_with_mark("ring")
    assert degree_mark(ink, digits) == "after"
    _ys, xs = np.nonzero(ink)
    whole = Box(digits.x0, digits.y0, float(xs.max() + 1), digits.y1)  # OCR read "459"
    assert degree_mark(ink, whole) == "inside"


def test_a_full_size_digit_or_nothing_after_a_number_is_not_a_degree_sign() -> None:
    ink, digits = _digits_with_mark("nine")
    _ys, xs = np.nonzero(ink)
    whole = Box(digits.x0, digits.y0, float(xs.max() + 1), digits.y1)
    assert degree_mark(ink, whole) == ""
    plain, digits = _digits_with_mark("")
    assert degree_mark(plain, digits) == ""


def test_words_far_apart_on_one_tesseract_line_are_separate_callouts() -> None:
    def word(text: str, left: int) -> RawWord:
        return RawWord(text, 90.0, left, 100, 80, 30, (1, 1, 1))

    lines = build_lines(
        [word("⌀70.50", 100), word("±0.05", 190), word("15.50", 400)], 1.0, "upright", None
    )
    assert [line.text for line in lines] == ["⌀70.50 ±0.05", "15.50"]
    text_page = build_lines(
        [word("far", 100), word("apart", 400)], 1.0, "upright", None, drawing=False
    )
    assert [line.text for line in text_page] == ["far apart"]


def test_title_block_values_and_bilingual_labels() -> None:
    assert clean_value("drawing_number", "Halter]") == "Halter1"
    assert clean_value("drawing_number", "[A-12]") == "A-12"  # paired brackets are stripped
    assert match_label(["Scale/skala"], 0) == ("scale", 1)
    assert match_label(["Description/benamning"], 0) == ("title", 1)


def test_a_turned_page_maps_boxes_back_to_the_original() -> None:
    gray = np.full((200, 300), 255, np.uint8)
    gray[20:40, 50:90] = 0
    page = correct_page(cv2.cvtColor(gray, cv2.COLOR_GRAY2RGB), find_page=False)
    for rotate in (90, 180, 270):
        turned = turn_page(page, rotate)
        ys, xs = np.nonzero(turned.gray < 128)
        box = Box(float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
        back = turned.box_to_original(box)
        assert back.to_list() == pytest.approx([50, 20, 90, 40], abs=1.5), rotate


@pytest.mark.parametrize("rotate", [90, 180])
def test_a_page_photographed_sideways_or_upside_down_is_turned_upright(
    shared_data: Path, rotate: int
) -> None:
    page_image = cv2.imread(str(shared_data / "scans/tesseract_test/phototest.tif"))
    code = cv2.ROTATE_90_CLOCKWISE if rotate == 90 else cv2.ROTATE_180
    turned_image = cv2.cvtColor(cv2.rotate(page_image, code), cv2.COLOR_BGR2RGB)
    settings = Config().vision
    page = correct_page(turned_image, find_page=False)
    found = detect_orientation(page.gray, settings)
    assert (found.rotate + rotate) % 360 == 0
    fixed, turned, warnings = upright(page, settings)
    assert (turned, warnings) == (found.rotate, [])
    assert fixed.gray.shape[:2] == page_image.shape[:2]


def test_an_upright_drawing_with_a_title_block_skips_orientation_detection(
    candle_rgb: np.ndarray,
) -> None:
    page = correct_page(candle_rgb)
    fixed, turned, _ = upright(page, Config().vision)
    assert turned == 0 and fixed is page


@pytest.mark.parametrize(
    ("reported", "expected"),
    [
        (Orientation(90, 3.0), 270),  # confident but upside down: the title block corrects it
        (Orientation(270, 0.5), 270),  # unsure, but its turn puts the title block in the corner
        (Orientation(180, 0.5), 270),  # unsure: the page's words read best turned 270
    ],
)
def test_osd_is_checked_against_the_title_block(
    drawings: Path, monkeypatch: pytest.MonkeyPatch, reported: Orientation, expected: int
) -> None:
    """BM_part turned 90 degrees clockwise; Tesseract's OSD answer is injected."""
    import appliance.vision.orientation as orientation

    monkeypatch.setattr(orientation, "detect_orientation", lambda image, settings: reported)
    image = cv2.cvtColor(cv2.imread(str(drawings / "BM_part.jpg")), cv2.COLOR_BGR2RGB)
    page = correct_page(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE))
    _, turned, warnings = upright(page, Config().vision)
    assert (turned, warnings) == (expected, [])


def test_unsure_osd_and_an_undecided_word_sample_leave_the_page_alone(
    drawings: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BM_part turned 90 degrees; OSD unsure of a turn that puts no title block in the corner, and
    the word sample reading every turn equally (injected): the page is left as it is."""
    import appliance.vision.orientation as orientation

    monkeypatch.setattr(
        orientation, "detect_orientation", lambda image, settings: Orientation(180, 0.5)
    )
    monkeypatch.setattr(
        orientation,
        "turn_scores",
        lambda gray, shapes, settings: dict.fromkeys((0, 90, 180, 270), 500.0),
    )
    image = cv2.cvtColor(cv2.imread(str(drawings / "BM_part.jpg")), cv2.COLOR_BGR2RGB)
    page = correct_page(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE))
    _, turned, warnings = upright(page, Config().vision)
    assert (turned, warnings) == (0, [])


def test_a_table_in_the_corner_of_a_page_on_its_side_is_not_taken_for_its_title_block(
    candle_rgb: np.ndarray,
) -> None:
    """Candle_holder turned 90 degrees clockwise has table cells in its new bottom-right corner;
    its words stand on end, so OSD is asked and the page is turned back."""
    from appliance.vision.textsample import word_shapes

    page = correct_page(cv2.rotate(candle_rgb, cv2.ROTATE_90_CLOCKWISE))
    assert word_shapes(page.gray).sideways
    assert not word_shapes(correct_page(candle_rgb).gray).sideways
    fixed, turned, warnings = upright(page, Config().vision)
    assert (turned, warnings) == (270, [])
    assert fixed.gray.shape[:2] == correct_page(candle_rgb).gray.shape[:2]


def test_an_upside_down_page_osd_is_unsure_of_is_settled_by_reading_its_words(
    drawings: Path,
) -> None:
    """halter upside down: OSD's confidence is far below the threshold; the words read upright
    only when the page is turned 180 degrees."""
    image = cv2.cvtColor(cv2.imread(str(drawings / "halter.jpg")), cv2.COLOR_BGR2RGB)
    page = correct_page(cv2.rotate(image, cv2.ROTATE_180))
    settings = Config().vision
    from appliance.vision.orientation import OSD_TEXT_PX

    prepared = prepare(page.gray, dataclasses.replace(settings, ocr_text_height_px=OSD_TEXT_PX))
    assert (
        detect_orientation(prepared.image, settings).confidence
        < settings.min_orientation_confidence
    )
    _, turned, warnings = upright(page, settings)
    assert (turned, warnings) == (180, [])
