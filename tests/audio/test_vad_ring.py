"""The ring buffer, the pre-roll, the energy VAD and the question endpointer (incl. an hour of noise)."""

from __future__ import annotations

import numpy as np

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.ring import PreRoll, SampleRing
from appliance.audio.vad import FRAME, Endpointer, EndReason, EnergyVad

from .conftest import SynthFn, samples_of


def test_ring_keeps_order_and_counts_what_it_drops() -> None:
    ring = SampleRing(10)
    ring.write(np.arange(6, dtype=np.int16))
    ring.write(np.arange(6, 12, dtype=np.int16))  # 12 samples into 10: the two oldest go
    assert ring.dropped == 2
    assert ring.read(10).tolist() == list(range(2, 12))
    assert ring.read(1) is None
    ring.write(np.arange(25, dtype=np.int16))  # more than the capacity at once
    assert ring.dropped == 2 + 15
    assert ring.read(10).tolist() == list(range(15, 25))


def test_preroll_addresses_by_stream_index() -> None:
    pre = PreRoll(100)
    for i in range(5):
        pre.append(np.full(40, i, dtype=np.int16))
    assert pre.end == 200
    assert pre.start <= 100  # at least the capacity is held
    tail = pre.since(180)
    assert tail.tolist() == [4] * 20
    assert len(pre.since(0)) == pre.end - pre.start  # clamped to what is held


def test_vad_finds_speech_in_espeak_audio_and_not_in_silence(synth: SynthFn) -> None:
    audio = samples_of(synth("what torque do the bolts take", lead_s=1.0, tail_s=1.0))
    vad = EnergyVad()
    flags = np.array(vad.feed(audio))
    lead = flags[:90]  # the first 0.9 s are silence
    assert not lead.any()
    assert flags[100:200].mean() > 0.5  # the sentence
    assert not flags[-50:].any()  # trailing silence after the hangover


def test_endpointer_stops_after_trailing_silence(synth: SynthFn) -> None:
    audio = samples_of(synth("scan this drawing please", lead_s=0.3, tail_s=2.0))
    ep = Endpointer(EnergyVad(), trailing_silence_s=0.8, max_s=10.0, no_speech_timeout_s=3.0)
    reason = None
    fed = 0
    for i in range(0, len(audio), 480):
        reason = ep.feed(audio[i : i + 480])
        fed = i + 480
        if reason:
            break
    assert reason == EndReason.SILENCE
    assert fed < len(audio)  # it stopped before the end of the file
    assert ep.speech_frames > 50


def test_endpointer_places_the_end_of_speech_to_the_sample_whatever_the_chunking(
    synth: SynthFn,
) -> None:
    audio = samples_of(synth("scan this drawing please", lead_s=0.3, tail_s=2.0))
    ends = []
    for chunk in (480, 333, 1000):  # chunks that do and do not hold whole 10 ms frames
        ep = Endpointer(EnergyVad(), trailing_silence_s=0.8, max_s=10.0, no_speech_timeout_s=3.0)
        for i in range(0, len(audio), chunk):
            if ep.feed(audio[i : i + chunk]):
                break
        ends.append(ep.speech_end)
        assert ep.fed >= ep.speech_end + 80 * FRAME  # 0.8 s of silence heard after it
    assert ends[0] == ends[1] == ends[2], ends
    assert ends[0] % FRAME == 0 and 0.3 * SAMPLE_RATE < ends[0] < len(audio) - 1.9 * SAMPLE_RATE


def test_endpointer_gives_up_without_speech() -> None:
    ep = Endpointer(EnergyVad(), no_speech_timeout_s=1.0)
    reason = None
    for _ in range(100):
        reason = ep.feed(np.zeros(480, dtype=np.int16))
        if reason:
            break
    assert reason == EndReason.NO_SPEECH


def test_an_hour_of_noise_ends_questions_at_the_time_limit_and_is_never_speech_for_long() -> None:
    """One hour of white noise (generated block by block, never held whole)."""
    rng = np.random.default_rng(1)
    vad = EnergyVad()
    speech = 0
    frames = 0
    ep = Endpointer(EnergyVad(), trailing_silence_s=0.8, max_s=12.0, no_speech_timeout_s=30.0)
    ep_reason = None
    block = SAMPLE_RATE * 10
    for _ in range(360):  # 360 x 10 s = 1 h
        noise = rng.normal(0, 2000, block).astype(np.int16)
        flags = vad.feed(noise)
        frames += len(flags)
        speech += sum(flags)
        if ep_reason is None:
            ep_reason = ep.feed(noise)
    assert frames == 360_000
    assert speech / frames < 0.01  # steady noise becomes the floor, not speech
    assert ep_reason in (EndReason.TIME_LIMIT, EndReason.NO_SPEECH)
