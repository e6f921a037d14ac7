"""Formant warping (the vocal tract moved, pitch and timing kept) and the "-formant" training clips."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from appliance.audio.base import SAMPLE_RATE, Samples
from training.wake.clips import (
    FORMANT_KINDS,
    KINDS,
    NEAR_MISS_KINDS,
    ClipSpec,
    load_texts,
    make_clip,
)
from training.wake.voice_warp import formant_warp


def _vowel(f0: float, formants: tuple[float, ...], seconds: float = 1.0) -> Samples:
    """A pulse train at ``f0`` through one two-pole resonator per formant (80-120 Hz wide)."""
    n = int(SAMPLE_RATE * seconds)
    x = np.zeros(n)
    x[:: round(SAMPLE_RATE / f0)] = 1.0
    for f, width in zip(formants, (80.0, 90.0, 120.0), strict=True):
        r = np.exp(-np.pi * width / SAMPLE_RATE)
        a1, a2 = 2 * r * np.cos(2 * np.pi * f / SAMPLE_RATE), -r * r
        y = np.zeros(n)
        for i in range(n):
            y[i] = x[i] + a1 * y[i - 1] + a2 * y[i - 2]  # (y[-1], y[-2] are still 0)
        x = y
    return np.round(x / np.abs(x).max() * 8000).astype(np.int16)


def _f0(audio: Samples) -> float:
    """The pitch from the autocorrelation's strongest peak at 40-400 samples' lag."""
    x = audio.astype(np.float64)[2000:-2000]
    ac = np.correlate(x, x, "full")[len(x) - 1 :]
    return SAMPLE_RATE / (40 + int(np.argmax(ac[40:400])))


def _lpc_formants(audio: Samples, order: int = 12) -> list[float]:
    """Resonances of an order-12 LPC fit (Levinson-Durbin), narrower than 500 Hz, above 150 Hz.

    An estimate independent of the warp's own cepstral envelope.
    """
    x = audio.astype(np.float64)
    x = np.append(x[0], x[1:] - 0.97 * x[:-1]) * np.hamming(len(x))
    r = np.correlate(x, x, "full")[len(x) - 1 : len(x) + order]
    a: npt.NDArray[np.float64] = np.zeros(order + 1)
    a[0], error = 1.0, r[0]
    for i in range(1, order + 1):
        k = -(r[i] + a[1:i] @ r[i - 1 : 0 : -1]) / error
        a[1 : i + 1] = a[1 : i + 1] + k * np.r_[a[i - 1 : 0 : -1], 1.0]
        error *= 1 - k * k
    found = []
    for z in np.roots(a):
        freq = float(np.angle(z)) * SAMPLE_RATE / (2 * np.pi)
        width = -float(np.log(abs(z))) * SAMPLE_RATE / np.pi
        if z.imag > 0 and width < 500 and freq > 150:
            found.append(freq)
    return sorted(found)


@pytest.mark.parametrize(
    ("f0", "formants"),
    [(120.0, (700.0, 1200.0, 2600.0)), (220.0, (500.0, 1800.0, 2800.0))],
)
@pytest.mark.parametrize("factor", [0.85, 1.2])
def test_formants_move_by_the_factor_and_pitch_and_length_stay(
    f0: float, formants: tuple[float, ...], factor: float
) -> None:
    vowel = _vowel(f0, formants)
    before = _lpc_formants(vowel)
    assert len(before) == 3  # the fit finds the three resonances it is given
    warped = formant_warp(vowel, factor)
    assert len(warped) == len(vowel)
    assert _f0(warped) == pytest.approx(_f0(vowel), rel=0.02)
    after = _lpc_formants(warped)
    assert len(after) == 3
    # F2 and F3 move by the factor (F1 sits where the 2.2 ms envelope cannot follow it fully).
    for old, new in zip(before[1:], after[1:], strict=True):
        assert new / old == pytest.approx(factor, abs=0.04)
    # The level is kept.
    rms = [np.sqrt(np.mean(v.astype(np.float64) ** 2)) for v in (vowel, warped)]
    assert rms[1] == pytest.approx(rms[0], rel=0.02)


def test_factor_one_and_empty_audio_are_returned_unchanged() -> None:
    vowel = _vowel(150.0, (600.0, 1500.0, 2500.0), 0.3)
    assert np.array_equal(formant_warp(vowel, 1.0), vowel)
    assert len(formant_warp(np.zeros(0, dtype=np.int16), 1.1)) == 0
    # Shorter than one analysis frame: still the same length.
    assert len(formant_warp(vowel[:300], 1.1)) == 300


def test_the_formant_kinds_are_appended_and_their_near_misses_get_the_hard_share() -> None:
    # Appended after session 7's kinds: every earlier kind keeps its index (part of the seed).
    assert KINDS[:17][-2:] == ("positive-user", "near-miss-user")
    assert KINDS[17:21] == FORMANT_KINDS
    assert {"near-miss-claw-formant", "near-miss-formant"} <= set(NEAR_MISS_KINDS)


@pytest.mark.parametrize("kind", ["positive-formant", "near-miss-claw-formant"])
def test_formant_clips_are_deterministic_and_differ_from_the_plain_kind(
    kind: str, shared_data: Path
) -> None:
    texts = load_texts(shared_data / "retrieval", limit=40)
    spec = ClipSpec(kind, 3, False)
    audio, start, end = make_clip(spec, texts, seed=7, warp=0.12)
    again = make_clip(spec, texts, seed=7, warp=0.12)
    assert np.array_equal(audio, again[0]) and (start, end) == again[1:]
    if kind.startswith("positive"):
        assert 0 < start < end <= len(audio)
    else:
        assert (start, end) == (-1, -1)
    plain = make_clip(ClipSpec(kind.removesuffix("-formant"), 3, False), texts, seed=7, warp=0.12)
    assert not np.array_equal(audio[: len(plain[0])], plain[0][: len(audio)])
