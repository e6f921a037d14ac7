"""Latency accounting for every question: how long each stage of the pipeline took.

Stages, in order: ``wake`` (detection delay after the wake phrase ended, as the audio part reports it),
``capture`` (wake to the end of the spoken question), ``cue`` (end of the question to the "heard you"
tone), ``transcription``, ``retrieval`` (search), ``first_token``
(retrieval done to the answer's first token), ``acknowledge`` (end of the question to the first sound of
"Checking the drawings" when the model is asked), ``first_audio`` (end of the question to the first
sound of the answer itself) and ``total`` (wake to the answer finished). Figures go to the status page (recent values and
percentiles) and to Prometheus histograms.
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Histogram

STAGES = (
    "wake",
    "capture",
    "cue",
    "transcription",
    "retrieval",
    "first_token",
    "acknowledge",
    "first_audio",
    "total",
)
_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)


@dataclass
class QuestionTimer:
    """Monotonic timestamps of one question's milestones; stage durations derive from them."""

    #: When the wake word was detected (or push-to-talk pressed).
    wake_at: float
    #: Detection delay after the end of the wake phrase, as reported by the detector (seconds).
    wake_delay_s: float = 0.0
    #: When the spoken question ended (silence detected).
    captured_at: float | None = None
    #: When the "heard you" tone started playing (None: none was played).
    cued_at: float | None = None
    #: When the transcript was final.
    transcribed_at: float | None = None
    #: When retrieval finished.
    retrieved_at: float | None = None
    #: When retrieval started.
    retrieval_started_at: float | None = None
    #: When the first answer token arrived.
    first_token_at: float | None = None
    #: When the acknowledgement started playing (only when the model was asked).
    acknowledged_at: float | None = None
    #: When the first audio of the answer itself started playing.
    first_audio_at: float | None = None
    #: When the answer was complete (spoken or failed).
    done_at: float | None = None

    def stages(self) -> dict[str, float]:
        """Duration of each stage that completed, in seconds."""
        out: dict[str, float] = {"wake": self.wake_delay_s}

        def span(name: str, start: float | None, end: float | None) -> None:
            if start is not None and end is not None:
                out[name] = max(0.0, end - start)

        span("capture", self.wake_at, self.captured_at)
        span("cue", self.captured_at, self.cued_at)
        span("transcription", self.captured_at, self.transcribed_at)
        span("retrieval", self.retrieval_started_at, self.retrieved_at)
        span("first_token", self.retrieved_at, self.first_token_at)
        span("acknowledge", self.captured_at, self.acknowledged_at)
        span("first_audio", self.captured_at, self.first_audio_at)
        span("total", self.wake_at, self.done_at)
        return {k: round(v, 4) for k, v in out.items()}


@dataclass
class LatencyBook:
    """Recent per-question stage latencies with percentiles, mirrored to Prometheus."""

    #: How many questions are kept for the percentiles.
    keep: int = 200
    #: Registry the histograms are registered in.
    registry: CollectorRegistry = field(default_factory=CollectorRegistry)
    _recent: dict[str, deque[float]] = field(init=False)
    _histogram: Histogram = field(init=False)

    def __post_init__(self) -> None:
        self._recent = {stage: deque(maxlen=self.keep) for stage in STAGES}
        self._histogram = Histogram(
            "openclaw_question_stage_seconds",
            "Duration of each stage of answering a spoken question",
            ["stage"],
            buckets=_BUCKETS,
            registry=self.registry,
        )

    def record(self, stages: dict[str, float]) -> None:
        """Add one question's stage durations."""
        for stage, seconds in stages.items():
            if stage in self._recent:
                self._recent[stage].append(seconds)
                self._histogram.labels(stage=stage).observe(seconds)

    def summary(self) -> dict[str, dict[str, float]]:
        """Per stage: count, last, p50, p95 (seconds)."""
        out: dict[str, dict[str, float]] = {}
        for stage, values in self._recent.items():
            if not values:
                continue
            ordered = sorted(values)
            out[stage] = {
                "count": len(ordered),
                "last": round(values[-1], 4),
                "p50": round(statistics.median(ordered), 4),
                "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 4),
            }
        return out
