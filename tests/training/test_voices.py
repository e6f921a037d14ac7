"""flite and festival speakers (real program calls) and the split of speakers between training,
validation and the benchmark."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.errors import TtsError
from appliance.audio.wavio import speech_bounds
from training.wake.clips import (
    KINDS,
    NEAR_MISS_KINDS,
    PICO_KINDS,
    RHVOICE_KINDS,
    ClipSpec,
    is_other,
    make_clip,
    other_voices,
)
from training.wake.voices import (
    HELD_OUT_VOICES,
    PICO_VOICES,
    RHVOICE_VOICES,
    TRAIN_FOREIGN_VOICES,
    TRAIN_VOICES,
    VALIDATION_VOICES,
    SyntheticVoice,
    festival,
    flite,
    flite_voices,
    pico,
    rhvoice,
)

from .conftest import clip_made_twice

ALL_VOICES = TRAIN_VOICES + TRAIN_FOREIGN_VOICES + VALIDATION_VOICES + HELD_OUT_VOICES


def median_f0(audio: Samples) -> float:
    """Median pitch (Hz) of the voiced 40 ms frames, by autocorrelation."""
    x = audio.astype(np.float64) / 32768.0
    frame = int(0.04 * SAMPLE_RATE)
    lo, hi = SAMPLE_RATE // 400, SAMPLE_RATE // 60
    found = []
    for i in range(0, len(x) - frame, frame // 2):
        s = x[i : i + frame]
        if np.sqrt(np.mean(s * s)) < 0.02:
            continue
        ac = np.correlate(s, s, "full")[frame - 1 :]
        k = lo + int(np.argmax(ac[lo:hi]))
        if ac[k] > 0.4 * ac[0]:
            found.append(SAMPLE_RATE / k)
    assert found, "no voiced frame"
    return float(np.median(found))


def test_flite_speaks_at_16k_and_stretch_slows_it() -> None:
    normal = flite("open claw", "rms")
    slow = flite("open claw", "rms", stretch=1.4)
    assert normal.dtype == np.int16 and slow.dtype == np.int16
    s, e = speech_bounds(normal)
    # "open claw" takes well over a third of a second and under two at 16 kHz.
    assert 0.35 * SAMPLE_RATE < e - s < 2.0 * SAMPLE_RATE
    s2, e2 = speech_bounds(slow)
    assert 1.25 < (e2 - s2) / (e - s) < 1.6


def test_flite_pitch_target_moves_the_pitch_of_kal() -> None:
    # kal is an 8 kHz voice: resampled to 16 kHz, its pitch must follow the target.
    low = median_f0(flite("open claw, what is the torque", "kal", f0=90.0))
    high = median_f0(flite("open claw, what is the torque", "kal", f0=200.0))
    assert 70 < low < 115 and 160 < high < 240, (low, high)


def test_festival_voice_at_32k_comes_out_at_16k(tmp_path: Path) -> None:
    import subprocess

    # The same voice written by text2wave itself to a file: its duration is what ours must keep.
    direct = tmp_path / "direct.wav"
    subprocess.run(
        ["text2wave", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", str(direct)],
        input=b"open claw\n",
        check=True,
        timeout=30,
    )
    info = sf.info(str(direct))
    assert info.samplerate == 32000
    ours = festival("open claw", "cmu_us_slt_arctic_hts")
    assert abs(len(ours) - info.frames / 2) <= 2
    assert np.abs(ours).max() > 3000


def test_festival_stretch_slows_a_diphone_voice() -> None:
    normal = festival("open claw", "kal_diphone")
    slow = festival("open claw", "kal_diphone", stretch=1.3)
    s, e = speech_bounds(normal)
    s2, e2 = speech_bounds(slow)
    assert 1.15 < (e2 - s2) / (e - s) < 1.5


def test_unknown_voices_are_refused_clearly() -> None:
    # flite would speak with its default voice; festival prints an error and exits 0.
    with pytest.raises(TtsError, match="flite has no voice 'nope'") as err:
        flite("open claw", "nope")
    assert err.value.code == "tts_failed"
    with pytest.raises(TtsError, match="festival voice nope produced no audio"):
        festival("open claw", "nope")
    with pytest.raises(TtsError, match="unknown speech engine"):
        SyntheticVoice("piper", "amy", True).say("open claw")


def test_every_listed_voice_is_installed_and_speaks() -> None:
    assert {v.name for v in ALL_VOICES if v.engine == "flite"} <= flite_voices()
    for voice in ALL_VOICES:
        audio = voice.say("open claw")
        s, e = speech_bounds(audio)
        assert e - s > 0.3 * SAMPLE_RATE, voice.label


def test_speakers_are_split_between_training_validation_and_the_benchmark() -> None:
    labels = [v.label for v in ALL_VOICES]
    assert len(labels) == len(set(labels))
    held_out = {v.name for v in HELD_OUT_VOICES}
    assert not held_out & {v.name for v in TRAIN_VOICES + TRAIN_FOREIGN_VOICES + VALIDATION_VOICES}
    # Positives only from voices that read English as English; validation clips only from the
    # validation voices; no clip from a held-out one.
    for positive in (True, False):
        fit, val = other_voices(positive, False), other_voices(positive, True)
        assert set(val) <= set(VALIDATION_VOICES) and not set(fit) & set(VALIDATION_VOICES)
        assert not set(fit + val) & set(HELD_OUT_VOICES)
        if positive:
            assert all(v.english for v in fit + val)
    assert any(not v.english for v in other_voices(False, False))
    assert {
        "positive-other",
        "sentence-other",
        "near-miss-other",
        "near-miss-claw-other",
        "positive-other-babble",
    } <= {k for k in KINDS if is_other(k)}
    assert not any(is_other(k) for k in KINDS[:8])  # session 3's kinds stay espeak-ng


def test_clips_of_the_other_voices_are_deterministic(shared_data: Path) -> None:
    from training.wake.clips import load_texts

    texts = load_texts(shared_data / "retrieval", limit=20)
    spec = ClipSpec("positive-other", 3, False)
    audio, start, end = clip_made_twice(spec, texts, seed=11)
    # The phrase lies inside the clip, after at least the leading 0.2 s of silence.
    assert 0.2 * SAMPLE_RATE <= start < end <= len(audio)
    assert 0.3 * SAMPLE_RATE < end - start < 2.5 * SAMPLE_RATE
    other = make_clip(ClipSpec("positive-other", 3, False), texts, seed=12, warp=0.12)[0]
    assert not np.array_equal(audio[: len(other)], other[: len(audio)])
    sentence, s, e = make_clip(ClipSpec("sentence-other", 0, True), texts, seed=11)
    assert (s, e) == (-1, -1) and len(sentence) > SAMPLE_RATE


def test_foreign_voices_read_text_with_digits_and_stray_dots() -> None:
    text = "the coefficient was approximately 0.40 of that ."
    russian = next(v for v in TRAIN_FOREIGN_VOICES if v.name == "msu_ru_nsh_clunits")
    # Straight to festival, its letter-to-sound rules stop at the digits: no audio, refused.
    with pytest.raises(TtsError, match="produced no audio"):
        festival(text, russian.name)
    s, e = speech_bounds(russian.say(text))
    assert e - s > SAMPLE_RATE


def test_pico_kinds_come_after_every_earlier_kind() -> None:
    # A clip's seed holds its kind's index: the "-pico" kinds (session 13) are appended, so every
    # cached clip of an earlier kind is still the clip its seed makes.
    first = KINDS.index(PICO_KINDS[0])
    assert KINDS[first : first + len(PICO_KINDS)] == PICO_KINDS
    assert KINDS.index("near-miss-neural-fluent") == first - 1
    assert not any(is_other(k) for k in PICO_KINDS)
    assert {"near-miss-claw-pico", "near-miss-pico"} <= set(NEAR_MISS_KINDS)
    assert not {v.label for v in PICO_VOICES} & {v.label for v in ALL_VOICES}


def test_pico_missing_is_named_by_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(TtsError, match=r"pico2wave is not installed \(Debian package libttspico"):
        pico("open claw", "en-US")


@pytest.mark.skipif(shutil.which("pico2wave") is None, reason="Debian non-free libttspico-utils")
def test_pico_speed_and_pitch_follow_the_stretch_and_f0() -> None:
    normal = pico("open claw, what is the torque", "en-US")
    slow = pico("open claw, what is the torque", "en-US", stretch=1.4)
    s, e = speech_bounds(normal)
    s2, e2 = speech_bounds(slow)
    assert 1.2 < (e2 - s2) / (e - s) < 1.6
    low = median_f0(pico("open claw, what is the torque", "en-GB", f0=170.0))
    high = median_f0(pico("open claw, what is the torque", "en-GB", f0=235.0))
    assert high > low * 1.15, (low, high)


def test_rhvoice_kinds_come_after_every_earlier_kind() -> None:
    # Appended after session 13's "-pico" kinds (session 17): earlier clips keep their seeds.
    assert KINDS[-len(RHVOICE_KINDS) :] == RHVOICE_KINDS
    assert KINDS.index("sentence-pico") == len(KINDS) - len(RHVOICE_KINDS) - 1
    assert not any(is_other(k) for k in RHVOICE_KINDS)
    assert {"near-miss-claw-rhvoice", "near-miss-rhvoice"} <= set(NEAR_MISS_KINDS)
    # Its speakers are new labels; slt the person is a flite/festival training speaker already.
    assert not {v.label for v in RHVOICE_VOICES} & {v.label for v in ALL_VOICES + PICO_VOICES}
    assert "awb" not in {v.name for v in RHVOICE_VOICES}  # flite's held-out Scot is not alan


def test_rhvoice_missing_is_named_by_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(TtsError, match=r"RHVoice-test is not installed \(Debian package rhvoice"):
        rhvoice("open claw", "bdl")


def test_rhvoice_refuses_a_speaker_it_does_not_use() -> None:
    # The package's Russian-accented voices are CC BY-NC-ND: never asked for by name either.
    with pytest.raises(TtsError, match="'lyubov' is not one of bdl, clb, alan, slt"):
        rhvoice("open claw", "lyubov")


@pytest.mark.skipif(shutil.which("RHVoice-test") is None, reason="Debian non-free rhvoice-english")
def test_rhvoice_speed_and_pitch_follow_the_stretch_and_f0() -> None:
    text = "open claw, what is the torque"
    s, e = speech_bounds(rhvoice(text, "bdl"))
    s2, e2 = speech_bounds(rhvoice(text, "bdl", stretch=1.4))
    assert 1.2 < (e2 - s2) / (e - s) < 1.6
    low = median_f0(rhvoice(text, "clb", f0=160.0))
    high = median_f0(rhvoice(text, "clb", f0=225.0))
    assert high > low * 1.15, (low, high)


@pytest.mark.skipif(shutil.which("RHVoice-test") is None, reason="Debian non-free rhvoice-english")
def test_rhvoice_clips_are_deterministic_and_hold_the_phrase(shared_data: Path) -> None:
    from training.wake.clips import load_texts

    texts = load_texts(shared_data / "retrieval", limit=20)
    audio, start, end = clip_made_twice(ClipSpec("positive-rhvoice", 3, False), texts, seed=11)
    assert 0.2 * SAMPLE_RATE <= start < end <= len(audio)
    assert 0.3 * SAMPLE_RATE < end - start < 2.5 * SAMPLE_RATE
