"""Failure injection: a Tesseract that hangs, crashes or is missing (fake programs first on PATH).

Each gives its coded error; a failing vertical-text pass degrades to a warning; the index is unchanged.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.config import Config
from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore
from appliance.ingest.pipeline import ingest_path
from appliance.vision.errors import OcrError
from appliance.vision.ocr import read_page
from appliance.vision.settings import VisionSettings
from appliance.vision.tesseract import check_tesseract, run_tesseract

REAL_TESSERACT = shutil.which("tesseract") or "/usr/bin/tesseract"

# Like a real broken install, the fakes still answer --version (pytesseract asks once per process).
_VERSION = f"""
import os, sys
if sys.argv[1:2] in (["--version"], ["--list-langs"]):
    os.execv({REAL_TESSERACT!r}, [{REAL_TESSERACT!r}, *sys.argv[1:]])
"""
HANGS = _VERSION + "import time\ntime.sleep(60)\n"
CRASHES = _VERSION + "sys.stderr.write('Segmentation fault (core dumped)\\n')\nsys.exit(139)\n"
# Reads like the real one for upright pages, crashes for the page turned on its side (wider than tall):
# only the vertical-text pass fails.
CRASHES_WHEN_TURNED = f"""
import os, sys
from PIL import Image
if len(sys.argv) > 1 and sys.argv[1] not in ("--version", "--list-langs"):
    width, height = Image.open(sys.argv[1]).size
    if width > height:
        sys.stderr.write("Segmentation fault\\n")
        sys.exit(139)
os.execv({REAL_TESSERACT!r}, [{REAL_TESSERACT!r}, *sys.argv[1:]])
"""
# Reads like the real one in English, crashes when asked for Chinese: only the Chinese-line pass fails.
CRASHES_IN_CHINESE = f"""
import os, sys
if "chi_sim" in " ".join(sys.argv[1:]) and "--list-langs" not in sys.argv:
    sys.stderr.write("Segmentation fault\\n")
    sys.exit(139)
os.execv({REAL_TESSERACT!r}, [{REAL_TESSERACT!r}, *sys.argv[1:]])
"""
OLD_VERSION = "import sys\nprint('tesseract 3.05.02')\n"


@pytest.fixture
def on_path(
    fake_program: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> Callable[[str], None]:
    """Install a fake ``tesseract`` with the given body first on PATH."""

    def install(body: str) -> None:
        fake = fake_program("tesseract", body)
        monkeypatch.setenv("PATH", f"{fake.parent}:{__import__('os').environ['PATH']}")

    return install


def _page() -> np.ndarray:
    page = np.full((600, 400), 255, np.uint8)
    cv2.putText(page, "SCALE 1:2", (30, 200), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 0, 3)
    return page


def test_timeout(on_path: Callable[[str], None]) -> None:
    on_path(HANGS)
    settings = VisionSettings(ocr_timeout_s=1.0)
    with pytest.raises(OcrError) as caught:
        run_tesseract(_page(), psm=11, settings=settings)
    assert caught.value.code == "ocr_timeout"
    assert "vision.ocr_timeout_s" in caught.value.message


def test_crash(on_path: Callable[[str], None]) -> None:
    on_path(CRASHES)
    with pytest.raises(OcrError) as caught:
        run_tesseract(_page(), psm=11, settings=VisionSettings())
    assert caught.value.code == "ocr_crashed"
    assert "139" in caught.value.message


def test_missing_program(tmp_path: Path) -> None:
    settings = VisionSettings(tesseract_cmd=str(tmp_path / "no-such-tesseract"))
    with pytest.raises(OcrError) as caught:
        run_tesseract(_page(), psm=11, settings=settings)
    assert caught.value.code == "ocr_missing"
    assert str(tmp_path) not in caught.value.message
    ok, _detail, fix = check_tesseract(settings)
    assert not ok and "apt-get install tesseract-ocr" in fix


def test_vertical_pass_failure_degrades(on_path: Callable[[str], None], drawings: Path) -> None:
    on_path(CRASHES_WHEN_TURNED)
    gray = cv2.imread(str(drawings / "Candle_holder.jpg"), cv2.IMREAD_GRAYSCALE)
    page = read_page(gray, VisionSettings(), layout="drawing")
    assert "vertical text not read: ocr_crashed" in page.warnings
    assert page.lines and not any(line.source_pass == "turned" for line in page.lines)
    assert "2022001" in page.text


def test_doctor_check(on_path: Callable[[str], None]) -> None:
    ok, detail, _ = check_tesseract(VisionSettings())
    assert ok and detail.startswith(("Tesseract 4", "Tesseract 5")), detail
    missing_lang = check_tesseract(VisionSettings(ocr_languages="eng+klingon"))
    assert missing_lang[0] is False and "tesseract-ocr-klingon" in missing_lang[2]
    # The German pass's model is wanted too ("" turns the pass and the check off).
    assert "deu" in detail
    no_german = check_tesseract(VisionSettings(german_languages="klingon"))
    assert no_german[0] is False and "tesseract-ocr-klingon" in no_german[2]
    assert check_tesseract(VisionSettings(german_languages=""))[0]
    on_path(OLD_VERSION)
    ok, detail, _ = check_tesseract(VisionSettings())
    assert not ok and "3.5.2" in detail


def test_index_unchanged_when_ocr_fails(
    on_path: Callable[[str], None], config: Config, drawings: Path, tmp_path: Path
) -> None:
    embedder = Embedder.from_manifest("all-minilm-l6-v2-int8", Path("/nonexistent-models-dir"))
    note = tmp_path / "bracket.md"
    note.write_text(
        "# Bracket\n\nThe M8 bolts on the mounting bracket take 25 N·m.\n", encoding="utf-8"
    )
    with IndexStore.open(config, embedder=embedder) as store:
        first = ingest_path(store, note, "shop", config=config)
        assert first.indexed == 1 and not first.failures
        before = [(s.source, s.content_hash) for s in store.list_sources()]
        on_path(CRASHES)
        report = ingest_path(store, drawings / "LIU0010.jpg", "shop", config=config)
        assert report.indexed == 0
        assert [(name, err.code) for name, err in report.failures] == [
            ("LIU0010.jpg", "ocr_crashed")
        ]
        assert [(s.source, s.content_hash) for s in store.list_sources()] == before


def test_orientation_detection_that_crashes_leaves_the_page_as_it_was(
    on_path: Callable[[str], None],
) -> None:
    from appliance.vision.orientation import upright
    from appliance.vision.page import correct_page

    on_path(CRASHES)
    page = correct_page(cv2.cvtColor(_page(), cv2.COLOR_GRAY2RGB), find_page=False)
    fixed, turned, warnings = upright(page, VisionSettings())
    assert (fixed, turned, warnings) == (page, 0, ["orientation not detected: ocr_crashed"])


def test_a_page_with_too_few_letters_for_orientation_detection_stays_as_it_is() -> None:
    from appliance.vision.tesseract import Orientation, detect_orientation

    blank = np.full((400, 300), 255, np.uint8)
    cv2.putText(blank, "A", (100, 200), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    assert detect_orientation(blank, VisionSettings()) == Orientation(0, 0.0)


def test_chinese_line_pass_failure_degrades(on_path: Callable[[str], None]) -> None:
    from appliance.document import Box
    from appliance.vision.hanlines import with_han_lines_reread
    from appliance.vision.ocrlines import OcrLine, OcrPage, OcrWord

    on_path(CRASHES_IN_CHINESE)
    word = OcrWord(text="1. REI C1", raw_text="1. REI C1", conf=56, box=Box(30, 170, 260, 210))
    lines = [OcrLine(words=(word,), block=1, source_pass="upright")]
    page = OcrPage()
    result = with_han_lines_reread(_page(), lines, VisionSettings(), "eng+chi_sim", page)
    assert result == lines  # the English reading stands
    assert page.warnings == ["Chinese lines not read again: ocr_crashed"]
