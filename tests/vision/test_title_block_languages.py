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


def test_a_chinese_field_read_on_the_page_replaces_the_blocks_latin_junk() -> None:
    from appliance.document import Box
    from appliance.vision.ocrlines import OcrLine, OcrWord
    from appliance.vision.titleblock import TitleBlock, fill_from_page

    def line(text: str, conf: float, y: float) -> OcrLine:
        word = OcrWord(text=text, raw_text=text, conf=conf, box=Box(1200, y, 1500, y + 30))
        return OcrLine(words=(word,), block=1, source_pass="upright")

    block = TitleBlock(
        box=Box(1000, 1000, 2000, 1400),
        fields={"surface_treatment": "Rae ri", "material": "45 钢", "scale": "1:1"},
    )
    fill_from_page(
        block,
        [
            line("表面处理 : 发黑", 91, 1100),  # the bold value, read by the Chinese model
            line("材料 : 45 号钢", 90, 1150),  # the block's own Chinese reading stays
            line("设计 : 赵敏", 60, 1200),  # too unsure to take
            line("重量 : 0.42kg", 95, 1250),  # no Chinese value: the Chinese pass's business only
            line("表面处理 : 镀锌", 95, 200),  # outside the block
        ],
    )
    assert block.fields == {"surface_treatment": "发黑", "material": "45 钢", "scale": "1:1"}
