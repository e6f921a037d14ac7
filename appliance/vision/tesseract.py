"""The one wrapper around Tesseract: explicit options, a timeout on every call, coded errors.

Every OCR call in the appliance goes through :func:`run_tesseract`. Tesseract is driven through
``pytesseract.image_to_data`` (word boxes, line numbers and confidences in one call). Known failures
become :class:`OcrError` with a stable code (``ocr_timeout``, ``ocr_crashed``, ``ocr_missing``,
``ocr_language_missing``); callers decide which passes may fail with a degraded result.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import pytesseract
from PIL import Image

from appliance.vision.errors import OcrError
from appliance.vision.settings import VisionSettings

T = TypeVar("T")

#: Oldest Tesseract whose LSTM engine and TSV output this code relies on.
MIN_VERSION = (4, 1)
#: Install hint shown by ``openclaw doctor``.
INSTALL_HINT = (
    "sudo apt-get install tesseract-ocr tesseract-ocr-eng (add tesseract-ocr-chi-sim for Chinese)"
)


@dataclass(frozen=True)
class RawWord:
    """One word as Tesseract reported it, in the pixel coordinates of the image it was given."""

    #: The recognised text (never empty).
    text: str
    #: Tesseract's confidence, 0-100.
    conf: float
    #: Left edge.
    left: int
    #: Top edge.
    top: int
    #: Width.
    width: int
    #: Height.
    height: int
    #: (block, paragraph, line) numbers: words sharing them sit on one text line.
    line_key: tuple[int, int, int]


def tesseract_options(psm: int, whitelist: str = "") -> str:
    """The explicit option string of every call (same options in the product and the benchmarks)."""
    # LSTM engine only; no inverted-text retry (drawings are dark on light after our binarisation and
    # the retry doubles the time of pages with little text).
    options = f"--oem 1 --psm {psm} -c tessedit_do_invert=0"
    if whitelist:
        options += f" -c tessedit_char_whitelist={whitelist}"
    return options


def run_tesseract(
    image: np.ndarray, *, psm: int, settings: VisionSettings, whitelist: str = ""
) -> list[RawWord]:
    """OCR one greyscale or RGB image; words with boxes and confidences, empty words dropped.

    ``whitelist`` limits the characters Tesseract may read (digits and signs of a tolerance).
    """
    data = _call(
        lambda: pytesseract.image_to_data(
            _uncompressed(image),
            lang=settings.ocr_languages,
            config=tesseract_options(psm, whitelist),
            timeout=settings.ocr_timeout_s,
            output_type=pytesseract.Output.DICT,
        ),
        settings,
    )
    return _words(data)


@dataclass(frozen=True)
class Orientation:
    """Tesseract's orientation detection (OSD) of a page."""

    #: Degrees the page must be turned clockwise to stand upright: 0, 90, 180 or 270.
    rotate: int
    #: Tesseract's orientation confidence (about 1 is a guess, above 5 is sure); 0 when the
    #: page had too few characters to tell.
    confidence: float


def detect_orientation(image: np.ndarray, settings: VisionSettings) -> Orientation:
    """Orientation of a page from Tesseract's OSD (``--psm 0``, needs ``osd.traineddata``).

    Too few characters to decide gives ``Orientation(0, 0.0)``; other failures raise
    :class:`OcrError` like :func:`run_tesseract`.
    """

    def osd() -> str:
        try:
            return str(
                pytesseract.image_to_osd(
                    _uncompressed(image), config="--psm 0", timeout=settings.ocr_timeout_s
                )
            )
        except pytesseract.TesseractError as err:
            if "too few characters" in str(err.message).lower():
                return ""
            raise

    try:
        text = _call(osd, settings)
    except OcrError as err:
        if err.code == "ocr_language_missing":
            raise OcrError(
                "Tesseract has no orientation data (osd.traineddata); "
                "sudo apt-get install tesseract-ocr-osd",
                code="ocr_language_missing",
            ) from None
        raise
    if not text:
        return Orientation(0, 0.0)
    rotate = re.search(r"Rotate:\s*(\d+)", str(text))
    confidence = re.search(r"Orientation confidence:\s*([\d.]+)", str(text))
    if not rotate or not confidence:
        raise OcrError("Tesseract printed no orientation", code="ocr_crashed")
    return Orientation(int(rotate.group(1)) % 360, float(confidence.group(1)))


def tesseract_environment() -> dict[str, str]:
    """The environment a Tesseract process runs with: this process's, with one OpenMP thread."""
    return {**os.environ, "OMP_THREAD_LIMIT": "1"}


def _call(run: Callable[[], T], settings: VisionSettings) -> T:
    """Run one pytesseract call with the appliance's environment; failures become :class:`OcrError`."""
    pytesseract.pytesseract.tesseract_cmd = settings.tesseract_cmd
    # One OpenMP thread: Tesseract's own threading is slower on small boards than running
    # single-threaded, and the appliance runs other work beside OCR. The limit goes into the
    # environment pytesseract gives its Tesseract process only: in this process's own it would cap
    # every OpenMP library loaded here, and CTranslate2 given fewer threads than it asked for reads
    # speech as "!!!!".
    pytesseract.pytesseract.environ = tesseract_environment()
    try:
        return run()
    except pytesseract.TesseractNotFoundError:
        raise OcrError(
            f"Tesseract ({os.path.basename(settings.tesseract_cmd)}) is not installed; {INSTALL_HINT}",
            code="ocr_missing",
        ) from None
    except pytesseract.TesseractError as err:
        message = str(err.message or "").strip()
        if "Failed loading language" in message or "Error opening data file" in message:
            raise OcrError(
                f"Tesseract has no data for language(s) {settings.ocr_languages}; {INSTALL_HINT}",
                code="ocr_language_missing",
            ) from None
        raise OcrError(
            f"Tesseract crashed (exit status {err.status}): {_first_line(message)}",
            code="ocr_crashed",
        ) from None
    except RuntimeError as err:
        if "timeout" in str(err).lower():
            raise OcrError(
                f"Tesseract did not finish within {settings.ocr_timeout_s:g} s (vision.ocr_timeout_s)",
                code="ocr_timeout",
            ) from None
        raise OcrError(f"Tesseract failed: {_first_line(str(err))}", code="ocr_crashed") from None
    except (ValueError, KeyError, IndexError) as err:
        # pytesseract could not parse what the program printed: a broken or foreign binary.
        raise OcrError(f"Tesseract printed unreadable output ({err})", code="ocr_crashed") from None
    except (subprocess.CalledProcessError, SystemExit) as err:
        # pytesseract's one-time version probe: the program failed or printed no usable version
        # (pytesseract signals the latter with SystemExit, which must not end the service).
        raise OcrError(
            f"tesseract --version failed ({_first_line(str(err))})", code="ocr_crashed"
        ) from None


def _uncompressed(image: np.ndarray) -> Image.Image:
    """The image as a PIL image that pytesseract hands over as PBM/PGM/PPM.

    pytesseract writes the image to a temporary file in its ``format``, PNG by default; compressing
    a page-sized PNG costs more CPU than Tesseract's reading of small pages, an uncompressed file
    almost nothing. A page that is already black and white (the prepared page: only 0 and 255) goes
    as a 1-bit bitmap: Tesseract then skips its own thresholding and reads the same words, boxes
    and confidences for about a quarter less CPU on a 300-dpi page (bench/vision_profile.py).
    """
    picture = Image.fromarray(image)
    if (
        image.ndim == 2
        and image.dtype == np.uint8
        and _black_and_white(image)
        and _first_bitmap_byte(image) not in _PNM_SPACE
    ):
        picture = picture.convert("1", dither=Image.Dither.NONE)
    picture.format = "PPM"
    return picture


#: Bytes Leptonica's PNM reader skips as white space after the header: a 1-bit raster starting with
#: one of them is read short and Tesseract exits with "pixReadStreamPnm: read error" (a speck of
#: ink among the first eight pixels of the top row is enough).
_PNM_SPACE = frozenset({0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20})


def _first_bitmap_byte(image: np.ndarray) -> int:
    """The first byte of the image's 1-bit raster (black is 1, the first pixel the high bit)."""
    value = 0
    for i, pixel in enumerate(image[0, :8]):
        if pixel == 0:
            value |= 0x80 >> i
    return value


def _black_and_white(image: np.ndarray) -> bool:
    """True when every pixel is 0 or 255 (cheap: one comparison pass, no sorting)."""
    return not np.any((image > 0) & (image < 255))


def _words(data: dict[str, list]) -> list[RawWord]:
    words = []
    try:
        for i, text in enumerate(data["text"]):
            text = str(text).strip()
            conf = float(data["conf"][i])
            if not text or conf < 0:
                continue
            words.append(
                RawWord(
                    text=text,
                    conf=conf,
                    left=int(data["left"][i]),
                    top=int(data["top"][i]),
                    width=int(data["width"][i]),
                    height=int(data["height"][i]),
                    line_key=(
                        int(data["block_num"][i]),
                        int(data["par_num"][i]),
                        int(data["line_num"][i]),
                    ),
                )
            )
    except (KeyError, IndexError, ValueError) as err:
        raise OcrError(f"Tesseract printed unreadable output ({err})", code="ocr_crashed") from None
    return words


def _first_line(text: str) -> str:
    return text.splitlines()[0][:200] if text else "no message"


def tesseract_version(settings: VisionSettings) -> tuple[int, ...]:
    """The installed Tesseract's version as a tuple, e.g. ``(5, 3, 0)``."""
    cmd = shutil.which(settings.tesseract_cmd) or settings.tesseract_cmd
    try:
        proc = subprocess.run(
            [cmd, "--version"], capture_output=True, text=True, timeout=10, check=False
        )
    except FileNotFoundError:
        raise OcrError("Tesseract is not installed", code="ocr_missing") from None
    except subprocess.TimeoutExpired:
        raise OcrError(
            "tesseract --version did not answer within 10 s", code="ocr_timeout"
        ) from None
    match = re.search(r"tesseract\s+v?(\d+)\.(\d+)(?:\.(\d+))?", proc.stdout + proc.stderr)
    if proc.returncode != 0 or not match:
        raise OcrError("tesseract --version printed no version", code="ocr_crashed")
    return tuple(int(part) for part in match.groups() if part is not None)


def installed_languages(settings: VisionSettings) -> set[str]:
    """Languages Tesseract has data for."""
    cmd = shutil.which(settings.tesseract_cmd) or settings.tesseract_cmd
    try:
        proc = subprocess.run(
            [cmd, "--list-langs"], capture_output=True, text=True, timeout=10, check=False
        )
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return set()
    lines = proc.stdout.splitlines()
    return {line.strip() for line in lines[1:] if line.strip()}


@functools.lru_cache(maxsize=8)
def _installed(cmd: str) -> frozenset[str]:
    return frozenset(installed_languages(VisionSettings(tesseract_cmd=cmd)))


def title_block_languages(settings: VisionSettings) -> str:
    """The title-block pass's languages: ``title_block_languages`` when Tesseract has them all
    (checked once per program), else ``ocr_languages`` (``openclaw doctor`` names what is missing)."""
    wanted = settings.title_block_languages
    if not wanted or wanted == settings.ocr_languages:
        return settings.ocr_languages
    if set(wanted.split("+")) <= _installed(settings.tesseract_cmd):
        return wanted
    return settings.ocr_languages


def check_tesseract(settings: VisionSettings | None = None) -> tuple[bool, str, str]:
    """For ``openclaw doctor``: (ok, what was found, how to fix it)."""
    settings = settings or VisionSettings()
    try:
        version = tesseract_version(settings)
    except OcrError as err:
        return False, err.message, INSTALL_HINT
    shown = ".".join(str(part) for part in version)
    if version[:2] < MIN_VERSION:
        return False, f"Tesseract {shown} is older than 4.1", INSTALL_HINT
    wanted = list(
        dict.fromkeys(
            settings.ocr_languages.split("+")
            + [x for x in settings.title_block_languages.split("+") if x]
            + [x for x in settings.german_languages.split("+") if x]
        )
    )
    have = installed_languages(settings)
    missing = [lang for lang in wanted if lang not in have]
    if missing:
        packages = " ".join(f"tesseract-ocr-{lang.replace('_', '-')}" for lang in missing)
        return (
            False,
            f"Tesseract {shown} lacks language data: {', '.join(missing)}",
            (f"sudo apt-get install {packages}"),
        )
    return True, f"Tesseract {shown}, languages {'+'.join(wanted)}", ""
