"""Where speech goes: the sound card (sounddevice) on the Pi, WAV files on a development machine."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from appliance.audio.base import Samples
from appliance.audio.errors import SpeakerError
from appliance.audio.wavio import write_wav


class WavFileSink:
    """Writes each piece of speech to a numbered WAV file (development and tests).

    With ``realtime`` the sink takes as long as playback would, and :meth:`stop` cuts it short; that
    is what makes interruption testable without a speaker.
    """

    name = "wav"

    def __init__(self, out_dir: Path, *, realtime: bool = False, prefix: str = "speech") -> None:
        self.out_dir = out_dir
        self.realtime = realtime
        self.prefix = prefix
        self._done = threading.Event()
        self._done.set()
        self._duration = 0.0
        #: Files written, in order.
        self.written: list[Path] = []
        #: Times playback was cut short.
        self.stopped = 0

    def play(self, audio: Samples, sample_rate: int) -> None:
        """Write the audio to the next numbered file."""
        path = self.out_dir / f"{self.prefix}-{len(self.written) + 1:04d}.wav"
        self.written.append(write_wav(path, audio, sample_rate))
        self._duration = len(audio) / sample_rate
        self._done.clear()
        if not self.realtime:
            self._done.set()

    def wait(self) -> None:
        """Return after the playing time (realtime) or at once."""
        if not self._done.wait(self._duration):
            self._done.set()

    def stop(self) -> None:
        """Cut the current piece short."""
        if not self._done.is_set():
            self.stopped += 1
        self._done.set()

    def concatenated(self) -> tuple[Samples, int]:
        """Every written file joined (for ``openclaw say --out``); (empty, 22050) if none."""
        import soundfile as sf

        parts: list[Samples] = []
        rate = 22050
        for path in self.written:
            data, rate = sf.read(str(path), dtype="int16")
            parts.append(np.asarray(data, dtype=np.int16))
        return (np.concatenate(parts) if parts else np.zeros(0, dtype=np.int16)), rate


class SoundDeviceSink:
    """The speaker, through PortAudio; ``backend`` is the sounddevice module unless a test gives one."""

    name = "speaker"

    def __init__(self, *, device: str | int | None = None, backend: Any = None) -> None:
        self._device = device if device not in ("", None) else None
        self._backend = backend

    def _sd(self) -> Any:
        if self._backend is None:
            import sounddevice

            self._backend = sounddevice
        return self._backend

    def play(self, audio: Samples, sample_rate: int) -> None:
        """Start playback (returns at once)."""
        try:
            self._sd().play(audio, sample_rate, device=self._device)
        except Exception as err:  # PortAudioError when there is no output device
            raise SpeakerError(f"cannot play audio ({err})") from None

    def wait(self) -> None:
        """Block until playback ends or :meth:`stop` is called."""
        try:
            self._sd().wait()
        except Exception as err:
            raise SpeakerError(f"playback failed ({err})") from None

    def stop(self) -> None:
        """Stop playback now."""
        try:
            self._sd().stop()
        except Exception:  # nothing to stop, or no device: stopping must never fail
            return
