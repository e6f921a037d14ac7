"""Numbered note lists: the number read apart from its note, or not at all, given back to it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from appliance.document import Box, SliceKind
from appliance.vision.analysis import analyse_image
from appliance.vision.errors import OcrError
from appliance.vision.notelists import NumberReader, is_header, number_note_lists
from appliance.vision.ocrlines import OcrLine, OcrPage, OcrWord
from appliance.vision.settings import VisionSettings
from appliance.vision.slicing import build_slices

NOTES = (
    "ALL DIMENSIONS IN MILLIMETERS",
    "UNTOLERANCED DIMENSIONS ±0.1",
    "REMOVE ALL BURRS AND SHARP EDGES",
    "BREAK EDGES 0.5 MAX",
    "INDUCTION HARDEN PIVOT BORE TO 50-55 HRC",
    "TIGHTEN CLAMP SCREW TO 25 N·m",
    "PAINT PER SPEC PS-114, GREY RAL 7035",
    "MARK PART NO. AND REV PER MIL-STD-130",
)


def _line(text: str, x: float, y: float, block: int, *, h: float = 20.0) -> OcrLine:
    """A line of words 14 px a letter, starting at (x, y)."""
    words = []
    for word in text.split():
        words.append(OcrWord(word, word, 90.0, Box(x, y, x + 14 * len(word), y + h)))
        x += 14 * (len(word) + 1)
    return OcrLine(words=tuple(words), block=block, source_pass="upright")


def _rocker(numbers_read: int = 3, pitch: float = 46.0) -> list[OcrLine]:
    """What Tesseract reads of rocker_arm's notes: the header, the first numbers apart, the notes."""
    lines = [_line("GENERAL NOTES:", 112, 1067, 1, h=23)]
    for i, note in enumerate(NOTES, start=1):
        y = 1112 + pitch * (i - 1)
        if i <= numbers_read:
            lines.append(_line(str(i), 113, y, 2 * i))
        lines.append(_line(note, 163, y, 2 * i + 1))
    return lines


def _reader(answers: dict[int, str], calls: list[list[Box]]) -> NumberReader:
    """Reads the row at each y (rounded) as given ('' where none is given)."""

    def read(boxes: list[Box]) -> list[tuple[str, float]]:
        calls.append(boxes)
        return [(answers.get(round(b.y0), ""), 92.0) for b in boxes]

    return read


def _texts(lines: list[OcrLine]) -> list[str]:
    return [line.text for line in lines]


@pytest.mark.parametrize(
    "text",
    ["GENERAL NOTES:", "NOTES", "Anmärkningar", "Anmarkningar", "Hinweise:", "技 术 要 求", "注:"],
)
def test_headers_are_known_in_each_language(text: str) -> None:
    assert is_header(text)


@pytest.mark.parametrize("text", ["NOTES ON ASSEMBLY", "SEE NOTE 7", "Revision", "1. NOTES"])
def test_other_lines_are_not_headers(text: str) -> None:
    assert not is_header(text)


def test_numbers_read_apart_are_joined_and_the_rest_read_again() -> None:
    lines = _rocker()
    calls: list[list[Box]] = []
    reads = {round(1112 + 46 * (i - 1)): f"{i}." for i in range(4, 9)}
    numbered = number_note_lists(lines, reader=_reader(reads, calls))
    texts = _texts(numbered.lines)
    assert texts[0] == "GENERAL NOTES:"
    assert texts[1:] == [f"{i}. {note}" for i, note in enumerate(NOTES, start=1)]
    assert len(calls) == 1 and len(calls[0]) == 5  # one call for the five unread numbers
    # The boxes read again lie left of their notes.
    assert all(b.x1 < 163 and b.x0 < 130 for b in calls[0])
    assert {id(line) for line in numbered.lines[1:]} == numbered.notes


def test_a_reread_that_is_not_the_next_number_is_not_used() -> None:
    lines = _rocker()
    reads = {(1112 + 46 * 3): "4", (1112 + 46 * 4): "3", (1112 + 46 * 5): "6"}
    texts = _texts(number_note_lists(lines, reader=_reader(reads, [])).lines)
    assert "4. BREAK EDGES 0.5 MAX" in texts
    assert "INDUCTION HARDEN PIVOT BORE TO 50-55 HRC" in texts  # read "3": no number
    assert "6. TIGHTEN CLAMP SCREW TO 25 N·m" in texts  # the next number after a skipped row
    assert "PAINT PER SPEC PS-114, GREY RAL 7035" in texts  # read nothing: no guess


def test_a_wrapped_line_read_blank_gets_no_number() -> None:
    lines = _rocker(numbers_read=2)
    # Note 3 wraps: its second line sits in the note column with no number before it.
    lines.insert(5, _line("AFTER PAINTING", 163, 1112 + 46 * 2 + 23, 99))
    for i, line in enumerate(lines):
        if line.box.y0 >= 1112 + 46 * 2 + 23 and line.block != 99:
            lines[i] = OcrLine(
                words=tuple(
                    OcrWord(
                        w.text,
                        w.raw_text,
                        w.conf,
                        Box(w.box.x0, w.box.y0 + 46, w.box.x1, w.box.y1 + 46),
                    )
                    for w in line.words
                ),
                block=line.block,
                source_pass="upright",
            )
    reads = {(1112 + 46 * 2): "3"}
    texts = _texts(number_note_lists(lines, reader=_reader(reads, [])).lines)
    assert "3. REMOVE ALL BURRS AND SHARP EDGES" in texts
    assert "AFTER PAINTING" in texts


def test_without_a_reread_a_regular_agreeing_list_is_numbered_by_its_order() -> None:
    numbered = number_note_lists(_rocker(), reader=None)
    line = next(ln for ln in numbered.lines if "TIGHTEN" in ln.text)
    assert line.text == "6. TIGHTEN CLAMP SCREW TO 25 N·m"
    assert line.words[0].conf < 60  # an inferred number is marked unsure


def test_a_failed_reread_also_lets_the_order_number_the_list() -> None:
    def broken(boxes: list[Box]) -> list[tuple[str, float]]:
        raise OcrError("Tesseract crashed", code="ocr_crashed")

    texts = _texts(number_note_lists(_rocker(), reader=broken).lines)
    assert "8. MARK PART NO. AND REV PER MIL-STD-130" in texts


def test_an_irregular_list_is_not_numbered_by_its_order() -> None:
    lines = _rocker()
    lines[-1] = _line(NOTES[-1], 163, 1112 + 46 * 7 + 30, 17)
    texts = _texts(number_note_lists(lines, reader=None).lines)
    assert "3. REMOVE ALL BURRS AND SHARP EDGES" in texts
    assert "TIGHTEN CLAMP SCREW TO 25 N·m" in texts


def test_the_list_ends_at_a_large_gap() -> None:
    lines = _rocker(numbers_read=8)
    lines.append(_line("4", 113, 1112 + 46 * 8 + 200, 50))
    lines.append(_line("SCALE 1:2", 163, 1112 + 46 * 8 + 200, 51))
    texts = _texts(number_note_lists(lines, reader=None).lines)
    assert "4" in texts and "SCALE 1:2" in texts


def test_a_note_cut_on_its_baseline_is_joined_again() -> None:
    lines = [
        _line("NOTES:", 112, 1067, 1, h=23),
        _line("1", 113, 1112, 2),
        _line("DIMENSIONS ARE IN INCHES", 163, 1112, 3),
        _line("2", 112, 1158, 4),
        _line("TOLERANCES:", 161, 1158, 5),
        _line("XX ±.01 .XXX ±.005", 161 + 14 * 11 + 30, 1158, 6),
        _line("TITLE", 1229, 1169, 7, h=16),
    ]
    texts = _texts(number_note_lists(lines).lines)
    assert texts == [
        "NOTES:",
        "1. DIMENSIONS ARE IN INCHES",
        "2. TOLERANCES: XX ±.01 .XXX ±.005",
        "TITLE",
    ]


def test_a_page_without_a_notes_header_keeps_its_lines() -> None:
    lines = _rocker()[1:]
    numbered = number_note_lists(lines, reader=_reader({}, []))
    assert numbered.lines is lines and not numbered.notes


def test_glued_numbers_without_a_header_are_tidied() -> None:
    lines = [
        _line("1. 未注倒角 C1", 112, 1110, 1),
        _line("2. 调质处理 HB220-250", 111, 1152, 2),
        _line("3.去毛刺锐边", 111, 1202, 3),
        _line("4, RIEDZIRGB/T 1804-m", 110, 1248, 4),
        _line("图号", 1231, 1250, 5),
    ]
    numbered = number_note_lists(lines)
    assert _texts(numbered.lines) == [
        "1. 未注倒角 C1",
        "2. 调质处理 HB220-250",
        "3. 去毛刺锐边",
        "4. RIEDZIRGB/T 1804-m",
        "图号",
    ]
    split = numbered.lines[2].words
    assert split[0].box.x1 == split[1].box.x0


def test_stacked_counts_in_one_column_are_not_a_list() -> None:
    lines = [_line("1 x 45°", 300, 400, 1), _line("2 x M8", 300, 440, 2)]
    assert number_note_lists(lines).lines is lines


def _slices(lines: list[OcrLine], reader: NumberReader | None) -> list[tuple[str, str]]:
    page = OcrPage(lines=lines, layout="drawing")
    slices = build_slices(
        page,
        None,
        page_no=1,
        page_size=(1654, 2339),
        to_source=lambda b: b,
        low_confidence=60.0,
        numbers=reader,
    )
    return [(str(s.kind), s.text) for s in slices]


def test_joined_numbers_are_not_dimensions_and_a_short_note_stays_a_note() -> None:
    reads = {round(1112 + 46 * (i - 1)): str(i) for i in range(4, 9)}
    slices = _slices(_rocker(), _reader(reads, []))
    assert ("note", "6. TIGHTEN CLAMP SCREW TO 25 N·m") in slices
    assert not [t for k, t in slices if k == "dimension" and t.strip() in {"1", "2", "3"}]
    chinese = [_line("1. 未注倒角 C1", 112, 1110, 1), _line("2. 调质处理 HB220-250", 111, 1152, 2)]
    assert ("note", "2. 调质处理 HB220-250") in _slices(chinese, None)


def test_slices_of_a_page_without_a_list_are_unchanged() -> None:
    lines = [
        _line("1", 113, 1112, 1),
        _line("BREAK ALL EDGES", 163, 1112, 2),
        _line("⌀40 H7", 600, 500, 3),
    ]
    assert _slices(lines, _reader({1112: "1"}, [])) == _slices(lines, None)


_MONO = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
_MONO_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf")


@pytest.mark.skipif(not _MONO.exists(), reason="DejaVu fonts are not installed")
def test_real_reading_gives_note_six_its_number() -> None:
    """rocker_arm's notes, drawn as bench/answer_drawings.py draws them, read by Tesseract."""
    image = Image.new("L", (2339, 1654), 255)
    draw = ImageDraw.Draw(image)
    draw.rectangle((40, 40, 2299, 1614), outline=0, width=4)
    draw.text((110, 1060), "GENERAL NOTES:", font=ImageFont.truetype(str(_MONO_BOLD), 32), fill=0)
    font = ImageFont.truetype(str(_MONO), 28)
    for i, note in enumerate(NOTES, start=1):
        draw.text((110, 1060 + 46 * i), f"{i}. {note}", font=font, fill=0)
    draw.text((900, 500), "⌀40", font=font, fill=0)
    rgb = np.array(image.convert("RGB"))
    analysis = analyse_image(rgb, VisionSettings(), strict=False)
    notes = [s for s in analysis.slices if s.kind is SliceKind.NOTE]
    six = [s for s in notes if "6. TIGHTEN CLAMP SCREW TO 25 N·m" in s.text]
    assert six, [s.text for s in notes]
    # Read again, not guessed from the order (a guess is marked unsure).
    assert "6." not in six[0].extra.get("uncertain_words", [])
    lone = [s.text for s in analysis.slices if s.kind is SliceKind.DIMENSION]
    assert not {"1", "2", "3", "4", "5", "6", "7", "8"} & {t.strip() for t in lone}
