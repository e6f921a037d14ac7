"""Voice activity: an energy detector over a tracked noise floor, and the question endpointer.

Energy over an adaptive floor is cheap (a few microseconds per 10 ms frame on a Pi) and needs no
model; its weakness, loud noise that varies like speech (babble), is bounded by the time limit of the
endpointer.
"""

from __future__ import annotations

import enum
from collections import deque
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
    """Frame-wise speech/non-speech over a minimum-statistics noise floor, with a short hangover.

    The floor is the quietest 10 ms level of the last ``floor_window_s`` seconds (kept as minima of
    half-second blocks, so it costs nothing). Speech has gaps between words that keep the floor low;
    a fan or a drill that starts becomes the floor once it has run for a whole window.
    """

    def __init__(
        self, threshold_db: float = 9.0, *, hangover_ms: int = 200, floor_window_s: float = 3.0
    ):
        self.threshold_db = threshold_db
        self._hangover_frames = hangover_ms // 10
        self._block_frames = 50
        self._blocks: deque[float] = deque(maxlen=max(1, int(floor_window_s * 2)))
        self._block_min = float("inf")
        self._block_count = 0
        self._hang = 0
        self._rest = np.zeros(0, dtype=np.int16)
        #: Level of the last frame, dBFS.
        self.level_db = FLOOR_MIN_DB

    @property
    def floor_db(self) -> float:
        """The tracked noise floor (dBFS)."""
        lows = [*self._blocks, self._block_min]
        return max(min(lows), FLOOR_MIN_DB) if self._block_count or self._blocks else FLOOR_MIN_DB

    def frame(self, frame: Samples) -> bool:
        """Classify one 10 ms frame (and update the floor)."""
        level = frame_db(frame)
        self.level_db = level
        self._block_min = min(self._block_min, level)
        self._block_count += 1
        if self._block_count >= self._block_frames:
            self._blocks.append(self._block_min)
            self._block_min, self._block_count = float("inf"), 0
        loud = level > max(self.floor_db + self.threshold_db, ABSOLUTE_MIN_DB)
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

    @property
    def pending(self) -> int:
        """Samples held for the next chunk (less than a frame)."""
        return len(self._rest)

    def reset(self) -> None:
        """Forget the floor and any hangover."""
        self._blocks.clear()
        self._block_min, self._block_count = float("inf"), 0
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
    #: Samples fed so far.
    fed: int = 0
    #: Where the last speech frame ends, in samples of the audio fed (0: no speech yet).
    speech_end: int = 0

    def feed(self, chunk: Samples) -> EndReason | None:
        """Process a chunk; the reason capture is over, or None to go on."""
        frames = self.vad.feed(chunk)
        # The chunk's last whole frame ends where the fed audio ends, less what the detector holds
        # back for the next chunk; the others a frame apart before it.
        self.fed += len(chunk)
        last_end = self.fed - self.vad.pending
        for i, is_speech in enumerate(frames):
            self._frames += 1
            if is_speech:
                self.speech_started = True
                self.speech_frames += 1
                self._silent_run = 0
                self.speech_end = last_end - (len(frames) - 1 - i) * FRAME
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
