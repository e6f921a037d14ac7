"""The "-neural" training clips: the Piper voice with its noise drawn from the clip's seed, and the
phrase's end inside one utterance found from the voice's own durations (real model, real audio)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.phrases import normalise_words
from appliance.audio.wavio import speech_bounds
from training.wake.clips import (
    KINDS,
    NEAR_MISS_KINDS,
    NEURAL_KINDS,
    ClipSpec,
    load_texts,
)
from training.wake.piper_seeded import seeded_piper

from .conftest import clip_made_twice

SCALES = (1.0, 0.667, 0.8)


def test_the_neural_kinds_are_appended_and_their_near_misses_get_the_hard_share() -> None:
    # Appended after session 8's kinds: every earlier kind keeps its index (part of the seed).
    assert KINDS.index("near-miss-fluent") == 22
    assert KINDS[23 : 23 + len(NEURAL_KINDS)] == NEURAL_KINDS
    assert {k for k in NEURAL_KINDS if k.startswith("near-miss")} <= set(NEAR_MISS_KINDS)


def test_the_same_noise_gives_the_same_speech_and_other_noise_other_speech() -> None:
    voice = seeded_piper()
    first = voice.say("open claw", SCALES, np.random.default_rng(5))
    assert np.array_equal(first, voice.say("open claw", SCALES, np.random.default_rng(5)))
    other = voice.say("open claw", SCALES, np.random.default_rng(6))
    assert not np.array_equal(first[: len(other)], other[: len(first)])
    s, e = speech_bounds(first)
    assert 0.4 < (e - s) / SAMPLE_RATE < 1.5


@pytest.mark.parametrize(
    ("question", "seed"),
    [("what is the clearance on the shaft", 1), ("switch to the machine shop", 2)],
)
def test_the_phrase_ends_where_the_question_starts(whisper, question: str, seed: int) -> None:
    """Whisper hears the whole question after the end found and none of it before."""
    speech, end = seeded_piper().say_with_phrase(
        f"open claw {question}", 2, SCALES, np.random.default_rng(seed)
    )
    s, e = speech_bounds(speech)
    assert 0.35 < (end - s) / SAMPLE_RATE < 1.2
    assert (e - end) / SAMPLE_RATE > 1.0
    pad = np.zeros(SAMPLE_RATE // 2, dtype=np.int16)
    after = normalise_words(whisper.transcribe(np.concatenate([pad, speech[end:], pad])).text)
    expected = normalise_words(question)
    assert sum(a != b for a, b in zip(after, expected, strict=False)) <= 1, after
    assert len(after) == len(expected), after
    before = normalise_words(whisper.transcribe(np.concatenate([pad, speech[:end], pad])).text)
    assert before[:1] == ["open"] and not set(before) & set(expected[1:]), before


def test_a_comma_after_the_phrase_ends_it_before_the_pause() -> None:
    speech, end = seeded_piper().say_with_phrase(
        "open claw, stop", 2, SCALES, np.random.default_rng(3)
    )
    pause = speech[end : end + SAMPLE_RATE // 20].astype(np.float64) / 32768.0
    assert 10 * np.log10(np.mean(pause * pause) + 1e-12) < -40.0
    assert speech_bounds(speech)[1] - end > SAMPLE_RATE // 10  # "stop" is still to come


@pytest.mark.parametrize("kind", NEURAL_KINDS)
def test_neural_clips_are_deterministic_with_the_phrase_bounds_of_positives(
    kind: str, shared_data: Path
) -> None:
    texts = load_texts(shared_data / "retrieval", limit=40)
    audio, start, end = clip_made_twice(ClipSpec(kind, 5, False), texts, seed=7)
    if kind.startswith("positive"):
        assert 0 < start < end < len(audio)
        assert 0.3 < (end - start) / SAMPLE_RATE < 1.6
    else:
        assert (start, end) == (-1, -1)
