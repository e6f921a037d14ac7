"""What one question sounds like once heard: the :class:`Utterance` the front end hands on.

It is the one form a heard question takes from the microphone to the answer: the voice front end
builds it (wake, capture, transcript, the command parsed once) and the service's pipeline reads it
as it is. It sits below both and imports only the audio types it is made of.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from appliance.audio.base import Samples, Transcript, WakeDetection
from appliance.audio.commands import Command
from appliance.audio.grammar import GrammarChoice
from appliance.audio.heard_names import NameChoice
from appliance.audio.vad import EndReason

#: The detector name of a question started by the talk button instead of the wake phrase.
PUSH_TO_TALK = "push-to-talk"


@dataclass(frozen=True)
class Utterance:
    """One question (or command) heard after the wake phrase or push-to-talk."""

    #: How it started (``detector == "push-to-talk"`` for the button).
    wake: WakeDetection
    #: The recogniser's output for the captured audio.
    transcript: Transcript
    #: The words after the wake phrase.
    text: str
    #: What the words ask for (parsed once, here; the pipeline acts on it).
    command: Command
    #: Why capture stopped.
    end_reason: EndReason
    #: Seconds of audio captured.
    audio_s: float
    #: Monotonic timestamps: wake, listening, capture_end, cue (when played), transcribed.
    timings: dict[str, float] = field(default_factory=dict)
    #: Derived latencies in seconds (wake_after_phrase_s, transcribe_s, ...).
    latency: dict[str, float] = field(default_factory=dict)
    #: The audio of the wake phrase and the question (16 kHz mono int16), kept for false-wake tuning.
    audio: Samples = field(default_factory=lambda: np.zeros(0, dtype=np.int16))
    #: What the command grammar made of it (None: not scored; see appliance/audio/grammar.py).
    grammar: GrammarChoice | None = None
    #: What the audio said of the index's names put forward (None: none; see
    #: appliance/audio/heard_names.py).
    names: NameChoice | None = None

    def _mark(self, name: str) -> float:
        # The front end sets every mark; one missing (an utterance made by hand) counts as the
        # moment of the wake, so its latency stages come out 0 rather than meaningless.
        return self.timings.get(name, self.wake.monotonic)

    @property
    def wake_at(self) -> float:
        """``time.monotonic()`` when the wake phrase was detected or the talk button pressed."""
        return self._mark("wake")

    @property
    def captured_at(self) -> float:
        """``time.monotonic()`` when the spoken question ended."""
        return self._mark("capture_end")

    @property
    def cued_at(self) -> float | None:
        """``time.monotonic()`` when the "heard you" tone started (None: no tone was played)."""
        return self.timings.get("cue")

    @property
    def transcribed_at(self) -> float:
        """``time.monotonic()`` when the transcript was final."""
        return self._mark("transcribed")

    @property
    def wake_delay_s(self) -> float:
        """Detection delay after the end of the wake phrase (seconds; 0 for push-to-talk)."""
        return float(self.latency.get("wake_after_phrase_s", 0.0))

    @property
    def push_to_talk(self) -> bool:
        """Whether the button started it instead of the wake phrase."""
        return self.wake.detector == PUSH_TO_TALK

    @property
    def engine(self) -> str:
        """Name of the recogniser that produced the transcript."""
        return self.transcript.engine
