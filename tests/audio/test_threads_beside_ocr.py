"""Whisper on two threads keeps reading right beside Tesseract and under an OpenMP thread limit.

CTranslate2 given fewer OpenMP threads than it asked for reads speech as "!!!!". Each case runs in a
fresh process: OpenMP reads its limit once, when it starts, so a process that has already run
whisper would hide the fault.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import SynthFn

REPO = Path(__file__).resolve().parents[2]

#: OCR (when asked) then a two-thread tiny.en reading of the WAV; prints the limit and the text.
_PROBE = """
import json, os, sys
from pathlib import Path
import numpy as np
from PIL import Image, ImageDraw
if sys.argv[2] == "ocr":
    from appliance.vision.settings import VisionSettings
    from appliance.vision.tesseract import run_tesseract
    page = Image.new("L", (420, 80), 255)
    ImageDraw.Draw(page).text((10, 30), "MATERIAL STEEL DRAWING A-1024", fill=0)
    words = run_tesseract(np.asarray(page), psm=6, settings=VisionSettings())
    assert any("1024" in w.text for w in words), [w.text for w in words]
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.wavio import read_wav
recogniser = WhisperRecogniser.from_manifest(
    "whisper-tiny-en", Path("/nonexistent-models-dir"), threads=2, short_context=True,
    short_context_s=10,
)
text = recogniser.transcribe(read_wav(Path(sys.argv[1]))[0]).text
print(json.dumps({"limit": os.environ.get("OMP_THREAD_LIMIT"), "threads": recogniser.threads,
                  "text": text}))
"""


def _read(wav: Path, ocr_first: bool, **env: str) -> dict[str, str | int | None]:
    base = {k: v for k, v in os.environ.items() if k != "OMP_THREAD_LIMIT"}
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, str(wav), "ocr" if ocr_first else "-"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**base, **env},
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, str | int | None] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["log"] = proc.stderr
    return result


def _heard_right(text: object) -> bool:
    words = str(text).lower().replace(",", "")
    return "material" in words and "1024" in words


def test_ocr_leaves_whisper_its_threads(synth: SynthFn) -> None:
    wav = synth("what material is drawing A 1024")
    heard = _read(wav, ocr_first=True)
    assert heard["limit"] is None  # Tesseract's one thread stayed in Tesseract's process
    assert heard["threads"] == 2
    assert _heard_right(heard["text"]), heard["text"]


def test_a_thread_limit_below_whisper_threads_is_obeyed_not_misread(synth: SynthFn) -> None:
    wav = synth("what material is drawing A 1024")
    heard = _read(wav, ocr_first=False, OMP_THREAD_LIMIT="1")
    assert heard["limit"] == "1"
    assert heard["threads"] == 1  # what it reports is what it runs on
    assert _heard_right(heard["text"]), heard["text"]
    assert "stt_threads_limited" in str(heard["log"]) or "OMP_THREAD_LIMIT=1" in str(heard["log"])
