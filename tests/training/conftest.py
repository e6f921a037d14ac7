"""Fixtures of the training tests: the audio tests' espeak-ng speech and recogniser, clips made twice."""

from __future__ import annotations

import numpy as np

from appliance.audio.base import Samples
from tests.audio.conftest import SynthFn, samples_of, synth, whisper
from training.wake.clips import ClipSpec, make_clip

__all__ = ["SynthFn", "clip_made_twice", "samples_of", "synth", "whisper"]


def clip_made_twice(spec: ClipSpec, texts: list[str], seed: int) -> tuple[Samples, int, int]:
    """A training clip, made twice with the same seed: asserts both are the same, audio and bounds."""
    audio, start, end = make_clip(spec, texts, seed=seed, warp=0.12)
    again, start2, end2 = make_clip(spec, texts, seed=seed, warp=0.12)
    assert np.array_equal(audio, again) and (start, end) == (start2, end2)
    return audio, start, end
