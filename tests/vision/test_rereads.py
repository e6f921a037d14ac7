"""Unsure words read again alone, with real Tesseract on a rendered page."""

from __future__ import annotations

import cv2
import numpy as np

from appliance.config import load_config
from appliance.document import Box
from appliance.vision.ocr import prepare
from appliance.vision.ocrlines import OcrLine, OcrPage, OcrWord
from appliance.vision.ocrpasses import with_unsure_words_reread
from appliance.vision.rereads import read_alone


def _page_with(words: dict[str, tuple[int, int]]) -> tuple[np.ndarray, dict[str, Box]]:
    """A white page with each word printed at its origin; the ink box of each word."""
    gray = np.full((400, 900), 255, np.uint8)
    boxes = {}
    for text, (x, y) in words.items():
        cv2.putText(gray, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 0, 2, cv2.LINE_AA)
        (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.9, 2)
        region = gray[y - h - 4 : y + 6, x - 4 : x + w + 4] < 128
        ys, xs = np.nonzero(region)
        boxes[text] = Box(
            float(x - 4 + xs.min()),
            float(y - h - 4 + ys.min()),
            float(x - 4 + xs.max() + 1),
            float(y - h - 4 + ys.max() + 1),
        )
    return gray, boxes


def _line(text: str, conf: float, box: Box) -> OcrLine:
    return OcrLine(
        words=(OcrWord(text=text, raw_text=text, conf=conf, box=box),),
        block=1,
        source_pass="upright",
    )


def test_read_alone_reads_each_box_in_one_call() -> None:
    gray, boxes = _page_with({"MFG": (100, 100), "DRAWN": (400, 250)})
    settings = load_config().vision
    readings = read_alone(gray, [boxes["MFG"], boxes["DRAWN"], Box(700, 20, 760, 60)], settings)
    assert [text for text, _ in readings] == ["MFG", "DRAWN", ""]
    assert readings[0][1] > 80 and readings[2][1] == 0.0


def test_an_unsure_word_is_replaced_by_its_confident_reading_alone() -> None:
    gray, boxes = _page_with({"MFG": (100, 100), "CHECKED": (400, 250), "12": (600, 100)})
    settings = load_config().vision
    prepared = prepare(gray, settings)
    lines = [
        _line("oc", 40, boxes["MFG"]),  # junk, unsure: read again
        _line("CHEKED", 95, boxes["CHECKED"]),  # confident: left as it is
        _line("7", 20, boxes["12"]),  # a number: not this rule's business
    ]
    page = OcrPage(layout="drawing", scale=prepared.scale)
    result = with_unsure_words_reread(prepared, lines, settings, page)
    assert [line.text for line in result] == ["MFG", "CHEKED", "7"]
    assert result[0].words[0].conf > 80 and result[0].words[0].box == boxes["MFG"]
    assert page.warnings == []


def _ink_box(ink: np.ndarray, x0: int, x1: int) -> Box:
    """Box of the ink between columns x0 and x1 (the word as Tesseract would box it)."""
    ys, xs = np.nonzero(ink[:, x0:x1])
    return Box(float(x0 + xs.min()), float(ys.min()), float(x0 + xs.max() + 1), float(ys.max() + 1))


def test_a_point_left_out_of_a_word_is_put_back_where_the_ink_has_it() -> None:
    from appliance.vision.points import restore_points

    gray = np.full((80, 700), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(gray, "Q.A", (20, 50), font, 1.0, 0, 2, cv2.LINE_AA)
    cv2.putText(gray, "min.", (200, 50), font, 1.0, 0, 2, cv2.LINE_AA)
    cv2.putText(gray, "NAME:", (400, 50), font, 1.0, 0, 2, cv2.LINE_AA)
    ink = np.where(gray < 128, 255, 0).astype(np.uint8)
    q_a = _ink_box(ink, 0, 150)
    assert restore_points(ink, "QA", q_a) == "Q.A"
    # The word's box as read without its point ends at the "n": the point after it is found.
    whole = _ink_box(ink, 180, 275)
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink[:, 180:275])
    point_x0 = 180 + max(int(st[0]) for st in stats[1:])
    min_box = Box(whole.x0, whole.y0, float(point_x0 - 3), whole.y1)
    assert restore_points(ink, "min", min_box) == "min."
    # A colon is not a point; a word already read whole, or not of letters, is left alone.
    name = _ink_box(ink, 380, 700)
    name = Box(name.x0, name.y0, name.x1 - 12, name.y1)
    assert restore_points(ink, "NAME", name) == "NAME"
    assert restore_points(ink, "Q.A", q_a) == "Q.A"
    assert restore_points(ink, "QA1", q_a) == "QA1"
