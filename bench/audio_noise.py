"""Noise kinds for the audio benchmarks, and the SNR bands their figures are printed in.

Three kinds, each deterministic from a seed:

- **babble**: four talkers at once, each a chain of real read-speech clips from ../shared/data/speech
  (LibriVox and LJSpeech readings, people, not synthetic voices), at random offsets;
- **machine**: synthetic workshop noise, since no recording of one is reachable here: a motor's
  mains-locked hum and its harmonics, a spindle whine whose pitch drifts, band-passed broadband
  noise swelling at the spindle's rotation rate, and sharp knocks at irregular times;
- **music**: synthetic, for the same reason: a four-chord progression of harmonic notes with
  plucked envelopes, a bass line, and a kick and hi-hat beat at 100-130 bpm.

The bands are the ones every wake and question figure of decision 0037 is printed in: clean, >= 20
dB, 10-19 dB and 0-9 dB SNR (the SNR is the speech's RMS over the noise's, measured over the speech).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
from audio_common import load, mix, speech_index

from appliance.audio.base import SAMPLE_RATE, Samples

KINDS = ("babble", "machine", "music")
#: Band name -> SNR range drawn from (dB; the top is exclusive). "clean" adds nothing.
BANDS: dict[str, tuple[float, float] | None] = {
    "clean": None,
    ">=20 dB": (20.0, 30.0),
    "10-19 dB": (10.0, 20.0),
    "0-9 dB": (0.0, 10.0),
}


def _babble_pool() -> list[Samples]:
    clips = [
        c
        for c in speech_index()
        if c.role == "speech_negative" and c.quality.startswith("exact") and 2.0 < c.seconds < 15
    ]
    return [load(c.path) for c in clips]


_POOL: list[Samples] = []


def babble(n: int, seed: int, talkers: int = 4) -> Samples:
    """``n`` samples of ``talkers`` real readers speaking at once."""
    if not _POOL:
        _POOL.extend(_babble_pool())
    rng = random.Random(seed)
    total = np.zeros(n, dtype=np.float64)
    for _ in range(talkers):
        parts: list[Samples] = []
        have = 0
        start = rng.randrange(SAMPLE_RATE)  # talkers do not start together
        while have < n + start:
            clip = _POOL[rng.randrange(len(_POOL))]
            parts.append(clip)
            have += len(clip)
        voice = np.concatenate(parts)[start : start + n].astype(np.float64)
        total += voice / (np.sqrt(np.mean(voice**2)) + 1e-9)
    return _to_int16(total)


def machine(n: int, seed: int) -> Samples:
    """``n`` samples of synthetic workshop machinery (motor hum, spindle whine, swells, knocks)."""
    rng = np.random.default_rng(seed)
    t = np.arange(n) / SAMPLE_RATE
    mains = rng.choice([50.0, 60.0])
    out = np.zeros(n)
    for k, amp in zip((1, 2, 3, 4), (1.0, 0.6, 0.35, 0.2), strict=True):
        out += amp * np.sin(2 * np.pi * mains * k * t + rng.uniform(0, 2 * np.pi))
    whine = rng.uniform(700, 1800) * (1 + 0.02 * np.sin(2 * np.pi * rng.uniform(0.1, 0.4) * t))
    out += 0.3 * np.sin(2 * np.pi * np.cumsum(whine) / SAMPLE_RATE)
    broadband = _band(rng.normal(0, 1, n), 300.0, 4000.0)
    rotation = rng.uniform(4, 12)
    swell = 0.6 + 0.4 * np.sin(2 * np.pi * rotation * t)
    out += 1.5 * broadband / (np.std(broadband) + 1e-9) * swell
    knock = np.exp(-np.arange(int(0.03 * SAMPLE_RATE)) / (0.004 * SAMPLE_RATE))
    at = 0
    while True:
        at += int(rng.uniform(0.2, 1.2) * SAMPLE_RATE)
        if at + len(knock) >= n:
            break
        out[at : at + len(knock)] += 4.0 * knock * rng.normal(0, 1, len(knock))
    return _to_int16(out)


def music(n: int, seed: int) -> Samples:
    """``n`` samples of synthetic music: chords, a bass line and a drum beat."""
    rng = np.random.default_rng(seed)
    bpm = rng.uniform(100, 130)
    beat = int(60 / bpm * SAMPLE_RATE)
    root = rng.choice([196.0, 220.0, 246.9, 261.6])
    # I - V - vi - IV, as semitone offsets of each chord's notes from the key's root.
    chords = [(0, 4, 7), (7, 11, 14), (9, 12, 16), (5, 9, 12)]
    out = np.zeros(n + 4 * beat)
    for bar, at in enumerate(range(0, n, 4 * beat)):
        chord = chords[bar % len(chords)]
        for step in range(4):
            start = at + step * beat
            for semis in chord:
                out[start : start + beat] += 0.5 * _note(root * 2 ** (semis / 12), beat)
            out[start : start + beat] += 0.8 * _note(root / 2 * 2 ** (chord[0] / 12), beat)
            out[start : start + beat] += _kick(beat) if step % 2 == 0 else 0.0
            hat = _band(rng.normal(0, 1, beat // 8), 6000.0, 7900.0)
            out[start + beat // 2 : start + beat // 2 + len(hat)] += 0.3 * hat
    return _to_int16(out[:n])


def _note(freq: float, length: int) -> np.ndarray:
    t = np.arange(length) / SAMPLE_RATE
    tone = sum(
        np.sin(2 * np.pi * freq * h * t) / h for h in (1, 2, 3, 4) if freq * h < SAMPLE_RATE / 2
    )
    return np.asarray(tone * np.exp(-t / 0.35))


def _kick(length: int) -> np.ndarray:
    t = np.arange(length) / SAMPLE_RATE
    return np.asarray(
        1.5 * np.sin(2 * np.pi * (50 + 80 * np.exp(-t / 0.03)) * t) * np.exp(-t / 0.12)
    )


def _band(x: np.ndarray, low: float, high: float) -> np.ndarray:
    spectrum = np.fft.rfft(x)
    freqs = np.fft.rfftfreq(len(x), 1 / SAMPLE_RATE)
    spectrum[(freqs < low) | (freqs > high)] = 0
    return np.fft.irfft(spectrum, len(x))


def _to_int16(x: np.ndarray) -> Samples:
    peak = np.max(np.abs(x)) + 1e-9
    return (x / peak * 20000).astype(np.int16)


MAKERS: dict[str, Callable[[int, int], Samples]] = {
    "babble": babble,
    "machine": machine,
    "music": music,
}


def band_of(snr_db: float | None) -> str:
    """The band an SNR falls in (None: clean)."""
    if snr_db is None:
        return "clean"
    for name, limits in BANDS.items():
        if limits is not None and limits[0] <= snr_db < limits[1]:
            return name
    return ">=20 dB" if snr_db >= 20 else "0-9 dB"


def add_noise(speech: Samples, kind: str, snr_db: float, seed: int, ref: Samples) -> Samples:
    """``speech`` with noise of ``kind`` at ``snr_db`` relative to ``ref`` (the speech alone)."""
    return mix(speech, MAKERS[kind](len(speech), seed), snr_db, ref=ref)
