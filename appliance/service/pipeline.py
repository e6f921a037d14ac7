"""The question pipeline: transcript -> command or search + answer -> spoken answer + status page.

Stages run as direct awaits, each announced on the bus (thinking, speaking, idle) and timed for the
latency book. Commands ("scan this", "remember that ...", "which room", "switch to ...", "repeat",
"stop") are handled here too. A failure in any stage becomes a spoken apology, an ``error`` event with a
stable code and a record on the status page; the pipeline itself keeps running.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance.answer.in_hand import DrawingInHand, InHand
from appliance.answer.which_drawing import (
    AskedBack,
    PendingQuestion,
    asks_something,
    chosen_by_place,
)
from appliance.audio.commands import CommandKind
from appliance.audio.utterance import Utterance
from appliance.audio.wavio import write_wav
from appliance.errors import AnswerError, InputError, OpenClawError
from appliance.events import Event, EventBus, EventType
from appliance.latency import LatencyBook, QuestionTimer
from appliance.service.indexer import IndexQueue
from appliance.service.memory import MemoryNotes
from appliance.service.ports import Acknowledgement, Answerer, AnswerResult, Speaker
from appliance.service.rooms import RoomControl
from appliance.service.supervisor import public_error

log = logging.getLogger(__name__)

#: Replies to "which drawing?" that name none and are said back before the question is let go.
MAX_REPLY_TRIES = 1


@dataclass
class _Times:
    """AnswerTimes implementation that stamps a QuestionTimer."""

    timer: QuestionTimer

    def retrieval(self, started: float, done: float) -> None:
        self.timer.retrieval_started_at = started
        self.timer.retrieved_at = done

    def first_token(self, at: float) -> None:
        self.timer.first_token_at = at


def _listed(extra: dict[str, Any]) -> list[tuple[str, str]]:
    """The drawings a question back named (namespace, source), from its answer's extra."""
    listed = extra.get("listed") or []
    return [(str(d[0]), str(d[1])) for d in listed if len(d) == 2]


async def _one(text: str) -> AsyncIterator[str]:
    yield text


async def _after(
    first: str | Acknowledgement | AnswerResult | None,
    rest: AsyncIterator[str | Acknowledgement | AnswerResult],
) -> AsyncIterator[str | Acknowledgement | AnswerResult]:
    """``first`` (unless None) followed by the rest of the stream."""
    if first is not None:
        yield first
    async for item in rest:
        yield item


class QuestionPipeline:
    """Handles utterances and button presses one at a time."""

    def __init__(
        self,
        bus: EventBus,
        latency: LatencyBook,
        answerer: Answerer,
        speaker: Speaker,
        queue: IndexQueue,
        memory: MemoryNotes,
        rooms: RoomControl,
        data_dir: Path,
        capture_enabled: bool = True,
        in_hand: DrawingInHand | None = None,
        asked: PendingQuestion | None = None,
        listen_for_reply: Callable[[], None] | None = None,
        answered: PendingQuestion | None = None,
    ) -> None:
        self.bus = bus
        self.latency = latency
        self.answerer = answerer
        self.speaker = speaker
        self.queue = queue
        self.memory = memory
        self.rooms = rooms
        self.data_dir = data_dir
        self.capture_enabled = capture_enabled
        #: The drawing a question that names none is about: the one just scanned, or the one the
        #: last answer quoted.
        self.in_hand = in_hand or DrawingInHand(0.0)
        #: A question asked back ("Which drawing do you mean?"), waiting for the drawing's name.
        self.asked = asked or PendingQuestion(0.0)
        #: Starts listening without the wake phrase (the talk button's path), for the reply.
        self.listen_for_reply = listen_for_reply
        #: The last question answered that named no drawing: a drawing's name said next ("the
        #: Spannpratze", on hearing the answer quote another drawing) asks it again about that one.
        self.answered = answered or PendingQuestion(0.0)
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()
        self._last_spoken = ""
        self._last_utterance: Utterance | None = None

    # -- speaking --------------------------------------------------------------------------------
    async def say(self, text: str) -> float | None:
        """Speak one text with the speaking/idle events around it; returns the first-audio time."""
        self.bus.publish(Event(EventType.SPEAKING, {"text": text}))
        try:
            first = await self.speaker.speak(_one(text))
        finally:
            self.bus.publish(Event(EventType.IDLE, {}))
        self._last_spoken = text
        return first

    async def announce(self, text: str) -> None:
        """Say something unprompted (a room switch), never over a question being handled."""
        async with self._lock:
            await self.say(text)

    # -- questions -------------------------------------------------------------------------------
    async def handle(self, utt: Utterance) -> dict[str, Any]:
        """Handle one utterance end to end; returns the record shown on the status page.

        Its transcript was published (``TRANSCRIPT_FINAL``) by the voice front end that made it.
        """
        async with self._lock:
            self._last_utterance = utt
            command = utt.command
            timer = QuestionTimer(
                wake_at=utt.wake_at,
                wake_delay_s=utt.wake_delay_s,
                captured_at=utt.captured_at,
                cued_at=utt.cued_at,
                transcribed_at=utt.transcribed_at,
            )
            record: dict[str, Any] = {
                "id": f"q{next(self._ids)}",
                "question": utt.text,
                "command": str(command.kind),
                "at": time.time(),
                "room": self.rooms.room,
                "namespaces": self.rooms.namespaces,
                "push_to_talk": utt.push_to_talk,
                "engine": utt.engine,
                "citations": [],
                "answer": "",
                "spoken": "",
                "mode": "",
            }
            # The next question may be the reply that names the drawing a question asked back was
            # about; after it the question waits no longer, whatever it was. Silence, "repeat"
            # and the other commands leave it waiting; "stop" lets it go.
            asked = self.asked.current()
            if command.kind in (CommandKind.QUESTION, CommandKind.STOP):
                self.asked.drop()
            if command.kind == CommandKind.STOP:
                self.answered.drop()
            try:
                if command.kind == CommandKind.QUESTION:
                    result = await self._question(command.argument, asked, record, timer)
                elif command.kind == CommandKind.EMPTY and asked is not None:
                    # No reply to "which drawing?" yet: nothing is said; it may still come with
                    # the wake phrase.
                    result = AnswerResult(text="(no reply)", spoken="", mode="command")
                else:
                    result = await self._command(command.kind, command.argument)
                    if result.spoken:
                        self.bus.publish(Event(EventType.SPEAKING, {"text": result.spoken}))
                        timer.first_audio_at = await self.speaker.speak(_one(result.spoken))
                        self._last_spoken = result.spoken
                record.update(
                    answer=result.text,
                    spoken=result.spoken,
                    mode=result.mode,
                    citations=[c.to_page_json() for c in result.citations],
                    namespaces=list(result.namespaces) or record["namespaces"],
                    extra=result.extra,
                )
            except Exception as err:  # the pipeline must survive any stage failing
                code, message = public_error(err)
                if not isinstance(err, OpenClawError):
                    log.exception("question failed")
                record.update(error={"code": code, "message": message}, mode="error")
                self.bus.publish(Event(EventType.ERROR, {"code": code, "message": message}))
                spoken = f"Sorry, that failed: {message}"
                record["spoken"] = spoken
                try:
                    timer.first_audio_at = await self.speaker.speak(_one(spoken))
                except Exception:  # no speaker: the status page still shows it
                    log.warning("could not speak the error")
            finally:
                timer.done_at = time.monotonic()
                self.bus.publish(Event(EventType.IDLE, {}))
            stages = timer.stages()
            record["latency"] = stages
            if command.kind == CommandKind.QUESTION and record["mode"] != "asked":
                # A question back is not an answer: its speed would flatter the answers' figures.
                self.latency.record(stages)
            self.bus.publish(Event(EventType.ANSWER_READY, {"record": record}))
            return record

    async def _question(
        self, question: str, asked: AskedBack | None, record: dict[str, Any], timer: QuestionTimer
    ) -> AnswerResult:
        """Answer a question, or the question asked back about which drawing when this one is
        its reply."""
        chosen: InHand | None = None  # the drawing a reply named for the question it answers
        if asked is not None:
            held = await self.answerer.drawing_in_reply(
                question, self.rooms.namespaces, listed=asked.listed
            )
            picked = chosen_by_place(question, asked.listed)
            if held is None and picked is not None:
                # "The second one": of the drawings the question back named.
                held = InHand(*picked, "chosen", time.monotonic())
            if held is not None:
                # "The adapter plate.": the question asked back is about it.
                question, chosen = asked.question, self._about(held, asked.question, record)
            elif asked.tries < MAX_REPLY_TRIES and not asks_something(question):
                # No drawing's name was heard in the reply ("the call of psychopum"): said back,
                # with the way to name one that is heard best.
                record["reply_to"] = asked.question
                text = (
                    f'I did not catch a drawing\'s name in "{question}". '
                    "Say its number, or its title."
                )
                self.bus.publish(Event(EventType.SPEAKING, {"text": text}))
                timer.first_audio_at = await self.speaker.speak(_one(text))
                self._last_spoken = text
                self._wait_for_reply(asked.question, asked.tries + 1, asked.listed)
                return AnswerResult(text=text, spoken=text, mode="asked")
        elif (answered := self.answered.current()) is not None:
            # Only a name, nothing asked: "the shaft coupling's scale" is a question of its own.
            held = await self.answerer.drawing_in_reply(
                question, self.rooms.namespaces, only_name=True
            )
            if held is not None:
                # "The Spannpratze." after an answer from another drawing: the same question,
                # about the drawing named.
                question, chosen = answered.question, self._about(held, answered.question, record)
        result = await self._answer_and_speak(question, timer, chosen)
        if result.mode == "asked":
            self.answered.drop()
            self._wait_for_reply(question, 0, _listed(result.extra))
        elif result.extra.get("named"):
            self.answered.drop()
        else:
            self.answered.ask(question)
        return result

    def _about(self, held: InHand, question: str, record: dict[str, Any]) -> InHand:
        """A reply named ``held`` for ``question``: that drawing in hand, the reply recorded as
        one; returns the drawing, chosen for the question."""
        self.in_hand.take(held.namespace, held.source, held.why)
        record["reply_to"] = question
        return held

    def _wait_for_reply(self, question: str, tries: int, listed: Sequence[tuple[str, str]]) -> None:
        """After "Which drawing do you mean?": hold the question, and listen for the reply
        without the wake phrase."""
        self.asked.ask(question, tries, listed)
        if self.listen_for_reply is not None:
            self.listen_for_reply()

    async def _answer_and_speak(
        self, question: str, timer: QuestionTimer, chosen: InHand | None = None
    ) -> AnswerResult:
        """Stream the answer into the speaker: each checked sentence is spoken as soon as it is ready.

        An acknowledgement (the model is asked) is spoken on its own first, while the model works.
        ``chosen``: the drawing a reply named for this question, which it is about even when no
        drawing is kept in hand between questions (``answer.in_hand_s = 0``).
        """
        self.bus.publish(Event(EventType.THINKING, {"question": question}))
        final: AnswerResult | None = None
        first_sentence_at: float | None = None
        held = chosen if chosen is not None else self.in_hand.current()
        stream = self.answerer.stream(question, self.rooms.namespaces, _Times(timer), held)
        first = await anext(stream, None)
        if isinstance(first, Acknowledgement):
            # Spoken whole before the answer's own speech starts; the model keeps working meanwhile.
            self.bus.publish(Event(EventType.SPEAKING, {"text": first.text}))
            timer.acknowledged_at = await self.speaker.speak(_one(first.text))
            first = None

        async def sentences() -> AsyncIterator[str]:
            nonlocal final, first_sentence_at
            async for item in _after(first, stream):
                if isinstance(item, AnswerResult):
                    final = item
                elif isinstance(item, Acknowledgement):
                    continue  # only the first item may acknowledge
                else:
                    if first_sentence_at is None:
                        first_sentence_at = time.monotonic()
                    self.bus.publish(Event(EventType.SPEAKING, {"text": item}))
                    yield item

        timer.first_audio_at = await self.speaker.speak(sentences())
        if final is None:
            # The speaker stopped early (interrupted): finish the answer for the status page.
            async for item in stream:
                if isinstance(item, AnswerResult):
                    final = item
        if final is None:
            raise AnswerError("the answer ended without a result", code="answer_incomplete")
        if timer.first_token_at is None:
            # Extractive answers have no tokens: their first sentence is the first output.
            timer.first_token_at = first_sentence_at
        self._last_spoken = final.spoken
        named = final.extra.get("named")
        self.in_hand.after_answer(final.citations, (named[0], named[1]) if named else None)
        self._show_hand()
        return final

    async def _command(self, kind: CommandKind, argument: str) -> AnswerResult:
        if kind == CommandKind.REMEMBER:
            return await self.remember(argument)
        if kind == CommandKind.SCAN:
            summary = await self.scan()
            return AnswerResult(text=summary, spoken=summary, mode="command")
        if kind == CommandKind.WHICH_ROOM:
            room = self.rooms.room
            text = (
                f"Now in {room}; searching "
                f"{', '.join(n for n in self.rooms.namespaces if n != 'global')} and global."
                if room
                else "No room is near; searching the global documents only."
            )
            return AnswerResult(text=text, spoken=text, mode="command")
        if kind == CommandKind.SWITCH_ROOM:
            try:
                current = self.rooms.set_manual(argument)
            except InputError as err:
                if err.code != "room_unknown":
                    raise
                # A room the rooms file does not name (or a name misheard past recognising): an
                # answer, not a failure; the message lists the rooms there are.
                text = f"I don't know that room: {err.message}."
                return AnswerResult(text=text, spoken=text, mode="command")
            text = f"Now in {current['name']}."
            return AnswerResult(text=text, spoken=text, mode="command")
        if kind == CommandKind.REPEAT:
            text = self._last_spoken or "I have not said anything yet."
            return AnswerResult(text=text, spoken=text, mode="command")
        if kind == CommandKind.EMPTY:
            text = "I heard the wake word but no question."
            return AnswerResult(text=text, spoken="Yes?", mode="command")
        # STOP: silence is the answer.
        self.speaker.stop()
        return AnswerResult(text="(stopped)", spoken="", mode="command")

    # -- memory, capture, buttons ------------------------------------------------------------------
    async def remember(self, note: str) -> AnswerResult:
        """Write a memory note into the active room's memory and index it now."""
        namespace = self.rooms.memory_namespace()
        files = await asyncio.to_thread(self.memory.remember, namespace, note)
        jobs = [self.queue.submit("index", namespace, path=p) for p in files]
        for job in jobs:
            assert job.done is not None
            await job.done
        self.bus.publish(Event(EventType.MEMORY_NOTED, {"namespace": namespace, "note": note}))
        text = f"Noted in {namespace} memory: {note}"
        return AnswerResult(text=text, spoken="Noted.", mode="command", namespaces=(namespace,))

    async def scan(self) -> str:
        """Capture from the camera, gate, OCR and index; return the sentence to speak."""
        if not self.capture_enabled:
            return "There is no camera configured."
        self.bus.publish(Event(EventType.CAPTURE_REQUESTED, {}))
        job = self.queue.submit("capture", self.rooms.memory_namespace())
        assert job.done is not None
        try:
            summary = await job.done
        except OpenClawError as err:
            self.bus.publish(
                Event(EventType.CAPTURE_REJECTED, {"code": err.code, "reason": err.message})
            )
            return err.message
        if job.source:
            self.in_hand.take(job.namespace, job.source, "scanned")
            self._show_hand()
        return summary

    def _show_hand(self) -> None:
        """Tell the status page which drawing is in hand, and until when."""
        held = self.in_hand.current()
        data: dict[str, Any] = {}
        if held is not None:
            data = {
                "namespace": held.namespace,
                "source": held.source,
                "why": held.why,
                "until": time.time() + self.in_hand.left_s(),
            }
        self.bus.publish(Event(EventType.IN_HAND, data))

    def false_wake(self) -> Path | None:
        """Keep the last wake's audio for tuning, stop speaking; returns the clip written."""
        self.speaker.stop()
        utt = self._last_utterance
        clip: Path | None = None
        if utt is not None and len(utt.audio):
            folder = self.data_dir / "false-wakes"
            clip = write_wav(
                folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{next(self._ids)}.wav", utt.audio
            )
        self.bus.publish(
            Event(
                EventType.FALSE_WAKE,
                {"clip": clip.name if clip else "", "transcript": utt.text if utt else ""},
            )
        )
        return clip
