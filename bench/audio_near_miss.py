"""Wake word near-misses: generated minimal pairs of "open claw", said by tuning or held-out voices.

The generator crosses the phrase's first word with its near-misses (open, oven, hope, opal,
opening) and the second with its own (claw, flaw, floor, clause, law, close, clock), less the
phrase itself, and adds the phrase inside other words ("reopen claw", "open claws", "open
clawing", ...). Two sets, by voice: **tuning** is said by the training's validation variants of
its accents (never fitted, used to choose thresholds), **held-out** by the test voices of every
wake benchmark (``bench/audio_wake.py``'s VOICES: held-out accents and variants). Each near-miss is
said alone or followed by a question in the same utterance, clean or in noise at 10-30 dB.

Positives ("open claw", alone or before a question) are said by the same voices in every band of
bench/audio_noise.py (clean, >= 20, 10-19, 0-9 dB; babble, machine, music), and held-out
ordinary speech (bench/audio_wake_hours.py's held-out voices reading held-out abstracts) gives
the false wakes per hour.

Everything runs through the appliance's own wake detector at its configured defaults
(``build_wake_detector``: the keyword model, whisper tiny.en's check with its early start), fed
30 ms chunks. The wake latency is the time from the phrase's end to the detection, plus the
compute of the chunk that returned it (the audio arriving in real time). With ``--rivals MODEL``
one more rule is measured on the windows the detector accepted: whisper MODEL's log-probability of
"open claw" forced at the window's start must beat every two-word near-miss of the generator; with
``--pocketsphinx``, PocketSphinx's keyphrase search must also spot the phrase there (a second
opinion from another front end); with ``--hubert HEAD.npz``, a logistic head over wakeforge's
WakeHuBERT-tiny features of the second ending at the detection (``training/wake/hubert_head.py``,
trained on tuning voices only) must score it at or above its threshold. With ``--glued``, the
question recogniser (the configured ``audio.whisper_model``) transcribes the capture the front end
would take after the detection (from 0.4 s before the detection's phrase start to the end of the
speech plus 0.2 s, with the front end's prompt) and the utterance is dropped when the words it heard
show the phrase as part of other words (``appliance.audio.phrases.phrase_glued``, as the front end
checks it with ``audio.wake_glued_check``: "reopen claw", "open clawing"); how
often the phrase was heard as itself, glued or not at all is printed for positives and near-misses.
With ``--window-check``, the audio around each accepted detection's phrase (``wake_window.py``:
0.4 s before its estimated start to 0.4 s after its estimated end) is heard again by the same
recogniser without a prompt, as ``audio.wake_window_check`` hears it, and the utterance is refused
when that shows a near-miss (``phrases.window_near_miss``): with ``--glued``, a row of both
checks; the window's transcription time and whether its verdict would come after the capture's
end are printed. On tuning, ``--window-context`` and ``--window-tails`` compare other windows
and the candidate rules (decision 0037 section 9); held-out prints the front end's rule only.

    .venv/bin/python bench/audio_near_miss.py --split heldout --takes 3 --positives 12 \
        --minutes 20 [--rivals whisper-base] [--glued] [--window-check]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from audio_common import RATES, silence, speech_bounds, synth  # noqa: E402
from audio_noise import BANDS, KINDS, add_noise  # noqa: E402
from audio_wake import VOICES as HELD_OUT_VOICES  # noqa: E402
from audio_wake import run  # noqa: E402
from audio_wake_hours import held_out_abstracts, poisson_upper, segment  # noqa: E402

from appliance.audio.base import SAMPLE_RATE, Samples, WakeDetection, WakeDetector  # noqa: E402
from appliance.audio.phrases import normalise_words, phrase_glued  # noqa: E402
from bench.common import percentile  # noqa: E402
from training.wake.clips import (  # noqa: E402
    TRAIN_ACCENTS,
    VALIDATION_VARIANTS,
    variant_voice_name,
)

PHRASE = "open claw"
FIRST_WORDS = ("open", "oven", "hope", "opal", "opening")
SECOND_WORDS = ("claw", "flaw", "floor", "clause", "law", "close", "clock")
#: The phrase inside other words.
EMBEDDED = (
    "reopen claw",
    "open claws",
    "open clawing",
    "open clawed",
    "open clawback",
    "unopened claw",
    "hopen claws",
    "reopen clause",
)
QUESTIONS = (
    "what torque do the bolts take",
    "which room is this",
    "what is the scale of drawing A 1024",
    "remember that the bracket is painted",
)
VOICE_SETS = {
    "tuning": [variant_voice_name(a, v) for a in TRAIN_ACCENTS for v in VALIDATION_VARIANTS],
    "heldout": list(HELD_OUT_VOICES),
}


def minimal_pairs() -> list[str]:
    """Every first-word x second-word phrasing except the phrase itself."""
    return [f"{a} {b}" for a in FIRST_WORDS for b in SECOND_WORDS if f"{a} {b}" != PHRASE]


def near_misses() -> list[str]:
    """The generator's near-misses: the minimal pairs and the phrase inside other words."""
    return [*minimal_pairs(), *EMBEDDED]


#: (id of the item, detection sample) -> (the rule accepts the window, its compute seconds).
Verdicts = dict[tuple[int, int], tuple[bool, float]]


@dataclass
class Item:
    """One utterance."""

    audio: Samples
    #: "pos", "near" or "speech".
    kind: str
    label: str
    #: Noise band (bench/audio_noise.BANDS) and kind ("" when clean).
    band: str = "clean"
    noise: str = ""
    #: The phrase's end sample (positives).
    end: int = -1
    #: (detected at sample, compute seconds of the chunk that returned it).
    found: list[tuple[int, float]] = field(default_factory=list)
    #: Detected at sample -> the detection's estimate of where the phrase starts.
    starts: dict[int, int] = field(default_factory=dict)
    #: Detected at sample -> the detection's estimate of where the phrase ends.
    ends: dict[int, int] = field(default_factory=dict)


def utterance(
    words: str, voice: str, rate: int, question: str | None
) -> tuple[Samples, int, Samples]:
    """Lead silence, the words, then a question after a short pause (or silence); the audio, the
    sample where the words end, and the speech alone (for the SNR)."""
    said = synth(words, voice, rate=rate)
    s, e = speech_bounds(said)
    parts = [silence(0.6), said[s:e]]
    end = len(parts[0]) + (e - s)
    if question is not None:
        q = synth(question, voice, rate=rate)
        qs, qe = speech_bounds(q)
        parts += [silence(0.12), q[qs:qe]]
    speech = np.concatenate(parts[1:])
    return np.concatenate([*parts, silence(1.5)]), end, speech


def noisy(audio: Samples, speech: Samples, band: str, seed: int) -> tuple[Samples, str]:
    limits = BANDS[band]
    if limits is None:
        return audio, ""
    rng = random.Random(seed)
    kind = KINDS[seed % len(KINDS)]
    return add_noise(audio, kind, rng.uniform(*limits), seed, ref=speech), kind


def make_items(split: str, takes: int, positives: int) -> list[Item]:
    voices = VOICE_SETS[split]
    items: list[Item] = []
    k = 0
    for phrase in near_misses():
        for t in range(takes):
            voice, rate = voices[k % len(voices)], RATES[k % len(RATES)]
            question = QUESTIONS[k % len(QUESTIONS)] if k % 2 else None
            audio, _, speech = utterance(phrase, voice, rate, question)
            # Half clean, half in noise at 10-30 dB (the bands the targets apply to).
            band = ("clean", ">=20 dB", "clean", "10-19 dB")[k % 4]
            seed = zlib.crc32(f"{split} {phrase} {t}".encode())
            audio, noise = noisy(audio, speech, band, seed)
            items.append(Item(audio, "near", f"{phrase} [{voice}@{rate}]", band, noise))
            k += 1
    for band in BANDS:
        for i in range(positives):
            voice, rate = voices[k % len(voices)], RATES[k % len(RATES)]
            question = QUESTIONS[k % len(QUESTIONS)] if k % 2 else None
            audio, end, speech = utterance(PHRASE, voice, rate, question)
            seed = zlib.crc32(f"{split} positive {band} {i}".encode())
            audio, noise = noisy(audio, speech, band, seed)
            items.append(Item(audio, "pos", f"[{voice}@{rate}]", band, noise, end))
            k += 1
    return items


def speech_items(minutes: float) -> list[Item]:
    """Held-out ordinary speech (audio_wake_hours' voices and abstracts), both voice families."""
    abstracts = held_out_abstracts()
    rng = random.Random(4)
    items: list[Item] = []
    for family in ("espeak-ng", "flite/festival"):
        total = 0.0
        while total < minutes * 60 / 2:
            audio, _ = segment(random.Random(rng.random()), family, abstracts)
            items.append(Item(audio, "speech", family))
            total += len(audio) / SAMPLE_RATE
    return items


def detector() -> WakeDetector:
    """The appliance's wake detector at the configured defaults, models from var/models."""
    from appliance.audio.build import build_wake_detector
    from appliance.config import load_config

    config = load_config(environ={"OPENCLAW_PATHS__MODELS_DIR": str(REPO / "var" / "models")})
    return build_wake_detector(config)


class Recorded:
    """A wake detector that also keeps where each detection placed the phrase's start."""

    def __init__(self, inner: WakeDetector) -> None:
        self.inner = inner
        self.name = inner.name
        self.starts: dict[int, int] = {}
        self.ends: dict[int, int] = {}

    def reset(self) -> None:
        self.inner.reset()
        self.starts = {}
        self.ends = {}

    def feed(self, chunk: Samples, end_sample: int) -> WakeDetection | None:
        det = self.inner.feed(chunk, end_sample)
        if det is not None:
            self.starts[det.detected_at_sample] = det.start_sample
            self.ends[det.detected_at_sample] = det.end_sample
        return det


def woke(item: Item) -> list[tuple[int, float]]:
    """Detections of a positive from the phrase's start to 2 s after its end."""
    return [(a, c) for a, c in item.found if item_woke(item, a)]


def report(
    items: list[Item],
    speech: list[Item],
    rules: list[tuple[str, Verdicts | None]],
    detail: bool = True,
) -> None:
    """Each rule's figures; ``detail``: also name every near-miss accepted (tuning only)."""
    pos = [it for it in items if it.kind == "pos"]
    near = [it for it in items if it.kind == "near"]
    for title, keep in rules:

        def passed(it: Item, a: int, keep: Verdicts | None = keep) -> bool:
            return keep is None or keep.get((id(it), a), (False, 0.0))[0]

        print(f"\n== {title}")
        accepted = [it for it in near if any(passed(it, a) for a, _ in it.found)]
        print(f"  near-misses accepted: {len(accepted)}/{len(near)}")
        for it in accepted if detail else []:
            print(f"    accepted: {it.label} ({it.band}{' ' + it.noise if it.noise else ''})")
        lat: list[float] = []
        for band in BANDS:
            rows_b = [it for it in pos if it.band == band]
            hit = [it for it in rows_b if any(passed(it, a) for a, _ in woke(it))]
            print(f"  positives woken, {band:9}: {len(hit)}/{len(rows_b)}")
            for it in hit:
                a, c = next((a, c) for a, c in woke(it) if passed(it, a))
                # The rule's own compute comes after the detector's (its cost, not hidden).
                extra = 0.0 if keep is None else keep[(id(it), a)][1]
                lat.append(max(0.0, (a - it.end) / SAMPLE_RATE + c + extra) * 1000)
        ten_up = [it for it in pos if it.band != "0-9 dB"]
        hit10 = sum(any(passed(it, a) for a, _ in woke(it)) for it in ten_up)
        print(f"  positives woken at >= 10 dB (clean included): {hit10}/{len(ten_up)}")
        for kind in KINDS:
            rows_k = [it for it in pos if it.noise == kind]
            hit_k = sum(any(passed(it, a) for a, _ in woke(it)) for it in rows_k)
            print(f"  positives woken in {kind:7} (all noisy bands): {hit_k}/{len(rows_k)}")
        if speech:
            hours = sum(len(it.audio) for it in speech) / SAMPLE_RATE / 3600
            fa = sum(sum(passed(it, a) for a, _ in it.found) for it in speech)
            print(
                f"  false wakes in ordinary speech: {fa} in {hours:.2f} h = {fa / hours:.2f}/h "
                f"(95% upper {poisson_upper(fa) / hours:.2f}/h)"
            )
        if lat:
            print(
                f"  wake latency after the phrase: p50 {percentile(lat, 50):.0f} ms, p95 "
                f"{percentile(lat, 95):.0f} ms (n={len(lat)}; load average "
                f"{os.getloadavg()[0]:.1f})"
            )


def rival_rule(items: Sequence[Item], model: str) -> Verdicts:
    """For each accepted window: does "open claw" beat every minimal pair under ``model``?"""
    from appliance.audio.engines.whisper import WhisperRecogniser

    recogniser = WhisperRecogniser.from_manifest(model, REPO / "var" / "models")
    phrases = [PHRASE, *minimal_pairs()]
    verdict: Verdicts = {}
    costs: list[float] = []
    window = int(1.2 * SAMPLE_RATE)
    for it in items:
        for a, _ in it.found:
            t0 = time.perf_counter()
            logps = recogniser.phrase_logprobs(it.audio[max(0, a - window) : a], phrases)
            costs.append(time.perf_counter() - t0)
            verdict[(id(it), a)] = (logps[0] >= max(logps[1:]), costs[-1])
    if costs:
        print(
            f"rivals rule ({model}, {len(phrases) - 1} rivals): {len(costs)} windows, p50 "
            f"{percentile(costs, 50) * 1000:.0f} ms, p95 {percentile(costs, 95) * 1000:.0f} ms "
            f"per window (load average {os.getloadavg()[0]:.1f})"
        )
    return verdict


#: PocketSphinx keyword-search threshold: the permissive end of the range its documentation
#: gives for two-word phrases (decision 0032 used the same); one value, no search.
SPHINX_THRESHOLD = 1e-20


def sphinx_rule(items: Sequence[Item]) -> Verdicts:
    """For each accepted window: does PocketSphinx's keyphrase search (its bundled en-us model;
    ``pip install pocketsphinx==5.1.1``) spot "open claw" in the 1.6 s before the detection?"""
    from pocketsphinx import Decoder

    decoder = Decoder(keyphrase=PHRASE, kws_threshold=SPHINX_THRESHOLD, loglevel="FATAL")
    verdict: Verdicts = {}
    window = int(1.6 * SAMPLE_RATE)
    for it in items:
        for a, _ in it.found:
            t0 = time.perf_counter()
            decoder.start_utt()
            decoder.process_raw(it.audio[max(0, a - window) : a].tobytes(), full_utt=True)
            decoder.end_utt()
            verdict[(id(it), a)] = (decoder.hyp() is not None, time.perf_counter() - t0)
    costs = [c for _, c in verdict.values()]
    if costs:
        print(
            f"pocketsphinx second opinion (threshold {SPHINX_THRESHOLD:g}): {len(costs)} windows, "
            f"p50 {percentile(costs, 50) * 1000:.0f} ms per window"
        )
    return verdict


def hubert_rule(
    items: Sequence[Item], head_path: Path, threshold: float | None, split: str
) -> Verdicts:
    """For each accepted window: does the WakeHuBERT-tiny head (``training/wake/hubert_head.py``)
    score the second of features ending at the detection at or above its threshold?"""
    from training.wake.hubert_head import Featurizer, HubertHead, fetch_featurizer

    head = HubertHead.load(head_path)
    limit = head.threshold if threshold is None else threshold
    featurizer = Featurizer(fetch_featurizer())
    featurizer.window(np.zeros(SAMPLE_RATE, dtype=np.int16), SAMPLE_RATE)  # load, first call
    verdict: Verdicts = {}
    scored: list[tuple[Item, int, float]] = []
    for it in items:
        for a, _ in it.found:
            t0 = time.perf_counter()
            score = head.score(featurizer.window(it.audio, a))
            verdict[(id(it), a)] = (score >= limit, time.perf_counter() - t0)
            scored.append((it, a, score))
    costs = [c for _, c in verdict.values()]
    if costs:
        print(
            f"hubert second opinion ({head_path.name}: {head.pooling}, threshold {limit:.4f}"
            f"{' (the head says ' + format(head.threshold, '.4f') + ')' if threshold is not None else ''}"
            f"): {len(costs)} windows, p50 {percentile(costs, 50) * 1000:.1f} ms, p95 "
            f"{percentile(costs, 95) * 1000:.1f} ms per window (features and head; load average "
            f"{os.getloadavg()[0]:.1f})"
        )
    if split == "tuning" and scored:
        # Tuning only (never on held-out audio): the threshold rule on this audio, and what a few
        # thresholds would accept.
        pos10 = [
            s
            for it, a, s in scored
            if it.kind == "pos" and it.band != "0-9 dB" and item_woke(it, a)
        ]
        near = [it for it in items if it.kind == "near"]
        best = {id(it): max((s for it2, _, s in scored if it2 is it), default=0.0) for it in near}
        low = min(pos10) if pos10 else 0.0
        print(f"  tuning: lowest score among the woken positives at >= 10 dB {low:.4f}")
        for t in sorted({low, limit, 0.01, 0.1, 0.5, 0.9}):
            n_acc = sum(v >= t for v in best.values())
            print(f"    threshold {t:.4f}: near-misses accepted {n_acc}/{len(near)}")
    return verdict


def heard_as(text: str, phrase: str = PHRASE) -> str:
    """How the phrase was heard: "itself", "glued" or "not heard"."""
    if phrase_glued(text, phrase):
        return "glued"
    words = normalise_words(text)
    target = phrase.split()
    joined = "".join(target)
    if joined in words or any(words[i : i + len(target)] == target for i in range(len(words))):
        return "itself"
    return "not heard"


def glued_rule(items: Sequence[Item], detail: bool) -> Verdicts:
    """For each accepted window: the question recogniser's transcript of the capture the front end
    takes after the detection must not show the phrase glued to other words."""
    from appliance.audio.bias import question_prompt
    from appliance.audio.engines.whisper import WhisperRecogniser
    from appliance.audio.frontend import COMMAND_HINTS, KEEP_TRAILING_S, PHRASE_MARGIN_S
    from appliance.audio.settings import AudioSettings

    settings = AudioSettings()
    # The question's reading decides: its decoder's beam as the service sets it.
    recogniser = WhisperRecogniser.from_manifest(
        settings.whisper_model, REPO / "var" / "models", beam_size=settings.whisper_beam_size
    )
    prompt = question_prompt(COMMAND_HINTS, (), [], phrase=settings.wake_phrase.title())
    margin, tail = int(PHRASE_MARGIN_S * SAMPLE_RATE), int(1.5 * SAMPLE_RATE)
    keep = int(KEEP_TRAILING_S * SAMPLE_RATE)
    verdict: Verdicts = {}
    costs: list[float] = []
    how: dict[str, dict[str, int]] = {}
    for it in items:
        for a, _ in it.found:
            # The front end's capture of a keyword detection: the whole phrase and a margin before
            # it, to the endpointer's cut (the last speech and 0.2 s; the clip ends in 1.5 s of
            # silence after the speech).
            start = max(0, it.starts.get(a, a) - margin)
            end = max(a, len(it.audio) - tail + keep)
            t0 = time.perf_counter()
            text = recogniser.transcribe(it.audio[start:end], vocabulary=[prompt]).text
            costs.append(time.perf_counter() - t0)
            # Its cost falls after the question is captured, not on the wake: not in the latency.
            verdict[(id(it), a)] = (not phrase_glued(text, PHRASE), 0.0)
            group = "positive" if it.kind == "pos" else it.kind
            if it.kind == "pos" and not item_woke(it, a):
                group = "positive, outside the phrase"
            counts = how.setdefault(group, {})
            counts[heard_as(text)] = counts.get(heard_as(text), 0) + 1
            if detail and (it.kind == "near" or heard_as(text) != "itself"):
                print(f"    {it.kind} {it.label} ({it.band}): heard {text!r}")
    if costs:
        print(
            f"glued-phrase check ({settings.whisper_model}): {len(costs)} captures transcribed, "
            f"p50 {percentile(costs, 50) * 1000:.0f} ms, p95 {percentile(costs, 95) * 1000:.0f} ms "
            f"(load average {os.getloadavg()[0]:.1f})"
        )
        for group, counts in how.items():
            print(
                f"  {group} detections: the phrase heard "
                + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            )
    return verdict


def _in_order(text: str, adjacent: bool) -> bool:
    """The phrase's words as whole words in order (next to each other when ``adjacent``), or
    "openclaw" as one word: a candidate rule, tuning only."""
    words = normalise_words(text)
    target = PHRASE.split()
    if "".join(target) in words:
        return True
    if adjacent:
        return any(words[i : i + len(target)] == target for i in range(len(words)))
    at = 0
    for t in target:
        if t not in words[at:]:
            return False
        at = words.index(t, at) + 1
    return True


#: Candidate window rules compared on tuning: name -> refuse the window's transcript.
WINDOW_RULES = {
    "glued or not open...claw in order": lambda t: (
        phrase_glued(t, PHRASE) or not _in_order(t, False)
    ),
    "glued or not 'open claw' adjacent": lambda t: (
        phrase_glued(t, PHRASE) or not _in_order(t, True)
    ),
    # Unprompted, whisper writes the phrase's "claw" as "law", "floor", "door" (tuning): the first
    # word alone.
    "no whole word 'open'/'openclaw'": lambda t: not {"open", "openclaw"} & set(normalise_words(t)),
    "glued or no whole word 'open'/'openclaw'": lambda t: (
        phrase_glued(t, PHRASE) or not {"open", "openclaw"} & set(normalise_words(t))
    ),
}


def window_rule(
    items: Sequence[Item],
    tails: Sequence[float],
    context: Literal["short", "full"],
    split: str,
    beam_size: int = 1,
) -> dict[float, dict[tuple[int, int], str]]:
    """For each accepted window: the question recogniser's transcript, without the front end's
    prompt, of the audio around the detected phrase (from ``WINDOW_MARGIN_S`` before its
    estimated start to ``tail`` seconds after its estimated end), per tail; the time it takes and
    whether it would be ready before the question's capture ends are printed."""
    from appliance.audio.engines.whisper import WhisperRecogniser
    from appliance.audio.settings import AudioSettings
    from appliance.audio.wake_window import WINDOW_MARGIN_S, hear_window

    settings = AudioSettings()
    recogniser = WhisperRecogniser.from_manifest(settings.whisper_model, REPO / "var" / "models")
    hear_window(recogniser, np.zeros(SAMPLE_RATE, dtype=np.int16), context)  # load, first call
    margin = int(WINDOW_MARGIN_S * SAMPLE_RATE)
    # The endpointer ends a capture 0.8 s into the silence after the speech (the clips end in
    # 1.5 s of silence): when the window's verdict is needed at the latest.
    capture_end = int((1.5 - settings.trailing_silence_s) * SAMPLE_RATE)
    texts: dict[float, dict[tuple[int, int], str]] = {}
    for tail in tails:
        heard: dict[tuple[int, int], str] = {}
        costs: list[float] = []
        late: list[float] = []
        for it in items:
            for a, lag in it.found:
                start = max(0, it.starts.get(a, a) - margin)
                end = min(len(it.audio), it.ends.get(a, a) + int(tail * SAMPLE_RATE))
                t0 = time.perf_counter()
                text = hear_window(recogniser, it.audio[start:end], context, beam_size)
                costs.append(time.perf_counter() - t0)
                heard[(id(it), a)] = text
                # Ready when the window's audio has arrived (at the detection or after it) and
                # whisper has heard it; later than the capture's end is a delay to the answer.
                ready = max(a / SAMPLE_RATE + lag, end / SAMPLE_RATE) + costs[-1]
                late.append(max(0.0, ready - (len(it.audio) - capture_end) / SAMPLE_RATE))
        texts[tail] = heard
        if costs:
            delayed = sum(x > 0 for x in late)
            print(
                f"window check ({settings.whisper_model}, {context} context, beam {beam_size}, "
                f"no prompt, tail {tail:.2f} s): "
                f"{len(costs)} windows, transcription p50 {percentile(costs, 50) * 1000:.0f} ms, "
                f"p95 {percentile(costs, 95) * 1000:.0f} ms (load average "
                f"{os.getloadavg()[0]:.1f}); ready after the capture's end in {delayed} "
                f"(by p95 {percentile(late, 95) * 1000:.0f} ms, max {max(late) * 1000:.0f} ms)"
            )
    if split == "tuning":
        # Tuning only (never on held-out audio): every near-miss window's transcript, and the
        # positives' that are not the phrase in order, for the first tail.
        for it in items:
            for a, _ in it.found:
                text = texts[tails[0]][(id(it), a)]
                if it.kind == "near" or (
                    it.kind == "pos" and item_woke(it, a) and not _in_order(text, True)
                ):
                    print(f"    window {it.kind} {it.label} ({it.band}): heard {text!r}")
    return texts


def item_woke(item: Item, a: int) -> bool:
    """Whether a detection at ``a`` counts as waking on a positive (see :func:`woke`)."""
    return item.end - SAMPLE_RATE <= a <= item.end + 2 * SAMPLE_RATE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=tuple(VOICE_SETS), default="tuning")
    parser.add_argument("--takes", type=int, default=3, help="utterances per near-miss phrasing")
    parser.add_argument("--positives", type=int, default=12, help="positives per noise band")
    parser.add_argument("--minutes", type=float, default=0.0, help="ordinary speech (held-out)")
    parser.add_argument("--rivals", default="", help="whisper model of the rivals rule")
    parser.add_argument(
        "--pocketsphinx",
        action="store_true",
        help="also PocketSphinx keyphrase search as a second opinion on each accepted window",
    )
    parser.add_argument(
        "--hubert",
        type=Path,
        default=None,
        help="also a WakeHuBERT-tiny head (training/wake/hubert_head.py) as a second opinion",
    )
    parser.add_argument(
        "--hubert-threshold", type=float, default=None, help="instead of the head's threshold"
    )
    parser.add_argument(
        "--glued",
        action="store_true",
        help="also drop what the question recogniser hears as the phrase glued to other words",
    )
    parser.add_argument(
        "--window-check",
        action="store_true",
        help="also refuse what the question recogniser, unprompted, hears in the wake window as "
        "a near-miss (audio.wake_window_check; with --glued: glued, then glued + window)",
    )
    parser.add_argument(
        "--window-tails",
        default="",
        help="seconds of audio after the phrase's end in the window, comma-separated; the first "
        "is the rule's row, the others are printed for comparison (tuning; default: the front "
        "end's)",
    )
    parser.add_argument(
        "--window-context",
        choices=("short", "full"),
        default=None,
        help="whisper's encoder context for the window (default: the front end's)",
    )
    parser.add_argument(
        "--window-beam",
        type=int,
        default=1,
        help="beam of the window's short decode (default 1: greedy, as the front end decodes it)",
    )
    parser.add_argument("--list", action="store_true", help="print the near-misses and stop")
    args = parser.parse_args()
    if args.list:
        print("\n".join(near_misses()))
        return
    t0 = time.perf_counter()
    items = make_items(args.split, args.takes, args.positives)
    speech = speech_items(args.minutes) if args.minutes else []
    print(
        f"split {args.split}: {len(near_misses())} near-miss phrasings x {args.takes}, "
        f"{args.positives} positives per band, {len(speech)} speech segments; voices "
        f"{', '.join(VOICE_SETS[args.split])} (audio {time.perf_counter() - t0:.0f} s)"
    )
    wake = Recorded(detector())
    t1 = time.perf_counter()
    for it in [*items, *speech]:
        found, _ = run(wake, it.audio)
        it.found = [(a, lag) for a, lag, _ in found]
        it.starts = dict(wake.starts)
        it.ends = dict(wake.ends)
    print(f"detector: {wake.name} ({time.perf_counter() - t1:.0f} s)")
    rules: list[tuple[str, Verdicts | None]] = [("detector (defaults)", None)]
    if args.rivals:
        rules.append(("+ rivals rule", rival_rule([*items, *speech], args.rivals)))
    if args.pocketsphinx:
        rules.append(("+ pocketsphinx second opinion", sphinx_rule([*items, *speech])))
    if args.hubert:
        rules.append(
            (
                "+ wakehubert second opinion",
                hubert_rule([*items, *speech], args.hubert, args.hubert_threshold, args.split),
            )
        )
    glued: Verdicts | None = None
    if args.glued:
        glued = glued_rule([*items, *speech], args.split == "tuning")
        rules.append(("+ glued-phrase check", glued))
    if args.window_check:
        from appliance.audio.phrases import window_near_miss
        from appliance.audio.wake_window import WINDOW_CONTEXT, WINDOW_TAIL_S

        tails = [float(x) for x in args.window_tails.split(",") if x] or [WINDOW_TAIL_S]
        context = args.window_context or WINDOW_CONTEXT
        heard = window_rule([*items, *speech], tails, context, args.split, args.window_beam)
        variants: dict[str, Callable[[str], bool]] = {
            "window rule (phrases.window_near_miss)": lambda t: window_near_miss(t, PHRASE)
        }
        if args.split == "tuning":
            variants.update(WINDOW_RULES)
        for tail in tails:
            for name, refuses in variants.items():
                if tail != tails[0] and name not in WINDOW_RULES and args.split == "tuning":
                    continue
                keep: Verdicts = {
                    key: (
                        (glued is None or glued[key][0]) and not refuses(text),
                        0.0,  # heard while the question is said: not on the wake's latency
                    )
                    for key, text in heard[tail].items()
                }
                title = f"+ {'glued-phrase check + ' if glued is not None else ''}window check"
                rules.append((f"{title}, tail {tail:.2f} s: {name}", keep))
    # Held-out failures are counted, never listed one by one.
    report(items, speech, rules, detail=args.split == "tuning")


if __name__ == "__main__":
    main()
