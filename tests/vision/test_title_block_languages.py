"""Which languages a title block is read again in (the installed Tesseract is asked)."""

from __future__ import annotations

from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import check_tesseract, installed_languages, title_block_languages


def test_the_second_reading_uses_installed_languages_only() -> None:
    have = installed_languages(VisionSettings())
    assert {"eng", "chi_sim"} <= have  # bootstrap installs tesseract-ocr-chi-sim
    assert title_block_languages(VisionSettings()) == "eng+chi_sim"
    # A language Tesseract has no data for: the block is not read a second time in it.
    missing = VisionSettings(title_block_languages="eng+zz_nowhere")
    assert title_block_languages(missing) == "eng"
    # Switched off, or the same as the page's: no second reading.
    assert title_block_languages(VisionSettings(title_block_languages="")) == "eng"


def test_doctor_names_a_missing_title_block_language() -> None:
    ok, found, fix = check_tesseract(VisionSettings(title_block_languages="eng+zz_nowhere"))
    assert not ok and "zz_nowhere" in found and "tesseract-ocr-zz-nowhere" in fix


def test_a_chinese_title_block_line_is_joined_and_glossed_for_search() -> None:
    from appliance.vision.slicing import _glossed_chinese

    # Tesseract spaces Chinese characters; joined, the part's name has its English sense beside it,
    # so "the bearing housing drawing" finds the block even when the title's label was not read.
    assert _glossed_chinese("轴承 座") == "轴承座 (bearing housing)"
    assert _glossed_chinese("法 兰 盘") == "法兰盘 (flange)"
    assert _glossed_chinese("共 1 张 第 1 张") == "共 1 张 第 1 张"  # not all Chinese: as read
    assert _glossed_chinese("HT200") == "HT200"
