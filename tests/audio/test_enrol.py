"""``openclaw enrol``: real espeak-ng takes replayed as the microphone, the real endpointer and
checks, the real prompt speaker into the development WAV sink, files the training reads."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.enrol import NEAR_MISS_PHRASES, EnrolError, Enrolment, make_plan
from appliance.audio.enrol_layout import save_take, slug
from appliance.audio.enrol_takes import Refusal, TakeListener, judge_take
from appliance.audio.errors import AudioFormatError, MicrophoneError, SpeakerError
from appliance.audio.sinks import WavFileSink
from appliance.audio.sources import WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker
from appliance.audio.user_recordings import load_user_clips
from appliance.audio.wavio import speech_bounds, write_wav
from appliance.cli import cli, main
from appliance.errors import ExitCode

from .conftest import SynthFn, samples_of


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    """The data directory in tmp, and the prompts spoken by espeak-ng: the tests compare the
    prompts' audio with espeak-ng's, sample for sample, to check what was said."""
    path = tmp_path / "openclaw.toml"
    path.write_text(
        f'[paths]\ndata_dir = "{tmp_path / "data"}"\n[audio]\ntts_engine = "espeak-ng"\n',
        encoding="utf-8",
    )
    return path


def level_db(audio: Samples) -> float:
    """Level of the loudest 10 ms frame, dBFS."""
    frames = audio[: len(audio) // 160 * 160].astype(np.float64).reshape(-1, 160) / 32768.0
    return float(10 * np.log10((frames**2).mean(axis=1).max() + 1e-12))


def variant(path: Path, audio: Samples, name: str) -> Path:
    return write_wav(path.parent / name, audio)


def found_in(kept: Samples, original: Samples) -> bool:
    """Whether ``kept`` is an exact slice of ``original`` (aligned on where the speech starts)."""
    offset = speech_bounds(original)[0] - speech_bounds(kept)[0]
    return offset >= 0 and np.array_equal(original[offset : offset + len(kept)], kept)


def enrol(config_file: Path, *args: str) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(cli, ["--config", str(config_file), "enrol", *args])
    return result.exit_code, result.stdout, result.exception


def test_a_session_keeps_good_takes_refuses_bad_ones_and_says_why(
    synth: SynthFn, config_file: Path, tmp_path: Path
) -> None:
    good = [synth("open claw", voice=v) for v in ("en-us", "en-us+f3")]
    claw = samples_of(good[0])
    silent = variant(good[0], np.zeros(6 * SAMPLE_RATE, np.int16), "silent.wav")
    loud = np.clip(claw.astype(np.int32) * 8, -32768, 32767).astype(np.int16)
    clipped = variant(good[0], loud, "clipped.wav")
    sentence = synth("open claw, what is the torque for the bracket on drawing A ten twenty four")
    # Quiet: its loudest frame at -46 dBFS, over the noise floor but never at the training's -40.
    quiet = variant(good[0], (claw * 10 ** ((-46 - level_db(claw)) / 20)).astype(np.int16), "q.wav")
    start = speech_bounds(claw)[0]
    blip = np.zeros(2 * SAMPLE_RATE, np.int16)
    blip[SAMPLE_RATE // 2 : SAMPLE_RATE // 2 + 2400] = claw[start : start + 2400]  # 0.15 s
    short = variant(good[0], blip, "short.wav")
    near = [synth(phrase, voice="en-us+m3") for phrase in NEAR_MISS_PHRASES]
    takes = [silent, clipped, good[0], sentence, quiet, short, good[1], *near]
    out = tmp_path / "recordings"

    code, stdout, error = enrol(
        config_file, "--takes", "2", "--near-takes", "1", "--out", str(out), "--json",
        *[arg for take in takes for arg in ("--wav", str(take))],
    )  # fmt: skip
    assert code == 0 and error is None, (stdout, error)
    report = json.loads(stdout)
    assert report["positives"] == {"kept": 2, "total": 2}
    assert report["near_misses"] == {"kept": 12, "total": 12}
    reasons = [r["reason"] for r in report["refused"]]
    assert reasons == ["no-speech", "clipped", "too-long", "too-quiet", "too-short"]
    messages = {r["reason"]: r["message"] for r in report["refused"]}
    assert "say it after the prompt" in messages["no-speech"]
    assert "full scale" in messages["clipped"] and "speak softer" in messages["clipped"]
    assert "say the phrase alone" in messages["too-long"]
    assert "speak up" in messages["too-quiet"] and "-46 dBFS" in messages["too-quiet"]
    assert "say the whole phrase" in messages["too-short"]
    assert all(r["phrase"] == "open claw" for r in report["refused"])

    # The layout the training reads, 16 kHz mono PCM_16, each file the take itself.
    positives, near_misses = out / "positives", out / "near-misses"
    assert sorted(p.name for p in positives.glob("*.wav")) == ["01.wav", "02.wav"]
    for path in [*positives.glob("*.wav"), *near_misses.glob("*.wav")]:
        info = sf.info(str(path))
        assert (info.samplerate, info.channels, info.subtype) == (SAMPLE_RATE, 1, "PCM_16")
    for name, source in (("01.wav", good[0]), ("02.wav", good[1])):
        kept = samples_of(positives / name)
        assert found_in(kept, samples_of(source))
        s, e = speech_bounds(kept)
        assert 0.3 * SAMPLE_RATE < e - s < len(kept) <= e - s + 0.55 * SAMPLE_RATE  # trimmed
    for phrase, source in zip(NEAR_MISS_PHRASES, near, strict=True):
        assert found_in(samples_of(near_misses / f"{slug(phrase)}-1.wav"), samples_of(source))
    assert len(load_user_clips(positives)) == 2
    assert len(load_user_clips(near_misses, "--user-near-misses")) == 12
    assert report["training_command"] == (
        f".venv/bin/python -m training.wake.train --user-positives {positives} "
        f"--user-near-misses {near_misses} --out my-open-claw-head.npz"
    )

    # The prompts went to the configured speaker (the development WAV sink): one per attempt and
    # the closing words, each exactly what espeak-ng says for its text.
    prompts = sorted((tmp_path / "data" / "speech-out").glob("*.wav"))
    assert len(prompts) == 2 + 5 + 12 + 1
    tts = EspeakTts()
    said = asyncio.run(tts.synthesize(f"Say: {NEAR_MISS_PHRASES[0]}."))[0]
    assert np.array_equal(sf.read(str(prompts[7]), dtype="int16")[0], said)
    said = asyncio.run(tts.synthesize("I heard nothing, say again: open claw."))[0]
    assert np.array_equal(sf.read(str(prompts[1]), dtype="int16")[0], said)


def test_a_second_run_adds_after_the_existing_takes(
    synth: SynthFn, config_file: Path, tmp_path: Path
) -> None:
    takes = [synth("open claw", voice=v, rate=r) for v, r in (("en-us", 150), ("en-us+m3", 170))]
    wavs = [arg for take in takes for arg in ("--wav", str(take))]
    code, first, error = enrol(config_file, "--takes", "2", "--no-near-misses", *wavs)
    assert code == 0 and error is None, (first, error)
    positives = tmp_path / "data" / "wake-recordings" / "positives"  # the default: data_dir
    before = {p.name: p.read_bytes() for p in positives.glob("*.wav")}
    assert sorted(before) == ["01.wav", "02.wav"]
    assert "positives: 2 kept now, 2 in all" in first
    assert f"--user-positives {positives} --out my-open-claw-head.npz" in first
    assert "no near-misses: a head trained without them also wakes" in first

    wavs = [arg for take in takes[::-1] for arg in ("--wav", str(take))]
    code, second, error = enrol(config_file, "--takes", "2", "--no-near-misses", *wavs)
    assert code == 0 and error is None, (second, error)
    assert "positives: 2 kept now, 4 in all" in second
    assert sorted(p.name for p in positives.glob("*.wav")) == [f"0{i}.wav" for i in range(1, 5)]
    assert {name: (positives / name).read_bytes() for name in before} == before
    # The second run's first take was the first run's second file (replayed in reverse order).
    assert np.array_equal(samples_of(positives / "03.wav"), samples_of(positives / "02.wav"))
    assert not any(p.name.startswith(".") for p in positives.iterdir())  # no temporary left


def test_save_take_numbers_after_the_existing_files_and_never_replaces_one(
    tmp_path: Path,
) -> None:
    audio = (np.sin(np.arange(8000) / 5) * 8000).astype(np.int16)
    folder = tmp_path / "near-misses"
    folder.mkdir()
    (folder / "open-clause-7.wav").write_bytes(b"the user's own")
    (folder / "open-claws-9.wav").write_bytes(b"another phrase")
    assert save_take(folder, audio, "open-clause").name == "open-clause-8.wav"
    assert save_take(folder, audio, "hope-and-claw").name == "hope-and-claw-1.wav"
    assert save_take(folder, audio, None).name == "01.wav"
    assert (folder / "open-clause-7.wav").read_bytes() == b"the user's own"
    assert slug("Hope and  claw!") == "hope-and-claw"


def test_a_source_that_ends_before_the_takes_are_done(
    synth: SynthFn, config_file: Path, tmp_path: Path
) -> None:
    takes = [synth("open claw", voice=v) for v in ("en-us", "en-us+f2")]
    out = tmp_path / "out"
    code, stdout, error = enrol(
        config_file, "--takes", "3", "--no-near-misses", "--out", str(out),
        *[arg for take in takes for arg in ("--wav", str(take))],
    )  # fmt: skip
    assert code != 0 and isinstance(error, EnrolError), (stdout, error)
    assert error.code == "enrol_source_ended" and error.exit_code == ExitCode.INPUT
    assert "2 positive(s) and 0 near-miss(es) kept" in error.message
    assert "[3/3] say: open claw" in stdout
    assert sorted(p.name for p in (out / "positives").glob("*.wav")) == ["01.wav", "02.wav"]


def test_takes_refused_too_often_stop_the_session(
    synth: SynthFn, config_file: Path, tmp_path: Path
) -> None:
    claw = synth("open claw")
    silence = write_wav(tmp_path / "silence.wav", np.zeros(26 * SAMPLE_RATE, np.int16))
    code, stdout, error = enrol(
        config_file, "--takes", "2", "--no-near-misses", "--out", str(tmp_path / "out"),
        "--wav", str(claw), "--wav", str(silence),
    )  # fmt: skip
    assert code != 0 and isinstance(error, EnrolError), (stdout, error)
    assert error.code == "enrol_refused"
    assert "5 takes of 'open claw' in a row were refused" in error.message
    assert "no speech heard" in error.message and "1 positive(s)" in error.message
    assert stdout.count("refused: no speech heard") == 5


def test_no_microphone_is_a_clear_error(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sounddevice

    try:
        sounddevice.query_devices(None, kind="input")
        pytest.skip("this machine has an input device; the missing-microphone path needs none")
    except sounddevice.PortAudioError:
        pass
    config_file.write_text(  # (into the fixture's [audio] table, which the file ends with)
        config_file.read_text() + 'source = "sounddevice"\nreconnect_max_s = 1\n'
    )
    code, stdout, error = enrol(config_file, "--takes", "1", "--no-near-misses")
    assert code != 0 and isinstance(error, MicrophoneError), (stdout, error)
    assert error.code == "microphone_missing"
    assert "no microphone" in error.message and "audio.input_device" in error.message
    # Through the console script: one line on stderr and the hardware family's exit code.
    assert main(["--config", str(config_file), "enrol", "--no-near-misses"]) == ExitCode.HARDWARE
    assert "openclaw: error: [microphone_missing] no microphone" in capsys.readouterr().err


def test_a_live_source_skips_what_it_heard_while_the_prompt_played(
    synth: SynthFn, tmp_path: Path
) -> None:
    """Real-time replay is live like a microphone: the prompt's own sound must not be a take."""
    prompt = samples_of(synth("say open clause", lead_s=0.2, tail_s=0.0))
    claw = samples_of(synth("open claw", lead_s=0.0, tail_s=1.5))
    # The prompt's sound in the first 1.2 s; the person from 3.5 s.
    audio = np.zeros(int(3.5 * SAMPLE_RATE), np.int16)
    audio[: len(prompt)] = prompt[: len(audio)]
    wav = write_wav(tmp_path / "live.wav", np.concatenate([audio, claw]))

    async def run() -> Samples:
        listener = TakeListener(WavReplaySource([wav], realtime=True), no_speech_timeout_s=4.0)
        listener.start()
        try:
            taken = await listener.take(skip_until=time.monotonic() + 2.5)
        finally:
            await listener.close()
        assert taken is not None
        return taken[0]

    heard = asyncio.run(run())
    s, e = speech_bounds(heard)
    spoken = speech_bounds(claw)
    assert abs((e - s) - (spoken[1] - spoken[0])) <= 160  # "open claw" alone, not the prompt
    assert found_in(heard[s:e], claw)


class UnpluggedSpeaker(WavFileSink):
    """Failure injection: the sound card refuses to play (no speaker plugged in)."""

    def play(self, audio: Samples, sample_rate: int) -> None:
        raise SpeakerError("cannot play audio (no output device)")


def test_a_failing_speaker_leaves_the_prompts_printed(synth: SynthFn, tmp_path: Path) -> None:
    takes = [synth("open claw", voice=v) for v in ("en-us", "en-us+m3")]
    lines: list[str] = []
    listener = TakeListener(WavReplaySource(takes, realtime=False))
    speaker = Speaker(EspeakTts(), UnpluggedSpeaker(tmp_path / "never"))
    session = Enrolment(listener, speaker, tmp_path / "out", echo=lines.append)
    report = asyncio.run(session.run(make_plan("open claw", 2, 0)))
    assert [p.name for p in report.kept] == ["01.wav", "02.wav"]
    assert session.speaker_failed == "[speaker_missing] cannot play audio (no output device)"
    warnings = [line for line in lines if line.startswith("speaker:")]
    assert warnings == [
        "speaker: [speaker_missing] cannot play audio (no output device); the prompts are only "
        "printed from now on"
    ]
    assert lines.count("[1/2] say: open claw") == 1 and lines.count("[2/2] say: open claw") == 1


def test_a_room_too_noisy_for_the_training_is_refused_a_moderate_one_is_not(
    synth: SynthFn, tmp_path: Path
) -> None:
    claw = samples_of(synth("open claw", lead_s=0.0, tail_s=0.0))
    rng = np.random.default_rng(7)

    async def judged(noise_db: float) -> list[tuple[Refusal | None, float]]:
        # 4 s of the room's noise, the phrase, 2 s more (white noise: a fan, a compressor).
        noise = rng.standard_normal(6 * SAMPLE_RATE + len(claw)) * 32768 * 10 ** (noise_db / 20)
        noise[4 * SAMPLE_RATE : 4 * SAMPLE_RATE + len(claw)] += claw
        wav = write_wav(tmp_path / f"room{noise_db}.wav", np.clip(noise, -32768, 32767))
        listener = TakeListener(WavReplaySource([wav], realtime=False))
        verdicts = []
        while (taken := await listener.take()) is not None:
            v = judge_take(*taken, floor_db=listener.vad.floor_db, vad_threshold_db=9.0)
            verdicts.append((v.refusal, v.speech_s))
        await listener.close()
        return verdicts

    loud = asyncio.run(judged(-40.0))
    assert loud == [(Refusal.TOO_NOISY, 0.0)]
    moderate = asyncio.run(judged(-50.0))
    assert len(moderate) == 1 and moderate[0][0] is None
    spoken = speech_bounds(claw)
    assert abs(moderate[0][1] * SAMPLE_RATE - (spoken[1] - spoken[0])) <= 0.05 * SAMPLE_RATE


def test_a_broken_wav_among_the_takes_stops_with_its_error_and_keeps_the_takes_before(
    synth: SynthFn, config_file: Path, tmp_path: Path
) -> None:
    good = synth("open claw")
    broken = tmp_path / "cut.wav"
    broken.write_bytes(synth("open claw", voice="en-us+f2").read_bytes()[:-4000])  # truncated
    out = tmp_path / "out"
    code, stdout, error = enrol(
        config_file, "--takes", "2", "--no-near-misses", "--out", str(out),
        "--wav", str(good), "--wav", str(broken),
    )  # fmt: skip
    assert code != 0 and isinstance(error, AudioFormatError), (stdout, error)
    assert error.code == "audio_truncated" and "cut.wav" in error.message
    assert str(tmp_path) not in error.message  # the file's name, never its path
    assert [p.name for p in (out / "positives").glob("*.wav")] == ["01.wav"]
