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
