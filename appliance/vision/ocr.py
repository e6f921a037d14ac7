"""OCR of a corrected page: preparation, Tesseract passes, vertical text, lines with boxes.

A drawing is read upright from the prepared image (psm 11, sparse text: drawings have no reading
order), then, side by side, turned 90 degrees clockwise (dimension text written bottom-to-top along
vertical dimension lines becomes upright) and from the grey page with its ruling lines kept; those
two see the page with the text the upright pass read confidently painted out. Words of the turned
pass are kept where they beat what the upright pass saw in the same place. A text page (a scanned letter, an article) is read once with
automatic page segmentation, which keeps its reading order.

Everything here works in the coordinates of the image it is given; callers map boxes further.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import cv2
import numpy as np

from appliance.document import Box
from appliance.vision.errors import OcrError
from appliance.vision.imageops import binarise, drop_non_text, estimate_text_height, long_line_mask
from appliance.vision.leftovers import read_leftovers
from appliance.vision.points import restore_points
from appliance.vision.rereads import read_alone
from appliance.vision.settings import VisionSettings
from appliance.vision.symbols import normalise, normalise_dimension_line, normalise_word
from appliance.vision.tesseract import RawWord, run_tesseract
from appliance.vision.tolerances import degree_mark, find_stack, read_stacks

log = logging.getLogger(__name__)

PSM_AUTO = 3
PSM_SPARSE = 11
PSM_LINE = 7
#: Single characters that are leader ends, hatching or arrow heads when they stand alone.
_JUNK = frozenset("|_—–-~'\"`.,:;!¦[](){}/\\<>*^=«»“”‘’")


#: Confidence a line of the grey-page reading needs where the prepared reading saw nothing (there,
#: the grey page's ruling lines and hatching are often read as letters).
_ALONE_CONF = 60


@dataclass(frozen=True)
class OcrWord:
    """One word, normalised, with its box in the coordinates of the page given to :func:`read_page`."""

    #: Normalised text (engineering symbols fixed, decimal commas to points).
    text: str
    #: Text exactly as Tesseract read it.
    raw_text: str
    #: Tesseract confidence, 0-100.
    conf: float
    #: Box on the page.
    box: Box
    #: True when the word was read from the page turned by 90 degrees.
    vertical: bool = False


@dataclass(frozen=True)
class OcrLine:
    """Words Tesseract put on one text line."""

    #: The words, in reading order.
    words: tuple[OcrWord, ...]
    #: Tesseract block number within its pass (lines of one block form a region).
    block: int
    #: Which pass read it: "upright", "turned" or "slanted".
    source_pass: str

    @property
    def text(self) -> str:
        """The line's normalised text."""
        return " ".join(w.text for w in self.words)

    @property
    def box(self) -> Box:
        """Union of the word boxes."""
        box = self.words[0].box
        for word in self.words[1:]:
            box = box.union(word.box)
        return box

    @property
    def conf(self) -> float:
        """Mean word confidence."""
        return float(np.mean([w.conf for w in self.words]))


@dataclass
class OcrPage:
    """What OCR read on one page."""

    #: Text lines in reading order (upright pass first, then vertical text).
    lines: list[OcrLine] = field(default_factory=list)
    #: "drawing" or "text": how the page was read.
    layout: str = "drawing"
    #: Scale applied before OCR (text brought to the height Tesseract reads best).
    scale: float = 1.0
    #: Passes that failed and were skipped (a degraded but usable result), with the reason.
    warnings: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """All lines joined with newlines."""
        return "\n".join(line.text for line in self.lines)


@dataclass(frozen=True)
class PreparedPage:
    """A page made ready for Tesseract."""

    #: Black text on white, long ruling lines removed, at OCR scale.
    image: np.ndarray
    #: The greyscale page at OCR scale (text pages are read from it: Tesseract's own thresholding
    #: keeps photos out of the text, where an adaptive threshold turns them into letter-like noise).
    gray: np.ndarray
    #: OCR-scale pixels per input pixel.
    scale: float
    #: Median height of character-like blobs in input pixels.
    text_height: float
    #: Share of ink that belongs to long straight lines (high for drawings, low for text pages).
    line_ink_share: float


def prepare(gray: np.ndarray, settings: VisionSettings) -> PreparedPage:
    """Scale text to Tesseract's preferred height, binarise, and remove long ruling lines."""
    ink = binarise(gray)
    height = estimate_text_height(ink)
    scale = settings.ocr_text_height_px / height if height > 0 else 1.0
    scale = float(np.clip(scale, 0.25, 2.0))
    # Tesseract reads 15-45 px text equally well; rescaling inside that band only costs time.
    if (
        height > 0
        and not 0.7 * settings.ocr_text_height_px <= height <= 2 * settings.ocr_text_height_px
    ):
        interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
        scaled = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=interpolation)
        ink = binarise(scaled)
    else:
        scale = 1.0
        scaled = gray
    # A stroke four characters long and perfectly straight is a line of the drawing, not a glyph.
    lines = long_line_mask(ink, max(24, int(settings.ocr_text_height_px * 4)))
    # Solid areas (photos, black scan borders) are neither text nor ruling lines: leave them out of
    # the share that tells a drawing from a text page.
    solid = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
    not_solid = cv2.bitwise_not(solid)
    ink_total = max(1, int(np.count_nonzero(cv2.bitwise_and(ink, not_solid))))
    share = float(np.count_nonzero(cv2.bitwise_and(lines, not_solid))) / ink_total
    text_only = cv2.bitwise_and(ink, cv2.bitwise_not(lines))
    if height > 0:
        text_only = drop_non_text(text_only, height * scale)
    return PreparedPage(
        image=cv2.bitwise_not(text_only),
        gray=scaled if scale != 1.0 else gray,
        scale=scale,
        text_height=height,
        line_ink_share=share,
    )


def read_page(gray: np.ndarray, settings: VisionSettings, *, layout: str | None = None) -> OcrPage:
    """OCR a corrected greyscale page; boxes in the coordinates of ``gray``.

    ``layout`` forces "drawing", "text" or "line"; by default it is decided from how much of the ink is ruling
    lines. Only the first pass may raise :class:`OcrError`; a failing vertical-text pass degrades to
    ``warnings``.
    """
    prepared = prepare(gray, settings)
    if layout is None:
        if gray.shape[0] < 3 * max(prepared.text_height, 8):
            layout = "line"  # a single text line (a crop or a line image)
        else:
            layout = "drawing" if prepared.line_ink_share > 0.12 else "text"
    page = OcrPage(layout=layout, scale=prepared.scale)
    psm = {"drawing": PSM_SPARSE, "line": PSM_LINE}.get(layout, PSM_AUTO)
    drawing = layout == "drawing"
    turned_future: Future[list[RawWord]] | None = None
    grey_future: Future[list[RawWord]] | None = None
    with ThreadPoolExecutor(max_workers=2) as pool:
        # The passes are independent Tesseract processes: the turned and grey-page passes run side
        # by side once the upright reading is known.
        source = prepared.image if drawing else prepared.gray
        upright = run_tesseract(source, psm=psm, settings=settings)
        lines = _lines(upright, prepared.scale, "upright", None, drawing=drawing)
        if drawing and settings.read_vertical_text:
            # Confident text words painted out here too: read on their side they only give junk.
            turned_image = cv2.rotate(
                _blank_sure_words(prepared.image, lines, prepared.scale), cv2.ROTATE_90_CLOCKWISE
            )
            turned_future = pool.submit(
                run_tesseract, turned_image, psm=PSM_SPARSE, settings=settings
            )
        if drawing and settings.read_grey_page:
            # The grey page with its lines kept, read as Tesseract would read it unaided: text
            # touching a ruling line or set in a boxed cell loses strokes in the prepared image,
            # so this reading wins there, and the page is never read worse than plain Tesseract.
            # Words the prepared page gave with confidence are painted out first (the grey reading
            # would not replace them), so Tesseract spends its time on the rest.
            grey_future = pool.submit(
                run_tesseract,
                _blank_sure_words(prepared.gray, lines, prepared.scale),
                psm=PSM_SPARSE,
                settings=settings,
            )
        if grey_future is not None:
            try:
                grey = grey_future.result()
            except OcrError as err:
                page.warnings.append(f"grey-page pass not read: {err.code}")
                log.warning("grey-page pass skipped: %s", err)
            else:
                lines = merge_readings(lines, _lines(grey, prepared.scale, "upright", None))
        if turned_future is not None:
            try:
                turned = turned_future.result()
            except OcrError as err:
                page.warnings.append(f"vertical text not read: {err.code}")
                log.warning("vertical-text pass skipped: %s", err)
            else:
                turned_lines = _lines(
                    turned, prepared.scale, "turned", prepared.image.shape[:2], drawing=True
                )
                lines = _merge(lines, turned_lines)
    if drawing:
        lines = _with_unsure_words_reread(prepared, lines, settings, page)
        lines = _with_points_restored(prepared, lines)
    if drawing and settings.read_vertical_text:
        # Whole drawings only (the title block is read without it: it holds no dimensions).
        lines = _with_tolerance_stacks(prepared, lines, settings, page)
    if layout == "drawing" and settings.read_vertical_text:
        lines += _slanted_lines(prepared, lines, settings, page)
    page.lines = lines
    return page


#: Confidence above which a word of the prepared page's reading is not read again on the grey page.
_SURE_CONF = 85


def _blank_sure_words(gray: np.ndarray, lines: list[OcrLine], scale: float) -> np.ndarray:
    """A page (grey or prepared) with the confidently read words of text lines painted out (paper
    white).

    Only words of lines that are not dimensions, of three letters or more and at least
    ``_SURE_CONF``: there the grey reading cannot win (the merge keeps the more confident word),
    while on a dimension it may still add the ⌀ or ± the prepared page lost.
    """
    blanked = gray.copy()
    height, width = gray.shape[:2]
    for line in lines:
        if _numeric(line.text):
            continue
        for word in line.words:
            b = word.box
            if word.conf < _SURE_CONF or len(_alnum(word.text)) < 3:
                continue
            x0, y0 = max(0, int(b.x0 * scale) - 1), max(0, int(b.y0 * scale) - 1)
            x1, y1 = min(width, int(b.x1 * scale) + 2), min(height, int(b.y1 * scale) + 2)
            blanked[y0:y1, x0:x1] = 255
    return blanked


#: Below this confidence a word of a text line is read again on its own (see :mod:`rereads`).
_UNSURE_CONF = 70
#: Confidence the reading alone needs to replace the word (and it must beat the word's by 10).
_REREAD_CONF = 80


def _with_unsure_words_reread(
    prepared: PreparedPage, lines: list[OcrLine], settings: VisionSettings, page: OcrPage
) -> list[OcrLine]:
    """Unsure words of text lines read again alone; a confident reading replaces the word.

    Only words of letters (no digits) on upright lines that are not dimensions: a dimension's
    digits are checked by the stack and degree-sign rules, and a word read on its side would have
    to be cut out turned.
    """
    s = prepared.scale
    spots: list[tuple[int, int]] = []
    boxes: list[Box] = []
    for li, line in enumerate(lines):
        if line.source_pass != "upright" or _numeric(line.text):
            continue
        for wi, word in enumerate(line.words):
            if word.vertical or word.conf >= _UNSURE_CONF or not _lettered(word.text):
                continue
            b = word.box
            spots.append((li, wi))
            boxes.append(Box(b.x0 * s, b.y0 * s, b.x1 * s, b.y1 * s))
    if not spots:
        return lines
    try:
        readings = read_alone(prepared.image, boxes, settings)
    except OcrError as err:
        page.warnings.append(f"unsure words not read again: {err.code}")
        log.warning("unsure-word pass skipped: %s", err)
        return lines
    lines = list(lines)
    for (li, wi), (text, conf) in zip(spots, readings, strict=False):
        word = lines[li].words[wi]
        if conf < max(_REREAD_CONF, word.conf + 10) or not _lettered(text):
            continue
        words = list(lines[li].words)
        words[wi] = dataclasses.replace(word, text=normalise_word(text), raw_text=text, conf=conf)
        lines[li] = dataclasses.replace(lines[li], words=tuple(words))
    return lines


def _with_points_restored(prepared: PreparedPage, lines: list[OcrLine]) -> list[OcrLine]:
    """Points Tesseract left out of upright words of letters put back (see :mod:`points`)."""
    s = prepared.scale
    ink = cv2.bitwise_not(prepared.image)
    result = []
    for line in lines:
        words = list(line.words)
        for wi, word in enumerate(words):
            if word.vertical or line.source_pass != "upright" or not word.text.isalpha():
                continue
            b = word.box
            text = restore_points(ink, word.text, Box(b.x0 * s, b.y0 * s, b.x1 * s, b.y1 * s))
            if text != word.text:
                words[wi] = dataclasses.replace(word, text=text, raw_text=text)
        result.append(dataclasses.replace(line, words=tuple(words)))
    return result


def _lettered(text: str) -> bool:
    """Two letters or more and no digit: a word, not a number or a stray mark."""
    return sum(ch.isalpha() for ch in text) >= 2 and not any(ch.isdigit() for ch in text)


def _with_tolerance_stacks(
    prepared: PreparedPage, lines: list[OcrLine], settings: VisionSettings, page: OcrPage
) -> list[OcrLine]:
    """Deviation stacks after the numbers of dimension lines, read apart (see :mod:`tolerances`)."""
    s = prepared.scale
    height = prepared.image.shape[0]
    upright_ink = cv2.bitwise_not(prepared.image)
    frames: dict[bool, tuple[np.ndarray, np.ndarray]] = {False: (prepared.image, upright_ink)}

    def to_frame(box: Box, turned: bool) -> Box:
        b = Box(box.x0 * s, box.y0 * s, box.x1 * s, box.y1 * s)
        return Box(height - b.y1, b.x0, height - b.y0, b.x1) if turned else b

    def to_page(box: Box, turned: bool) -> Box:
        if turned:
            box = Box(box.y0, height - box.x1, box.y1, height - box.x0)
        return Box(box.x0 / s, box.y0 / s, box.x1 / s, box.y1 / s)

    found: list[tuple[int, int, bool]] = []
    spots = []
    lines = list(lines)
    for li, line in enumerate(lines):
        if line.source_pass == "slanted" or not _numeric(line.text):
            continue
        lines[li] = line = _with_degree_signs(line, frames, to_frame, prepared.image)
        for wi, word in enumerate(line.words):
            if not word.text[-1:].isdigit():
                continue
            turned = word.vertical
            if turned not in frames:
                image = cv2.rotate(prepared.image, cv2.ROTATE_90_CLOCKWISE)
                frames[turned] = (image, cv2.bitwise_not(image))
            image, ink = frames[turned]
            spot = find_stack(ink, to_frame(word.box, turned))
            if spot is not None:
                found.append((li, wi, turned))
                spots.append((image, spot))
                break
    if not spots:
        return lines
    try:
        stacks = read_stacks(spots, settings)
    except OcrError as err:
        page.warnings.append(f"tolerance stacks not read: {err.code}")
        log.warning("tolerance-stack pass skipped: %s", err)
        return lines
    replaced: dict[int, OcrLine] = {}
    taken: list[tuple[int, Box]] = []
    for (li, wi, turned), stack in zip(found, stacks, strict=False):
        if stack is None:
            continue
        line = lines[li]
        area = to_page(stack.spot.box, turned)
        tail = [w for w in line.words[wi + 1 :] if _overlap(w.box, area) < 0.5]
        added = tuple(
            OcrWord(
                text=normalise_word(raw),
                raw_text=raw,
                conf=stack.conf,
                box=to_page(box, turned),
                vertical=turned,
            )
            for raw, box in ((stack.upper, stack.spot.upper), (stack.lower, stack.spot.lower))
        )
        words = (*line.words[: wi + 1], *added, *tail)
        replaced[li] = OcrLine(words=words, block=line.block, source_pass=line.source_pass)
        taken.append((li, area))
    result = []
    for li, line in enumerate(lines):
        if li in replaced:
            result.append(replaced[li])
            continue
        b = line.box
        cx, cy = (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2
        if any(a.x0 <= cx <= a.x1 and a.y0 <= cy <= a.y1 for _, a in taken):
            continue  # a fragment of a stack now read whole
        result.append(line)
    return result


_ANGLE_WORD = re.compile(r"\d{1,3}(?:[.,]\d)?")


def _with_degree_signs(
    line: OcrLine,
    frames: dict[bool, tuple[np.ndarray, np.ndarray]],
    to_frame: Callable[[Box, bool], Box],
    image: np.ndarray,
) -> OcrLine:
    """Numbers whose last mark is a small raised ring end in a degree sign ("459" -> "45°")."""
    words = list(line.words)
    changed = False
    for wi, word in enumerate(words):
        text = word.text
        if "°" in text or not text[-1:].isalnum():
            continue
        turned = word.vertical
        if turned not in frames:
            turned_image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
            frames[turned] = (turned_image, cv2.bitwise_not(turned_image))
        where = new_text = ""
        if _ANGLE_WORD.fullmatch(text[:-1]) and text[-1] in "9oO0":
            where = degree_mark(frames[turned][1], to_frame(word.box, turned))
            new_text = text[:-1] + "°" if where == "inside" else ""
        elif _ANGLE_WORD.fullmatch(text):
            where = degree_mark(frames[turned][1], to_frame(word.box, turned))
            new_text = text + "°" if where == "after" else ""
        if where and new_text:
            words[wi] = dataclasses.replace(word, text=new_text)
            changed = True
    if not changed:
        return line
    return OcrLine(words=tuple(words), block=line.block, source_pass=line.source_pass)


def _slanted_lines(
    prepared: PreparedPage, lines: list[OcrLine], settings: VisionSettings, page: OcrPage
) -> list[OcrLine]:
    """Numbers at an angle or in boxes that neither pass read (see :mod:`leftovers`)."""
    s = prepared.scale
    covered = [Box(b.x0 * s, b.y0 * s, b.x1 * s, b.y1 * s) for b in (line.box for line in lines)]
    try:
        found = read_leftovers(prepared.image, prepared.text_height * s, covered, settings)
    except OcrError as err:
        page.warnings.append(f"slanted text not read: {err.code}")
        log.warning("slanted-text pass skipped: %s", err)
        return []
    result = []
    for item in found:
        if not _numeric(item.text):
            continue
        box = Box(item.box.x0 / s, item.box.y0 / s, item.box.x1 / s, item.box.y1 / s)
        words = tuple(
            OcrWord(text=normalise_word(token), raw_text=token, conf=item.conf, box=box)
            for token in item.text.split()
        )
        result.append(_fix_dimension_line(OcrLine(words=words, block=0, source_pass="slanted")))
    return result


def _to_page_box(word: RawWord, scale: float, turned_from: tuple[int, int] | None) -> Box:
    x0, y0 = float(word.left), float(word.top)
    x1, y1 = x0 + word.width, y0 + word.height
    if turned_from is not None:
        # Clockwise turn: turned (x, y) came from original (y, H - x) where H is the original height.
        height = turned_from[0]
        x0, y0, x1, y1 = y0, height - x1, y1, height - x0
    return Box(x0 / scale, y0 / scale, x1 / scale, y1 / scale)


def _lines(
    words: list[RawWord],
    scale: float,
    source_pass: str,
    turned_from: tuple[int, int] | None,
    *,
    drawing: bool = True,
) -> list[OcrLine]:
    grouped: dict[tuple[int, int, int, int], list[OcrWord]] = {}
    previous: dict[tuple[int, int, int], tuple[RawWord, int]] = {}
    for raw in words:
        if len(raw.text) == 1 and raw.text in _JUNK:
            continue  # lone punctuation: arrow heads, hatching, leader ends
        # On a drawing, words of one Tesseract line far apart are separate callouts (two
        # dimensions side by side, a value and the next dimension's number): a gap of more than
        # two character heights starts a new line.
        part = 0
        if raw.line_key in previous:
            last, part = previous[raw.line_key]
            gap = raw.left - (last.left + last.width)
            if drawing and gap > 2 * min(raw.height, last.height):
                part += 1
        previous[raw.line_key] = (raw, part)
        word = OcrWord(
            text=normalise_word(raw.text) if drawing else normalise(raw.text),
            raw_text=raw.text,
            conf=raw.conf,
            box=_to_page_box(raw, scale, turned_from),
            vertical=turned_from is not None,
        )
        grouped.setdefault((*raw.line_key, part), []).append(word)
    lines = []
    for key, line_words in grouped.items():
        line = OcrLine(words=tuple(line_words), block=key[0], source_pass=source_pass)
        if _is_noise(line):
            continue
        if drawing and _numeric(line.text):
            line = _fix_dimension_line(line)
        lines.append(line)
    return lines


def _numeric(text: str) -> bool:
    """A line made of numbers and symbols (no word of three letters)."""
    return any(ch.isdigit() for ch in text) and not re.search(r"[A-Za-z]{3,}", text)


def _fix_dimension_line(line: OcrLine) -> OcrLine:
    """Apply the drawing-only rules; words keep their boxes when the word count is unchanged."""
    fixed = normalise_dimension_line(line.text)
    if fixed == line.text:
        return line
    tokens = fixed.split()
    words = line.words
    if len(tokens) == len(words):
        new_words = tuple(
            OcrWord(text=t, raw_text=w.raw_text, conf=w.conf, box=w.box, vertical=w.vertical)
            for t, w in zip(tokens, words, strict=True)
        )
    else:
        new_words = _realigned(tokens, fixed, line)
    return OcrLine(words=new_words, block=line.block, source_pass=line.source_pass)


def _realigned(tokens: list[str], fixed: str, line: OcrLine) -> tuple[OcrWord, ...]:
    """Words for rewritten tokens ("D 16.5" became "⌀16.5"): each takes the boxes of the words
    under the same share of the line's characters, so later passes still see where each value ends.
    """
    spans = []
    start = 0
    for word in line.words:
        spans.append((start, start + len(word.text)))
        start += len(word.text) + 1
    ratio = max(1, start - 1) / max(1, len(fixed))
    result = []
    position = 0
    for token in tokens:
        begin = fixed.index(token, position)
        position = begin + len(token)
        lo, hi = begin * ratio, position * ratio
        under = [w for w, (a, b) in zip(line.words, spans, strict=True) if a < hi and b > lo]
        under = under or [line.words[-1]]
        box = under[0].box
        for word in under[1:]:
            box = box.union(word.box)
        result.append(
            OcrWord(
                text=token,
                raw_text=" ".join(w.raw_text for w in under),
                conf=min(w.conf for w in under),
                box=box,
                vertical=under[0].vertical,
            )
        )
    return tuple(result)


def _is_noise(line: OcrLine) -> bool:
    """Hatching, symbols and border letters read as junk: short, unsure and not a number."""
    text = line.text
    alnum = sum(ch.isalnum() for ch in text)
    if alnum == 0:
        return True
    if line.conf < 30 and not any(ch.isdigit() for ch in text):
        return True
    return len(text) <= 2 and line.conf < 50 and not text.isdigit()


def _overlap(a: Box, b: Box) -> float:
    """Intersection over the smaller box's area."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0))
    return (w * h) / max(1e-6, smaller)


def _weight(line: OcrLine) -> float:
    return line.conf * sum(ch.isalnum() for ch in line.text)


def merge_readings(first: list[OcrLine], second: list[OcrLine]) -> list[OcrLine]:
    """Two readings of the same page merged word by word, by place: the more confident word wins.

    A word of ``second`` that overlaps words of ``first`` replaces them (in their line) when it is
    more confident than each of them and its weight (confidence x letters and digits) beats theirs
    together, so a confident fragment does not replace a whole word, one word read across two does
    not replace both, and letters guessed at low confidence do not replace a number; a word that
    overlaps nothing is added, on a line of its own reading, when it is confident.
    """
    placed = [[(w.box.x0, w) for w in line.words] for line in first]
    removed: set[tuple[int, int]] = set()
    extra_lines: list[OcrLine] = []
    for line in second:
        alone = []
        for word in line.words:
            rivals = [
                (li, wi)
                for li, other in enumerate(first)
                if _overlap(word.box, other.box) > 0
                for wi, rival in enumerate(other.words)
                if _overlap(word.box, rival.box) > 0.3
            ]
            if not rivals:
                if word.conf >= _ALONE_CONF:
                    alone.append(word)
            elif any(_alnum(first[li].words[wi].text) == _alnum(word.text) for li, wi in rivals):
                # The same letters and digits: the first reading stays unless this one adds an
                # engineering symbol it missed (a ⌀ or ± lost with the ruling lines around it).
                if len(rivals) == 1 and _symbols(word) > _symbols(
                    first[rivals[0][0]].words[rivals[0][1]]
                ):
                    removed.update(rivals)
                    placed[rivals[0][0]].append((word.box.x0, word))
            elif all(word.conf > first[li].words[wi].conf for li, wi in rivals) and _word_weight(
                word
            ) > sum(_word_weight(first[li].words[wi]) for li, wi in rivals):
                removed.update(rivals)
                placed[rivals[0][0]].append((word.box.x0, word))
        if alone:
            extra_lines.append(OcrLine(words=tuple(alone), block=line.block, source_pass="grey"))
    merged = []
    for li, line in enumerate(first):
        keep = [
            (x, w)
            for wi, (x, w) in enumerate(placed[li])
            if wi >= len(line.words) or (li, wi) not in removed
        ]
        if keep:
            keep.sort(key=lambda item: item[0])
            words = tuple(w for _, w in keep)
            merged.append(OcrLine(words=words, block=line.block, source_pass=line.source_pass))
    return merged + [line for line in extra_lines if not _is_noise(line)]


def _word_weight(word: OcrWord) -> float:
    return word.conf * len(_alnum(word.text))


def _symbols(word: OcrWord) -> set[str]:
    return set(word.text) & set("⌀±°")


def _alnum(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())


def _merge(upright: list[OcrLine], turned: list[OcrLine]) -> list[OcrLine]:
    """Keep vertical lines that beat the upright reading of the same place, and drop what they beat."""
    kept_turned = []
    beaten: set[int] = set()
    for line in turned:
        box = line.box
        if (box.y1 - box.y0) < (box.x1 - box.x0):
            continue  # an upright word seen sideways is never taller than wide here
        alnum = [ch for ch in line.text if ch.isalnum()]
        mostly_digits = bool(alnum) and sum(ch.isdigit() for ch in alnum) >= 0.6 * len(alnum)
        # Vertical text on drawings is dimensions: a number read on its side is believed at low
        # confidence, sideways words only at high confidence (they are mostly hatching read as text).
        if line.conf < (20 if mostly_digits else 55):
            continue
        if line.conf < 85 and not any(ch.isdigit() for ch in line.text):
            continue
        rivals = [i for i, up in enumerate(upright) if _overlap(box, up.box) > 0.3]
        # A number read sideways beats letters read upright in the same place: on a drawing those
        # letters are the same digits seen on their side.
        if all(
            _weight(line) > _weight(upright[i])
            or (mostly_digits and not any(ch.isdigit() for ch in upright[i].text))
            for i in rivals
        ):
            kept_turned.append(line)
            beaten.update(rivals)
    return [line for i, line in enumerate(upright) if i not in beaten] + kept_turned
