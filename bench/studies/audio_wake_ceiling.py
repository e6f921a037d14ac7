"""Wake word: how far each stage could go on the test audio, and three designs measured against it.

Decision 0032's two stages miss most positives said by the flite/festival test voices. This
benchmark asks where the misses come from, on bench/audio_wake.py's test audio (same seed, same
held-out voices and near-miss phrasings):

1. the keyword model alone: the best score anywhere from the phrase's start to 2 s after its end,
   per family, against how many near-miss utterances reach the same level;
2. whisper tiny.en alone, placed by an oracle: its phrase posterior on the 1.2-s windows ending
   0.1, 0.2 and 0.3 s after the phrase (the best counts), per family, and on near-miss utterances
   (windows ending the same way after their speech); the misses are listed with their noise;
3. a contrast check: at each first-stage detection (threshold 0.9), the log-probability whisper
   gives "open claw" minus the best of the training's own near-miss phrasings
   (``training_clips.NEAR_MISSES_CLAW``, never the benchmark's), forced at the window's start;
4. a second chance: a rise of the keyword model's score over a low level that never reaches 0.9
   is checked by whisper on the window ending a delay after its peak (positives and near-misses
   only: ordinary speech is not scored here).

    .venv/bin/python bench/studies/audio_wake_ceiling.py --positives 60 --near-miss 108
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# The benchmarks this study builds on (audio_common puts the repository on the path too).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from audio_common import speech_bounds
from audio_wake import DIPHONE, ESPEAK, OTHER, near_family, test_audio
from audio_wake import simulate as detections
from audio_wake_hours import REFRACTORY
from audio_wake_verify import MODELS, WINDOW_S

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.engines.speech_embedding import SpeechEmbedding
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.settings import AudioSettings
from appliance.audio.wake_model import KeywordHead
from training.wake.clips import NEAR_MISSES_CLAW
from training.wake.windows import step_scores

PHRASE = "open claw"
#: Rival phrasings of the contrast check: the training's own, of up to three words.
RIVALS = sorted(p for p in NEAR_MISSES_CLAW if len(p.split()) <= 3)
WINDOW = int(WINDOW_S * SAMPLE_RATE)
LATE = 2 * SAMPLE_RATE


@dataclass
class Scored:
    """One test utterance with its keyword-model trace."""

    audio: Samples
    #: "pos" or "near".
    kind: str
    #: Voice family (espeak-ng or flite/festival).
    family: str
    label: str
    #: First and last sample of the phrase (near-misses: of their speech).
    start: int
    end: int
    trace: list[tuple[int, float]]

    def span(self) -> list[tuple[int, float]]:
        """The trace where a detection counts for a positive (anywhere for a near-miss)."""
        if self.kind != "pos":
            return self.trace
        return [(a, s) for a, s in self.trace if self.start <= a <= self.end + LATE]


def utterances(args: argparse.Namespace) -> list[Scored]:
    positives, _, near, _ = test_audio(
        args.seed,
        args.positives,
        0,
        args.near_miss,
        args.positives,
        args.near_miss,
        n_diphone=args.positives if args.diphone else 0,
        n_diphone_near=args.near_miss if args.diphone else 0,
    )
    features = SpeechEmbedding.from_manifest(MODELS)
    head = KeywordHead.from_manifest(MODELS)
    silent = features.silent_embedding()
    out = []
    for t in positives:
        trace = step_scores(head, features.clip(t.audio), silent)
        out.append(Scored(t.audio, "pos", t.family, t.label, t.phrase_start, t.phrase_end, trace))
    for label, audio in near:
        family = near_family(label.split(" (")[1])
        s, e = speech_bounds(audio)
        trace = step_scores(head, features.clip(audio), silent)
        out.append(Scored(audio, "near", family, label, s, e, trace))
    return out


def families(items: list[Scored]) -> list[str]:
    """The voice families present, in the benchmark's order."""
    present = {it.family for it in items}
    return [f for f in (ESPEAK, OTHER, DIPHONE) if f in present]


def fr_header(items: list[Scored]) -> str:
    """Column titles of the false-reject columns, one per family present."""
    return "  ".join(f"FR {f[:14]:>14s}" for f in families(items))


def fr_cells(items: list[Scored], fr: dict[str, float]) -> str:
    """The false-reject cells under :func:`fr_header`."""
    return "  ".join(f"{fr[f]:17.3f}" for f in families(items))


def window(audio: Samples, end: int) -> Samples:
    return audio[max(0, end - WINDOW) : end]


def false_rejects(items: list[Scored], best: dict[int, float], level: float) -> dict[str, float]:
    """Per family: the share of positives whose best score (by ``id``) is under ``level``."""
    return {
        fam: float(
            np.mean([best[id(it)] < level for it in items if it.kind == "pos" and it.family == fam])
        )
        for fam in families(items)
    }


def first_stage(items: list[Scored]) -> None:
    print("1. the keyword model alone: best score of each utterance")
    print(f"   level   {fr_header(items)}  near-misses reaching it")
    best = {id(it): max((s for _, s in it.span()), default=0.0) for it in items}
    for level in (0.9, 0.1, 0.01, 0.001):
        fr = false_rejects(items, best, level)
        near = [it for it in items if it.kind == "near"]
        reach = sum(best[id(it)] >= level for it in near)
        print(f"   {level:6.3f}  {fr_cells(items, fr)}  {reach:4d}/{len(near)}")


def whisper_alone(items: list[Scored], whisper: WhisperRecogniser) -> None:
    print("2. whisper alone at the phrase's end (best of windows ending 0.1 / 0.2 / 0.3 s after)")
    best: dict[int, float] = {}
    for it in items:
        ends = [it.end + int(d * SAMPLE_RATE) for d in (0.1, 0.2, 0.3)]
        best[id(it)] = max(
            whisper.phrase_posterior(window(it.audio, e), PHRASE).score for e in ends
        )
    print(f"   posterior  {fr_header(items)}  near-misses over it")
    near = [it for it in items if it.kind == "near"]
    for level in (1e-5, 1e-4, 1e-3, 1e-2):
        fr = false_rejects(items, best, level)
        over = sum(best[id(it)] >= level for it in near)
        print(f"   {level:9.0e}  {fr_cells(items, fr)}  {over:4d}/{len(near)}")
    threshold = AudioSettings().wake_verify_threshold
    missed = [it for it in items if it.kind == "pos" and best[id(it)] < threshold]
    print(f"   positives under the verifier's threshold {threshold:g}: {len(missed)}")
    for it in missed:
        print(f"     {best[id(it)]:.1e}  {it.label}")


def contrast(items: list[Scored], whisper: WhisperRecogniser) -> None:
    threshold = AudioSettings().wake_kws_threshold
    print(
        f"3. contrast at the first stage's detections ({threshold}): log P({PHRASE!r}) minus the "
        f"best of {len(RIVALS)} rival phrasings"
    )
    margins: dict[str, list[float]] = {"pos": [], "near": []}
    for it in items:
        fired = [a for a in detections(it.span(), threshold, REFRACTORY)][:1]
        for at in fired:
            logp = whisper.phrase_logprobs(window(it.audio, at), [PHRASE, *RIVALS])
            margins[it.kind].append(logp[0] - max(logp[1:]))
    pos, near = np.array(margins["pos"]), np.array(margins["near"])
    print(f"   detections: {len(pos)} positives, {len(near)} near-misses")
    print(
        f"   positives' margin quantiles 0.1 / 0.5 / 0.9: {np.quantile(pos, [0.1, 0.5, 0.9]).round(2)}"
    )
    print(
        f"   near-misses' margin quantiles 0.1 / 0.5 / 0.9: {np.quantile(near, [0.1, 0.5, 0.9]).round(2)}"
    )
    for level in (-3.0, -2.0, -1.0, 0.0, 1.0):
        print(
            f"   margin >= {level:4.1f}: positives kept {np.mean(pos >= level):.3f}, "
            f"near-misses kept {int(np.sum(near >= level))}/{len(near)}"
        )


def peaks(trace: list[tuple[int, float]], low: float, high: float) -> list[int]:
    """Where each rise over ``low`` that never reached ``high`` peaked."""
    out, run = [], []
    for at, score in [*trace, (1 << 62, 0.0)]:
        if score >= low:
            run.append((at, score))
            continue
        if run and max(s for _, s in run) < high:
            out.append(max(run, key=lambda r: r[1])[0])
        run = []
    return out


def second_chance(items: list[Scored], whisper: WhisperRecogniser) -> None:
    threshold = AudioSettings().wake_kws_threshold
    print(f"4. a second chance for rises that never reach {threshold} (whisper after their peak)")
    print(f"   low    delay  posterior  {fr_header(items)}  near-miss accepts  checks")
    cache: dict[tuple[int, int], float] = {}

    def posterior(k: int, it: Scored, end: int) -> float:
        if (k, end) not in cache:
            cache[(k, end)] = whisper.phrase_posterior(window(it.audio, end), PHRASE).score
        return cache[(k, end)]

    for low in (0.001, 0.01, 0.05):
        for delay in (0.16, 0.32):
            for level in (1e-4, 1e-3, 1e-2):
                missed = dict.fromkeys(families(items), 0)
                count = dict.fromkeys(families(items), 0)
                near_accepts = checks = 0
                for k, it in enumerate(items):
                    fired = detections(it.span(), threshold, REFRACTORY)
                    rises = peaks(it.span(), low, threshold)
                    checks += len(rises)
                    rescued = any(
                        posterior(k, it, p + int(delay * SAMPLE_RATE)) >= level for p in rises
                    )
                    if it.kind == "pos":
                        count[it.family] += 1
                        missed[it.family] += not (fired or rescued)
                    else:
                        near_accepts += bool(fired) or rescued
                fr = {fam: missed[fam] / max(1, count[fam]) for fam in count}
                print(
                    f"   {low:5.3f}  {delay:5.2f}  {level:9.0e}  {fr_cells(items, fr)}  "
                    f"{near_accepts:17d}  {checks:6d}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--positives", type=int, default=20, help="positives per family")
    parser.add_argument("--near-miss", type=int, default=36, help="near-misses per family")
    parser.add_argument("--seed", type=int, default=7, help="bench/audio_wake.py's seed")
    parser.add_argument(
        "--diphone",
        action="store_true",
        help="also the MBROLA and Pico voices (session 13; Debian contrib/non-free)",
    )
    parser.add_argument("--stages", default="1,2,3,4", help="which of the four parts to run")
    args = parser.parse_args()
    t0 = time.perf_counter()
    items = utterances(args)
    whisper = WhisperRecogniser.from_manifest("whisper-tiny-en", MODELS, threads=1)
    n_pos = sum(it.kind == "pos" for it in items)
    print(
        f"{n_pos} positives and {len(items) - n_pos} near-misses, by the families "
        f"{', '.join(families(items))} ({time.perf_counter() - t0:.0f} s to make and score)"
    )
    stages = set(args.stages.split(","))
    if "1" in stages:
        first_stage(items)
    if "2" in stages:
        whisper_alone(items, whisper)
    if "3" in stages:
        contrast(items, whisper)
    if "4" in stages:
        second_chance(items, whisper)
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
