"""Shared helpers of the audio benchmarks: espeak-ng synthesis, noise mixing, the speech index."""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appliance.audio.base import SAMPLE_RATE, Samples  # noqa: E402
from appliance.audio.wavio import read_wav, speech_bounds  # noqa: E402,F401 (shared with the benches)
from training.wake.clips import synth  # noqa: E402,F401 (shared with the benches)

SPEECH = REPO.parent / "shared" / "data" / "speech"

#: espeak-ng voices used for positives: accents and the built-in variants (+f = female, +m = male).
VOICES = [
    "en-us",
    "en-gb",
    "en-gb-x-rp",
    "en-029",
    "en-gb-scotland",
    "en-us+f3",
    "en-us+m3",
    "en-gb+f2",
]
RATES = [130, 160, 190]
PITCHES = [35, 50, 70]


@dataclass(frozen=True)
class Clip:
    """One row of speech/INDEX.tsv."""

    path: Path
    seconds: float
    quality: str
    role: str
    transcript: str


def speech_index() -> list[Clip]:
    """Every clip listed in ../shared/data/speech/INDEX.tsv."""
    with (SPEECH / "INDEX.tsv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [
        Clip(
            SPEECH / r["path"],
            float(r["seconds"]),
            r["transcript_quality"],
            r["role"],
            r["transcript"],
        )
        for r in rows
    ]


def rms(x: Samples) -> float:
    """Root-mean-square of int16 samples (as floats)."""
    f = x.astype(np.float64)
    return float(np.sqrt(np.mean(f * f) + 1e-9))


def mix(signal: Samples, noise: Samples, snr_db: float, ref: Samples | None = None) -> Samples:
    """Add ``noise`` (looped or cut to length) at ``snr_db`` relative to ``ref`` (default: signal)."""
    if len(noise) < len(signal):
        noise = np.tile(noise, len(signal) // max(1, len(noise)) + 1)
    noise = noise[: len(signal)].astype(np.float64)
    target = rms(ref if ref is not None else signal) / (10 ** (snr_db / 20))
    scaled = noise * (target / (rms(noise.astype(np.int16)) + 1e-9))
    return np.clip(signal.astype(np.float64) + scaled, -32768, 32767).astype(np.int16)


def load(path: Path) -> Samples:
    """A clip as 16 kHz mono int16."""
    return read_wav(path)[0]


def silence(seconds: float) -> Samples:
    """Digital silence."""
    return np.zeros(int(seconds * SAMPLE_RATE), dtype=np.int16)
