"""Chinese lines of a Chinese drawing read again with the Chinese model.

A page is read in ``ocr_languages`` (English by default: most drawings, and the fastest model); its
title block is read in ``title_block_languages`` as well. On a drawing whose title block is Chinese,
the technical requirements (技术要求: "未注倒角 C1") are Chinese too, and the English model reads
them as junk of low confidence ("1. REI C1"). Those unsure lines are cut out, laid in one image and
read once more with the title block's languages; a reading that has Chinese characters and is more
confident replaces the line. English lines read that way come back without Chinese and are kept.

Each line is read twice, in two calls: at the mosaic's letter height with the languages as given,
and larger with the Chinese model first. Neither reading alone gets every line: with English first,
a note that mixes Chinese and a Latin standard ("未注尺寸公差按 GB/T 1804-m") comes back as Latin
junk; with Chinese first and larger, short cells ("日期", "共 1 张 第 1 张") are read less surely. The
more confident of the Chinese readings wins.

The English model also reads some Chinese lines confidently as Latin words ("7. SBE Ra 0.8" for
"7. 导向面粗糙度 Ra 0.8"). Confident lines holding a Latin word of two letters or more are read
again too, larger and Chinese first, in a call of their own (other rows in a mosaic change how
Tesseract reads a row, and the unsure lines' reading stays as it was); such a line takes a
Chinese reading only with the same digits, so its numbers are never changed here.
"""

from __future__ import annotations

import dataclasses
import logging
import re

import numpy as np

from appliance.document import Box
from appliance.vision.errors import OcrError
from appliance.vision.mosaic import RowWord, cut_row, read_rows
from appliance.vision.ocrlines import OcrLine, OcrPage, OcrWord
from appliance.vision.settings import VisionSettings
from appliance.vision.symbols import normalise_word

log = logging.getLogger(__name__)

#: A line read with less confidence than this by the page's model is read again.
UNSURE_CONF = 75
#: Least confidence of the Chinese reading that replaces a line.
_SURE_CONF = 70
#: Most lines read again per page (keeps the two extra calls small on a noisy page).
MAX_LINES = 60
#: Letter height of the second reading (pixels): Chinese characters, denser than Latin letters,
#: are read more surely larger than the mosaic's own row height.
CHINESE_ROW_HEIGHT = 48

_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def has_han(text: str) -> bool:
    """Whether ``text`` holds a Chinese character."""
    return bool(_HAN.search(text))


def joined_han(tokens: list[str]) -> list[str]:
    """Tokens with runs of Chinese characters Tesseract spaced apart joined again ("未 注 倒 角"
    -> "未注倒角")."""
    out: list[str] = []
    for token in tokens:
        if out and _HAN.fullmatch(token[:1]) and _HAN.fullmatch(out[-1][-1:]):
            out[-1] += token
        else:
            out.append(token)
    return out


def words_in_box(tokens: list[str], box: Box, conf: float) -> tuple[OcrWord, ...]:
    """Words for ``tokens``, the line's box shared out by their length (the mosaic's own boxes
    are of a scaled crop; a share of the line is near enough for citing)."""
    total = sum(len(t) for t in tokens) + len(tokens) - 1
    width = box.x1 - box.x0
    words = []
    start = 0
    for token in tokens:
        x0 = box.x0 + width * start / total
        x1 = box.x0 + width * (start + len(token)) / total
        words.append(
            OcrWord(
                text=normalise_word(token),
                raw_text=token,
                conf=conf,
                box=Box(x0, box.y0, x1, box.y1),
            )
        )
        start += len(token) + 1
    return tuple(words)


def with_han_lines_reread(
    gray: np.ndarray, lines: list[OcrLine], settings: VisionSettings, languages: str, page: OcrPage
) -> list[OcrLine]:
    """``lines`` with their unsure upright lines read again in ``languages``, then their confident
    lines of Latin words (see the module); ``gray`` is the page the lines' boxes are in. A failing
    call leaves the lines as they were."""
    upright = [
        i
        for i, line in enumerate(lines)
        if line.source_pass == "upright"
        and not any(w.vertical for w in line.words)
        and not has_han(line.text)
    ]
    unsure = [i for i in upright if lines[i].conf < UNSURE_CONF][:MAX_LINES]
    sure = [i for i in upright if lines[i].conf >= UNSURE_CONF and _worded(lines[i])][:MAX_LINES]
    chinese_first = _chinese_first(languages)
    try:
        boxes = [lines[i].box for i in unsure]
        readings: list[tuple[list[RowWord], ...]] = list(
            zip(
                _read(gray, boxes, settings, languages, 0),
                _read(gray, boxes, settings, chinese_first, CHINESE_ROW_HEIGHT),
                strict=True,
            )
        )
        # Confident lines in a call of their own: a mosaic's other rows change how Tesseract
        # reads a row, and the unsure lines' reading is the one measured to work.
        sure_boxes = [lines[i].box for i in sure]
        sure_readings: list[tuple[list[RowWord], ...]] = [
            (reading,)
            for reading in _read(gray, sure_boxes, settings, chinese_first, CHINESE_ROW_HEIGHT)
        ]
    except OcrError as err:
        page.warnings.append(f"Chinese lines not read again: {err.code}")
        log.warning("Chinese-line pass skipped: %s", err)
        return lines
    lines = list(lines)
    for index, box, found in zip(
        unsure + sure, boxes + sure_boxes, readings + sure_readings, strict=True
    ):
        best = _best_chinese(list(found), floor=max(_SURE_CONF, lines[index].conf))
        if best is None:
            continue
        text, conf = best
        if lines[index].conf >= UNSURE_CONF and digits(text) != digits(lines[index].text):
            continue  # a confident line's numbers are its own: only its words may turn Chinese
        tokens = joined_han(text.split())
        lines[index] = dataclasses.replace(lines[index], words=words_in_box(tokens, box, conf))
    return lines


def _read(
    gray: np.ndarray, boxes: list[Box], settings: VisionSettings, languages: str, height: int
) -> list[list[RowWord]]:
    """The rows cut at ``boxes`` (at ``height`` px letters; 0: the mosaic's own) read in one call."""
    if not boxes:
        return []
    rows = [cut_row(gray, b, height) if height else cut_row(gray, b) for b in boxes]
    return read_rows(rows, dataclasses.replace(settings, ocr_languages=languages))


def _worded(line: OcrLine) -> bool:
    """A line with a word of two Latin letters or more: Chinese read by the English model comes
    out as such words, often confidently ("7. SBE Ra 0.8" for "7. 导向面粗糙度 Ra 0.8")."""
    return any(_LATIN_WORD.search(w.text) for w in line.words)


def digits(text: str) -> str:
    """The digits of ``text``, in order: what a re-reading must keep."""
    return "".join(ch for ch in text if ch.isdigit())


def _chinese_first(languages: str) -> str:
    """The languages with the Chinese ones (``chi_*``) first: Tesseract leans on the first."""
    names = languages.split("+")
    return "+".join(sorted(names, key=lambda name: not name.startswith("chi")))


def _best_chinese(
    readings: list[list[tuple[int, str, float]]], floor: float
) -> tuple[str, float] | None:
    """The most confident reading with Chinese characters whose least sure word is at or above
    ``floor``, as (text, that confidence); None when there is none."""
    best: tuple[str, float] | None = None
    for words in readings:
        if not words:
            continue
        text = " ".join(t for _, t, _ in words)
        conf = min(c for _, _, c in words)
        if has_han(text) and conf >= floor and (best is None or conf > best[1]):
            best = (text, conf)
    return best
