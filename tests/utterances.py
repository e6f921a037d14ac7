"""Utterances made from text, for tests that drive the pipeline without a microphone."""

from __future__ import annotations

import time

import numpy as np

from appliance.audio.base import SAMPLE_RATE, Samples, Transcript, WakeDetection
from appliance.audio.commands import parse_command
from appliance.audio.utterance import Utterance
from appliance.audio.vad import EndReason


def heard(text: str, audio: Samples | None = None) -> Utterance:
    """The utterance the front end would hand on for ``text`` heard just now (wake phrase, no
    push-to-talk), with ``audio`` as its recording."""
    now = time.monotonic()
    samples = audio if audio is not None else np.zeros(0, dtype=np.int16)
    return Utterance(
        wake=WakeDetection("open claw", 1.0, "typed", 0, 0, 0, monotonic=now),
        transcript=Transcript(text),
        text=text,
        command=parse_command(text),
        end_reason=EndReason.SILENCE,
        audio_s=len(samples) / SAMPLE_RATE,
        timings={"wake": now, "capture_end": now, "transcribed": now},
        audio=samples,
    )
