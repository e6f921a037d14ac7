"""Audio sources: WAV files replayed (development) and the microphone through sounddevice (the Pi).

Both yield 16 kHz mono int16 chunks of a fixed length from :meth:`chunks`, an async iterator.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.errors import MicrophoneError
from appliance.audio.ring import SampleRing
from appliance.audio.wavio import read_wav, to_16k

log = logging.getLogger(__name__)


def chunk_samples(chunk_ms: int) -> int:
    """Samples in one chunk of ``chunk_ms`` milliseconds."""
    return SAMPLE_RATE * chunk_ms // 1000


class WavReplaySource:
    """Replays WAV files as if a microphone heard them, one after the other.

    Each file is read and converted (or refused) before any of it is yielded, so a broken file raises
    :class:`~appliance.audio.errors.AudioFormatError` at its turn with nothing half-played. With
    ``realtime`` the chunks come at the pace of a real microphone; without it as fast as they are read.
    ``gap_s`` of silence separates files (and trails the last one) so the end of speech is seen.
    """

    name = "wav"
    #: Fast replay (not real time) is not live: a slow reader makes it wait instead of dropping audio.
    live: bool

    def __init__(
        self,
        paths: Sequence[str | Path],
        *,
        realtime: bool = True,
        chunk_ms: int = 30,
        convert: bool = True,
        gap_s: float = 1.0,
    ) -> None:
        self._paths = [Path(p) for p in paths]
        self._realtime = realtime
        self.live = realtime
        self._chunk = chunk_samples(chunk_ms)
        self._convert = convert
        self._gap = int(gap_s * SAMPLE_RATE)
        self._closed = False
        #: Samples yielded so far.
        self.samples_out = 0
        #: Name of the file being replayed.
        self.current = ""

    def close(self) -> None:
        """Stop after the current chunk."""
        self._closed = True

    def status(self) -> dict[str, object]:
        """Replay position."""
        return {
            "source": self.name,
            "file": self.current,
            "seconds": self.samples_out / SAMPLE_RATE,
        }

    async def chunks(self) -> AsyncIterator[Samples]:
        """Yield every file's audio in fixed-size chunks."""
        started = time.monotonic()
        for path in self._paths:
            audio, _ = read_wav(path, convert=self._convert)
            self.current = path.name
            audio = np.concatenate([audio, np.zeros(self._gap, dtype=np.int16)])
            for i in range(0, len(audio) - self._chunk + 1, self._chunk):
                if self._closed:
                    return
                chunk = audio[i : i + self._chunk]
                self.samples_out += len(chunk)
                if self._realtime:
                    due = started + self.samples_out / SAMPLE_RATE
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                else:
                    await asyncio.sleep(0)  # let the loop breathe between chunks
                yield chunk


class SoundDeviceSource:
    """The microphone, read by PortAudio in its own thread into a ring buffer.

    A supervisor thread opens the input stream and reopens it with exponential backoff when the
    device is missing or goes away; meanwhile :meth:`chunks` simply waits, and :meth:`status` says
    ``missing`` or ``reconnecting`` with the last error, so the service keeps running and the status
    page can show it. PortAudio's input-overflow flags and samples dropped from the ring (a reader
    that fell behind) are counted separately.

    ``backend`` is the ``sounddevice`` module by default (imported only when this source starts); any
    object with ``query_devices`` and ``InputStream`` will do, which is the seam tests use.
    """

    name = "microphone"
    #: A microphone does not wait for its reader.
    live = True

    def __init__(
        self,
        *,
        device: str | int | None = None,
        chunk_ms: int = 30,
        ring_seconds: float = 10.0,
        reconnect_initial_s: float = 0.5,
        reconnect_max_s: float = 30.0,
        backend: Any = None,
        on_state: Callable[[str, str], None] | None = None,
    ) -> None:
        self._device = device if device not in ("", None) else None
        self._chunk = chunk_samples(chunk_ms)
        self._ring = SampleRing(int(ring_seconds * SAMPLE_RATE))
        self._backoff0 = reconnect_initial_s
        self._backoff_max = reconnect_max_s
        self._backend = backend
        self._on_state = on_state
        self._stop = threading.Event()
        self._lost = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._data_ready: asyncio.Event | None = None
        #: "idle", "opening", "running", "missing", "reconnecting" or "closed".
        self.state = "idle"
        #: The last error met opening or reading the device ("" when none).
        self.last_error = ""
        #: Times the stream was (re)opened successfully after the first time.
        self.reconnects = 0
        #: Callbacks that PortAudio flagged with an input overflow.
        self.overflows = 0
        #: Attempts to open the device that failed.
        self.failed_opens = 0
        #: Sample rate the device was opened at (16000, or its own rate when it cannot do 16000).
        self.device_rate = SAMPLE_RATE
        self._native_rate = SAMPLE_RATE

    # -- status ---------------------------------------------------------------------------------
    def status(self) -> dict[str, object]:
        """State, counters and the last error, for the status page."""
        return {
            "source": self.name,
            "state": self.state,
            "last_error": self.last_error,
            "reconnects": self.reconnects,
            "failed_opens": self.failed_opens,
            "overflows": self.overflows,
            "dropped_samples": self._ring.dropped,
            "device_rate": self.device_rate,
        }

    def _set_state(self, state: str, error: str = "") -> None:
        if state == self.state and error == self.last_error:
            return
        self.state = state
        if error:
            self.last_error = error
        log.info("microphone %s%s", state, f": {error}" if error else "")
        if self._on_state is not None:
            self._on_state(state, error)

    # -- the audio thread -----------------------------------------------------------------------
    def _sd(self) -> Any:
        if self._backend is None:
            import sounddevice

            self._backend = sounddevice
        return self._backend

    def _check_device(self) -> None:
        """Raise MicrophoneError unless an input device exists."""
        sd = self._sd()
        try:
            info = sd.query_devices(self._device, kind="input")
        except Exception as err:  # PortAudioError, ValueError for an unknown name
            raise MicrophoneError(f"no input device ({err})") from None
        if not info or int(info.get("max_input_channels", 0)) < 1:
            raise MicrophoneError("the selected device has no input channels")
        self._native_rate = int(info.get("default_samplerate") or SAMPLE_RATE)

    def _open(self) -> Any:
        sd = self._sd()
        self._check_device()
        for rate in (SAMPLE_RATE, self._native_rate):
            blocksize = self._chunk * rate // SAMPLE_RATE
            try:
                stream = sd.InputStream(
                    samplerate=rate,
                    channels=1,
                    dtype="int16",
                    blocksize=blocksize,
                    device=self._device,
                    callback=self._callback,
                    finished_callback=self._lost.set,
                )
                stream.start()
            except Exception as err:
                if rate == self._native_rate:
                    raise MicrophoneError(f"cannot open the input device ({err})") from None
                continue
            self.device_rate = rate
            return stream
        raise MicrophoneError("cannot open the input device")  # pragma: no cover - loop returns

    def _callback(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        if status and getattr(status, "input_overflow", False):
            self.overflows += 1
        samples = np.asarray(indata, dtype=np.int16).reshape(-1)
        if self.device_rate != SAMPLE_RATE:
            samples = to_16k(samples, self.device_rate)
        self._ring.write(samples)
        loop, ready = self._loop, self._data_ready
        if loop is not None and ready is not None and len(self._ring) >= self._chunk:
            with contextlib.suppress(RuntimeError):  # loop closed while we were in the callback
                loop.call_soon_threadsafe(ready.set)

    def _run(self) -> None:
        backoff = self._backoff0
        opened_before = False
        while not self._stop.is_set():
            self._set_state("opening" if not opened_before else "reconnecting")
            try:
                stream = self._open()
            except MicrophoneError as err:
                self.failed_opens += 1
                self._set_state("missing", err.message)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, self._backoff_max)
                continue
            if opened_before:
                self.reconnects += 1
            opened_before = True
            backoff = self._backoff0
            self._lost.clear()
            self._set_state("running")
            while not self._stop.is_set() and not self._lost.is_set():
                self._lost.wait(0.25)
                if not getattr(stream, "active", True):
                    self._lost.set()
            with contextlib.suppress(Exception):
                stream.close()
            if not self._stop.is_set():
                self._set_state("missing", "the input stream stopped (device unplugged?)")
                self._stop.wait(backoff)
        self._set_state("closed")

    # -- the asyncio side -----------------------------------------------------------------------
    def start(self) -> None:
        """Start the audio thread (done by :meth:`chunks` if not called before)."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="microphone", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the audio thread and close the device."""
        self._stop.set()
        self._lost.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5)
        if self._data_ready is not None and self._loop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._data_ready.set)

    async def chunks(self) -> AsyncIterator[Samples]:
        """Yield chunks as the microphone delivers them; waits quietly while it is missing."""
        self._loop = asyncio.get_running_loop()
        self._data_ready = asyncio.Event()
        self.start()
        try:
            while not self._stop.is_set():
                self._data_ready.clear()  # before reading, so a notification is never lost
                chunk = self._ring.read(self._chunk)
                if chunk is None:
                    # The timeout lets a closed source end even if no notification comes.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._data_ready.wait(), timeout=0.5)
                    continue
                yield chunk
        finally:
            self.close()
