"""The neural line recogniser re-reading a Chinese drawing's lines (the real ONNX model)."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from appliance.config import load_config
from appliance.document import Box
from appliance.errors import ModelError
from appliance.vision.hanmodel import (
    CELL_BLOCK,
    cells_read_by_model,
    runs,
    taken_reading,
    with_fields_read_by_model,
    with_model_readings,
)
from appliance.vision.linemodel import LineModel, line_model
from appliance.vision.ocrlines import OcrLine, OcrWord
from appliance.vision.titleblock import TitleBlock
from tests.vision.drawn_lines import CJK_FONT, drawn_lines

MODEL = "pp-ocrv4-rec-ch"


@pytest.fixture(scope="module")
def model() -> LineModel:
    config = load_config(environ={})
    found = line_model(MODEL, config.paths.models_dir)
    assert found is not None, "the line model is installed by bootstrap (models/carriers.txt)"
    return found


def _word(text: str, conf: float, box: Box) -> OcrWord:
    return OcrWord(text=text, raw_text=text, conf=conf, box=box)


def _line(words: list[OcrWord]) -> OcrLine:
    return OcrLine(words=tuple(words), block=1, source_pass="upright")


def test_the_model_reads_chinese_notes_and_the_plus_minus_sign(model: LineModel) -> None:
    notes = ["2.表面镀锌钝化，镀层厚度8~12um", "90±0.05", "审核：孙磊"]
    gray, boxes = drawn_lines(notes, CJK_FONT, size=30)
    for text, box in zip(notes, boxes, strict=True):
        crop = gray[int(box.y0) - 4 : int(box.y1) + 4, int(box.x0) - 4 : int(box.x1) + 4]
        reading = model.read(crop)
        assert reading.text == text
        assert reading.conf > 0.9


def test_lines_tesseract_misread_are_replaced_and_good_ones_kept(model: LineModel) -> None:
    gray, boxes = drawn_lines(["2.表面镀锌钝化", "REMOVE ALL BURRS", "20±0.1"], CJK_FONT, size=30)
    lines = [
        _line([_word("2.", 90, boxes[0]), _word("RHC,WEEE", 51, boxes[0])]),
        _line([_word("REMOVE ALL BURRS", 93, boxes[1])]),
        _line([_word("2040.1", 47, boxes[2])]),
    ]
    result = with_model_readings(gray, lines, model)
    assert result[0].text == "2.表面镀锌钝化"
    assert result[0].box == boxes[0] and result[0].conf > 90
    assert result[1] is lines[1]
    assert result[2].text == "20±0.1"


def test_a_readings_place_in_the_rules() -> None:
    # Chinese read as Latin junk: the Chinese reading.
    assert taken_reading("5. KFA KHRCA0-45", 42, "5.夹紧面淬火HRC40-45", 0.99)
    # The CJK font's ± read as a 4, even on a confident line.
    assert taken_reading("2540.02", 88, "25±0.02", 1.0) == "25±0.02"
    # A confident line keeps its numbers; an unsure one takes a very sure reading.
    assert taken_reading("GB/T 119.2 10x30", 81, "GB/T 119.2 10x36", 0.96) is None
    assert taken_reading("4*xM8-6H", 49, "4xM8-6H", 0.97) is None  # only punctuation differs
    assert taken_reading("c5", 71, "C5", 1.0) is None  # the same reading
    assert taken_reading("11", 55, "1:1", 1.0) == "1:1"
    assert taken_reading("11", 55, "1:1", 0.85) is None  # sure, but not sure enough for Latin
    # A confident Latin line stays, and so does any line under an unsure reading.
    assert taken_reading("2", 96, "N", 0.92) is None
    assert taken_reading("RHC, WEEE", 51, "表面镀锌", 0.6) is None
    assert taken_reading("3.", 71, "3", 1.0) is None  # a note's number keeps its full stop
    # The model has no diameter sign: a number's leading 0 is one.
    assert taken_reading("O15iR9", 60, "015深9", 0.99) == "⌀15深9"
    assert taken_reading("⌀10H7", 87, "010H7", 1.0) is None
    assert taken_reading("#a 2026.02.10", 48, "王磊 2026.02.10", 0.99) == "王磊 2026.02.10"
    # A rule between two cells Tesseract saw is kept; so is Chinese the model read fewer of.
    assert taken_reading("序号|代号", 60, "序号代号", 1.0) is None
    assert taken_reading("更改文件号", 70, "改文件号", 0.99) is None


def test_a_line_is_read_in_runs_parted_at_rules_and_wide_gaps() -> None:
    def at(x0: float, x1: float, text: str) -> OcrWord:
        return _word(text, 80, Box(x0, 0, x1, 20))

    words = [at(0, 40, "序号"), at(45, 50, "|"), at(55, 95, "代号"), at(100, 140, "名称")]
    assert [[w.text for w in run] for run in runs(words)] == [["序号"], ["|"], ["代号", "名称"]]
    far = [at(0, 40, "1"), at(45, 90, "JJ-4820-01"), at(200, 240, "底板")]  # 110 px = 5.5 heights
    assert [[w.text for w in run] for run in runs(far)] == [["1", "JJ-4820-01"], ["底板"]]


def test_a_broken_model_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "rec.onnx"
    broken.write_bytes(b"\x08\x01not an onnx graph" * 50)
    with pytest.raises(ModelError) as raised:
        LineModel(broken, name="rec")
    assert raised.value.code == "model_load_failed"
    assert str(tmp_path) not in str(raised.value)


def test_an_unknown_or_missing_model_leaves_tesseract_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        assert line_model("no-such-line-model", tmp_path) is None
        assert line_model("no-such-line-model", tmp_path) is None
    warned = [r for r in caplog.records if "no-such-line-model" in r.getMessage()]
    assert len(warned) == 1  # one warning per process, not one per page
    assert line_model("", tmp_path) is None  # turned off


def _ruled_table(cells: list[list[str]]) -> tuple[np.ndarray, list[list[Box]]]:
    """A page with a ruled table of ``cells`` (rows of texts), and each cell's box."""
    face = ImageFont.truetype(CJK_FONT, 26)
    width, height, left, top = 220, 50, 60, 60
    image = Image.new("L", (left * 2 + width * len(cells[0]), top * 2 + height * len(cells)), 255)
    draw = ImageDraw.Draw(image)
    boxes: list[list[Box]] = []
    for r, row in enumerate(cells):
        boxes.append([])
        for c, text in enumerate(row):
            x0, y0 = left + c * width, top + r * height
            draw.rectangle((x0, y0, x0 + width, y0 + height), outline=0, width=2)
            draw.text((x0 + 12, y0 + 10), text, font=face, fill=0)
            boxes[-1].append(Box(x0, y0, x0 + width, y0 + height))
    return np.asarray(image), boxes


def test_cells_tesseract_left_empty_are_read_into_their_columns(model: LineModel) -> None:
    gray, boxes = _ruled_table(
        [["序号", "名称", "数量"], ["1", "定位销", "2"], ["2", "支承钉", "4"]]
    )
    inside = boxes[0][0]
    # Tesseract read the first header; every other cell it left empty.
    read = [
        _line(
            [_word("序号", 95, Box(inside.x0 + 12, inside.y0 + 10, inside.x0 + 70, inside.y0 + 40))]
        )
    ]
    found = cells_read_by_model(gray, read, model)
    # In reading order, row by row (a digit's ink starts lower in its cell than a character's).
    texts = sorted((int(ln.box.y0 // 50), ln.box.x0, ln.text) for ln in found)
    assert [t for _, _, t in texts] == ["名称", "数量", "1", "定位销", "2", "2", "支承钉", "4"]
    for line in found:
        assert line.block == CELL_BLOCK and line.source_pass == "upright"
        cell = next(
            b
            for row in boxes
            for b in row
            if b.x0 <= line.box.x0
            and line.box.x1 <= b.x1
            and b.y0 <= line.box.y0
            and line.box.y1 <= b.y1
        )
        assert cell is not inside


def test_an_empty_table_gives_no_lines(model: LineModel) -> None:
    gray, _ = _ruled_table([["", ""], ["", ""]])
    assert cells_read_by_model(gray, [], model) == []


def test_a_chinese_title_block_value_is_read_again_in_its_cell(model: LineModel) -> None:
    gray, boxes = drawn_lines(["见明细栏", "45 钢", "2026.01.15"], CJK_FONT, size=30)
    block = TitleBlock(
        box=Box(0, 0, gray.shape[1], gray.shape[0]),
        fields={"material": "克明 nM 细栏", "title": "45 钢", "date": "2026.01.16"},
        boxes={"material": boxes[0], "title": boxes[1], "date": boxes[2]},
    )
    with_fields_read_by_model(gray, block, model)
    assert block.fields["material"] == "见明细栏"
    assert block.fields["title"] == "45 钢"  # the same reading
    assert block.fields["date"] == "2026.01.16"  # no Chinese: the block reader's digits stand
    # A box over part of the value reads fewer characters: the block reader's value stands.
    first = Box(boxes[0].x0, boxes[0].y0, boxes[0].x0 + 30, boxes[0].y1)
    part = TitleBlock(box=block.box, fields={"title": "见明细栏"}, boxes={"title": first})
    with_fields_read_by_model(gray, part, model)
    assert part.fields["title"] == "见明细栏"


def test_a_word_tesseract_read_across_a_cells_rule_is_read_as_two(model: LineModel) -> None:
    gray, boxes = _ruled_table([["序号", "代号"]])
    left, right = boxes[0]
    across = Box(
        left.x0 + 12, left.y0 + 12, right.x0 + 70, left.y1 - 12
    )  # both texts, the rule between
    line = _line([_word("FS 4S", 40, across)])
    result = with_model_readings(gray, [line], model)
    assert [w.text for w in result[0].words] == ["序号", "代号"]
    assert result[0].words[0].box.x1 <= left.x1 <= result[0].words[1].box.x0
