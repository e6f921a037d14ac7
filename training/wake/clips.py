"""The synthetic clips the "open claw" keyword head trains on: who says what, and how it is degraded.

Every clip is decided by its :class:`ClipSpec` and the training seed (:func:`make_clip`), so the same
clips are made on every machine. Voices, phrases and questions here are the TRAINING ones; the
benchmark's held-out ones are named here too so that it can assert it never uses a training voice
(``bench/audio_wake.py``). :mod:`training.wake.train` embeds these clips, caches them and fits
the head (docs/decisions/0031-audio-kws-wake-model.md).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.wavio import resample, speech_bounds, to_int16
from training.wake.espeak_words import phrase_span, speak_with_words
from training.wake.piper_seeded import seeded_piper
from training.wake.voice_warp import formant_warp
from training.wake.voices import (
    PICO_VOICES,
    RHVOICE_VOICES,
    TRAIN_FOREIGN_VOICES,
    TRAIN_VOICES,
    VALIDATION_VOICES,
    SyntheticVoice,
    wav_to_samples,
)

#: English accents whose voices make training data.
TRAIN_ACCENTS = ("en-us", "en-gb", "en-gb-x-rp", "en-gb-scotland", "en-029")
#: espeak-ng voice variants used for training (None = the accent's own voice).
TRAIN_VARIANTS = (
    None, "m1", "m2", "m4", "m5", "m6", "m8", "f1", "f2", "f4", "croak", "klatt", "klatt2",
    "klatt5", "whisper", "Alex", "Andy", "Gene", "Lee", "Michael", "Mike", "adam", "anika",
    "aunty", "belinda", "benjamin", "boris", "caleb", "david", "ed", "edward", "iven", "john",
    "linda", "max", "norbert", "paul", "quincy", "rob", "robert", "shelby", "victor", "zac",
)  # fmt: skip
#: Training variants kept out of fitting and used to pick the epoch and threshold.
VALIDATION_VARIANTS = ("m6", "f4", "klatt5", "linda", "victor")
#: Accents no training clip uses: the benchmark's positives come from these...
HELD_OUT_ACCENTS = ("en-us-nyc", "en-gb-x-gbclan", "en-gb-x-gbcwmd")
#: ... and from these variants, which no training clip uses either.
HELD_OUT_VARIANTS = ("m3", "m7", "f3", "f5", "klatt3", "grandpa", "Annie", "steph", "travis")
#: Other languages' voices reading English text: more kinds of speech among the negatives.
FOREIGN_VOICES = ("de", "fr-fr", "es", "it", "nl", "pl", "pt", "sv", "cs", "hu", "fi", "ro")

#: Near-miss phrases of the training negatives (the benchmark tests a different list).
NEAR_MISSES = (
    "open clan", "open cloud", "open class", "open claim", "open clay", "open close",
    "open glow", "open crawl", "open straw", "open jaw", "open saw", "oven claw", "open lock",
    "open call", "open collar", "open clue", "open clip", "golden claw", "open clot",
    "open caller", "claw open", "the claw", "a lobster claw", "open it", "open the claw",
    "hammer claw", "open cola", "open glaze", "over claw", "open colour", "open clamp",
    "open cough", "open claude", "oakland", "open plan", "opal claw", "open coal", "clothes",
    "open", "claw", "open a clause", "local law", "open climb", "hopeful claw", "open clown",
    "open cloak", "open clog", "open clone", "open slaw", "open gnaw", "broken jaw", "spoken law",
    "open log", "open loft", "open clerk", "open crow", "open core", "ocean claw", "open law",
    "hope in law", "open clasp", "open clue box", "cole slaw", "open plow", "open lore",
)  # fmt: skip
#: More near-misses, added after the first heads accepted "open claw" followed by another sound:
#: the phrase's neighbours with a different ending or a different first word (still none of the
#: benchmark's phrases).
NEAR_MISSES_EXTRA = (
    "open clawed", "open clawing", "open clods", "open clots", "open clogs", "open claudia",
    "open clawback", "token claw", "woken claw", "open floor", "open claudette", "oaken claw",
    "open cloche", "open clover", "open glaucoma", "open clawson", "open clogged", "open cloister",
)  # fmt: skip
#: "Open claw" followed by more sound, or with a sound before it (a head trained without them
#: wakes on "open clause" and "open claws" said by voices it has not heard). Five of these phrasings are
#: also in the benchmark's list (``bench/audio_wake.py`` reports them apart, as "trained phrasings",
#: spoken there by held-out voices only); the benchmark's other near-misses stay out of training.
NEAR_MISSES_CLAW = (
    "open clause", "open claws", "open cloth", "open flaw", "hope and claw", "open clawing",
    "the open clause", "an open clause", "open clause now", "open claws out", "open clothes",
    "open cause", "open flaws", "open floss", "open gloss", "open laws", "open sauce",
    "open crawls", "hope and cloth", "hope and flaw", "oak and claw", "open claw's", "open clausal",
    "open causeway", "open claws first", "open clawfoot", "no pen claws", "open clothing",
    "hoping claws", "open clause three", "open closet", "open claws then", "open flossing",
    "open clawed hands", "hope in claws", "a open clause", "open calls", "open cross",
)  # fmt: skip
#: Questions said after the phrase in one breath (the benchmark uses other ones).
QUESTIONS = (
    "how many teeth does the small gear have",
    "where is the spare drill chuck",
    "show me drawing B 2210",
    "what is the clearance on the shaft",
    "switch to the machine shop",
    "repeat",
    "stop",
    "remember that the lathe is booked on friday",
    "which tolerance applies to the bore",
    "what grade of steel is the flange",
    "read the title block",
    "how hot can the bearing get",
)
PHRASE = "open claw"


def voice_name(accent: str, variant: str | None) -> str:
    """espeak-ng's voice argument for an accent and a variant, as the espeak-ng kinds name it.

    espeak-ng 1.51 finds "en-gb" by language, not by a voice file name, and then drops the
    variant: "en-gb+f2" is the plain "en-gb" voice, sample for sample. Those kinds' en-gb clips are
    therefore one voice; they are kept as made (cached, reproducible) until the next full
    regeneration. New kinds use :func:`variant_voice_name`.
    """
    return accent if variant is None else f"{accent}+{variant}"


def variant_voice_name(accent: str, variant: str | None) -> str:
    """espeak-ng's voice argument that really applies the variant ("en+f2" for British English)."""
    if variant is None:
        return accent
    return f"{'en' if accent == 'en-gb' else accent}+{variant}"


def synth(text: str, voice: str = "en-us", rate: int = 160, pitch: int = 50) -> Samples:
    """espeak-ng speech as 16 kHz mono int16."""
    # A text starting with "-" ("-0.5 mm ...") would be read as an option: a space keeps it text.
    text = f" {text}" if text.startswith("-") else text
    wav = subprocess.run(
        ["espeak-ng", "--stdout", "-v", voice, "-s", str(rate), "-p", str(pitch), text],
        capture_output=True,
        check=True,
        timeout=30,
    ).stdout
    return wav_to_samples(wav, f"espeak-ng voice {voice}")


# -- augmentation ------------------------------------------------------------------------------


def _rms(x: npt.NDArray[np.float64]) -> float:
    return float(np.sqrt(np.mean(x * x) + 1e-9))


def _coloured_noise(rng: np.random.Generator, n: int, kind: str) -> npt.NDArray[np.float64]:
    white = rng.normal(0.0, 1.0, n)
    if kind == "white":
        return white
    spectrum = np.fft.rfft(white)
    f = np.maximum(np.fft.rfftfreq(n, 1 / SAMPLE_RATE), 20.0)
    power = {"pink": 1.0, "brown": 2.0}[kind]
    return np.fft.irfft(spectrum / f ** (power / 2), n)


def _hum(rng: np.random.Generator, n: int) -> npt.NDArray[np.float64]:
    t = np.arange(n) / SAMPLE_RATE
    base = rng.choice([50.0, 60.0, 100.0, 120.0])
    return sum(
        (rng.uniform(0.2, 1.0) / k) * np.sin(2 * np.pi * base * k * t + rng.uniform(0, 6.3))
        for k in range(1, 8)
    ) + 0.05 * rng.normal(0, 1, n)


#: The babble's flite talkers (about 30 ms a sentence; festival's start-up would double a clip's
#: cost).
_FLITE_TALKERS = tuple(v for v in TRAIN_VOICES if v.engine == "flite")


def _babble(
    rng: np.random.Generator,
    n: int,
    texts: list[str],
    talkers: tuple[int, int] = (2, 5),
    other: bool = False,
) -> npt.NDArray[np.float64]:
    """Talkers reading sentences, each at its own level; ``other``: half of them flite voices."""
    out = np.zeros(n)
    for _ in range(int(rng.integers(*talkers))):
        if other and rng.random() < 0.5:
            talker = _FLITE_TALKERS[int(rng.integers(len(_FLITE_TALKERS)))]
            speech = talker.say(str(rng.choice(texts)), float(rng.uniform(0.8, 1.25)))
        else:
            voice = voice_name(
                str(rng.choice(TRAIN_ACCENTS + FOREIGN_VOICES)),
                None if rng.random() < 0.5 else str(rng.choice(_named_variants())),
            )
            speech = synth(str(rng.choice(texts)), voice, int(rng.integers(120, 220)), 50)
        s = speech.astype(np.float64)
        if len(s) < n:
            s = np.tile(s, n // max(1, len(s)) + 1)
        start = int(rng.integers(0, max(1, len(s) - n)))
        out += s[start : start + n] / (_rms(s) + 1e-9)
    return out


def _reverb(rng: np.random.Generator, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    rt60 = rng.uniform(0.15, 0.7)
    length = int(rt60 * SAMPLE_RATE)
    t = np.arange(length) / SAMPLE_RATE
    ir = rng.normal(0, 1, length) * np.exp(-6.9 * t / rt60)
    ir[0] = 1.0 / rng.uniform(0.05, 0.4)  # direct path stronger than the tail
    ir /= np.sqrt(np.sum(ir * ir))
    size = 1 << int(np.ceil(np.log2(len(x) + length)))
    wet = np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(ir, size), size)[: len(x)]
    return wet * (_rms(x) / (_rms(wet) + 1e-9))


def _band_limit(rng: np.random.Generator, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    spectrum = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / SAMPLE_RATE)
    low, high = rng.uniform(80, 400), rng.uniform(3000, 7500)
    gain = 1 / np.sqrt(1 + (low / np.maximum(f, 1.0)) ** 4) / np.sqrt(1 + (f / high) ** 4)
    return np.fft.irfft(spectrum * gain, len(x))


def augment(
    rng: np.random.Generator,
    audio: Samples,
    texts: list[str],
    ref: tuple[int, int] | None = None,
    heavy_babble: bool = False,
    other_babble: bool = False,
) -> Samples:
    """Reverb, band limit, noise at 0-25 dB SNR and a random level, each with some probability.

    ``heavy_babble``: always babble of 1-4 talkers (one talker as often as several: a person
    talking nearby), at 0-12 dB SNR. ``other_babble``: flite voices among the babble's talkers.
    """
    x = audio.astype(np.float64)
    s, e = ref if ref is not None else speech_bounds(audio)
    level = _rms(x[s:e]) if e > s else _rms(x)
    if rng.random() < 0.3:
        x = _reverb(rng, x)
    if rng.random() < 0.3:
        x = _band_limit(rng, x)
    if heavy_babble:
        noise = _babble(rng, len(x), texts, (1, 2) if rng.random() < 0.5 else (2, 5), other_babble)
        x = x + noise * (level / (10 ** (rng.uniform(0.0, 12.0) / 20)) / (_rms(noise) + 1e-9))
    elif rng.random() < 0.75:
        kind = str(rng.choice(["white", "pink", "brown", "hum", "babble", "babble"]))
        if kind == "hum":
            noise = _hum(rng, len(x))
        elif kind == "babble":
            noise = _babble(rng, len(x), texts, other=other_babble)
        else:
            noise = _coloured_noise(rng, len(x), kind)
        snr = rng.uniform(0.0, 25.0)
        x = x + noise * (level / (10 ** (snr / 20)) / (_rms(noise) + 1e-9))
    target = 32768.0 * 10 ** (rng.uniform(-40.0, -8.0) / 20)  # speech level -40..-8 dBFS
    x = x * (target / (level + 1e-9))
    return np.clip(np.round(x), -32768, 32767).astype(np.int16)


#: The retrieval abstracts beside the repository (``../shared/data/retrieval``): the training's
#: sentences and readings.
RETRIEVAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "retrieval"


def load_texts(retrieval: Path, limit: int = 400) -> list[str]:
    """Sentences of the Cranfield and SciFact abstracts (the negatives' reading material)."""
    texts: list[str] = []
    for name in ("cranfield", "scifact_beir"):
        with (retrieval / name / "corpus.jsonl").open(encoding="utf-8") as fh:
            for i, line in enumerate(fh):
                if i >= limit // 2:
                    break
                text = json.loads(line)["text"]
                texts += [s.strip() for s in text.split(" . ") if len(s.split()) >= 6]
    return [t for t in texts if "claw" not in t.lower()]


# -- clips -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClipSpec:
    """One training clip to make: what kind, and the seed that decides everything else."""

    #: One of :data:`KINDS`.
    kind: str
    #: Index within its kind (part of the seed).
    index: int
    #: True for validation clips (validation variants only).
    validation: bool


#: Kinds of clip, in the order of their index in :attr:`Dataset.kinds` (appended, never reordered:
#: the index is part of each clip's seed). The "-babble" kinds are mixed with heavy babble; the
#: "-other" kinds are said by flite and festival voices (:mod:`training.wake.voices`)
#: instead of espeak-ng, and their babble has flite talkers too; the "-formant" kinds
#: are espeak-ng's with the vocal tract warped (:data:`FORMANT_RANGE`) and a wider pitch range.
KINDS = (
    "positive", "sentence", "near-miss", "noise", "near-miss-extra", "near-miss-claw",
    "positive-babble", "sentence-babble", "positive-other", "sentence-other", "near-miss-other",
    "near-miss-claw-other", "positive-other-babble", "reading", "reading-other", "positive-user",
    "near-miss-user", "positive-formant", "near-miss-claw-formant", "near-miss-formant",
    "sentence-formant", "positive-fluent", "near-miss-fluent", "positive-neural",
    "near-miss-claw-neural", "near-miss-neural", "sentence-neural", "positive-neural-fluent",
    "near-miss-neural-fluent", "positive-pico", "near-miss-claw-pico", "near-miss-pico",
    "sentence-pico", "positive-rhvoice", "near-miss-claw-rhvoice", "near-miss-rhvoice",
    "sentence-rhvoice",
)  # fmt: skip
#: The kinds said in one breath: the phrase (or a near-miss) and what follows it are
#: ONE espeak-ng utterance, so the phrase's last word is not lengthened and lowered as at the end
#: of an utterance but runs into the next word ("open claw what torque ..."). The other kinds
#: synthesise the phrase alone and append the question, which is not how one breath sounds: the
#: committed head woke on 45 % of such utterances by held-out voices, clean (100 % with a comma).
FLUENT_KINDS = ("positive-fluent", "near-miss-fluent")
#: Near-misses said in one breath with what follows (the training's own phrasings).
FLUENT_NEAR_MISSES = NEAR_MISSES_CLAW + NEAR_MISSES
#: The kinds whose speech goes through :func:`training.wake.voice_warp.formant_warp`.
FORMANT_KINDS = (
    "positive-formant",
    "near-miss-claw-formant",
    "near-miss-formant",
    "sentence-formant",
)
#: Formant factors of the "-formant" kinds, drawn log-uniformly: formants 15 % lower (a longer
#: vocal tract) to 20 % higher (a shorter one, as a child's or a small woman's).
FORMANT_RANGE = (0.85, 1.2)
#: espeak-ng pitch (0-99) of the "-formant" kinds: the whole range, where the other espeak-ng
#: kinds use 20-84.
FORMANT_PITCH = (0, 100)
#: The kinds made from the appliance's users' own recordings (``--user-positives``,
#: ``--user-near-misses``): their "open claw" (or their near-miss phrase) in the positive clips'
#: settings, the rest said by espeak-ng training voices.
USER_KIND, USER_NEAR_KIND = "positive-user", "near-miss-user"
USER_KINDS = (USER_KIND, USER_NEAR_KIND)
#: Kinds that read on for :data:`READING_S` seconds from the wider text pool (:data:`READING_DOCS`).
READING_KINDS = ("reading", "reading-other")
#: Seconds one reading clip lasts: hours of ordinary speech are where a wake word's false accepts
#: per hour are decided, and 1,200 short sentences are only 1.5 h.
READING_S = (20.0, 40.0)
#: Documents per corpus the readings draw from (``bench/audio_wake_hours.py`` reads from 700 of
#: Cranfield and 1,000 of SciFact on, so these stay apart from the benchmark's text).
READING_DOCS = 1400
#: The kinds said by the Piper voice en_US-joe-medium (:class:`~training.wake.piper_seeded.SeededPiper`), one
#: natural US male speaker made into many by drawing its length scale, noise scales, the speaker
#: warp and, for half the clips, a formant warp; the "-fluent" ones say the phrase (or a
#: near-miss) and what follows as one utterance, the phrase's end found in the voice's durations.
NEURAL_KINDS = (
    "positive-neural", "near-miss-claw-neural", "near-miss-neural", "sentence-neural",
    "positive-neural-fluent", "near-miss-neural-fluent",
)  # fmt: skip
#: Ranges the "-neural" kinds draw Piper's length_scale (over 1 is slower), noise_scale (variation
#: of the sound) and noise_w (variation of the phoneme durations) from, uniformly.
NEURAL_LENGTH, NEURAL_NOISE, NEURAL_NOISE_W = (0.8, 1.3), (0.4, 0.9), (0.4, 1.1)
#: Share of the "-neural" clips whose vocal tract is also warped (:data:`FORMANT_RANGE`): one male
#: speaker otherwise.
NEURAL_FORMANT_SHARE = 0.5
#: The kinds said by SVOX Pico's two speakers (:data:`~training.wake.voices.PICO_VOICES`),
#: drawn like the "-other" kinds (duration stretch, a mean F0, the speaker warp). Pico has no
#: validation speaker of its own: its every-eighth validation clips are said by the same two.
PICO_KINDS = ("positive-pico", "near-miss-claw-pico", "near-miss-pico", "sentence-pico")
#: The kinds said by RHVoice's four CMU ARCTIC speakers
#: (:data:`~training.wake.voices.RHVOICE_VOICES`), drawn as the "-pico" kinds are; their
#: validation clips are said by the same four.
RHVOICE_KINDS = (
    "positive-rhvoice", "near-miss-claw-rhvoice", "near-miss-rhvoice", "sentence-rhvoice",
)  # fmt: skip
#: Kinds whose negative windows get a fixed share of every batch.
NEAR_MISS_KINDS = (
    "near-miss", "near-miss-extra", "near-miss-claw", "near-miss-other", "near-miss-claw-other",
    USER_NEAR_KIND, "near-miss-claw-formant", "near-miss-formant", "near-miss-fluent",
    "near-miss-claw-neural", "near-miss-neural", "near-miss-neural-fluent", "near-miss-claw-pico",
    "near-miss-pico", "near-miss-claw-rhvoice", "near-miss-rhvoice",
)  # fmt: skip
#: Phrases of each near-miss kind.
NEAR_MISS_PHRASES = {
    "near-miss": NEAR_MISSES,
    "near-miss-extra": NEAR_MISSES_EXTRA,
    "near-miss-claw": NEAR_MISSES_CLAW,
    "near-miss-other": NEAR_MISSES + NEAR_MISSES_EXTRA,
    "near-miss-claw-other": NEAR_MISSES_CLAW,
    "near-miss-claw-formant": NEAR_MISSES_CLAW,
    "near-miss-formant": NEAR_MISSES + NEAR_MISSES_EXTRA,
    "near-miss-claw-neural": NEAR_MISSES_CLAW,
    "near-miss-neural": NEAR_MISSES + NEAR_MISSES_EXTRA,
    "near-miss-claw-pico": NEAR_MISSES_CLAW,
    "near-miss-pico": NEAR_MISSES + NEAR_MISSES_EXTRA,
    "near-miss-claw-rhvoice": NEAR_MISSES_CLAW,
    "near-miss-rhvoice": NEAR_MISSES + NEAR_MISSES_EXTRA,
}


def is_other(kind: str) -> bool:
    """Whether clips of ``kind`` are said by flite/festival voices rather than espeak-ng."""
    return "-other" in kind


def other_voices(positive: bool, validation: bool) -> tuple[SyntheticVoice, ...]:
    """The flite/festival speakers a clip may use: English ones for positives (a foreign voice's
    "open claw" is not the phrase), every one for negatives; validation clips their own."""
    pool = VALIDATION_VOICES if validation else TRAIN_VOICES + TRAIN_FOREIGN_VOICES
    return tuple(v for v in pool if v.english or not positive)


def _fit_variants() -> tuple[str | None, ...]:
    return tuple(v for v in TRAIN_VARIANTS if v not in VALIDATION_VARIANTS)


def _named_variants() -> list[str]:
    return [v for v in _fit_variants() if v is not None]


def _voice(
    rng: np.random.Generator,
    validation: bool,
    name: Callable[[str, str | None], str] = voice_name,
) -> tuple[str, int, int]:
    variants = VALIDATION_VARIANTS if validation else _fit_variants()
    accent = str(rng.choice(TRAIN_ACCENTS))
    variant = variants[int(rng.integers(len(variants)))]
    return (
        name(accent, None if variant is None else str(variant)),
        int(rng.integers(105, 235)),
        int(rng.integers(20, 85)),
    )


def _silence(rng: np.random.Generator, lo: float, hi: float) -> Samples:
    return np.zeros(int(rng.uniform(lo, hi) * SAMPLE_RATE), dtype=np.int16)


def _words(rng: np.random.Generator, texts: list[str], lo: int, hi: int) -> str:
    words = str(rng.choice(texts)).split()
    n = int(rng.integers(lo, hi))
    start = int(rng.integers(0, max(1, len(words) - n)))
    return " ".join(words[start : start + n])


#: The appliance's users' own recordings per user kind: "open claw" (``--user-positives``) and
#: near-miss phrases ("open clause", "open cloth": ``--user-near-misses``). Set before the
#: clip-making processes fork, which inherit them.
_USER_RECORDINGS: dict[str, list[Samples]] = {USER_KIND: [], USER_NEAR_KIND: []}


def set_user_recordings(kind: str, recordings: list[Samples]) -> None:
    """Use ``recordings`` (:func:`appliance.audio.user_recordings.load_user_clips`) for ``kind``."""
    _USER_RECORDINGS[kind][:] = recordings


def user_recordings(kind: str) -> list[Samples]:
    """The recordings the clips of a user kind (:data:`USER_KINDS`) are made from."""
    return _USER_RECORDINGS[kind]


def warp_voice(audio: Samples, factor: float) -> Samples:
    """The speech stretched by ``factor`` in time and lowered by it in pitch and formants alike.

    Read at another rate, the same speech sounds like a longer (``factor`` > 1) or shorter vocal
    tract: a new speaker to the model, where espeak-ng's variants share one set of formants.
    """
    if abs(factor - 1.0) < 1e-3:
        return audio
    stretched = resample(
        audio.astype(np.float32) / 32768.0, SAMPLE_RATE, round(SAMPLE_RATE * factor)
    )
    return to_int16(stretched)


def make_clip(
    spec: ClipSpec, texts: list[str], seed: int, warp: float = 0.0
) -> tuple[Samples, int, int]:
    """The audio of one clip and, for positives, the phrase's start and end sample (else -1).

    ``warp``: the clip's speech goes through :func:`warp_voice` with a factor drawn from
    1 ± ``warp`` (its own random stream: ``warp = 0`` makes exactly the clips made before it).
    """
    rng = np.random.default_rng([seed, KINDS.index(spec.kind), spec.index])
    factor = float(
        np.random.default_rng([seed, KINDS.index(spec.kind), spec.index, 1]).uniform(
            1.0 - warp, 1.0 + warp
        )
    )
    if spec.kind in FLUENT_KINDS:
        return _fluent_clip(spec, rng, texts, factor)
    if spec.kind in NEURAL_KINDS:
        draws = np.random.default_rng([seed, KINDS.index(spec.kind), spec.index, 3])
        scales = (
            float(draws.uniform(*NEURAL_LENGTH)),
            float(draws.uniform(*NEURAL_NOISE)),
            float(draws.uniform(*NEURAL_NOISE_W)),
        )
        formant = float(np.exp(draws.uniform(*np.log(FORMANT_RANGE))))
        formant = formant if draws.random() < NEURAL_FORMANT_SHARE else 1.0
        if spec.kind.endswith("-fluent"):
            return _neural_fluent_clip(spec, rng, draws, texts, scales, (formant, factor))

        def say(text: str) -> Samples:
            # (The graph's noise comes from the clip's own stream: the same clip on every run.)
            return warp_voice(
                formant_warp(seeded_piper().say(text, scales, draws), formant), factor
            )

    heavy = spec.kind.endswith("-babble")
    other = is_other(spec.kind)
    if spec.kind in NEURAL_KINDS:
        pass  # (say() is the neural voice's, above)
    elif other or spec.kind in PICO_KINDS + RHVOICE_KINDS:
        pool: tuple[SyntheticVoice, ...]
        if spec.kind in PICO_KINDS:
            pool = PICO_VOICES
        elif spec.kind in RHVOICE_KINDS:
            pool = RHVOICE_VOICES
        else:
            pool = other_voices(spec.kind.startswith("positive"), spec.validation)
        speaker = pool[int(rng.integers(len(pool)))]
        stretch = float(rng.uniform(0.8, 1.3))
        f0 = float(rng.uniform(*speaker.f0_range))

        def say(text: str) -> Samples:
            return warp_voice(speaker.say(text, stretch, f0), factor)

    elif spec.kind in USER_KINDS:
        # The user's own recording, unwarped (it is the voice to learn), where the phrase goes;
        # what comes before or after it is said by a training voice.
        voice, rate, pitch = _voice(rng, False)
        recordings = user_recordings(spec.kind)
        recording = recordings[spec.index % len(recordings)]

        def say(text: str) -> Samples:
            return recording if text.startswith(PHRASE) else synth(text, voice, rate, pitch)

    elif spec.kind in FORMANT_KINDS:
        voice, rate, _ = _voice(rng, spec.validation)
        # Their own stream again, so that the clip's other draws are those of the plain kind's.
        draws = np.random.default_rng([seed, KINDS.index(spec.kind), spec.index, 2])
        formant = float(np.exp(draws.uniform(*np.log(FORMANT_RANGE))))
        wide_pitch = int(draws.integers(*FORMANT_PITCH))

        def say(text: str) -> Samples:
            speech = synth(text, voice, rate, wide_pitch)
            return warp_voice(formant_warp(speech, formant), factor)

    else:
        voice, rate, pitch = _voice(rng, spec.validation)

        def say(text: str) -> Samples:
            return warp_voice(synth(text, voice, rate, pitch), factor)

    parts: list[Samples] = [_silence(rng, 0.2, 1.2)]
    if spec.kind == "noise":
        n = int(rng.uniform(2.0, 6.0) * SAMPLE_RATE)
        kind = str(rng.choice(["white", "pink", "brown", "hum", "babble", "silence"]))
        if kind == "silence":
            return np.zeros(n, dtype=np.int16), -1, -1
        if kind == "hum":
            noise = _hum(rng, n)
        elif kind == "babble":
            noise = _babble(rng, n, texts)
        else:
            noise = _coloured_noise(rng, n, kind)
        level = 32768.0 * 10 ** (rng.uniform(-70.0, -15.0) / 20)
        x = np.clip(np.round(noise * level / (_rms(noise) + 1e-9)), -32768, 32767)
        return x.astype(np.int16), -1, -1
    if spec.kind in READING_KINDS:
        # One speaker reading on through consecutive sentences, a breath every 8-30 words (some
        # "sentences" of the corpora are whole abstracts).
        i, length = int(rng.integers(len(texts))), 0
        target = rng.uniform(*READING_S) * SAMPLE_RATE
        words: list[str] = []
        while length < target:
            while len(words) < 30:
                words += texts[i % len(texts)].split()
                i += 1
            n = int(rng.integers(8, 31))
            parts += [say(" ".join(words[:n])), _silence(rng, 0.15, 0.9)]
            words = words[n:]
            length += len(parts[-2]) + len(parts[-1])
        audio = np.concatenate(parts)
        return augment(rng, audio, texts, heavy_babble=heavy, other_babble=other), -1, -1
    if spec.kind.startswith("sentence"):
        parts.append(say(_words(rng, texts, 6, 22)))
        parts.append(_silence(rng, 0.3, 1.0))
        audio = np.concatenate(parts)
        return augment(rng, audio, texts, heavy_babble=heavy, other_babble=other), -1, -1
    if spec.kind in NEAR_MISS_PHRASES:
        phrases = NEAR_MISS_PHRASES[spec.kind]
        phrase_text = phrases[spec.index % len(phrases)]
    elif spec.kind == USER_NEAR_KIND:
        phrase_text = PHRASE  # (say() gives the user's near-miss recording in its place)
    else:
        phrase_text = PHRASE + str(rng.choice(["", "", ",", "!", "?", "."]))
    if rng.random() < 0.3:
        lead = say(_words(rng, texts, 2, 8))
        ls, le = speech_bounds(lead)
        parts += [lead[ls:le], _silence(rng, 0.15, 0.8)]
    phrase = say(phrase_text)
    ps, pe = speech_bounds(phrase)
    start = sum(len(p) for p in parts)
    parts.append(phrase[ps:pe])
    end = start + (pe - ps)
    if rng.random() < 0.45:
        q = say(str(rng.choice(QUESTIONS)))
        qs, qe = speech_bounds(q)
        parts += [_silence(rng, 0.0, 0.2), q[qs:qe]]
    parts.append(_silence(rng, 0.5, 1.5))
    audio = augment(
        rng, np.concatenate(parts), texts, ref=(start, end), heavy_babble=heavy, other_babble=other
    )
    if not spec.kind.startswith("positive"):
        return audio, -1, -1
    return audio, start, end


def _fluent_clip(
    spec: ClipSpec, rng: np.random.Generator, texts: list[str], factor: float
) -> tuple[Samples, int, int]:
    """A clip of :data:`FLUENT_KINDS`: maybe a few words, the phrase (or a near-miss) and a
    question or words, as one utterance; the phrase's bounds come from espeak-ng's word events."""
    voice, rate, pitch = _voice(rng, spec.validation, variant_voice_name)
    positive = spec.kind.startswith("positive")
    phrase = PHRASE if positive else FLUENT_NEAR_MISSES[spec.index % len(FLUENT_NEAR_MISSES)]
    lead = _words(rng, texts, 1, 5) + " " if rng.random() < 0.3 else ""
    follow = str(rng.choice(QUESTIONS)) if rng.random() < 0.7 else _words(rng, texts, 2, 9)
    text = f"{lead}{phrase} {follow}"
    speech, words = speak_with_words(text, voice, rate, pitch)
    # (A near-miss's bounds are not needed: all its windows are negative.)
    start, end = phrase_span(speech, words, text, phrase) if positive else (0, len(speech))
    warped = warp_voice(speech, factor)
    scale = len(warped) / max(1, len(speech))  # the warp stretches time: the bounds move with it
    speech, start, end = warped, round(start * scale), round(end * scale)
    s, e = speech_bounds(speech)
    lead_silence = _silence(rng, 0.2, 1.2)
    audio = np.concatenate([lead_silence, speech[s:e], _silence(rng, 0.5, 1.5)])
    start, end = start + len(lead_silence) - s, end + len(lead_silence) - s
    audio = augment(rng, audio, texts, ref=(start, end))
    return (audio, start, end) if positive else (audio, -1, -1)


def _neural_fluent_clip(
    spec: ClipSpec,
    rng: np.random.Generator,
    draws: np.random.Generator,
    texts: list[str],
    scales: tuple[float, float, float],
    warps: tuple[float, float],
) -> tuple[Samples, int, int]:
    """A clip of the "-neural-fluent" kinds: the phrase (or a near-miss) and a question or words as
    ONE Piper utterance, the phrase's end from the voice's durations; ``warps`` = (formant factor,
    speaker warp factor)."""
    positive = spec.kind.startswith("positive")
    phrase = PHRASE if positive else FLUENT_NEAR_MISSES[spec.index % len(FLUENT_NEAR_MISSES)]
    follow = str(rng.choice(QUESTIONS)) if rng.random() < 0.7 else _words(rng, texts, 2, 9)
    text = f"{phrase} {follow}"
    voice = seeded_piper()
    if positive:
        speech, end = voice.say_with_phrase(text, len(phrase.split()), scales, draws)
    else:
        speech, end = voice.say(text, scales, draws), 0  # (all its windows are negative)
    speech = formant_warp(speech, warps[0])  # (the same length: the bounds stay)
    warped = warp_voice(speech, warps[1])
    end = round(end * len(warped) / max(1, len(speech)))  # the warp stretches time
    s, e = speech_bounds(warped)
    lead_silence = _silence(rng, 0.2, 1.2)
    audio = np.concatenate([lead_silence, warped[s:e], _silence(rng, 0.5, 1.5)])
    start, end = len(lead_silence), end + len(lead_silence) - s
    audio = augment(rng, audio, texts, ref=(start, end) if positive else None)
    return (audio, start, end) if positive else (audio, -1, -1)
