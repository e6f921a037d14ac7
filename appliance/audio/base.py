"""The audio boundaries: sources, wake detectors, recognisers and sinks, each one small Protocol.

Audio everywhere inside the appliance is 16 kHz mono signed 16-bit (``numpy.int16``) — what Vosk and
Whisper take. Sources convert at the edge; nothing downstream ever sees another format.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

#: The one sample rate inside the appliance.
SAMPLE_RATE = 16_000

#: A block of 16 kHz mono int16 samples.
Samples = npt.NDArray[np.int16]


def seconds(samples: int) -> float:
    """Duration of a number of samples at :data:`SAMPLE_RATE`."""
    return samples / SAMPLE_RATE


@runtime_checkable
class AudioSource(Protocol):
    """Anything that yields 16 kHz mono int16 chunks."""

    #: Short name shown on the status page ("microphone", "wav").
    name: str
    #: True when audio arrives in real time whether or not it is read (dropped when unread).
    live: bool

    def chunks(self) -> AsyncIterator[Samples]:
        """Yield chunks until the source ends or is closed."""
        ...

    def close(self) -> None:
        """Stop producing; a pending :meth:`chunks` iteration ends."""
        ...

    def status(self) -> dict[str, object]:
        """JSON-serialisable health figures (state, overflows, reconnects ...)."""
        ...


@dataclass(frozen=True)
class Word:
    """One recognised word."""

    #: The word as the engine wrote it (lower case for matching is done by the caller).
    text: str
    #: Start, in seconds from the start of the audio the engine was given.
    start: float
    #: End, in seconds from the start of the audio the engine was given.
    end: float
    #: Confidence 0..1 (engines without one report 1.0).
    confidence: float = 1.0


@dataclass(frozen=True)
class Transcript:
    """What a recogniser heard in one piece of audio."""

    #: The text, as the engine wrote it.
    text: str
    #: Word timings, where the engine gives them.
    words: tuple[Word, ...] = ()
    #: Engine name ("vosk", "whisper").
    engine: str = ""
    #: Seconds of audio transcribed.
    audio_s: float = 0.0
    #: Seconds of CPU wall time the transcription took.
    compute_s: float = 0.0
    #: Whisper read only the question's length of audio, not its full 30-s context.
    shortened: bool = False
    #: Mean token probability of a shortened transcript, 0..1 (0 when not measured).
    score: float = 0.0


@dataclass(frozen=True)
class WakeDetection:
    """The wake phrase was heard."""

    #: The phrase as recognised.
    phrase: str
    #: Confidence 0..1 (the lowest word confidence of the phrase).
    score: float
    #: Detector that fired ("vosk-grammar", "whisper-window", "push-to-talk").
    detector: str
    #: Stream sample index where the phrase (or, for whisper, the window that held it) starts.
    start_sample: int
    #: Stream sample index where the phrase ends (best estimate; the question starts after it).
    end_sample: int
    #: Stream sample index of the end of the audio the detector had seen when it fired.
    detected_at_sample: int
    #: Words the recogniser heard after the phrase in the same breath, if any.
    trailing_text: str = ""
    #: ``time.monotonic()`` at detection.
    monotonic: float = 0.0
    #: Why it was accepted, for a person reading ``listen --json``: each stage's score against its
    #: threshold and what the checking recogniser heard ("" for a detector of one stage).
    reason: str = ""
    #: The checking recogniser's score of the phrase in the window that confirmed it (None: no
    #: check).
    verify_score: float | None = None
    #: What the checking recogniser heard in that window ("" when the phrase was confirmed at the
    #: window's start, before any free decoding of the window was needed).
    verify_heard: str = ""


class WakeDetector(Protocol):
    """Watches a stream, chunk by chunk, for the wake phrase."""

    #: Name reported in :class:`WakeDetection`.
    name: str

    def feed(self, chunk: Samples, end_sample: int) -> WakeDetection | None:
        """Process one chunk (``end_sample`` = stream index just past it); a detection or None."""
        ...

    def reset(self) -> None:
        """Forget everything heard (after a detection, or when the stream restarts)."""
        ...


class Recogniser(Protocol):
    """A speech-to-text engine."""

    #: Engine name ("vosk", "whisper").
    name: str

    def transcribe(self, audio: Samples, *, vocabulary: Sequence[str] = ()) -> Transcript:
        """Transcribe a whole utterance, biased toward ``vocabulary`` where the engine allows."""
        ...


class AudioSink(Protocol):
    """Where synthesised speech goes."""

    #: Short name ("speaker", "wav").
    name: str

    def play(self, audio: Samples, sample_rate: int) -> None:
        """Start playing (or writing) audio; may return before it has finished."""
        ...

    def wait(self) -> None:
        """Block until what was handed to :meth:`play` has finished."""
        ...

    def stop(self) -> None:
        """Cut playback short now (interrupt)."""
        ...


@dataclass
class Timings:
    """Monotonic timestamps of one voice interaction, for latency accounting."""

    #: Named timestamps (``time.monotonic()``), in the order they happened.
    marks: dict[str, float] = field(default_factory=dict)

    def mark(self, name: str, when: float | None = None) -> float:
        """Record a timestamp (now by default) and return it."""
        import time

        value = time.monotonic() if when is None else when
        self.marks[name] = value
        return value

    def between(self, first: str, second: str) -> float | None:
        """Seconds from one mark to another, or None when either is missing."""
        if first in self.marks and second in self.marks:
            return self.marks[second] - self.marks[first]
        return None
