"""Voice activity: an energy detector over a tracked noise floor, and the question endpointer.

Energy over an adaptive floor is cheap (a few microseconds per 10 ms frame on a Pi) and needs no
model; its weakness, steady loud noise that varies like speech, is bounded by the time limit of the
endpointer. The floor follows quiet frames down at once and loud ones up slowly, so a fan that starts
becomes "floor" within a few seconds while a sentence does not.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from appliance.audio.base import SAMPLE_RATE, Samples

#: Analysis frame: 10 ms.
FRAME = SAMPLE_RATE // 100
#: Below this level (dBFS) nothing counts as speech, however quiet the room.
ABSOLUTE_MIN_DB = -55.0
#: The floor never goes below this (digital silence would otherwise make every click "speech").
FLOOR_MIN_DB = -75.0


def frame_db(frame: Samples) -> float:
    """RMS level of a frame in dBFS."""
    x = frame.astype(np.float32) / 32768.0
    return float(10.0 * np.log10(float(np.mean(x * x)) + 1e-12))


class EnergyVad:
    """Frame-wise speech/non-speech with a tracked noise floor and a short hangover."""

    def __init__(
        self, threshold_db: float = 9.0, *, hangover_ms: int = 200, rise_db_per_s: float = 2.0
    ):
        self.threshold_db = threshold_db
        self._hangover_frames = hangover_ms // 10
        self._rise = rise_db_per_s / 100.0  # per 10 ms frame
        self._floor: float | None = None
        self._hang = 0
        self._rest = np.zeros(0, dtype=np.int16)
        #: Level of the last frame, dBFS.
        self.level_db = FLOOR_MIN_DB

    @property
    def floor_db(self) -> float:
        """The tracked noise floor (dBFS)."""
        return FLOOR_MIN_DB if self._floor is None else self._floor

    def frame(self, frame: Samples) -> bool:
        """Classify one 10 ms frame (and update the floor)."""
        level = frame_db(frame)
        self.level_db = level
        if self._floor is None or level < self._floor:
            self._floor = max(level, FLOOR_MIN_DB)
        else:
            self._floor = min(self._floor + self._rise, level)
        loud = level > max(self._floor + self.threshold_db, ABSOLUTE_MIN_DB)
        if loud:
            self._hang = self._hangover_frames
            return True
        if self._hang > 0:
            self._hang -= 1
            return True
        return False

    def feed(self, chunk: Samples) -> list[bool]:
        """Classify every whole 10 ms frame in a chunk (a remainder waits for the next chunk)."""
        data = np.concatenate([self._rest, chunk]) if len(self._rest) else chunk
        whole = len(data) - len(data) % FRAME
        self._rest = data[whole:].copy()
        return [self.frame(data[i : i + FRAME]) for i in range(0, whole, FRAME)]

    def reset(self) -> None:
        """Forget the floor and any hangover."""
        self._floor = None
        self._hang = 0
        self._rest = np.zeros(0, dtype=np.int16)


class EndReason(enum.StrEnum):
    """Why question capture stopped."""

    SILENCE = "trailing-silence"
    TIME_LIMIT = "time-limit"
    NO_SPEECH = "no-speech"
    STREAM_ENDED = "stream-ended"
    CANCELLED = "cancelled"


@dataclass
class Endpointer:
    """Decides when a question has ended: trailing silence after speech, or a time limit."""

    #: Voice activity detector (shared state: its floor carries over from the wake word).
    vad: EnergyVad
    #: Seconds of silence after speech that end the question.
    trailing_silence_s: float = 0.8
    #: Longest question in seconds.
    max_s: float = 12.0
    #: Seconds without any speech before giving up.
    no_speech_timeout_s: float = 4.0
    #: Whether speech is already under way when capture starts (one-breath "open claw what ...").
    speech_started: bool = False
    _frames: int = 0
    _silent_run: int = 0
    #: Frames of speech seen.
    speech_frames: int = 0

    def feed(self, chunk: Samples) -> EndReason | None:
        """Process a chunk; the reason capture is over, or None to go on."""
        for is_speech in self.vad.feed(chunk):
            self._frames += 1
            if is_speech:
                self.speech_started = True
                self.speech_frames += 1
                self._silent_run = 0
            else:
                self._silent_run += 1
            if self.speech_started and self._silent_run * 0.01 >= self.trailing_silence_s:
                return EndReason.SILENCE
            if not self.speech_started and self._frames * 0.01 >= self.no_speech_timeout_s:
                return EndReason.NO_SPEECH
            if self._frames * 0.01 >= self.max_s:
                return EndReason.TIME_LIMIT
        return None

    @property
    def trailing_silence_frames(self) -> int:
        """Frames of silence at the end so far (to trim them before transcription)."""
        return self._silent_run
