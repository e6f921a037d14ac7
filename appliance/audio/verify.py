"""A second opinion on each wake: whisper's probability of the phrase in the audio that woke it.

The keyword model (:mod:`appliance.audio.wake_model`) is cheap enough to run on every chunk but was
trained on synthetic speech only: in ordinary speech it wakes several times an hour, and a lower
threshold (fewer missed wakes) wakes it more. :class:`VerifiedWakeDetector` lets it propose and asks
whisper tiny.en to confirm: the phrase is forced at the start of the last ``window_s`` seconds
before the detection and, unless that suffices, after the words whisper heard there, and the best
geometric-mean token probability (:meth:`WhisperRecogniser.phrase_posterior`) must reach
``threshold``. Ordinary speech
gets 1e-6 to 1e-4 there and "open claw" 1e-3 to 0.5, even when whisper writes it as "Open floor";
the near-misses ("open clause": 1e-3 to 2e-2) overlap the phrase, so this removes ordinary speech,
not them. The check runs only when the first stage fires (about 15 times per hour of ordinary
speech), so its cost is latency, not load: docs/decisions/0032-audio-wake-verifier.md has the
trade-off and the figures.

To hide that latency the check may start early (``arm``): when the first stage's score rises over
``arm`` (below its threshold), whisper checks the window ending there, while the next 80 ms of audio
arrive; if the score then reaches the threshold in the same rise, that check's verdict stands when
it confirmed, and a second check at the detection decides when it did not.

With a contrast stage (:mod:`appliance.audio.wake_contrast`, ``audio.wake_contrast``) a window
whisper confirmed must also score at least ``contrast_threshold`` there: the encoder states of the
same window, classified "open claw" or one of its rivals (decision 0035).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from appliance.audio.base import SAMPLE_RATE, Samples, WakeDetection, WakeDetector
from appliance.audio.engines.whisper import WhisperRecogniser, WindowResult
from appliance.audio.ring import PreRoll
from appliance.audio.wake_contrast import ContrastHead


@dataclass(frozen=True)
class Check:
    """One check of a window: whisper's verdict and, with a contrast stage, its score."""

    #: Whisper's phrase posterior and what it heard.
    result: WindowResult
    #: The contrast stage's score of the window (None: no stage, or whisper rejected it first).
    contrast: float | None
    #: Whether the window confirms the wake.
    ok: bool


class VerifiedWakeDetector:
    """A first-stage wake detector whose detections whisper confirms or rejects."""

    def __init__(
        self,
        first: WakeDetector,
        recogniser: WhisperRecogniser,
        phrase: str,
        *,
        threshold: float = 1e-4,
        window_s: float = 1.2,
        arm: float = 0.0,
        contrast: ContrastHead | None = None,
        contrast_threshold: float = 0.5,
    ) -> None:
        self.first = first
        self.recogniser = recogniser
        self.phrase = phrase
        self.threshold = threshold
        #: First-stage score at which the check starts early (0: only at a detection). Needs a
        #: first stage with ``last_score`` and ``refractory`` (the keyword model); others are
        #: checked at the detection.
        self.arm = arm
        #: The contrast stage (None: whisper's posterior alone decides).
        self.contrast = contrast
        self.contrast_threshold = contrast_threshold
        self._early: Check | None = None  # the check of the current rise, if any
        self.name = f"{first.name}+whisper"
        self._window = int(window_s * SAMPLE_RATE)
        self._history = PreRoll(self._window)
        #: First-stage detections whisper confirmed.
        self.confirmed = 0
        #: First-stage detections rejected (each would have been a wake without the check).
        self.rejected = 0
        #: Of those, the ones whisper confirmed and the contrast stage turned down.
        self.rejected_by_contrast = 0
        #: Seconds spent verifying.
        self.compute_s = 0.0
        #: Checks run, early ones included (a detection costs one or two).
        self.checks = 0
        #: Stream sample where the last check's window ended.
        self.last_check_end = -1
        #: The last verification (diagnostics: what whisper heard, its score).
        self.last: WindowResult | None = None
        #: The contrast stage's score at the last detection (None: not computed).
        self.last_contrast: float | None = None

    def reset(self) -> None:
        """Reset the first stage and forget the audio."""
        self.first.reset()
        self._history.clear()
        self._early = None

    def feed(self, chunk: Samples, end_sample: int) -> WakeDetection | None:
        """Feed a chunk; a detection only when the first stage fired and whisper agrees."""
        self._history.end = end_sample - len(chunk)
        self._history.append(chunk)
        detection = self.first.feed(chunk, end_sample)
        score = getattr(self.first, "last_score", None)
        if detection is None:
            # No early check while the first stage cannot fire (the refractory time after a
            # detection, while the question is being said): it would be wasted.
            quiet = bool(getattr(self.first, "refractory", False))
            if self.arm <= 0 or score is None or score < self.arm or quiet:
                self._early = None  # the rise is over (or there is none): a new one checks anew
            elif self._early is None:
                self._early = self._check(end_sample)
            return None
        early, self._early = self._early, None
        check = early if early is not None and early.ok else self._check(end_sample)
        self.last, self.last_contrast = check.result, check.contrast
        if not check.ok:
            self.rejected += 1
            self.rejected_by_contrast += check.contrast is not None
            return None
        self.confirmed += 1
        # The detection's score stays the first stage's (the threshold users tune); the time it
        # is published at includes the check.
        return replace(
            detection,
            detector=self.name,
            monotonic=time.monotonic(),
            reason=self._reason(detection, check),
            verify_score=check.result.score,
            verify_heard=check.result.text,
        )

    def _reason(self, detection: WakeDetection, check: Check) -> str:
        """Each stage's score against its threshold, and what whisper heard in the window."""
        first = getattr(self.first, "threshold", None)
        parts = [
            f"{self.first.name} {detection.score:.3f}"
            + (f" >= {first:g}" if first is not None else ""),
            f"whisper's phrase posterior {check.result.score:.2g} >= {self.threshold:g}",
        ]
        if check.contrast is not None:
            parts.append(f"contrast {check.contrast:.2f} >= {self.contrast_threshold:g}")
        heard = (
            f"heard {check.result.text!r}"
            if check.result.text
            else "the phrase fitted at the window's start"
        )
        return "; ".join(parts) + f" ({heard})"

    def _check(self, end_sample: int) -> Check:
        window = self._history.since(end_sample - self._window)
        result = self.recogniser.phrase_posterior(window, self.phrase, enough=self.threshold)
        self.compute_s += result.compute_s
        self.checks += 1
        self.last_check_end = end_sample
        if result.score < self.threshold or self.contrast is None:
            return Check(result, None, result.score >= self.threshold)
        t0 = time.perf_counter()
        score = self.contrast.score_window(self.recogniser, window)
        self.compute_s += time.perf_counter() - t0
        return Check(result, score, score >= self.contrast_threshold)
