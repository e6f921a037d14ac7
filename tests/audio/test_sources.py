"""Audio sources: WAV replay, and the microphone source against a fake PortAudio (no device here)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf

from appliance.audio.base import SAMPLE_RATE, AudioSource
from appliance.audio.errors import AudioFormatError
from appliance.audio.sources import SoundDeviceSource, WavReplaySource
from appliance.audio.wavio import write_wav


async def collect(source: AudioSource, limit: int = 100_000) -> list[np.ndarray]:
    out = []
    async for chunk in source.chunks():
        out.append(chunk)
        if len(out) >= limit:
            break
    return out


async def test_wav_replay_yields_fixed_chunks_of_every_file(tmp_path: Path) -> None:
    a = write_wav(tmp_path / "a.wav", np.full(SAMPLE_RATE, 100, np.int16))
    b = tmp_path / "b.wav"
    sf.write(str(b), np.full((22050, 2), 0.1, np.float32), 22050)  # stereo 22.05 kHz: converted
    source = WavReplaySource([a, b], realtime=False, chunk_ms=20, gap_s=0.5)
    assert isinstance(source, AudioSource)
    chunks = await collect(source)
    assert {len(c) for c in chunks} == {320}
    assert all(c.dtype == np.int16 for c in chunks)
    total = sum(len(c) for c in chunks)
    assert abs(total - (SAMPLE_RATE * 3)) <= 2 * 320  # 1 s + 1 s + two 0.5 s gaps
    assert chunks[0][0] == 100


async def test_a_broken_file_raises_at_its_turn_after_the_good_one(tmp_path: Path) -> None:
    good = write_wav(tmp_path / "good.wav", np.full(SAMPLE_RATE // 2, 7, np.int16))
    bad = tmp_path / "bad.wav"
    bad.write_bytes(good.read_bytes()[:5000])  # truncated
    source = WavReplaySource([good, bad], realtime=False, gap_s=0.0)
    seen = []
    with pytest.raises(AudioFormatError) as err:
        async for chunk in source.chunks():
            seen.append(chunk)
    assert err.value.code == "audio_truncated"
    assert sum(len(c) for c in seen) >= SAMPLE_RATE // 2 - 480


class FakePortAudio:
    """A stand-in for the sounddevice module: devices come and go on command."""

    class PortAudioError(Exception):
        pass

    def __init__(self) -> None:
        self.present = False
        self.opened: list[FakePortAudio.Stream] = []
        self.queries = 0

    def query_devices(self, device: Any = None, kind: str = "input") -> dict[str, Any]:
        self.queries += 1
        if not self.present:
            raise self.PortAudioError("Error querying device -1")
        return {"name": "fake", "max_input_channels": 1, "default_samplerate": 48000.0}

    class Stream:
        def __init__(self, backend: FakePortAudio, **kwargs: Any) -> None:
            self.backend = backend
            self.kwargs = kwargs
            self.active = False

        def start(self) -> None:
            self.active = True

        def close(self) -> None:
            self.active = False

        def deliver(self, samples: np.ndarray, overflow: bool = False) -> None:
            status = type("Status", (), {"input_overflow": overflow})()
            self.kwargs["callback"](samples.reshape(-1, 1), len(samples), None, status)

        def unplug(self) -> None:
            self.active = False
            self.kwargs["finished_callback"]()

    def InputStream(self, **kwargs: Any) -> FakePortAudio.Stream:
        if not self.present:
            raise self.PortAudioError("device unavailable")
        stream = self.Stream(self, **kwargs)
        self.opened.append(stream)
        return stream


async def wait_until(predicate: Any, timeout: float = 10.0) -> None:
    """Poll a condition set by the audio thread (bounded; the test fails if it never holds)."""
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition never became true")


async def test_missing_microphone_is_reported_and_retried_until_it_appears() -> None:
    backend = FakePortAudio()
    states: list[tuple[str, str]] = []
    source = SoundDeviceSource(
        backend=backend,
        reconnect_initial_s=0.01,
        reconnect_max_s=0.02,
        on_state=lambda s, e: states.append((s, e)),
    )
    received: list[np.ndarray] = []

    async def consume() -> None:
        async for chunk in source.chunks():
            received.append(chunk)
            if len(received) >= 3:
                return

    task = asyncio.create_task(consume())
    await wait_until(lambda: source.failed_opens >= 3)
    status = source.status()
    assert status["state"] == "missing"
    assert "no input device" in str(status["last_error"])
    assert ("missing", states[1][1]) in states
    backend.present = True  # plugged in
    await wait_until(lambda: source.state == "running")
    stream = backend.opened[-1]
    assert stream.kwargs["samplerate"] == SAMPLE_RATE and stream.kwargs["dtype"] == "int16"
    for i in range(3):
        stream.deliver(np.full(480, i, np.int16), overflow=(i == 1))
    await asyncio.wait_for(task, 10)
    assert [int(c[0]) for c in received] == [0, 1, 2]
    assert source.overflows == 1
    assert source.state == "closed"


async def test_unplugged_microphone_reconnects() -> None:
    backend = FakePortAudio()
    backend.present = True
    source = SoundDeviceSource(backend=backend, reconnect_initial_s=0.01, reconnect_max_s=0.02)
    source.start()
    try:
        await wait_until(lambda: source.state == "running")
        backend.present = False
        backend.opened[-1].unplug()
        await wait_until(lambda: source.state == "missing")
        backend.present = True
        await wait_until(lambda: source.state == "running" and source.reconnects == 1)
        assert len(backend.opened) == 2
    finally:
        source.close()
    assert source.state == "closed"


async def test_device_that_cannot_do_16k_is_opened_at_its_rate_and_resampled() -> None:
    backend = FakePortAudio()
    backend.present = True
    original = backend.InputStream

    def picky(**kwargs: Any) -> FakePortAudio.Stream:
        if kwargs["samplerate"] != 48000:
            raise backend.PortAudioError("Invalid sample rate")
        return original(**kwargs)

    backend.InputStream = picky  # type: ignore[method-assign]
    source = SoundDeviceSource(backend=backend, chunk_ms=30)
    got: list[np.ndarray] = []
    done = threading.Event()

    async def consume() -> None:
        async for chunk in source.chunks():
            got.append(chunk)
            if len(got) == 2:
                done.set()
                return

    task = asyncio.create_task(consume())
    await wait_until(lambda: source.state == "running")
    assert source.device_rate == 48000
    t = np.arange(48000 * 3 // 100 * 2) / 48000
    backend.opened[-1].deliver((np.sin(2 * np.pi * 500 * t) * 10000).astype(np.int16))
    await asyncio.wait_for(task, 10)
    assert [len(c) for c in got] == [480, 480]  # 2 x 30 ms at 16 kHz


async def test_microphone_state_reaches_the_event_bus_from_the_audio_thread() -> None:
    from appliance.audio.build import _state_publisher
    from appliance.events import EventBus, EventType

    bus = EventBus()
    bus.bind(asyncio.get_running_loop())
    queue = bus.subscribe_queue()
    backend = FakePortAudio()  # no device at all
    source = SoundDeviceSource(
        backend=backend,
        reconnect_initial_s=0.01,
        reconnect_max_s=0.02,
        on_state=_state_publisher(bus),
    )
    source.start()
    try:
        event = await asyncio.wait_for(queue.get(), 10)
        while event.data.get("state") != "missing":
            event = await asyncio.wait_for(queue.get(), 10)
    finally:
        source.close()
    assert event.type == EventType.COMPONENT_STATE
    assert event.data["component"] == "microphone" and "no input device" in event.data["error"]
