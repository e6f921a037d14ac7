"""Formant (vocal-tract length) warping that keeps the pitch and the timing of speech.

A shorter vocal tract puts every formant higher by about the same factor; the pitch is
set by the vocal folds and the timing by the speaker, both independent of it. Resampling
(:func:`training.wake.clips.warp_voice`) moves all three together, so the keyword
head's synthetic speakers differ along one dimension only. Here each short-time spectrum is split
into its smooth envelope (the vocal tract: low-quefrency cepstrum) and the rest (the harmonics of
the pitch, noise), the envelope alone is stretched along frequency, and the frames are put back
with their own phases: the harmonics stay where they were, their amplitudes follow the moved
formants. Docs: docs/decisions/0031-audio-kws-wake-model.md, on formant warping.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from appliance.audio.base import Samples

#: Samples per analysis frame (32 ms at 16 kHz: several pitch periods of a low voice).
FRAME = 512
#: Samples between frames (a quarter frame: Hann windows overlap-add to a flat gain).
HOP = 128
#: Cepstral coefficients kept as the envelope (2.2 ms): below the pitch period of voices up to
#: ~450 Hz, so the harmonics stay out of the envelope, yet fine enough to keep F1 and F2 apart.
LIFTER = 36
#: The largest change of any bin's level, in dB: a deep valley of the envelope moved under a
#: strong harmonic must not raise noise by 40 dB.
MAX_GAIN_DB = 24.0


def _frames(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    count = 1 + (len(x) - FRAME) // HOP
    index = np.arange(FRAME)[None, :] + HOP * np.arange(count)[:, None]
    return x[index]


def envelope_db(spectra: npt.NDArray[np.complex128]) -> npt.NDArray[np.float64]:
    """The smooth envelope of each frame's magnitude spectrum (rows), in dB."""
    log_mag = np.log(np.abs(spectra) + 1e-9)
    cepstrum = np.fft.irfft(log_mag, FRAME, axis=1)
    cepstrum[:, LIFTER : FRAME - LIFTER + 1] = 0.0
    return (20.0 / np.log(10.0)) * np.fft.rfft(cepstrum, axis=1).real


def formant_warp(audio: Samples, factor: float) -> Samples:
    """``audio`` with its formants moved to ``factor`` times their frequency, pitch and length kept.

    ``factor`` > 1: a shorter vocal tract (higher formants), < 1: a longer one. The output has the
    input's length and RMS level.
    """
    if abs(factor - 1.0) < 1e-3 or len(audio) == 0:
        return audio
    x = audio.astype(np.float64)
    # Pad so that every sample lies under FRAME / HOP frames (the edges too).
    padded = np.concatenate([np.zeros(FRAME), x, np.zeros(FRAME + HOP)])
    window = np.hanning(FRAME + 1)[:FRAME]  # periodic Hann
    spectra = np.fft.rfft(_frames(padded) * window, axis=1)
    env = envelope_db(spectra)
    # The envelope at f / factor is the warped envelope at f (linear between bins; the top bin's
    # value past it when the tract is longer).
    at = np.minimum(np.arange(FRAME // 2 + 1) / factor, FRAME // 2)
    low = np.minimum(at.astype(np.int64), FRAME // 2 - 1)
    weight = at - low
    warped = env[:, low] * (1.0 - weight) + env[:, low + 1] * weight
    gain_db = np.clip(warped - env, -MAX_GAIN_DB, MAX_GAIN_DB)
    frames = np.fft.irfft(spectra * 10 ** (gain_db / 20), FRAME, axis=1) * window
    out = np.zeros(len(padded))
    norm = np.zeros(len(padded))
    for i, frame in enumerate(frames):
        out[i * HOP : i * HOP + FRAME] += frame
        norm[i * HOP : i * HOP + FRAME] += window * window
    y = (out / np.maximum(norm, 1e-3))[FRAME : FRAME + len(x)]
    level_in = np.sqrt(np.mean(x * x))
    level_out = np.sqrt(np.mean(y * y)) + 1e-9
    y *= level_in / level_out
    return np.clip(np.round(y), -32768, 32767).astype(np.int16)
