"""Sample buffers: a thread-safe ring between the audio thread and the loop, and the pre-roll history."""

from __future__ import annotations

import threading

import numpy as np

from appliance.audio.base import Samples


class SampleRing:
    """A bounded FIFO of int16 samples written by one thread and read by another.

    When the reader falls behind by more than the capacity, the oldest samples are dropped and
    counted in :attr:`dropped` (the status page shows it): a live microphone must never block its
    audio callback.
    """

    def __init__(self, capacity: int) -> None:
        self._buf = np.zeros(capacity, dtype=np.int16)
        self._capacity = capacity
        self._start = 0  # index of the oldest sample in _buf
        self._size = 0
        self._lock = threading.Lock()
        #: Samples dropped because the reader was too slow.
        self.dropped = 0

    def __len__(self) -> int:
        with self._lock:
            return self._size

    def write(self, samples: Samples) -> None:
        """Append samples, dropping the oldest when full."""
        data = np.asarray(samples, dtype=np.int16).reshape(-1)
        with self._lock:
            if len(data) >= self._capacity:
                self.dropped += self._size + len(data) - self._capacity
                self._buf[:] = data[-self._capacity :]
                self._start, self._size = 0, self._capacity
                return
            overflow = self._size + len(data) - self._capacity
            if overflow > 0:
                self.dropped += overflow
                self._start = (self._start + overflow) % self._capacity
                self._size -= overflow
            end = (self._start + self._size) % self._capacity
            first = min(len(data), self._capacity - end)
            self._buf[end : end + first] = data[:first]
            self._buf[: len(data) - first] = data[first:]
            self._size += len(data)

    def read(self, count: int) -> Samples | None:
        """Take exactly ``count`` samples, or None when fewer are buffered."""
        with self._lock:
            if self._size < count:
                return None
            idx = (self._start + np.arange(count)) % self._capacity
            out = self._buf[idx].copy()
            self._start = (self._start + count) % self._capacity
            self._size -= count
            return out

    def clear(self) -> None:
        """Forget everything buffered."""
        with self._lock:
            self._start = self._size = 0


class PreRoll:
    """The last N samples of a stream, addressed by absolute stream index (single-threaded)."""

    def __init__(self, capacity: int) -> None:
        self._capacity = max(1, capacity)
        self._chunks: list[Samples] = []
        self._held = 0
        #: Stream index just past the newest sample held.
        self.end = 0

    def append(self, chunk: Samples) -> None:
        """Add a chunk at the end of the stream."""
        self._chunks.append(chunk)
        self._held += len(chunk)
        self.end += len(chunk)
        while self._chunks and self._held - len(self._chunks[0]) >= self._capacity:
            self._held -= len(self._chunks.pop(0))

    @property
    def start(self) -> int:
        """Stream index of the oldest sample held."""
        return self.end - self._held

    def since(self, index: int) -> Samples:
        """Every held sample from stream index ``index`` (clamped to what is held) to the end."""
        if not self._chunks:
            return np.zeros(0, dtype=np.int16)
        whole = np.concatenate(self._chunks)
        offset = min(max(0, index - self.start), len(whole))
        return whole[offset:]

    def clear(self) -> None:
        """Drop the history (the stream index keeps counting)."""
        self._chunks.clear()
        self._held = 0
