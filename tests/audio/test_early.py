"""Transcription started at the speaker's first pause: the same text as when it starts at the end
of the question, taken from the early run when the pause ended the question, and not when the
speaker went on (real whisper, WAV replay as the microphone)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.settings import AudioSettings
from appliance.audio.sinks import WavFileSink
from appliance.audio.sources import WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker
from appliance.audio.utterance import Utterance
from appliance.audio.vad import EndReason
from appliance.audio.wake import WhisperWakeDetector
from appliance.audio.wavio import read_wav, write_wav

from .conftest import SynthFn
from .test_frontend import after_a_press


async def pressed_and_heard(
    whisper: WhisperRecogniser, wav: Path, tmp_path: Path, *, early: bool, gap_s: float = 1.0
) -> Utterance:
    settings = dataclasses.replace(
        AudioSettings(max_question_s=12.0, no_speech_timeout_s=2.0, command_grammar=False),
        early_transcription=early,
    )
    frontend = VoiceFrontEnd(
        WavReplaySource([wav], realtime=False, gap_s=gap_s),
        WhisperWakeDetector(whisper, settings.wake_phrase),
        whisper,
        Speaker(EspeakTts(), WavFileSink(tmp_path / f"spoken-{early}")),
        settings=settings,
    )
    return await after_a_press(frontend)


async def test_a_question_ending_in_its_first_pause_uses_the_early_text(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    wav = synth("what material is the mounting bracket", lead_s=0.5, tail_s=1.5)
    late = await pressed_and_heard(whisper, wav, tmp_path, early=False)
    early = await pressed_and_heard(whisper, wav, tmp_path, early=True)
    assert "early_runs" not in late.latency
    assert early.latency["early_runs"] == 1 and early.latency["early_used"] == 1
    # The early run was given the very samples the question ends with: the same words.
    assert early.transcript.text == late.transcript.text
    assert "bracket" in early.text.lower(), early.text


async def test_a_speaker_who_goes_on_after_a_pause_is_heard_to_the_end(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    first, _ = read_wav(synth("what material is", lead_s=0.5, tail_s=0.0))
    second, _ = read_wav(synth("the mounting bracket", lead_s=0.5, tail_s=1.5))
    wav = write_wav(tmp_path / "paused.wav", np.concatenate([first, second]))
    late = await pressed_and_heard(whisper, wav, tmp_path, early=False)
    early = await pressed_and_heard(whisper, wav, tmp_path, early=True)
    # The pause started an early run of the first half; the question went on, so that text is
    # not the answer's question: the whole question is.
    assert early.latency["early_runs"] >= 1
    assert early.transcript.text == late.transcript.text
    assert "bracket" in early.text.lower(), early.text


async def test_a_recording_that_ends_in_the_pause_uses_the_early_text_too(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    """A WAV replayed with less trailing silence than the endpointer waits for (the demo's) ends
    the stream in the pause: cut as the early run was, so it is used instead of run again."""
    wav = synth("what material is the mounting bracket", lead_s=0.5, tail_s=0.5)
    late = await pressed_and_heard(whisper, wav, tmp_path, early=False, gap_s=0.0)
    early = await pressed_and_heard(whisper, wav, tmp_path, early=True, gap_s=0.0)
    assert early.end_reason == EndReason.STREAM_ENDED
    assert early.latency["early_used"] == 1
    assert early.transcript.text == late.transcript.text
