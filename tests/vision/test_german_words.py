"""Words of a German drawing read again with the German model (real Tesseract)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from appliance.config import load_config
from appliance.document import Box
from appliance.errors import ConfigError
from appliance.vision.germanlines import (
    _merged,
    german_spellings,
    is_german,
    respell,
    with_german_words_reread,
)
from appliance.vision.mosaic import cut_row, read_rows
from appliance.vision.ocrlines import OcrLine, OcrPage, OcrWord
from appliance.vision.settings import VisionSettings
from appliance.vision.titleblock import TitleBlock
from tests.vision.drawn_lines import LATIN_FONT, drawn_lines


def _page(lines: list[str]) -> tuple[np.ndarray, list[Box]]:
    return drawn_lines(lines, LATIN_FONT, 30, width=1100)


def _line(tokens: list[str], box: Box, conf: float = 90.0) -> OcrLine:
    """A line of words sharing out ``box`` (what the page pass would have given)."""
    width = (box.x1 - box.x0) / len(tokens)
    words = tuple(
        OcrWord(
            text=t,
            raw_text=t,
            conf=conf,
            box=Box(box.x0 + i * width, box.y0, box.x0 + (i + 1) * width, box.y1),
        )
        for i, t in enumerate(tokens)
    )
    return OcrLine(words=words, block=1, source_pass="upright")


def _english_lines(gray: np.ndarray, boxes: list[Box], settings: VisionSettings) -> list[OcrLine]:
    """The lines as the English model reads them, word for word."""
    english = read_rows(
        [cut_row(gray, b) for b in boxes], dataclasses.replace(settings, ocr_languages="eng")
    )
    return [_line([t for _, t, _ in row], box) for row, box in zip(english, boxes, strict=True)]


def test_umlauts_and_sharp_s_are_read_again_and_sizes_stay() -> None:
    drawn = ["3. Oberfläche brüniert", "Werkstück entgratet", "⌀30 k6 ±0.02 Maßstab 1:2"]
    gray, boxes = _page(drawn)
    settings = load_config().vision
    lines = _english_lines(gray, boxes, settings)
    # The English model has no umlauts: what the German pass is for.
    assert "ü" not in lines[0].text and "ü" not in lines[1].text
    page = OcrPage()
    result = with_german_words_reread(gray, lines, settings, page)
    assert result[0].text == "3. Oberfläche brüniert"
    assert result[1].text == "Werkstück entgratet"
    # Whatever the German model made of the size, its digits and signs are the English reading's.
    for before, after in zip(lines[2].words, result[2].words, strict=True):
        assert [c for c in after.text if not c.isalpha()] == [
            c for c in before.text if not c.isalpha()
        ]
        assert after.box == before.box
    assert not page.warnings


def test_a_word_whose_digits_or_signs_differ_is_not_replaced() -> None:
    line = _line(["Eht", "0.6", "Oberflache"], Box(0, 0, 300, 30))
    merged = _merged(line, [(0, "Eht", 95.0), (40, "0,6", 95.0), (80, "Oberfläche", 95.0)])
    assert [w.text for w in merged.words] == ["Eht", "0.6", "Oberfläche"]
    # An unsure German word, or one much longer, is not taken.
    assert _merged(line, [(0, "Eht", 95.0), (40, "0.6", 95.0), (80, "Oberfläche", 40.0)]) is line
    assert _merged(line, [(0, "Eht", 95.0), (40, "0.6", 95.0), (80, "Oberflächenteil", 95)]) is line
    # Words split differently do not pair up: the line stays as it was.
    assert _merged(line, [(0, "Eht", 95.0), (40, "0.6", 95.0)]) is line


def test_a_page_is_german_by_two_different_cue_words() -> None:
    box = Box(0, 0, 100, 20)
    german = [_line(["Werkstoff:", "C45"], box), _line(["MaBstab", "1:2"], box)]
    one_cue = [_line(["Werkstoff:", "C45"], box), _line(["Werkstoff", "C45"], box)]
    english = [_line(["MATERIAL:", "6061-T6"], box), _line(["SCALE", "1:2"], box)]
    assert is_german(german)
    assert not is_german(one_cue)
    assert not is_german(english)


def test_title_block_values_are_respelt_as_the_page_read_them() -> None:
    box = Box(0, 0, 100, 20)
    before = [_line(["3.", "Oberflache", "briiniert"], box), _line(["Ra", "0.8"], box)]
    after = [_line(["3.", "Oberfläche", "brüniert"], box), before[1]]
    spellings = german_spellings(before, after)
    assert spellings == {"Oberflache": "Oberfläche", "briiniert": "brüniert"}
    block = TitleBlock(
        box=box,
        fields={"surface_treatment": "briiniert", "title": "Druckstiick"},
        lines=[_line(["Oberflache"], box)],
    )
    respell(block, spellings)
    assert block.fields == {"surface_treatment": "brüniert", "title": "Druckstiick"}
    assert block.lines[0].text == "Oberfläche"


def test_one_english_word_read_two_ways_is_not_respelt() -> None:
    box = Box(0, 0, 100, 20)
    before = [_line(["Mabe"], box), _line(["Mabe"], box)]
    after = [_line(["Maße"], box), _line(["Mabe"], box)]
    assert german_spellings(before, after) == {"Mabe": "Maße"}
    after = [_line(["Maße"], box), _line(["Mäbe"], box)]
    assert german_spellings(before, after) == {}


def test_a_missing_german_model_leaves_the_lines_and_says_so() -> None:
    gray, boxes = _page(["3. Oberfläche brüniert"])
    settings = dataclasses.replace(load_config().vision, german_languages="nosuchlanguage")
    lines = [_line(["3.", "Oberflache", "briiniert"], boxes[0])]
    page = OcrPage()
    assert with_german_words_reread(gray, lines, settings, page) == lines
    assert page.warnings and page.warnings[0].startswith("German words not read again")


def test_german_languages_are_checked_in_the_configuration() -> None:
    with pytest.raises(ConfigError, match="german_languages"):
        VisionSettings(german_languages="deu; rm").validate()
    VisionSettings(german_languages="").validate()  # off
