"""Speech out: the espeak-ng wrapper (real), its failures (fake programs in tmp), sentence streaming, interruption."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from appliance.audio.errors import TtsError
from appliance.audio.sinks import SoundDeviceSink, WavFileSink
from appliance.audio.tts import EspeakTts, Speaker, check_espeak, sentences, single


def fake_program(tmp_path: Path, body: str) -> str:
    """A failure-injection stand-in for espeak-ng (lives in the test's tmp, never in the product)."""
    path = tmp_path / "fake-espeak"
    path.write_text("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)
    return str(path)


def test_check_espeak_reports_the_installed_version() -> None:
    ok, detail, fix = check_espeak()
    assert ok, detail
    assert detail.startswith("espeak-ng 1.")
    assert fix == ""


def test_check_espeak_when_missing_or_broken(tmp_path: Path) -> None:
    ok, detail, fix = check_espeak("espeak-ng-not-installed")
    assert not ok and "not found" in detail and "apt-get install espeak-ng" in fix
    ok, detail, _ = check_espeak(fake_program(tmp_path, "echo 'eSpeak NG text-to-speech: 1.20'"))
    assert not ok and "older" in detail


async def test_synthesize_returns_real_speech() -> None:
    audio, rate = await EspeakTts().synthesize("-rf is not an option. Twenty five newton metres.")
    assert rate == 22050
    assert len(audio) / rate > 1.5
    assert np.abs(audio).max() > 1000


async def test_synthesis_failures_are_coded(tmp_path: Path) -> None:
    with pytest.raises(TtsError) as err:
        await EspeakTts(binary="espeak-ng-not-installed").synthesize("hello")
    assert err.value.code == "tts_missing"
    with pytest.raises(TtsError) as err:
        await EspeakTts(binary=fake_program(tmp_path, "echo broken voice >&2; exit 3")).synthesize(
            "hi"
        )
    assert err.value.code == "tts_failed" and "exited with 3" in err.value.message
    with pytest.raises(TtsError) as err:
        await EspeakTts(binary=fake_program(tmp_path, "exec sleep 30"), timeout_s=0.5).synthesize(
            "hi"
        )
    assert err.value.code == "tts_timeout"
    with pytest.raises(TtsError) as err:
        await EspeakTts(binary=fake_program(tmp_path, "cat >/dev/null; echo not a wav")).synthesize(
            "hi"
        )
    assert "unreadable audio" in err.value.message


async def stream_of(*pieces: str) -> AsyncIterator[str]:
    for piece in pieces:
        await asyncio.sleep(0)
        yield piece


async def test_sentences_are_cut_as_the_text_streams() -> None:
    got = [
        s
        async for s in sentences(
            stream_of("25 newton metres, drawing A-1024 rev. C. ", "Note 3 says", " so. Bye")
        )
    ]
    assert got == ["25 newton metres, drawing A-1024 rev. C.", "Note 3 says so.", "Bye"]


async def test_speaker_writes_each_sentence(tmp_path: Path) -> None:
    sink = WavFileSink(tmp_path / "out")
    report = await Speaker(EspeakTts(), sink).speak(
        stream_of("First sentence here. ", "Second one follows.")
    )
    assert report.spoken == ["First sentence here.", "Second one follows."]
    assert not report.interrupted and report.first_audio is not None
    assert [p.name for p in sink.written] == ["speech-0001.wav", "speech-0002.wav"]
    audio, rate = sink.concatenated()
    assert rate == 22050 and abs(len(audio) / rate - report.audio_s) < 0.01


def test_the_cue_is_a_short_tone_played_without_waiting(tmp_path: Path) -> None:
    sink = WavFileSink(tmp_path / "out", realtime=True)  # wait() would take the tone's length
    before = time.monotonic()
    at = Speaker(EspeakTts(), sink).cue()
    assert before <= at <= time.monotonic()
    (path,) = sink.written
    audio, rate = sf.read(path, dtype="int16")
    assert 0.05 <= len(audio) / rate <= 0.2  # over long before an answer's first word
    assert int(np.abs(audio.astype(np.int32)).max()) > 4000  # audible, not silence
    # Faded in and out: no click at either end.
    assert abs(int(audio[0])) < 500 and abs(int(audio[-1])) < 500


async def test_speaker_is_interrupted_mid_answer(tmp_path: Path) -> None:
    sink = WavFileSink(tmp_path / "out", realtime=True)  # takes as long as playback would
    speaker = Speaker(EspeakTts(), sink)
    long_answer = " ".join(f"This is sentence number {i} of a long answer." for i in range(20))
    task = asyncio.create_task(speaker.speak(single(long_answer)))
    while not sink.written:  # first sentence playing
        await asyncio.sleep(0.01)
    speaker.interrupt()
    report = await asyncio.wait_for(task, 30)
    assert report.interrupted
    assert len(report.spoken) < 20
    assert sink.stopped >= 1


async def test_speaker_surfaces_tts_failure(tmp_path: Path) -> None:
    speaker = Speaker(EspeakTts(binary="espeak-ng-not-installed"), WavFileSink(tmp_path))
    with pytest.raises(TtsError):
        await speaker.speak(single("Hello there."))


class NoAudioDevice:
    """sounddevice without any output device."""

    class PortAudioError(Exception):
        pass

    def play(self, *args: object, **kwargs: object) -> None:
        raise self.PortAudioError("Error querying device -1")

    def wait(self) -> None:
        return None

    def stop(self) -> None:
        raise self.PortAudioError("nothing to stop")


def test_sounddevice_sink_without_a_device() -> None:
    from appliance.audio.errors import SpeakerError

    sink = SoundDeviceSink(backend=NoAudioDevice())
    with pytest.raises(SpeakerError) as err:
        sink.play(np.zeros(100, np.int16), 22050)
    assert err.value.code == "speaker_missing"
    sink.stop()  # stopping never fails
