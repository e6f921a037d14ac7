"""Wake word with a verifier: the keyword model proposes, whisper confirms (appliance.audio.verify).

For each first-stage threshold, every detection the keyword model makes (the detector's rule:
first score at or over the threshold, then two seconds of refractory time) is verified on the
1.2 s of audio before it, exactly as :class:`VerifiedWakeDetector` does, and the table gives, per
verifier threshold, false rejects, near-miss accepts, false accepts per hour and latency (including
the verification's own compute time). Verifier threshold 0 is the keyword model alone: the
baseline, on the same audio in the same process.

Two splits, so that the thresholds are not chosen on the figures they are judged by:

- ``validation``: clips from the training's own clip maker with its validation speakers only
  (espeak-ng variants m6, f4, klatt5, linda, victor; festival kal_diphone and hy_fi_mv_diphone) and
  a seed training never uses: positives (alone, before a question, after leading speech, some in
  heavy babble), near-misses, and 20-40 s readings as ordinary speech. Choose thresholds here.
- ``test``: bench/audio_wake.py's audio (held-out voices of both families, the real clips of
  ../shared/data/speech, held-out near-misses) and bench/audio_wake_hours.py's hours of ordinary
  speech by held-out voices reading held-out text. Report these. ``--neural`` adds
  bench/audio_wake.py's Piper family (session 11) as a group of its own.

    .venv/bin/python bench/audio_wake_verify.py --split validation --positives 40 --near-miss 40 --minutes 20
    .venv/bin/python bench/audio_wake_verify.py --split test --positives 60 --negatives 230 \
        --near-miss 108 --minutes 60
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from audio_common import REPO, load, silence
from audio_wake import DIPHONE, ESPEAK, FLUENT, NEURAL, OTHER, near_family, run, test_audio
from audio_wake import simulate as detections
from audio_wake_hours import REFRACTORY, held_out_abstracts, poisson_upper, segment

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.engines.speech_embedding import Floats, SpeechEmbedding
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.settings import AudioSettings
from appliance.audio.wake_contrast import ContrastHead
from appliance.audio.wake_model import KeywordHead, KeywordModelWakeDetector
from training.wake.clips import READING_DOCS, ClipSpec, load_texts, make_clip
from training.wake.windows import step_scores

MODELS = Path("var/models")
RETRIEVAL = REPO.parent / "shared" / "data" / "retrieval"
#: Seed of the validation clips (training's clips use its --seed, 0 by default).
VALIDATION_SEED = 1234
FIRST_STAGE = (0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 0.99)
#: Verifier thresholds on the phrase's posterior.
VERIFIER = (0.0, 0.00002, 0.00005, 0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01)
#: Seconds of audio before a first-stage detection that whisper checks.
WINDOW_S = 1.2
#: Contrast-stage thresholds (with --contrast; 0: the stage off). The verifier thresholds are then
#: only 0 and the default, to keep the table readable.
CONTRAST = (0.0, 0.1, 0.2, 0.3, 0.5, 0.7)
#: Issue 4's targets: false rejects at most 5 %, and at most 0.5 false accepts per hour, both on
#: the real clips with the near-misses and on ordinary speech.
TARGET_FALSE_REJECTS = 0.05
TARGET_FA_PER_H = 0.5


@dataclass(frozen=True)
class Point:
    """One operating point of a group's table and its figures."""

    #: First-stage (keyword model) threshold.
    first: float
    #: Verifier threshold (0: whisper off).
    verifier: float
    #: Contrast-stage threshold (0: the stage off).
    contrast: float
    #: Positives missed, of ``positives``.
    missed: int
    #: Positives in the group.
    positives: int
    #: False accepts per hour over the real clips and the near-miss utterances together.
    fa_clips_near_h: float
    #: False accepts per hour of ordinary speech; None when the group has none (not measured).
    fa_speech_h: float | None

    @property
    def false_rejects(self) -> float:
        """Share of the positives missed."""
        return self.missed / max(1, self.positives)

    def hears(self) -> bool:
        """False rejects within the target (counted, so 3 of 60 is exactly 5 %)."""
        return self.missed * 100 <= round(TARGET_FALSE_REJECTS * 100) * self.positives

    def quiet(self) -> bool:
        """Both false-accept rates within the target (ordinary speech must have been measured)."""
        return (
            self.fa_speech_h is not None
            and max(self.fa_clips_near_h, self.fa_speech_h) <= TARGET_FA_PER_H
        )

    def loudness(self) -> float:
        """The larger of the two false-accept rates (clips+near-misses alone without speech)."""
        return max(self.fa_clips_near_h, self.fa_speech_h or 0.0)

    def accepts(self) -> str:
        """Both false-accept rates, as the summary writes them."""
        speech = "-" if self.fa_speech_h is None else f"{self.fa_speech_h:.2f}"
        return f"{self.fa_clips_near_h:.1f}/h clips+near-misses, {speech}/h speech"

    def label(self) -> str:
        """The point as the table writes it."""
        verifier = f"{self.verifier:g}" if self.verifier > 0 else "whisper off"
        tail = f", {self.contrast:g}" if self.contrast > 0 else ""
        return f"({self.first:g}, {verifier}{tail})"


def nearest_to_targets(points: list[Point]) -> list[str]:
    """Lines that say which points meet issue 4's targets, or how near the nearest come.

    Two views of the same points: the fewest false rejects among the points whose false accepts
    meet both per-hour targets (else the point with the fewest false accepts), and the fewest
    false accepts among the points that miss at most 5 %.
    """
    quiet = [p for p in points if p.quiet()]
    hearing = [p for p in points if p.hears()]
    both = [p for p in quiet if p.hears()]
    lines = [
        f"  issue 4's targets (false rejects <= {TARGET_FALSE_REJECTS}, false accepts <= "
        f"{TARGET_FA_PER_H}/h on clips+near-misses and on speech): met at {len(both)} of "
        f"{len(points)} points" + (": " + ", ".join(p.label() for p in both) if both else "")
    ]
    if quiet:
        best = min(quiet, key=lambda p: (p.missed, p.fa_clips_near_h))
        lines.append(
            f"  fewest false rejects with both false-accept targets met: {best.false_rejects:.3f}"
            f" at {best.label()}"
        )
    else:
        # How far the quietest point is from the targets, and what it misses to get there.
        best = min(points, key=lambda p: (p.loudness(), p.missed))
        lines.append(
            f"  no point meets both false-accept targets; the fewest: {best.accepts()}, missing "
            f"{best.false_rejects:.3f} at {best.label()}"
        )
    if hearing:
        best = min(hearing, key=lambda p: (p.loudness(), p.missed))
        lines.append(
            f"  fewest false accepts with false rejects <= {TARGET_FALSE_REJECTS}: "
            f"{best.accepts()} at {best.label()} (missing {best.false_rejects:.3f})"
        )
    else:
        lines.append(f"  no point has false rejects <= {TARGET_FALSE_REJECTS}")
    return lines


@dataclass
class Item:
    """One scored piece of audio."""

    audio: Samples
    #: "pos" (says the phrase), "near" (a near-miss utterance), "clip" (a real speech clip) or
    #: "speech" (synthetic ordinary speech).
    kind: str
    #: Family of its voice (espeak-ng or flite/festival; real clips: "real").
    family: str
    #: The phrase's first and last sample (positives only).
    start: int = -1
    end: int = -1
    label: str = ""
    trace: list[tuple[int, float]] | None = None
    #: Its place among its family's positives or near-misses (0-based; the recorded-diphone
    #: family's generators are sequential, so a larger --diphone-positives only appends).
    order: int = -1


def kind_family(kind: str) -> str:
    """The family of test voices a training clip kind's voices belong to."""
    return OTHER if "other" in kind else FLUENT if "fluent" in kind else ESPEAK


def validation_items(n_pos: int, n_near: int, minutes: float, fluent: bool = False) -> list[Item]:
    """Clips of the training's clip maker with its validation speakers only."""
    texts = load_texts(RETRIEVAL)
    reading_texts = load_texts(RETRIEVAL, READING_DOCS)
    items: list[Item] = []
    pos_kinds = ["positive", "positive-babble", "positive-other", "positive-other-babble"]
    for kind in pos_kinds + (["positive-fluent"] if fluent else []):
        family = kind_family(kind)
        for i in range(n_pos):
            audio, s, e = make_clip(ClipSpec(kind, i, True), texts, VALIDATION_SEED)
            items.append(Item(audio, "pos", family, s, e, f"{kind} {i}"))
    near_kinds = ["near-miss", "near-miss-claw", "near-miss-other", "near-miss-claw-other"]
    for kind in near_kinds + (["near-miss-fluent"] if fluent else []):
        family = kind_family(kind)
        for i in range(n_near):
            audio, _, _ = make_clip(ClipSpec(kind, i, True), texts, VALIDATION_SEED)
            items.append(Item(audio, "near", family, label=f"{kind} {i}"))
    for kind, family in (("reading", ESPEAK), ("reading-other", OTHER)):
        total, i = 0.0, 0
        while total < minutes * 60:
            audio, _, _ = make_clip(ClipSpec(kind, i, True), reading_texts, VALIDATION_SEED)
            items.append(Item(audio, "speech", family, label=f"{kind} {i}"))
            total += len(audio) / SAMPLE_RATE
            i += 1
    return items


def diphone_count(wanted: bool, given: int | None, default: int) -> int:
    """How many recorded-diphone items to make: none without --diphone, else the family's own
    count, else the other families' count."""
    if not wanted:
        return 0
    return default if given is None else given


def test_items(args: argparse.Namespace) -> list[Item]:
    """bench/audio_wake.py's audio and bench/audio_wake_hours.py's ordinary speech."""
    positives, clips, near, _ = test_audio(
        args.seed,
        args.positives,
        args.negatives,
        args.near_miss,
        args.positives,
        args.near_miss,
        n_fluent=args.positives if args.fluent else 0,
        n_fluent_near=args.near_miss if args.fluent else 0,
        n_neural=args.positives if args.neural else 0,
        n_neural_near=args.near_miss if args.neural else 0,
        n_diphone=diphone_count(args.diphone, args.diphone_positives, args.positives),
        n_diphone_near=diphone_count(args.diphone, args.diphone_near_miss, args.near_miss),
    )
    seen: dict[tuple[str, str], int] = {}

    def order(kind: str, family: str) -> int:
        seen[kind, family] = seen.get((kind, family), -1) + 1
        return seen[kind, family]

    items = [
        Item(
            t.audio,
            "pos",
            t.family,
            t.phrase_start,
            t.phrase_end,
            t.label,
            order=order("pos", t.family),
        )
        for t in positives
    ]
    for clip in clips:
        items.append(Item(np.concatenate([load(clip.path), silence(0.5)]), "clip", "real"))
    for label, audio in near:
        family = near_family(label.split(" (")[1])
        items.append(Item(audio, "near", family, label=label, order=order("near", family)))
    abstracts = held_out_abstracts()
    rng = random.Random(4)  # audio_wake_hours.py's default seed: the same speech
    for family in (ESPEAK, OTHER):
        total = 0.0
        while total < args.minutes * 60:
            audio, said = segment(random.Random(rng.random()), family, abstracts)
            items.append(Item(audio, "speech", family, label=said[0][1][:40]))
            total += len(audio) / SAMPLE_RATE
    return items


def stream_trace(detector: KeywordModelWakeDetector, audio: Samples) -> list[tuple[int, float]]:
    """Every (end sample, score) of the streaming detector fed 30 ms chunks.

    Short clips are scored the way the appliance scores them. (Until session 6 the whole-clip
    embeddings differed from the stream's where digital silence met loud speech, by up to ~0.7 in
    score; ``SpeechEmbedding.clip`` now makes the stream's own mel calls, so the two agree.)
    """
    detector.trace = []
    run(detector, audio)
    trace, detector.trace = detector.trace, None
    return trace


def window_before(item: Item, at: int, window_s: float) -> Samples:
    """The ``window_s`` seconds of an item's audio that end at sample ``at`` (the checked window)."""
    return item.audio[max(0, at - int(window_s * SAMPLE_RATE)) : at]


class Verifications:
    """Whisper's verdict on the window before each first-stage detection, computed once."""

    def __init__(self, recogniser: WhisperRecogniser, window_s: float = WINDOW_S) -> None:
        self.recogniser = recogniser
        self.window_s = window_s
        self.cache: dict[tuple[int, int], tuple[float, float, tuple[tuple[float, float], ...]]] = {}

    def get(
        self, index: int, item: Item, at: int
    ) -> tuple[float, float, tuple[tuple[float, float], ...]]:
        key = (index, at)
        if key not in self.cache:
            window = window_before(item, at, self.window_s)
            result = self.recogniser.phrase_posterior(window, "open claw")
            self.cache[key] = (result.score, result.compute_s, result.trail)
        return self.cache[key]


class Contrasts:
    """The contrast stage's score of the window before each first-stage detection, computed once."""

    def __init__(self, stage: ContrastHead, recogniser: WhisperRecogniser, window_s: float) -> None:
        self.stage = stage
        self.recogniser = recogniser
        self.window_s = window_s
        self.cache: dict[tuple[int, int], tuple[float, float]] = {}

    def get(self, index: int, item: Item, at: int) -> tuple[float, float]:
        """(score, compute seconds) of the window ending at ``at``."""
        key = (index, at)
        if key not in self.cache:
            t0 = time.perf_counter()
            window = window_before(item, at, self.window_s)
            score = self.stage.score_window(self.recogniser, window)
            self.cache[key] = (score, time.perf_counter() - t0)
        return self.cache[key]


def armed(trace: list[tuple[int, float]], at: int, arm: float, fired: list[int]) -> int:
    """Where the run of scores at or over ``arm`` that holds the detection at ``at`` began.

    The verifier's early check (``audio.wake_verify_arm``) starts there: ``at`` itself when the
    score jumped over the threshold from under ``arm`` in one step (or ``arm`` is off). Not in
    the refractory time of an earlier detection (``fired``), where the detector does not arm.
    """
    if arm <= 0:
        return at
    quiet = max([a + REFRACTORY for a in fired if a < at], default=-1)
    steps = [a for a, _ in trace]
    k = steps.index(at)
    while k > 0 and trace[k - 1][1] >= arm and steps[k - 1] > quiet:
        k -= 1
    return steps[k]


def rises(trace: list[tuple[int, float]], arm: float, fired: list[int]) -> int:
    """Early checks a trace costs beyond its detections: rises over ``arm`` outside refractory
    time whose run holds no detection (0 when ``arm`` is off)."""
    if arm <= 0:
        return 0
    count, up, holds = 0, False, False
    quiet = sorted((a, a + REFRACTORY) for a in fired)
    for at, score in trace:
        if score < arm:
            count += up and not holds
            up = holds = False
            continue
        if not up and not any(lo < at <= hi for lo, hi in quiet):
            up = True
        holds = holds or (up and at in fired)
    return count + (up and not holds)


#: A group of the table: which items it counts (the real clips are in every group).
Group = Callable[[Item], bool]


def of_families(families: set[str]) -> Group:
    """The items of these voice families."""
    return lambda it: it.family in families


def mbrola_group(pos_from: int = 0, near_from: int = 0) -> Group:
    """The recorded-diphone family's MBROLA items (held out for every head; Pico trains one),
    from the given places on (session 14's rule: the new half decides too)."""

    def chosen(it: Item) -> bool:
        if it.family != DIPHONE or "mbrola:" not in it.label:
            return False
        return it.order >= (pos_from if it.kind == "pos" else near_from)

    return chosen


def table(
    items: list[Item],
    verify: Verifications,
    groups: dict[str, Group],
    arm: float = 0.0,
    contrast: Contrasts | None = None,
    first_stage: tuple[float, ...] = FIRST_STAGE,
) -> None:
    """The (first stage, verifier) threshold table per group of voice families, each group's
    followed by how near its points come to issue 4's targets (:func:`nearest_to_targets`).

    With ``arm`` > 0, whisper checks early, where the first stage's score rose over ``arm``; a
    detection in the same rise is confirmed by that check, or else by a check at the detection
    (which starts once the early one is done): the appliance's ``audio.wake_verify_arm``.
    With ``contrast``, a window whisper confirmed must also reach the contrast threshold (the
    appliance's ``audio.wake_contrast``); the table has a row per contrast threshold.
    """
    verifier = VERIFIER if contrast is None else (0.0, AudioSettings().wake_verify_threshold)
    levels = CONTRAST if contrast is not None else (0.0,)
    for name, group in groups.items():
        chosen = [(i, it) for i, it in enumerate(items) if it.family == "real" or group(it)]
        pos = [(i, it) for i, it in chosen if it.kind == "pos"]
        near = [(i, it) for i, it in chosen if it.kind == "near"]
        neg = [(i, it) for i, it in chosen if it.kind in ("near", "clip")]
        speech = [(i, it) for i, it in chosen if it.kind == "speech"]
        neg_h = sum(len(it.audio) for _, it in neg) / SAMPLE_RATE / 3600
        speech_h = sum(len(it.audio) for _, it in speech) / SAMPLE_RATE / 3600
        print(
            f"-- {name}: {len(pos)} positives, {len(near)} near-misses, clips+near-misses "
            f"{neg_h:.3f} h, ordinary speech {speech_h:.3f} h --"
        )
        print(
            "  first  verifier"
            + ("  contrast" if contrast is not None else "")
            + "  false-reject  near-miss  real-clip FA  FA/h clips+near"
            "  FA/h speech (95% up)  latency p50/p95 ms  checks/h speech"
        )
        points: list[Point] = []
        for t1 in first_stage:
            fired = {i: detections(it.trace or [], t1, REFRACTORY) for i, it in chosen}
            for t2, t3 in [(t2, t3) for t2 in verifier for t3 in levels]:

                def window_ok(i: int, at: int, t2: float = t2, t3: float = t3) -> bool:
                    """The window ending at ``at`` confirms (whisper, then the contrast stage)."""
                    if verify.get(i, items[i], at)[0] < t2:
                        return False
                    return t3 <= 0 or contrast is None or contrast.get(i, items[i], at)[0] >= t3

                def contrast_s(i: int, at: int, t3: float = t3) -> float:
                    if t3 <= 0 or contrast is None:
                        return 0.0
                    return contrast.get(i, items[i], at)[1]

                def early_ok(i: int, at: int, fired: dict[int, list[int]] = fired) -> bool:
                    early = armed(items[i].trace or [], at, arm, fired[i])
                    return early < at and window_ok(i, early)

                def passed(i: int, at: int, t2: float = t2, t3: float = t3) -> bool:
                    if t2 <= 0 and t3 <= 0:
                        return True
                    return early_ok(i, at) or window_ok(i, at)

                def done_at(
                    i: int, at: int, t2: float = t2, fired: dict[int, list[int]] = fired
                ) -> float:
                    """Seconds of stream time at which the wake is published."""
                    # The detector stops at the first place that reaches t2 (``enough``).
                    if t2 <= 0:
                        return (at / SAMPLE_RATE) + contrast_s(i, at)
                    early = armed(items[i].trace or [], at, arm, fired[i])
                    if early < at:
                        score, cost, trail = verify.get(i, items[i], early)
                        if window_ok(i, early):
                            extra = next(sec for best, sec in trail if best >= t2)
                            extra += contrast_s(i, early)
                            return max(at, early + extra * SAMPLE_RATE) / SAMPLE_RATE
                        # The early check rejected: it ran to its end before the late one.
                        spent = cost + (contrast_s(i, early) if score >= t2 else 0.0)
                        start = max(at, early + spent * SAMPLE_RATE)
                    else:
                        start = at
                    trail = verify.get(i, items[i], at)[2]
                    extra = next(sec for best, sec in trail if best >= t2) + contrast_s(i, at)
                    return start / SAMPLE_RATE + extra

                lat: list[float] = []
                for i, it in pos:
                    good = [a for a in fired[i] if it.start <= a <= it.end + 2 * SAMPLE_RATE]
                    ok = [a for a in good if passed(i, a)]
                    if ok:
                        lat.append(max(0.0, done_at(i, ok[0]) - it.end / SAMPLE_RATE) * 1000)
                near_acc = sum(any(passed(i, a) for a in fired[i]) for i, _ in near)
                fa = sum(sum(passed(i, a) for a in fired[i]) for i, _ in neg)
                fa_clips = sum(
                    sum(passed(i, a) for a in fired[i]) for i, it in neg if it.kind == "clip"
                )
                fa_speech = sum(sum(passed(i, a) for a in fired[i]) for i, _ in speech)
                # Whisper checks in ordinary speech: one per detection, plus one per early rise
                # that did not confirm a detection of its own rise (those are counted once).
                checks = sum(len(fired[i]) for i, _ in speech) + sum(
                    rises(it.trace or [], arm, fired[i]) for i, it in speech
                )
                point = Point(
                    t1,
                    t2,
                    t3,
                    len(pos) - len(lat),
                    len(pos),
                    fa / max(neg_h, 1e-9),
                    fa_speech / speech_h if speech_h > 0 else None,
                )
                points.append(point)
                arr = np.array(lat) if lat else np.zeros(1)
                # No ordinary speech (--minutes 0): no rate and no bound to give.
                speech_rate = (
                    f"{point.fa_speech_h:6.2f} ({poisson_upper(fa_speech) / speech_h:5.2f})"
                    if point.fa_speech_h is not None
                    else f"{'-':>6s} ({'-':>5s})"
                )
                print(
                    f"  {t1:5.3f}  {t2:8.5f}"
                    + (f"  {t3:8.2f}" if contrast is not None else "")
                    + f"  {point.false_rejects:12.3f}"
                    f"  {near_acc:4d}/{len(near):<4d}  {fa_clips:12d}  {point.fa_clips_near_h:14.1f}"
                    f"  {speech_rate}"
                    f"       {np.percentile(arr, 50):5.0f} / {np.percentile(arr, 95):5.0f}"
                    f"  {checks / max(speech_h, 1e-9):8.1f}"
                )
        print("\n".join(nearest_to_targets(points)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--split", choices=("validation", "test"), default="validation")
    parser.add_argument("--positives", type=int, default=20, help="positives per kind/family")
    parser.add_argument("--near-miss", type=int, default=20, help="near-misses per kind/family")
    parser.add_argument("--negatives", type=int, default=40, help="real clips (test; max 230)")
    parser.add_argument(
        "--minutes", type=float, default=5.0, help="ordinary speech per family (default 5)"
    )
    parser.add_argument("--seed", type=int, default=7, help="bench/audio_wake.py's seed (test)")
    parser.add_argument(
        "--window-s", type=float, default=WINDOW_S, help="seconds whisper checks (default 1.2)"
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="whisper's CPU threads (default 1, as the appliance)"
    )
    parser.add_argument(
        "--kws-head",
        action="append",
        help="head file ('manifest' = committed, the default); repeatable: each head is scored "
        "on the same audio, one after another",
    )
    parser.add_argument(
        "--contrast",
        type=Path,
        default=None,
        help="a contrast-stage file (training.wake.contrast): a row per contrast "
        "threshold, whisper's threshold only 0 and the default",
    )
    parser.add_argument(
        "--fluent",
        action="store_true",
        help="also positives and near-misses said in one breath with what follows (session 8)",
    )
    parser.add_argument(
        "--neural",
        action="store_true",
        help="also positives and near-misses said by the Piper voice (session 11; test split; "
        "its own group, outside 'all voices': heads trained on it have heard it)",
    )
    parser.add_argument(
        "--diphone",
        action="store_true",
        help="also bench/audio_wake.py's MBROLA and Pico voices (session 13; test split; its own "
        "group, outside 'all voices')",
    )
    parser.add_argument(
        "--diphone-positives",
        type=int,
        default=None,
        help="recorded-diphone positives (default: --positives; more only appends)",
    )
    parser.add_argument(
        "--diphone-near-miss",
        type=int,
        default=None,
        help="recorded-diphone near-misses (default: --near-miss; more only appends)",
    )
    parser.add_argument(
        "--new-from",
        default="",
        help="POS,NEAR: also an MBROLA group of the recorded-diphone items from these places on "
        "(0-based), the part no head was compared on before (session 14: 60,108)",
    )
    parser.add_argument(
        "--first-stage",
        default=",".join(f"{t:g}" for t in FIRST_STAGE),
        help="comma list of the keyword model's thresholds, a block of rows each "
        "(default %(default)s)",
    )
    parser.add_argument(
        "--arm",
        default="0",
        help="comma list of early-check levels of the first stage's score (0 = check only at "
        "the detection; each level prints its own table on the same audio)",
    )
    args = parser.parse_args()
    first_stage = tuple(float(t) for t in args.first_stage.split(","))
    t0 = time.perf_counter()
    if args.split == "test":
        items = test_items(args)
    else:
        items = validation_items(args.positives, args.near_miss, args.minutes, args.fluent)
    t1 = time.perf_counter()
    features = SpeechEmbedding.from_manifest(MODELS)
    silent = features.silent_embedding()
    verify = Verifications(
        WhisperRecogniser.from_manifest("whisper-tiny-en", MODELS, threads=args.threads),
        args.window_s,
    )
    contrasts = (
        None
        if args.contrast is None
        else Contrasts(ContrastHead.load(args.contrast), verify.recogniser, args.window_s)
    )
    families = [ESPEAK, OTHER] + ([FLUENT] if args.fluent else [])
    groups: dict[str, Group] = {"all voices": of_families(set(families))}
    if args.split == "test" or args.fluent:
        groups = {**{f: of_families({f}) for f in families}, **groups}
    if args.neural and args.split == "test":
        groups[NEURAL] = of_families({NEURAL})
    if args.diphone and args.split == "test":
        groups[DIPHONE] = of_families({DIPHONE})
        groups["MBROLA (held out for every head)"] = mbrola_group()
        if args.new_from:
            pos_from, near_from = (int(n) for n in args.new_from.split(","))
            groups[
                f"MBROLA, new (positives from {pos_from + 1}, near-misses from {near_from + 1})"
            ] = mbrola_group(pos_from, near_from)
    # Several heads score the same audio one after another; whisper's verdict on a window is
    # computed once, whichever head's detection asked for it first, and so are the embeddings of
    # the long ordinary-speech segments.
    embedded: dict[int, Floats] = {}
    for name in args.kws_head or ["manifest"]:
        t2 = time.perf_counter()
        head = (
            KeywordHead.from_manifest(MODELS)
            if name == "manifest"
            else KeywordHead.load(Path(name))
        )
        scored = head_traces(items, features, head, silent, args.split == "test", embedded)
        print(
            f"=== head {name} ({head.w1.shape[1]} hidden units) ===\n"
            f"split {args.split}: {len(items)} items (audio {t1 - t0:.0f} s, keyword scores "
            f"{time.perf_counter() - t2:.0f} s); verifier window {args.window_s} s, phrase "
            f"posterior of whisper tiny.en ({args.threads} thread(s))"
        )
        for it, trace in zip(items, scored, strict=True):
            it.trace = trace
        for arm in [float(a) for a in args.arm.split(",")]:
            print(f"== early check where the first stage's score rose over {arm} (0: off) ==")
            table(items, verify, groups, arm, contrasts, first_stage)
        confirmations(items, verify)
    costs = np.array([c for _, c, _ in verify.cache.values()]) * 1000
    print(
        f"verifications: {len(costs)}, compute p50 {np.percentile(costs, 50):.0f} ms, "
        f"p95 {np.percentile(costs, 95):.0f} ms, max {costs.max():.0f} ms ({args.threads} thread(s))"
    )


def head_traces(
    items: list[Item],
    features: SpeechEmbedding,
    head: KeywordHead,
    silent: Samples,
    test: bool,
    embedded: dict[int, Floats],
) -> list[list[tuple[int, float]]]:
    """Every item's (end sample, score) trace under one head; ``embedded`` keeps the speech
    segments' embeddings for the next head."""
    streaming = KeywordModelWakeDetector(features, head)
    traces = []
    for i, it in enumerate(items):
        if it.kind == "speech" and test:
            # Whole-segment embeddings equal the stream's (SpeechEmbedding.clip makes the same mel
            # calls) and cost one embedding call per batch of 256 steps instead of one per step.
            if i not in embedded:
                embedded[i] = features.clip(it.audio)
            traces.append(step_scores(head, embedded[i], silent))
        else:
            traces.append(stream_trace(streaming, it.audio))
    return traces


def confirmations(items: list[Item], verify: Verifications) -> None:
    """Where the default thresholds' confirmations came from: the window's start (the encoder
    and one decoder call) or the later places (after the greedy decode and a batched call)."""
    defaults = AudioSettings()
    t1, t2 = defaults.wake_kws_threshold, defaults.wake_verify_threshold
    pos = [(i, it) for i, it in enumerate(items) if it.kind == "pos"]
    at_start = later = 0
    for i, it in pos:
        fired = detections(it.trace or [], t1, REFRACTORY)
        for a in [a for a in fired if it.start <= a <= it.end + 2 * SAMPLE_RATE]:
            trail = verify.get(i, it, a)[2]
            if trail and trail[0][0] >= t2:
                at_start += 1
                break
            if trail and trail[-1][0] >= t2:
                later += 1
                break
    print(
        f"positives confirmed at ({t1}, {t2}): {at_start} at the window's start, "
        f"{later} at a later place"
    )


if __name__ == "__main__":
    main()
