"""Test speakers made of recorded people: MBROLA's English diphone voices and SVOX Pico.

Every training and test voice before session 13 is a formant synthesiser (espeak-ng), a
parametric one (flite clustergen, festival HTS), a neural one (Piper joe) or a diphone voice of
the festvox set. These are another family, concatenated from diphones a person recorded:
MBROLA ``us1`` (US female), ``us2`` and ``us3`` (US males) and ``en1`` (British male), driven by
espeak-ng's ``mb-*`` voices, and Pico's US and British voices. They are the nearest to people this
machine can reach, so they are TEST speakers only: the keyword model never hears them.

They live in Debian's contrib and non-free sections (the MBROLA voice databases are licensed for
non-commercial use only), which is one more reason to keep them out of training. The benchmark
does not install them; :func:`missing` says what to install.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from dataclasses import dataclass

from appliance.audio.base import Samples
from training.wake.clips import synth
from training.wake.voices import pico_levels

#: MBROLA voice databases espeak-ng drives, by espeak-ng voice name.
MBROLA_VOICES = ("mb-us1", "mb-us2", "mb-us3", "mb-en1")
#: Pico's languages (one speaker each).
PICO_VOICES = ("en-US", "en-GB")
#: espeak-ng speaking rates (words per minute) and pitches for the MBROLA voices.
MBROLA_RATES = (130, 160, 190)
MBROLA_PITCHES = (35, 50, 65)
#: Pico's speed and pitch, in percent of its own (its SSML-like tags).
PICO_SPEEDS = (85, 100, 120)
PICO_PITCHES = (90, 100, 112)
#: The Debian packages that provide them (contrib and non-free).
PACKAGES = "mbrola mbrola-us1 mbrola-us2 mbrola-us3 mbrola-en1 libttspico-utils"


@dataclass(frozen=True)
class DiphoneVoice:
    """One recorded-diphone speaker and how it was asked to speak."""

    #: "mbrola" or "pico".
    engine: str
    #: espeak-ng's ``mb-*`` voice, or Pico's language.
    name: str
    #: espeak-ng rate (wpm) or Pico speed (percent).
    rate: int
    #: espeak-ng pitch (0-99) or Pico pitch (percent).
    pitch: int

    @property
    def label(self) -> str:
        """``engine:name/rate/pitch``, as the benchmark's labels record it."""
        return f"{self.engine}:{self.name}/{self.rate}/{self.pitch}"

    def say(self, text: str) -> Samples:
        """``text`` spoken as 16 kHz mono int16."""
        if self.engine == "mbrola":
            return synth(text, self.name, self.rate, self.pitch)
        return pico_levels(text, self.name, self.rate, self.pitch)


def missing() -> str | None:
    """Why these voices cannot speak here (None when they can)."""
    if shutil.which("pico2wave") is None or shutil.which("mbrola") is None:
        return (
            "the recorded-diphone voices need Debian's contrib and non-free sections and "
            f"`apt-get install {PACKAGES}`"
        )
    voices = subprocess.run(
        ["espeak-ng", "--voices=mb"], capture_output=True, text=True, check=False
    ).stdout
    absent = [v for v in MBROLA_VOICES if f"mb/{v}" not in voices]
    return f"espeak-ng lists no {', '.join(absent)}: install {PACKAGES}" if absent else None


def pick(rng: random.Random) -> DiphoneVoice:
    """A speaker, rate and pitch drawn from ``rng`` (MBROLA's four as often as Pico's two)."""
    if rng.random() < 2 / 3:
        name = rng.choice(MBROLA_VOICES)
        return DiphoneVoice("mbrola", name, rng.choice(MBROLA_RATES), rng.choice(MBROLA_PITCHES))
    return DiphoneVoice("pico", rng.choice(PICO_VOICES), rng.choice(PICO_SPEEDS),
                        rng.choice(PICO_PITCHES))  # fmt: skip
