"""Merging two readings of one page word by word, and title-block fields taken from the page reading."""

from __future__ import annotations

from appliance.document import Box
from appliance.vision.ocrlines import OcrLine, OcrWord, merge_readings
from appliance.vision.titleblock import TitleBlock, fill_from_page
from appliance.vision.titlefields import clean_value


def _word(text: str, conf: float, x0: float, x1: float, y0: float = 100.0) -> OcrWord:
    return OcrWord(text=text, raw_text=text, conf=conf, box=Box(x0, y0, x1, y0 + 20))


def _line(*words: OcrWord, source: str = "upright") -> OcrLine:
    return OcrLine(words=words, block=1, source_pass=source)


def _texts(lines: list[OcrLine]) -> list[str]:
    return [line.text for line in lines]


def test_a_stronger_reading_replaces_weaker_words_in_their_line() -> None:
    first = [
        _line(_word("icro-", 50, 100, 160), _word("U", 30, 165, 180), _word("Turm", 90, 200, 250))
    ]
    second = [_line(_word("Micro-Vu", 90, 95, 182))]
    assert _texts(merge_readings(first, second)) == ["Micro-Vu Turm"]


def test_a_confident_fragment_does_not_replace_a_whole_word() -> None:
    first = [_line(_word("DEBURR", 91, 100, 183), _word("AND", 96, 195, 240))]
    second = [_line(_word("DEBU", 92, 100, 154))]
    assert _texts(merge_readings(first, second)) == ["DEBURR AND"]


def test_one_word_read_across_two_does_not_replace_both() -> None:
    first = [_line(_word("DEBURR", 91, 100, 183), _word("AND", 96, 195, 240))]
    second = [_line(_word("DEBURRAND", 80, 100, 240))]
    assert _texts(merge_readings(first, second)) == ["DEBURR AND"]


def test_same_letters_keep_the_first_reading_unless_the_second_adds_a_symbol() -> None:
    first = [_line(_word("ANGULAR:", 90, 100, 200)), _line(_word("2x8.80", 78, 300, 400))]
    second = [_line(_word("ANGULAR", 96, 100, 195)), _line(_word("2x⌀8.80", 70, 300, 405))]
    assert _texts(merge_readings(first, second)) == ["ANGULAR:", "2x⌀8.80"]


def test_words_only_the_second_reading_saw_are_added_when_confident() -> None:
    first = [_line(_word("4.00", 90, 100, 150))]
    second = [
        _line(_word("MFG", 88, 500, 540, y0=300)),
        _line(_word("lI", 40, 700, 720, y0=300)),
    ]
    merged = merge_readings(first, second)
    assert _texts(merged) == ["4.00", "MFG"]
    assert merged[1].source_pass == "grey"


def test_scale_must_be_a_ratio_and_is_taken_from_the_page_when_the_block_misread_it() -> None:
    assert clean_value("scale", "1 : 2") == "1:2"
    assert clean_value("scale", "131") == ""
    block = TitleBlock(box=Box(1000, 2000, 2000, 2500), fields={"sheet": "1 OF 1"})
    outside = _line(_word("SCALE:5:1", 90, 100, 220, y0=900))
    inside = _line(_word("SCALE:1:1", 90, 1500, 1620, y0=2400))
    fill_from_page(block, [outside, inside])
    assert block.fields == {"sheet": "1 OF 1", "scale": "1:1"}
    block.fields["scale"] = "2:1"
    fill_from_page(block, [inside])
    assert block.fields["scale"] == "2:1"


def test_letters_guessed_at_lower_confidence_do_not_replace_a_number() -> None:
    first = [_line(_word("⌀15", 26, 341, 418))]
    second = [_line(_word("Di5", 22, 341, 418))]
    assert _texts(merge_readings(first, second)) == ["⌀15"]
