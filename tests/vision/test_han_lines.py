"""Chinese notes of a Chinese drawing read again with the Chinese model (real Tesseract)."""

from __future__ import annotations

import dataclasses

import numpy as np

from appliance.config import load_config
from appliance.document import Box
from appliance.vision.hanlines import _best_chinese, _chinese_first, with_han_lines_reread
from appliance.vision.mosaic import cut_row, read_rows
from appliance.vision.ocrlines import OcrLine, OcrPage, OcrWord
from tests.vision.drawn_lines import CJK_FONT, drawn_lines


def _page(lines: list[str], size: int = 34) -> tuple[np.ndarray, list[Box]]:
    return drawn_lines(lines, CJK_FONT, size)


def _line(text: str, conf: float, box: Box) -> OcrLine:
    word = OcrWord(text=text, raw_text=text, conf=conf, box=box)
    return OcrLine(words=(word,), block=1, source_pass="upright")


def test_an_unsure_chinese_note_is_read_again_and_english_lines_stay() -> None:
    gray, boxes = _page(["1. 未注倒角 C1", "REMOVE ALL BURRS", "2. 锐边倒钝"])
    lines = [
        _line("1. REI C1", 56, boxes[0]),  # the English model's reading of a Chinese note
        _line("REMOVE ALL BURRS", 60, boxes[1]),  # English, unsure: read again, kept
        _line("2. Hii Ble", 95, boxes[2]),  # confident (even if wrong): not this pass's business
    ]
    page = OcrPage()
    settings = load_config().vision
    result = with_han_lines_reread(gray, lines, settings, "eng+chi_sim", page)
    assert result[0].text == "1. 未注倒角 C1"
    assert result[0].conf >= 70
    assert result[1] is lines[1]
    assert result[2] is lines[2]
    assert not page.warnings


def test_a_chinese_note_with_a_latin_standard_is_read_chinese_first() -> None:
    # At this size the English-first reading turns the Chinese words into Latin junk beside the
    # standard it reads well; the larger, Chinese-first reading gets the whole note.
    gray, boxes = _page(["1. 未注尺寸公差按 GB/T 1804-m"], size=22)
    settings = load_config().vision
    english_first = read_rows(
        [cut_row(gray, boxes[0])], dataclasses.replace(settings, ocr_languages="eng+chi_sim")
    )
    assert "未注" not in " ".join(t for _, t, _ in english_first[0])
    lines = [_line("1. RIERY BER GB/T 1804-m", 58, boxes[0])]
    page = OcrPage()
    result = with_han_lines_reread(gray, lines, settings, "eng+chi_sim", page)
    assert result[0].text.replace(" ", "").startswith("1.未注尺寸公差按GB/T1804-m")
    assert not page.warnings


def test_the_most_confident_chinese_reading_wins() -> None:
    latin = [(0, "1.", 92.0), (20, "RIERY", 80.0), (60, "GB/T", 67.0)]
    unsure = [(0, "日其", 71.0)]
    sure = [(0, "日期", 90.0)]
    assert _best_chinese([latin, sure], floor=70) == ("日期", 90.0)
    assert _best_chinese([sure, unsure], floor=70) == ("日期", 90.0)
    assert _best_chinese([latin, unsure], floor=75) is None  # below the line's own confidence
    assert _best_chinese([[], latin], floor=0) is None  # no Chinese at all


def test_chinese_languages_are_put_first() -> None:
    assert _chinese_first("eng+chi_sim") == "chi_sim+eng"
    assert _chinese_first("deu+eng+chi_sim") == "chi_sim+deu+eng"
    assert _chinese_first("eng") == "eng"


def test_a_confident_line_of_latin_junk_is_read_again_and_english_stays() -> None:
    # The English model reads some Chinese notes confidently as Latin words; such a line is read
    # again in a call of its own and takes a Chinese reading with the same digits.
    gray, boxes = _page(["7. 导向面粗糙度 Ra 0.8", "REMOVE ALL BURRS"], size=22)
    lines = [_line("7. SBE Ra 0.8", 75, boxes[0]), _line("REMOVE ALL BURRS", 92, boxes[1])]
    page = OcrPage()
    result = with_han_lines_reread(gray, lines, load_config().vision, "eng+chi_sim", page)
    assert result[0].text.replace(" ", "") == "7.导向面粗糙度Ra0.8"
    assert result[1] is lines[1]
    assert not page.warnings
