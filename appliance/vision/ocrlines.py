"""OCR words and lines: the types a page's reading is made of, Tesseract's words grouped into lines
(junk and noise left out, dimension lines normalised), and two readings of one page merged by place.

Everything here works in the coordinates of the image the page was read from; callers map boxes
further. The passes that produce the readings are :mod:`appliance.vision.ocr` and
:mod:`appliance.vision.ocrpasses`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from appliance.document import Box
from appliance.vision.symbols import normalise, normalise_dimension_line, normalise_word
from appliance.vision.tesseract import RawWord

#: Single characters that are leader ends, hatching or arrow heads when they stand alone.
_JUNK = frozenset("|_—–-~'\"`.,:;!¦[](){}/\\<>*^=«»“”‘’")


#: Confidence a line of the grey-page reading needs where the prepared reading saw nothing (there,
#: the grey page's ruling lines and hatching are often read as letters).
_ALONE_CONF = 60


@dataclass(frozen=True)
class OcrWord:
    """One word, normalised, with its box in the coordinates of the page given to
    :func:`~appliance.vision.ocr.read_page`."""

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


def _to_page_box(word: RawWord, scale: float, turned_from: tuple[int, int] | None) -> Box:
    x0, y0 = float(word.left), float(word.top)
    x1, y1 = x0 + word.width, y0 + word.height
    if turned_from is not None:
        # Clockwise turn: turned (x, y) came from original (y, H - x) where H is the original height.
        height = turned_from[0]
        x0, y0, x1, y1 = y0, height - x1, y1, height - x0
    return Box(x0 / scale, y0 / scale, x1 / scale, y1 / scale)


def build_lines(
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
        if drawing and is_numeric(line.text):
            line = fix_dimension_line(line)
        lines.append(line)
    return lines


def is_numeric(text: str) -> bool:
    """A line made of numbers and symbols (no word of three letters)."""
    return any(ch.isdigit() for ch in text) and not re.search(r"[A-Za-z]{3,}", text)


def fix_dimension_line(line: OcrLine) -> OcrLine:
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


def overlap_share(a: Box, b: Box) -> float:
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
                if overlap_share(word.box, other.box) > 0
                for wi, rival in enumerate(other.words)
                if overlap_share(word.box, rival.box) > 0.3
            ]
            if not rivals:
                if word.conf >= _ALONE_CONF:
                    alone.append(word)
            elif any(
                letters_and_digits(first[li].words[wi].text) == letters_and_digits(word.text)
                for li, wi in rivals
            ):
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
    return word.conf * len(letters_and_digits(word.text))


def _symbols(word: OcrWord) -> set[str]:
    return set(word.text) & set("⌀±°")


def letters_and_digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())


def merge_turned(upright: list[OcrLine], turned: list[OcrLine]) -> list[OcrLine]:
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
        rivals = [i for i, up in enumerate(upright) if overlap_share(box, up.box) > 0.3]
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
