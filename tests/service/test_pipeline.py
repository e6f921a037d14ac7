"""The pipeline's commands against the real index and vision: remember, scan (folder camera), false wake."""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
import time
import wave
from collections.abc import AsyncIterable
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

from appliance.answer.in_hand import DrawingInHand
from appliance.answer.which_drawing import PendingQuestion
from appliance.answer.worker import AnswerWorker
from appliance.audio.build import build_frontend
from appliance.config import Config
from appliance.demo import speak_question
from appliance.events import EventType
from appliance.index.embedder import Embedder
from appliance.index.search import search
from appliance.latency import LatencyBook
from appliance.service.indexer import IndexQueue
from appliance.service.memory import MemoryNotes
from appliance.service.parts import AnswerAdapter, ReaderStore, SharedEmbedder
from appliance.service.pipeline import QuestionPipeline
from appliance.service.rooms import RoomControl
from appliance.service.samples import SAMPLES, draw_sample
from appliance.state import LiveState
from tests.answer.conftest import fault_command
from tests.utterances import heard


class RecordingSpeaker:
    """Stands in for the loudspeaker (hardware edge): records what would have been said."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.stopped = 0

    async def speak(self, sentences: AsyncIterable[str]) -> float | None:
        async for sentence in sentences:
            self.said.append(sentence)
        return time.monotonic()

    def stop(self) -> None:
        self.stopped += 1

    async def prepare(self, text: str) -> None:
        return None


def _pipeline(config: Config, queue: IndexQueue, speaker: RecordingSpeaker) -> QuestionPipeline:
    state = LiveState()
    return QuestionPipeline(
        queue.bus,
        LatencyBook(),
        answerer=None,  # type: ignore[arg-type]  # commands never reach the answerer
        speaker=speaker,
        queue=queue,
        memory=MemoryNotes(config.paths.data_dir / "memory"),
        rooms=RoomControl(queue.bus, state),
        data_dir=config.paths.data_dir,
    )


def _conversing(
    config: Config, queue: IndexQueue, reader: ReaderStore, hold_s: float
) -> QuestionPipeline:
    """A pipeline answering from ``reader`` that holds a drawing in hand ``hold_s`` seconds, asks
    which drawing, and takes a drawing named after an answer, each for 60 s."""
    pipeline = _pipeline(config, queue, RecordingSpeaker())
    pipeline.answerer = AnswerAdapter(config, reader, None)
    pipeline.in_hand = DrawingInHand(hold_s)
    pipeline.asked = PendingQuestion(60.0)
    pipeline.answered = PendingQuestion(60.0)
    return pipeline


async def test_remember_writes_markdown_and_indexes_it(config: Config, queue: IndexQueue) -> None:
    speaker = RecordingSpeaker()
    pipeline = _pipeline(config, queue, speaker)
    record = await pipeline.handle(heard("remember that the bracket now takes 30 N·m"))
    assert record["command"] == "remember" and speaker.said == ["Noted."]
    day = config.paths.data_dir / "memory" / "global" / f"{time.strftime('%Y-%m-%d')}.md"
    assert "the bracket now takes 30 N·m" in day.read_text(encoding="utf-8")
    hits = await queue.call(
        lambda lib: search(lib.store, "bracket torque newton metres", ["global"])
    )
    assert any("30 N·m" in h.text and h.source.startswith("memory/global/") for h in hits)


async def test_scan_indexes_a_good_capture_and_refuses_a_blurry_one(
    config: Config, queue: IndexQueue
) -> None:
    speaker = RecordingSpeaker()
    pipeline = _pipeline(config, queue, speaker)
    events = queue.bus.subscribe_queue()
    camera = config.paths.data_dir / "camera"
    camera.mkdir(parents=True)
    # The folder camera (vision.camera = "folder", the development backend) serves these files.
    draw_sample(SAMPLES[1]).convert("RGB").filter(ImageFilter.GaussianBlur(9)).save(
        camera / "1.jpg"
    )
    said = await pipeline.scan()
    rejected = [e for e in _drain(events) if e.type == EventType.CAPTURE_REJECTED]
    # The quality gate's own sentence is what the person hears.
    assert rejected and rejected[0].data["reason"] == said
    assert rejected[0].data["code"] in ("too_blurry", "page_blank", "page_quality"), rejected[
        0
    ].data
    assert await queue.call(lambda lib: lib.sources()) == []  # nothing indexed

    shutil.rmtree(camera)
    camera.mkdir()
    draw_sample(SAMPLES[0]).convert("RGB").save(camera / "1.png")
    said = await pipeline.scan()
    assert said.startswith("Indexed drawing A-1024"), said
    sources = await queue.call(lambda lib: lib.sources())
    assert [s.source[:8] for s in sources] == ["capture:"]


async def test_a_scanned_drawing_is_the_one_the_next_question_is_about(
    config: Config, queue: IndexQueue, embedder: Embedder
) -> None:
    # Two drawings in the index: the shaft coupling dropped in, the mounting bracket scanned by the
    # folder camera. "What is it made of?" names neither: it is about the drawing in hand, first
    # the one just scanned, then the one the last answer quoted.
    config = dataclasses.replace(config, answer=dataclasses.replace(config.answer, llm_model=""))
    coupling = config.paths.data_dir / "inbox" / "coupling.png"
    coupling.parent.mkdir(parents=True)
    draw_sample(SAMPLES[1]).convert("RGB").save(coupling)
    job = queue.submit("index", "global", path=coupling)
    assert job.done is not None
    await job.done
    camera = config.paths.data_dir / "camera"
    camera.mkdir()
    draw_sample(SAMPLES[0]).convert("RGB").save(camera / "1.png")
    reader = ReaderStore(config, SharedEmbedder(config))
    speaker = RecordingSpeaker()
    pipeline = _pipeline(config, queue, speaker)
    pipeline.answerer = AnswerAdapter(config, reader, None)
    pipeline.in_hand = DrawingInHand(300.0)
    events = queue.bus.subscribe_queue()
    try:
        unheld = await pipeline.handle(heard("what is it made of"))
        scanned = await pipeline.scan()
        assert scanned.startswith("Indexed drawing A-1024"), scanned
        first = await pipeline.handle(heard("what is it made of"))
        named = await pipeline.handle(heard("what is the shaft coupling made of"))
        then = await pipeline.handle(heard("what is it made of"))
    finally:
        reader.close()
    assert unheld["extra"].get("in_hand", "") == ""
    assert first["extra"]["in_hand"].startswith("global/capture:"), first
    assert "6061-T6" in first["spoken"], first["spoken"]
    assert named["extra"]["in_hand"] == "" and "316" in named["spoken"], named["spoken"]
    assert then["extra"]["in_hand"].endswith("/coupling.png"), then
    assert "316" in then["spoken"], then["spoken"]
    # The status page is told which drawing is in hand: the capture once scanned, at the end the
    # coupling.
    shown = [e.data for e in _drain(events) if e.type == EventType.IN_HAND]
    scans = [d for d in shown if d["why"] == "scanned"]
    assert len(scans) == 1 and scans[0]["source"].startswith("capture:"), shown
    assert shown[-1]["source"].endswith("coupling.png") and shown[-1]["why"] == "quoted"
    assert all(d["until"] > time.time() for d in shown)


async def _two_drawings(config: Config, queue: IndexQueue) -> Config:
    """Index the mounting bracket and the shaft coupling; the configuration without a model."""
    inbox = config.paths.data_dir / "inbox"
    inbox.mkdir(parents=True)
    for sample in SAMPLES[:2]:
        draw_sample(sample).convert("RGB").save(inbox / sample.file_name)
        job = queue.submit("index", "global", path=inbox / sample.file_name)
        assert job.done is not None
        await job.done
    return dataclasses.replace(config, answer=dataclasses.replace(config.answer, llm_model=""))


async def test_a_question_the_index_knows_nothing_of_is_declined_aloud(
    config: Config, queue: IndexQueue, embedder: Embedder
) -> None:
    # Retrieval finds nothing worth reading: the abstention is still spoken, never silence.
    config = await _two_drawings(config, queue)
    reader = ReaderStore(config, SharedEmbedder(config))
    speaker = RecordingSpeaker()
    pipeline = _pipeline(config, queue, speaker)
    pipeline.answerer = AnswerAdapter(config, reader, None)
    try:
        result = await pipeline.handle(heard("which football team won the world cup"))
    finally:
        reader.close()
    assert result["mode"] == "abstain", result
    assert speaker.said and speaker.said[-1] == result["spoken"], speaker.said
    assert result["spoken"].startswith('You asked: "which football team won the world cup".')


async def test_a_question_pointing_at_no_drawing_is_asked_back_and_the_reply_answers_it(
    config: Config, queue: IndexQueue, embedder: Embedder
) -> None:
    # Two drawings, none in hand: "what is it made of" cannot be answered without guessing. The
    # appliance asks which drawing, listens without the wake phrase, and the reply that names one
    # answers the question about it.
    config = await _two_drawings(config, queue)
    reader = ReaderStore(config, SharedEmbedder(config))
    speaker = RecordingSpeaker()
    pipeline = _pipeline(config, queue, speaker)
    pipeline.answerer = AnswerAdapter(config, reader, None)
    pipeline.in_hand = DrawingInHand(300.0)
    pipeline.asked = PendingQuestion(60.0)
    listened: list[float] = []
    pipeline.listen_for_reply = lambda: listened.append(time.monotonic())
    try:
        asked = await pipeline.handle(heard("what is it made of"))
        missed = await pipeline.handle(heard("the call of psychopum"))
        replied = await pipeline.handle(heard("the shaft coupling"))
        follow = await pipeline.handle(heard("and what scale is it drawn at"))
        pipeline.in_hand.drop()
        again = await pipeline.handle(heard("what is it made of"))
        silence = await pipeline.handle(heard(""))
        late = await pipeline.handle(heard("the mounting bracket"))
        after = await pipeline.handle(heard("the shaft coupling"))
        pipeline.in_hand.drop()
        await pipeline.handle(heard("what is it made of"))
        other = await pipeline.handle(heard("what revision is the mounting bracket"))
        pipeline.in_hand.drop()
        await pipeline.handle(heard("what is it made of"))
        await pipeline.handle(heard("the blue one"))
        given_up = await pipeline.handle(heard("the green one"))
        pipeline.in_hand.drop()
        listed = await pipeline.handle(heard("what is it made of"))
        by_place = await pipeline.handle(heard("the second one"))
    finally:
        reader.close()
    assert asked["mode"] == "asked" and asked["citations"] == [], asked
    assert asked["spoken"].startswith("Which drawing do you mean:"), asked["spoken"]
    assert "SHAFT COUPLING" in asked["spoken"] and "MOUNTING BRACKET" in asked["spoken"]
    # A reply in which no drawing's name was heard is said back, once, and listened for again.
    assert missed["mode"] == "asked" and missed["reply_to"] == "what is it made of"
    assert missed["spoken"].startswith(
        'I did not catch a drawing\'s name in "the call of psychopum".'
    ), missed["spoken"]
    assert given_up["mode"] != "asked" and "reply_to" not in given_up, given_up
    # The drawings are named in order, and "the second one" is the second said.
    second = listed["extra"]["listed"][1]
    assert by_place["reply_to"] == "what is it made of", by_place
    assert by_place["extra"]["in_hand"] == "/".join(second), by_place
    number = next(x.number for x in SAMPLES if second[1].endswith(x.file_name))
    assert listed["spoken"].index(number) > listed["spoken"].index(" or "), listed["spoken"]
    # The reply is heard without the wake phrase: the pipeline asked the listener for it, once
    # for each question asked back and each reply said back.
    assert len(listened) == 7
    # The latency figures are the answers' (seven of them), not the questions back's.
    assert pipeline.latency.summary()["total"]["count"] == 7
    assert replied["reply_to"] == "what is it made of"
    assert "316" in replied["spoken"], replied["spoken"]
    assert replied["extra"]["in_hand"].endswith(SAMPLES[1].file_name), replied
    assert follow["mode"] == "extractive" and "1:1" in follow["spoken"], follow["spoken"]
    # No reply at once: nothing is said, and the reply may still come with the wake phrase. One
    # reply only: the next question is a question again.
    assert again["mode"] == "asked"
    assert silence["spoken"] == "" and silence["answer"] == "(no reply)"
    assert late["reply_to"] == "what is it made of" and "6061-T6" in late["spoken"], late
    assert "reply_to" not in after
    # A reply that asks something of its own is answered as itself.
    assert "reply_to" not in other and "C" in other["spoken"], other["spoken"]
    assert pipeline.asked.current() is None


async def test_a_drawing_named_after_an_answer_asks_the_same_question_about_it(
    config: Config, queue: IndexQueue, embedder: Embedder
) -> None:
    # "What is it made of?" about the drawing in hand (the bracket); the listener hears the
    # bracket named as the source and says the drawing they meant: the same question is answered
    # about the coupling. After a question that named its drawing, a name is a question again.
    config = await _two_drawings(config, queue)
    reader = ReaderStore(config, SharedEmbedder(config))
    pipeline = _conversing(config, queue, reader, hold_s=300.0)
    try:
        bracket = next(s for s in reader.get().list_sources() if s.drawing_number == "A-1024")
        pipeline.in_hand.take(bracket.namespace, bracket.source, "scanned")
        first = await pipeline.handle(heard("what is it made of"))
        corrected = await pipeline.handle(heard("no, the shaft coupling"))
        back = await pipeline.handle(heard("the mounting bracket"))
        terse = await pipeline.handle(heard("scale of the shaft coupling"))
        named = await pipeline.handle(heard("what revision is the shaft coupling"))
        plain = await pipeline.handle(heard("the mounting bracket"))
        await pipeline.handle(heard("what is it made of"))
        await pipeline.handle(heard("stop"))
        stopped = await pipeline.handle(heard("the shaft coupling"))
    finally:
        reader.close()
    assert "6061-T6" in first["spoken"] and "reply_to" not in first, first
    assert corrected["reply_to"] == "what is it made of", corrected
    assert "316" in corrected["spoken"], corrected["spoken"]
    assert corrected["extra"]["in_hand"].endswith(SAMPLES[1].file_name), corrected
    assert back["reply_to"] == "what is it made of" and "6061-T6" in back["spoken"], back
    # A name with more than "no", "I mean" and the like around it asks its own question.
    assert "reply_to" not in terse and "1:1" in terse["spoken"], terse
    assert "reply_to" not in named and "reply_to" not in plain, (named, plain)
    assert "reply_to" not in stopped, stopped


async def test_with_the_hand_off_a_drawing_named_in_reply_still_answers_the_question(
    config: Config, queue: IndexQueue, embedder: Embedder
) -> None:
    # answer.in_hand_s = 0 keeps no drawing for the questions after: a drawing named in reply to
    # "which drawing?", or after an answer, is still the one the question it answers is about.
    # Without it the reply was asked back again, and a correction answered the same drawing.
    config = await _two_drawings(config, queue)
    reader = ReaderStore(config, SharedEmbedder(config))
    pipeline = _conversing(config, queue, reader, hold_s=0.0)
    try:
        asked = await pipeline.handle(heard("what is it made of"))
        replied = await pipeline.handle(heard("the shaft coupling"))
        follow = await pipeline.handle(heard("and what scale is it drawn at"))
        await pipeline.handle(heard("the mounting bracket"))
        searched = await pipeline.handle(heard("what torque do the M8 bolts take"))
        corrected = await pipeline.handle(heard("no, the shaft coupling"))
    finally:
        reader.close()
    assert asked["mode"] == "asked", asked
    assert replied["reply_to"] == "what is it made of" and replied["mode"] == "extractive"
    assert "316" in replied["spoken"], replied["spoken"]
    # Nothing is kept in hand for the question after.
    assert follow["mode"] == "asked", follow
    assert pipeline.in_hand.current() is None
    assert searched["mode"] == "extractive" and "25" in searched["spoken"], searched
    assert corrected["reply_to"] == "what torque do the M8 bolts take", corrected
    assert corrected["extra"]["in_hand"].endswith(SAMPLES[1].file_name), corrected


async def test_the_reply_to_which_drawing_is_heard_without_the_wake_phrase(
    config: Config, queue: IndexQueue, embedder: Embedder, tmp_path: Path
) -> None:
    # Through the real front end (whisper on a WAV source): "open claw, what is it made of?",
    # then, after the question back, "the shaft coupling" with no wake phrase.
    config = await _two_drawings(config, queue)
    question, reply, wav = tmp_path / "q.wav", tmp_path / "r.wav", tmp_path / "talk.wav"
    await speak_question("open claw, what is it made of?", question)
    await speak_question("the shaft coupling", reply)
    with (
        wave.open(str(question)) as a,
        wave.open(str(reply)) as b,
        wave.open(str(wav), "wb") as out,
    ):
        out.setparams(a.getparams())
        out.writeframes(a.readframes(a.getnframes()))
        out.writeframes(b"\0\0" * a.getframerate())  # a second's pause while it asks back
        out.writeframes(b.readframes(b.getnframes()))
    audio = dataclasses.replace(
        config.audio, source="wav", wav_files=(wav,), wav_realtime=False, sink="wav"
    )
    config = dataclasses.replace(config, audio=audio)
    frontend = build_frontend(config, bus=queue.bus)
    reader = ReaderStore(config, SharedEmbedder(config))
    pipeline = _pipeline(config, queue, RecordingSpeaker())
    pipeline.answerer = AnswerAdapter(config, reader, None)
    pipeline.in_hand = DrawingInHand(300.0)
    pipeline.asked = PendingQuestion(60.0)
    pipeline.listen_for_reply = frontend.push_to_talk
    records = []
    try:
        for _ in range(2):
            utterance = await frontend.next_utterance()
            assert utterance is not None
            records.append(await pipeline.handle(utterance))
    finally:
        await frontend.close()
        reader.close()
    asked, replied = records
    assert asked["mode"] == "asked", asked
    assert replied["push_to_talk"] and replied["reply_to"], replied
    assert "316" in replied["spoken"], replied


async def test_false_wake_keeps_the_clip(config: Config, queue: IndexQueue) -> None:
    speaker = RecordingSpeaker()
    pipeline = _pipeline(config, queue, speaker)
    events = queue.bus.subscribe_queue()
    audio = (np.sin(np.arange(16000) / 5) * 8000).astype(np.int16)
    await pipeline.handle(heard("which room", audio))
    clip = await asyncio.to_thread(pipeline.false_wake)
    assert clip is not None and clip.parent == config.paths.data_dir / "false-wakes"
    with wave.open(str(clip)) as wav:
        assert (wav.getframerate(), wav.getnchannels(), wav.getnframes()) == (16000, 1, 16000)
        assert wav.readframes(16000) == audio.tobytes()
    assert speaker.stopped == 1
    assert any(
        e.type == EventType.FALSE_WAKE and e.data["clip"] == clip.name for e in _drain(events)
    )


def _drain(queue):  # type: ignore[no-untyped-def]
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out


def test_sample_drawing_is_a_page(tmp_path: Path) -> None:
    image = draw_sample(SAMPLES[0])
    assert image.size == (2339, 1654)
    assert isinstance(image, Image.Image)


async def test_the_model_path_is_acknowledged_before_its_answer(
    config: Config, queue: IndexQueue, embedder: Embedder
) -> None:
    # The real answer adapter over the real index, with a real worker process that writes a fixed,
    # supported answer; no extract is sure enough (threshold 1), so the model is asked.
    answer = dataclasses.replace(
        config.answer,
        llm_model="qwen2.5-coder-0.5b-instruct-q4_k_m",
        fast_path_min_score=1.0,
        llm_must_agree=False,
        timeout_s=600.0,
    )
    config = dataclasses.replace(config, answer=answer)
    note = config.paths.data_dir / "bracket.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("# Bracket\n\nPowder coat the bracket in RAL 7035 after welding.\n")
    job = queue.submit("index", "global", path=note)
    assert job.done is not None
    await job.done
    worker = AnswerWorker(
        config.answer,
        models_dir=config.paths.models_dir,
        command=fault_command("liar", "The bracket is powder coated in RAL 7035 [1]."),
    )
    await worker.start()
    reader = ReaderStore(config, SharedEmbedder(config))
    speaker = RecordingSpeaker()
    pipeline = _pipeline(config, queue, speaker)
    pipeline.answerer = AnswerAdapter(config, reader, worker)
    try:
        record = await pipeline.handle(
            heard("what is the bracket powder coated with and what is checked after welding")
        )
    finally:
        await worker.close()
        reader.close()
    assert record["mode"] == "llm", record
    assert speaker.said == [
        config.answer.acknowledgement,
        "The bracket is powder coated in RAL 7035.",
    ]
    latency = record["latency"]
    assert 0.0 <= latency["acknowledge"] <= latency["first_audio"]


async def test_a_spoken_question_is_published_once(
    config: Config, queue: IndexQueue, tmp_path: Path
) -> None:
    # The front end that made the transcript publishes it; the pipeline handling the utterance
    # does not say it again: one TRANSCRIPT_FINAL per question, and the status page shows it.
    wav = tmp_path / "which-room.wav"
    await speak_question("open claw, which room am I in?", wav)
    audio = dataclasses.replace(
        config.audio, source="wav", wav_files=(wav,), wav_realtime=False, sink="wav"
    )
    config = dataclasses.replace(config, audio=audio)
    events = queue.bus.subscribe_queue()
    frontend = build_frontend(config, bus=queue.bus)
    try:
        utterance = await frontend.next_utterance()
    finally:
        await frontend.close()
    assert utterance is not None
    record = await _pipeline(config, queue, RecordingSpeaker()).handle(utterance)
    seen = _drain(events)
    finals = [e for e in seen if e.type == EventType.TRANSCRIPT_FINAL]
    assert [e.data["text"] for e in finals] == [utterance.text], finals
    assert record["question"] == utterance.text and utterance.text
    state = LiveState()
    for event in seen:
        state.apply(event)
    page = state.snapshot()
    assert page["transcript"] == utterance.text
    assert [q["question"] for q in page["questions"]] == [utterance.text]
