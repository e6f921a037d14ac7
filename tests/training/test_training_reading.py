"""The long readings of the keyword-model training (hours of ordinary speech as negatives)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.wavio import speech_bounds
from training.wake.clips import READING_DOCS, READING_S, ClipSpec, load_texts, make_clip


def test_a_reading_is_one_long_deterministic_negative(shared_data: Path) -> None:
    texts = load_texts(shared_data / "retrieval", limit=40)
    spec = ClipSpec("reading", 5, False)
    audio, start, end = make_clip(spec, texts, seed=3, warp=0.12)
    again = make_clip(spec, texts, seed=3, warp=0.12)[0]
    assert np.array_equal(audio, again)
    # A negative: no phrase bounds.
    assert (start, end) == (-1, -1)
    # At least the drawn reading time, and not more than that plus one more stretch of at most 30 words.
    assert READING_S[0] * SAMPLE_RATE <= len(audio) <= (READING_S[1] + 15.0) * SAMPLE_RATE
    # Speech throughout, not one sentence and silence: every 5 s stretch has some.
    for at in range(0, len(audio) - 5 * SAMPLE_RATE, 5 * SAMPLE_RATE):
        s, e = speech_bounds(audio[at : at + 5 * SAMPLE_RATE])
        assert e - s > SAMPLE_RATE // 2, f"no speech at {at / SAMPLE_RATE:.0f} s"


def test_readings_by_the_other_voices_differ_from_espeak_ones(shared_data: Path) -> None:
    texts = load_texts(shared_data / "retrieval", limit=40)
    espeak = make_clip(ClipSpec("reading", 1, False), texts, seed=3)[0]
    other = make_clip(ClipSpec("reading-other", 1, False), texts, seed=3)[0]
    assert len(other) >= READING_S[0] * SAMPLE_RATE
    assert not np.array_equal(espeak[: len(other)], other[: len(espeak)])


def test_the_reading_pool_is_wider_than_the_sentences_pool(shared_data: Path) -> None:
    narrow = load_texts(shared_data / "retrieval")
    wide = load_texts(shared_data / "retrieval", READING_DOCS)
    assert set(narrow) < set(wide)
    assert len(wide) > 3 * len(narrow)
