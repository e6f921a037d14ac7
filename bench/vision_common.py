"""Shared pieces of the vision benchmarks: the data sets, the plain-Tesseract baseline, the metrics."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from appliance.vision.symbols import canonical_for_matching, normalise

try:
    from bench.common import SHARED_DATA
except ImportError:  # run as a script from bench/
    from common import SHARED_DATA  # type: ignore[no-redef]

DRAWINGS = SHARED_DATA / "drawings-edocr2"
SAMPLES = DRAWINGS / "test_samples"
TEXTLAYER = DRAWINGS / "derived_pdf_textlayer"
SCANS = SHARED_DATA / "scans"


@dataclass(frozen=True)
class Drawing:
    """One labelled drawing of the eDOCr2 set."""

    #: File stem, e.g. "Candle_holder".
    name: str
    #: The drawing image.
    image: Path
    #: Dimension labels exactly as drawn ("other_info" regions left out).
    labels: list[str]


def drawings(limit: int | None = None) -> list[Drawing]:
    """The labelled drawings (dimension labels only; 'other_info' regions are not transcribed)."""
    found = []
    for table in sorted(SAMPLES.glob("*.csv")):
        image = next(
            p for p in (table.with_suffix(".jpg"), table.with_suffix(".png")) if p.exists()
        )
        with table.open(encoding="utf-8") as handle:
            labels = [row[-1] for row in csv.reader(handle) if row and row[-1] != "other_info"]
        found.append(Drawing(table.stem, image, labels))
    return found[:limit] if limit else found


def textlayer_words(stem: str) -> list[str]:
    """Words (2+ characters) of a vector PDF's text layer, as the baseline script counts them."""
    data = json.loads((TEXTLAYER / f"{stem}.words.json").read_text(encoding="utf-8"))
    return [w["text"] for w in data["words"] if len(w["text"]) >= 2]


def plain_tesseract(image: Path | np.ndarray, psm: int) -> str:
    """Plain Tesseract CLI, no preprocessing: the yardstick of ../shared/data/tools."""
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    if isinstance(image, np.ndarray):
        ok, encoded = cv2.imencode(".png", image)
        assert ok
        proc = subprocess.run(
            ["tesseract", "-", "-", "--psm", str(psm), "-l", "eng"],
            input=encoded.tobytes(),
            capture_output=True,
            env=env,
            check=False,
            timeout=300,
        )
        return proc.stdout.decode("utf-8", "replace")
    proc = subprocess.run(
        ["tesseract", str(image), "-", "--psm", str(psm), "-l", "eng"],
        capture_output=True,
        env=env,
        check=False,
        timeout=300,
    )
    return proc.stdout.decode("utf-8", "replace")


def squeeze(text: str) -> str:
    """Whitespace removed (the baseline script's matching form)."""
    return re.sub(r"\s+", "", text)


def dimension_hits(labels: list[str], text: str, *, canonical: bool) -> list[str]:
    """Labels found in the OCR text: raw (as the baseline script) or both sides normalised."""
    if canonical:
        haystack = canonical_for_matching(text)
        return [label for label in labels if canonical_for_matching(label) in haystack]
    haystack = squeeze(text)
    return [label for label in labels if squeeze(label) in haystack]


def word_recall(words: list[str], text: str, *, canonical: bool) -> float:
    """Share of text-layer words found as whole tokens in the OCR text."""
    if canonical:
        tokens = {normalise(t) for t in text.split()}
        hits = sum(1 for w in words if normalise(w) in tokens)
    else:
        tokens = set(text.split())
        hits = sum(1 for w in words if w in tokens)
    return hits / max(1, len(words))


def levenshtein(a: list[str] | str, b: list[str] | str) -> int:
    """Edit distance (characters of a string or items of a list)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def cer(reference: str, hypothesis: str) -> float:
    """Character error rate after whitespace normalisation (case kept), as the baseline script."""
    ref = re.sub(r"\s+", " ", reference).strip()
    hyp = re.sub(r"\s+", " ", hypothesis).strip()
    return levenshtein(ref, hyp) / max(1, len(ref))


def load_rgb(path: Path) -> np.ndarray:
    """An image file as RGB."""
    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr is None:
        raise SystemExit(f"cannot read {path}")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
