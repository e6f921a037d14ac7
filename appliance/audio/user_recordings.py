"""The appliance's users' own recordings of the wake phrase and its near-misses (for training).

``python -m training.wake.train --user-positives DIR --user-near-misses DIR`` reads them here:
one utterance per WAV file, recorded at the appliance's microphone (README "A wake word that
misses your voice"; decision 0031).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.wavio import read_wav, speech_bounds

#: Least speech (s over -40 dBFS) a recording must hold.
MIN_SPEECH_S = 0.3


def load_user_clips(folder: Path, option: str = "--user-positives") -> list[Samples]:
    """Every ``*.wav`` in ``folder`` (sorted by name) as 16 kHz mono, trimmed to its speech.

    Each file is one utterance ("open claw", or a near-miss) by someone who will use the
    appliance, recorded at its microphone (``arecord -r 16000 -c 1 -f S16_LE -d 2 FILE``); other
    rates and channel counts are converted. A file with under 0.3 s of speech is refused by name.
    """
    files = sorted(folder.glob("*.wav"))
    if not files:
        raise SystemExit(f"{option}: no .wav files in {folder}")
    clips = []
    for path in files:
        audio, _ = read_wav(path)
        start, end = speech_bounds(audio)
        if end - start < MIN_SPEECH_S * SAMPLE_RATE:
            raise SystemExit(f"{option}: {path.name} holds no speech (0.3 s over -40 dB)")
        clips.append(audio[start:end])
    return clips


def recordings_digest(clips: list[Samples]) -> str:
    """A digest of the recordings (part of their cache key and of the head's facts)."""
    digest = hashlib.sha256()
    for clip in clips:
        digest.update(np.ascontiguousarray(clip).tobytes())
    return digest.hexdigest()
