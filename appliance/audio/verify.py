"""A second opinion on each wake: whisper's probability of the phrase in the audio that woke it.

The keyword model (:mod:`appliance.audio.wake_model`) is cheap enough to run on every chunk but was
trained on synthetic speech only: in ordinary speech it wakes several times an hour, and a lower
threshold (fewer missed wakes) wakes it more. :class:`VerifiedWakeDetector` lets it propose and asks
whisper tiny.en to confirm: the last ``window_s`` seconds before the detection are decoded, the
phrase is forced at the likeliest places of what whisper heard, and the best geometric-mean token
probability (:meth:`WhisperRecogniser.phrase_posterior`) must reach ``threshold``. Ordinary speech
gets 1e-6 to 1e-4 there and "open claw" 1e-3 to 0.5, even when whisper writes it as "Open floor";
the near-misses ("open clause": 1e-3 to 2e-2) overlap the phrase, so this removes ordinary speech,
not them. The check runs only when the first stage fires (about 15 times per hour of ordinary
speech), so its cost is latency, not load: docs/decisions/0032-audio-wake-verifier.md has the
trade-off and the figures.
"""

from __future__ import annotations

import time
from dataclasses import replace

from appliance.audio.base import SAMPLE_RATE, Samples, WakeDetection, WakeDetector
from appliance.audio.engines.whisper import WhisperRecogniser, WindowResult
from appliance.audio.ring import PreRoll


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
    ) -> None:
        self.first = first
        self.recogniser = recogniser
        self.phrase = phrase
        self.threshold = threshold
        self.name = f"{first.name}+whisper"
        self._window = int(window_s * SAMPLE_RATE)
        self._history = PreRoll(self._window)
        #: First-stage detections whisper confirmed.
        self.confirmed = 0
        #: First-stage detections whisper rejected (each would have been a wake without it).
        self.rejected = 0
        #: Seconds spent verifying.
        self.compute_s = 0.0
        #: The last verification (diagnostics: what whisper heard, its score).
        self.last: WindowResult | None = None

    def reset(self) -> None:
        """Reset the first stage and forget the audio."""
        self.first.reset()
        self._history.clear()

    def feed(self, chunk: Samples, end_sample: int) -> WakeDetection | None:
        """Feed a chunk; a detection only when the first stage fired and whisper agrees."""
        self._history.end = end_sample - len(chunk)
        self._history.append(chunk)
        detection = self.first.feed(chunk, end_sample)
        if detection is None:
            return None
        window = self._history.since(end_sample - self._window)
        result = self.recogniser.phrase_posterior(window, self.phrase, enough=self.threshold)
        self.last = result
        self.compute_s += result.compute_s
        if result.score < self.threshold:
            self.rejected += 1
            return None
        self.confirmed += 1
        # The detection's score stays the first stage's (the threshold users tune); the time it
        # is published at includes the check.
        return replace(detection, detector=self.name, monotonic=time.monotonic())
