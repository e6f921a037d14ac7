"""The Piper voice (real model from the manifest): phonemes, ids, audio heard back by whisper, bad files."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from appliance.audio.build import build_speaker, build_tts
from appliance.audio.errors import SpeechModelError
from appliance.audio.phrases import normalise_words
from appliance.audio.piper import MODEL_NAME, PiperConfig, PiperTts, PiperVoice, clauses
from appliance.audio.sinks import WavFileSink
from appliance.audio.tts import EspeakTts, first_clause, single
from appliance.audio.wavio import to_16k
from appliance.config import Config, load_config
from appliance.errors import ModelError
from appliance.models.manifest import load_manifest
from appliance.models.store import locate

NO_MODELS_DIR = Path("/nonexistent-models-dir")


@pytest.fixture(scope="module")
def voice() -> PiperVoice:
    """The manifest's voice, verified (from its PyPI carrier on this machine)."""
    return PiperVoice.from_manifest(NO_MODELS_DIR)


def voice_files() -> tuple[Path, Path]:
    spec = load_manifest().get(MODEL_NAME)
    return locate(spec, "onnx", NO_MODELS_DIR), locate(spec, "config", NO_MODELS_DIR)


def test_clauses_keep_their_punctuation_and_leave_decimals_alone() -> None:
    assert clauses("Open claw, what is the torque for A-101? It is 3.5 Nm.") == [
        ("Open claw", ","),
        ("what is the torque for A-101", "?"),
        ("It is 3.5 Nm", "."),
    ]
    assert clauses("no mark at the end") == [("no mark at the end", "")]
    assert clauses("  ") == []
    assert clauses("Wait... what?!") == [("Wait", "."), ("what", "!")]


def test_ids_frame_every_symbol_with_pad(voice: PiperVoice) -> None:
    table = voice.config.phoneme_ids
    phonemes = voice.phonemes("Open claw, scan this.")
    assert phonemes.endswith(".") and ", " in phonemes
    ids = voice.ids(phonemes)
    assert ids[:2] == [table["^"], table["_"]] and ids[-1] == table["$"]
    assert ids[2::2][:-1] == [table[s] for s in phonemes]  # every symbol known, in order
    assert set(ids[1:-1:2]) == {table["_"]}


def test_symbols_of_bench_sentences_are_all_known(voice: PiperVoice) -> None:
    before = voice.unknown_symbols
    for text in [
        "Drawing B-204 revision C: the bracket takes four M6 bolts at 9.8 newton metres.",
        "Switch to the electronics lab.",
        "The tolerance is plus or minus 0.05 millimetres; see sheet 2.",
    ]:
        voice.ids(voice.phonemes(text))
    assert voice.unknown_symbols == before


def test_speech_is_heard_back_by_whisper(voice: PiperVoice, whisper) -> None:
    """Intelligibility, not a timing: whisper tiny.en must get the words of the voice's sentences.

    The voice draws noise inside its graph, so no two renderings are the same, and with it a test
    of tiny.en's ear fails now and then (2 wrong words once in a CI run, session 21). The noise is
    switched off here, so every run hears the same samples; the sentences are still the voice's own
    phonemes and durations. One wrong word in the three is allowed.
    """
    sentences = [
        "The bracket uses four bolts.",
        "I have remembered that the drill press is out of order.",
        "Scan this drawing.",
    ]
    wrong = 0
    for text in sentences:
        audio = voice.synthesize(text, noise_scale=0.0, noise_w=0.0)
        assert voice.sample_rate == 22050
        seconds = len(audio) / voice.sample_rate
        assert 0.6 < seconds < 5.0, (text, seconds)
        assert 0.85 * 32767 < np.abs(audio.astype(np.int32)).max() <= 0.91 * 32767
        heard = normalise_words(whisper.transcribe(to_16k(audio, voice.sample_rate)).text)
        expected = normalise_words(text)
        wrong += sum(a != b for a, b in zip(heard, expected, strict=False))
        wrong += abs(len(heard) - len(expected))
    assert wrong <= 1


def test_slower_length_scale_makes_longer_speech(voice: PiperVoice) -> None:
    normal = voice.synthesize("Scan this drawing.", noise_w=0.0)
    slow = voice.synthesize("Scan this drawing.", length_scale=1.5, noise_w=0.0)
    assert len(slow) > 1.3 * len(normal)


def test_nothing_to_say_is_empty_audio(voice: PiperVoice) -> None:
    assert voice.synthesize("   ").size == 0


async def test_speaker_writes_piper_sentences_to_the_sink(
    voice: PiperVoice, tmp_path: Path
) -> None:
    from appliance.audio.tts import Speaker

    sink = WavFileSink(tmp_path / "out")
    report = await Speaker(PiperTts(voice), sink).speak(
        single("The first sentence is here. And here is the second one.")
    )
    assert report.spoken == ["The first sentence is here.", "And here is the second one."]
    files = sorted((tmp_path / "out").glob("*.wav"))
    assert len(files) == 2
    info = sf.info(str(files[0]))
    assert info.samplerate == 22050 and info.frames > 0.8 * 22050


async def test_first_sentence_starts_with_its_first_clause(
    voice: PiperVoice, tmp_path: Path
) -> None:
    """The slow voice speaks the first clause alone, so the listener waits for it, not the sentence."""
    from appliance.audio.tts import Speaker

    text = "Twenty five newton metres, drawing A-1024 revision C. The bolts are class 8.8, zinc plated."
    report = await Speaker(PiperTts(voice), WavFileSink(tmp_path / "out")).speak(single(text))
    assert report.spoken == [
        "Twenty five newton metres,",
        "drawing A-1024 revision C.",
        "The bolts are class 8.8, zinc plated.",
    ]
    assert first_clause("Yes, it is.") == ("Yes, it is.", "")  # too short to be worth it
    assert first_clause("No clause here at all.") == ("No clause here at all.", "")
    assert first_clause("Drawing A-1024, sheet 2: the bracket.") == (
        "Drawing A-1024,",
        "sheet 2: the bracket.",
    )


def test_config_that_is_not_a_voice_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "voice.onnx.json"
    bad.write_text('{"audio": {"sample_rate": 22050}}')
    with pytest.raises(SpeechModelError, match="not a Piper voice configuration"):
        PiperConfig.read(bad)
    bad.write_text("{not json")
    with pytest.raises(SpeechModelError, match="not a Piper voice configuration"):
        PiperConfig.read(bad)


def test_truncated_onnx_is_refused_by_name(tmp_path: Path) -> None:
    onnx, config = voice_files()
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(onnx.read_bytes()[:100_000])
    with pytest.raises(SpeechModelError, match=r"cut\.onnx: onnxruntime refused it"):
        PiperVoice(cut, config)


def changed_copy(models_dir: Path) -> None:
    """A models_dir copy of the voice (which wins over the carrier) with one byte changed."""
    onnx, config = voice_files()
    folder = models_dir / MODEL_NAME
    folder.mkdir(parents=True)
    shutil.copy(config, folder / config.name)
    data = bytearray(onnx.read_bytes())
    data[len(data) // 2] ^= 0xFF
    (folder / onnx.name).write_bytes(bytes(data))


def config_with(tmp_path: Path, engine: str) -> Config:
    return load_config(
        environ={
            "OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data"),
            "OPENCLAW_PATHS__MODELS_DIR": str(tmp_path / "models"),
            "OPENCLAW_AUDIO__TTS_ENGINE": engine,
        }
    )


def test_auto_speaks_with_piper_when_the_voice_verifies(tmp_path: Path) -> None:
    assert isinstance(build_tts(config_with(tmp_path, "auto")), PiperTts)
    assert isinstance(build_tts(config_with(tmp_path, "espeak-ng")), EspeakTts)


def test_changed_voice_file_is_refused_and_auto_falls_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    changed_copy(tmp_path / "models")
    with pytest.raises(ModelError, match="fails its manifest check") as info:
        build_tts(config_with(tmp_path, "piper"))
    assert info.value.code == "model_checksum"
    tts = build_tts(config_with(tmp_path, "auto"))
    assert isinstance(tts, EspeakTts)
    assert "Piper voice unavailable" in caplog.text and "espeak-ng" in caplog.text
    # ... and the fallback still speaks.
    speaker = build_speaker(config_with(tmp_path, "auto"), WavFileSink(tmp_path / "spoken"))
    report = asyncio.run(speaker.speak(single("Still talking.")))
    assert report.spoken == ["Still talking."]
