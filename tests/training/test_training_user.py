"""Training on the users' own recordings: the folder is read, checked and used as positives."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.user_recordings import load_user_clips, recordings_digest
from appliance.audio.wavio import speech_bounds
from training.wake.clips import (
    NEAR_MISS_KINDS,
    USER_KIND,
    USER_KINDS,
    USER_NEAR_KIND,
    ClipSpec,
    load_texts,
    make_clip,
    set_user_recordings,
)

from .conftest import SynthFn, samples_of


@pytest.fixture
def no_user_recordings_after() -> Iterator[None]:
    """The clip maker's user recordings are module state: leave them empty for the next test."""
    yield
    for kind in USER_KINDS:
        set_user_recordings(kind, [])


@pytest.mark.usefixtures("no_user_recordings_after")
def test_recordings_are_converted_trimmed_and_used_as_positives(
    synth: SynthFn, shared_data: Path, tmp_path: Path
) -> None:
    phrase = samples_of(synth("open claw", voice="en-us+m3", tail_s=0.5))
    folder = tmp_path / "recordings"
    folder.mkdir()
    # One file at 16 kHz mono, one as a 44.1-kHz stereo recording (converted on reading).
    sf.write(folder / "a.wav", phrase, SAMPLE_RATE, subtype="PCM_16")
    stereo = np.interp(
        np.arange(int(len(phrase) * 44100 / SAMPLE_RATE)) * SAMPLE_RATE / 44100,
        np.arange(len(phrase)),
        phrase.astype(np.float64),
    ).astype(np.int16)
    sf.write(folder / "b.wav", np.stack([stereo, stereo], axis=1), 44100, subtype="PCM_16")
    clips = load_user_clips(folder)
    assert len(clips) == 2
    s, e = speech_bounds(phrase)
    assert len(clips[0]) == e - s  # trimmed to the speech
    assert abs(len(clips[1]) - (e - s)) < 0.05 * SAMPLE_RATE
    assert recordings_digest(clips) != recordings_digest(clips[:1])

    set_user_recordings(USER_KIND, clips)
    texts = load_texts(shared_data / "retrieval", limit=40)
    for index in (0, 1):
        audio, start, end = make_clip(ClipSpec(USER_KIND, index, False), texts, seed=3)
        # A positive whose phrase is the recording itself (unwarped; a gain and maybe noise).
        assert 0 < start < end <= len(audio) and end - start == len(clips[index])
        said = audio[start:end].astype(np.float64)
        own = clips[index].astype(np.float64)
        assert np.corrcoef(said, own)[0, 1] > 0.5
    again = make_clip(ClipSpec(USER_KIND, 1, False), texts, seed=3)[0]
    assert np.array_equal(again, make_clip(ClipSpec(USER_KIND, 1, False), texts, seed=3)[0])
    # The users' near-miss recordings make negatives (no phrase bounds) that hold them.
    set_user_recordings(USER_NEAR_KIND, clips[:1])
    near, start, end = make_clip(ClipSpec(USER_NEAR_KIND, 0, False), texts, seed=3)
    assert (start, end) == (-1, -1)
    assert USER_NEAR_KIND in NEAR_MISS_KINDS  # a fixed share of every batch
    # (Found by its loudness contour, 10 ms frames: the clip's gain, noise and room differ.)
    other = samples_of(synth("the results show a rise", voice="en-us+m3", tail_s=0.1))
    other = other[slice(*speech_bounds(other))]
    assert best_match(near, clips[0]) > max(0.6, best_match(near, other) + 0.1)


def best_match(mixed_audio: np.ndarray, part: np.ndarray) -> float:
    """The best correlation of ``part``'s loudness contour anywhere in ``mixed_audio``."""
    own, mixed = envelope(part), envelope(mixed_audio)
    return max(
        float(np.corrcoef(mixed[i : i + len(own)], own)[0, 1]) for i in range(len(mixed) - len(own))
    )


def envelope(audio: np.ndarray) -> np.ndarray:
    frames = audio[: len(audio) // 160 * 160].astype(np.float64).reshape(-1, 160)
    return np.log(np.sqrt((frames**2).mean(axis=1)) + 1.0)


def test_a_folder_without_speech_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"no \.wav files"):
        load_user_clips(tmp_path)
    sf.write(tmp_path / "quiet.wav", np.zeros(SAMPLE_RATE, dtype=np.int16), SAMPLE_RATE)
    with pytest.raises(SystemExit, match=r"quiet\.wav holds no speech"):
        load_user_clips(tmp_path)
