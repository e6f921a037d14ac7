"""The real parts behind the service's ports, built from the configuration.

Each adapter is thin: it converts between a part's own types and the port the pipeline uses.
A part that cannot be built here (no rooms file, no model) is left out and shown as disabled with
the reason; the rest of the appliance runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import (
    AsyncGenerator,
    AsyncIterable,
    AsyncIterator,
    Awaitable,
    Callable,
    Sequence,
)
from typing import TYPE_CHECKING, Any

from PIL import Image

from appliance.answer.in_hand import InHand
from appliance.audio.bias import index_names
from appliance.audio.utterance import Utterance
from appliance.config import Config
from appliance.errors import OpenClawError
from appliance.events import Event, EventBus, EventType
from appliance.service.appliance import Parts
from appliance.service.library import IndexLibrary, source_records
from appliance.service.ports import Acknowledgement, AnswerResult, AnswerTimes
from appliance.service.supervisor import PermanentFault

if TYPE_CHECKING:
    from appliance.answer.answering import Answer
    from appliance.answer.worker import AnswerWorker, WorkerStatus
    from appliance.audio.frontend import VoiceFrontEnd
    from appliance.audio.tts import Speaker as AudioSpeaker
    from appliance.index.embedder import Embedder
    from appliance.index.store import IndexStore, SourceInfo
    from appliance.presence.monitor import PresenceMonitor
    from appliance.presence.rooms import RoomsPlan

log = logging.getLogger(__name__)


class SharedEmbedder:
    """One embedding model for both index connections (it is thread-safe; loading it twice costs RAM)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._embedder: Embedder | None = None
        self._lock = threading.Lock()

    def get(self) -> Embedder:
        """The embedder, loaded and verified on first use."""
        with self._lock:
            if self._embedder is None:
                from appliance.index.embedder import Embedder

                self._embedder = Embedder.from_settings(
                    self.config.index, self.config.paths.models_dir
                )
            return self._embedder


class ReaderStore:
    """One read connection to the index, opened on first use, for answers and room warming."""

    def __init__(self, config: Config, embedder: SharedEmbedder) -> None:
        self.config = config
        self.embedder = embedder
        self._store: IndexStore | None = None
        self._lock = threading.Lock()

    def get(self) -> IndexStore:
        """The store, opened on first use (the warm-up after start-up usually does it)."""
        with self._lock:
            if self._store is None:
                from appliance.index.store import IndexStore

                self._store = IndexStore.open(self.config, embedder=self.embedder.get())
            return self._store

    def opened(self) -> IndexStore | None:
        """The store if it is open already (never opens it)."""
        return self._store

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None


class AnswerAdapter:
    """:class:`~appliance.service.ports.Answerer` over ``appliance.answer.stream_answer``."""

    def __init__(self, config: Config, reader: ReaderStore, worker: AnswerWorker | None) -> None:
        self.config = config
        self.reader = reader
        self.worker = worker
        self._artifacts: dict[tuple[str, str], tuple[str, list[float] | None]] = {}

    async def stream(
        self,
        question: str,
        namespaces: Sequence[str],
        times: AnswerTimes,
        in_hand: InHand | None = None,
    ) -> AsyncIterator[str | Acknowledgement | AnswerResult]:
        """An acknowledgement when the model is asked, sentences as they are checked, then the
        final answer; a question that names no drawing is about the drawing ``in_hand``."""
        from appliance.answer.answering import stream_answer

        started = time.monotonic()
        store = await asyncio.to_thread(self.reader.get)
        final: Answer | None = None
        # The pipeline answers what the voice front end heard: a transcript, not typed text.
        async for event in stream_answer(
            question,
            store=store,
            config=self.config,
            namespaces=namespaces,
            worker=self.worker,
            heard=True,
            in_hand=in_hand,
        ):
            if event.answer is not None:
                final = event.answer
            elif event.kind == "ack":
                yield Acknowledgement(event.text)
            elif event.text:
                yield event.text
        assert final is not None
        retrieve = float(final.timings.get("retrieve", 0.0))
        times.retrieval(started, started + retrieve)
        if "first_token" in final.timings:
            times.first_token(started + retrieve + float(final.timings["first_token"]))
        yield self._result(store, final)

    async def drawing_in_reply(
        self,
        reply: str,
        namespaces: Sequence[str],
        only_name: bool = False,
        listed: Sequence[tuple[str, str]] = (),
    ) -> InHand | None:
        """The drawing a reply to "which drawing?" names, if it is only a name (a transcript),
        or the one of ``listed`` it picks by language ("the German one")."""
        from appliance.answer.which_drawing import drawing_in_reply

        return await asyncio.to_thread(
            lambda: drawing_in_reply(
                reply,
                store=self.reader.get(),
                namespaces=namespaces,
                heard=True,
                only_name=only_name,
                listed=listed,
            )
        )

    def _thumbnail(
        self, store: IndexStore, namespace: str, source: str
    ) -> tuple[str, list[float] | None]:
        key = (namespace, source)
        if key not in self._artifacts:
            info = next((s for s in store.list_sources(namespace) if s.source == source), None)
            extra = info.extra if info is not None else {}
            thumb = str((extra.get("artifacts") or {}).get("thumbnail", ""))
            size = extra.get("image_size")
            page_size = (
                [float(v) for v in size] if isinstance(size, list) and len(size) == 2 else None
            )
            if thumb and page_size is None:
                # No recorded size: derive it from the thumbnail and its scale.
                path = self.config.paths.data_dir / thumb
                scale = float(extra.get("thumbnail_scale") or 1.0)
                with contextlib.suppress(OSError), Image.open(path) as img:
                    page_size = [img.width / scale, img.height / scale]
            self._artifacts[key] = (thumb, page_size)
        return self._artifacts[key]

    def _result(self, store: IndexStore, answer: Answer) -> AnswerResult:
        citations = []
        for c in answer.citations:
            thumb, page_size = self._thumbnail(store, c.namespace, c.source)
            # The answer's box spans every merged neighbour of the drawing; the highlight shows the
            # best slice, the one the quote comes from.
            box = list(c.box) if c.box else None
            if c.slice_ids:
                with contextlib.suppress(OpenClawError):
                    best = store.get_slice(c.slice_ids[0])
                    if best.box is not None:
                        box = best.box.to_list()
            citations.append(dataclasses.replace(c, box=box, thumbnail=thumb, page_size=page_size))
        mode = "abstain" if answer.mode == "abstained" else answer.mode
        return AnswerResult(
            text=answer.text,
            spoken=answer.spoken,
            citations=tuple(citations),
            mode=mode,
            namespaces=tuple(answer.namespaces),
            extra={
                "fallback_reason": answer.fallback_reason,
                "timings": answer.timings,
                "in_hand": answer.in_hand,
                "named": list(answer.named) if answer.named else None,
                "listed": [list(d) for d in answer.listed],
            },
        )


class AnswerWorkerComponent:
    """Runs the sandboxed llama.cpp worker for the service's lifetime; reaps it on shutdown.

    A model file that is missing, fails its checksum or does not load ends the component with a
    :class:`PermanentFault` (shown ``failed`` with the code, not restarted): a restart cannot mend a
    file. Other start failures are the supervisor's to retry; crashes later the worker restarts itself.
    """

    name = "answer"

    def __init__(self, worker: AnswerWorker) -> None:
        self.worker = worker

    async def run(self) -> None:
        """Start the worker and hold it until cancelled, or until it fails for good."""
        from appliance.answer.worker import PERMANENT_CODES

        try:
            try:
                await self.worker.start()
            except OpenClawError as err:
                if err.code in PERMANENT_CODES:
                    raise PermanentFault(err.message, code=err.code) from err
                raise
            # A later restart (after a crash) can meet a file broken meanwhile.
            status = await self.worker.wait_failed()
            raise PermanentFault(status.last_error, code=status.last_error_code)
        finally:
            await asyncio.shield(self.worker.close())


class VoiceAdapter:
    """Listener and Speaker over the audio part's :class:`VoiceFrontEnd`."""

    def __init__(self, frontend: VoiceFrontEnd) -> None:
        self.frontend = frontend

    def describe(self) -> str:
        """What listens and speaks, for the listener's line on the status page."""
        s = self.frontend.status()
        return f"wake {s['wake_detector']}, speech {s['recogniser']}, voice {s['voice']}"

    async def utterances(self) -> AsyncGenerator[Utterance, None]:
        """Questions as heard; ends when the audio source ends (a replayed WAV file)."""
        try:
            while True:
                heard = await self.frontend.next_utterance()
                if heard is None:
                    return
                yield heard
        finally:
            await asyncio.shield(self.frontend.close())

    def push_to_talk(self) -> None:
        """The talk button."""
        self.frontend.push_to_talk()

    async def speak(self, sentences: AsyncIterable[str]) -> float | None:
        """Speak streamed sentences; the first audio's time."""
        report = await self.frontend.speak(sentences)
        return report.first_audio

    async def prepare(self, text: str) -> None:
        """Synthesise a fixed phrase ahead (the acknowledgement)."""
        await self.frontend.speaker.prepare(text)

    def stop(self) -> None:
        """Cut speech short."""
        self.frontend.interrupt()


class SpeakerAdapter:
    """Speech output alone (no microphone configured): the audio part's espeak-ng speaker."""

    def __init__(self, speaker: AudioSpeaker) -> None:
        self.speaker = speaker

    async def speak(self, sentences: AsyncIterable[str]) -> float | None:
        """Speak streamed sentences; the first audio's time."""
        report = await self.speaker.speak(sentences)
        return report.first_audio

    async def prepare(self, text: str) -> None:
        """Synthesise a fixed phrase ahead (the acknowledgement)."""
        await self.speaker.prepare(text)

    def stop(self) -> None:
        """Cut speech short."""
        self.speaker.interrupt()


class PresenceAdapter:
    """The presence part's monitor as the service's Presence port."""

    def __init__(
        self,
        monitor: PresenceMonitor,
        prewarm: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self.monitor = monitor
        #: Run once beside the scanner: loads every room's namespaces so a switch costs no load.
        self.prewarm = prewarm
        #: What the pre-warm returned once it finished (the activator's ``Activation``).
        self.prewarmed: object | None = None

    async def run(self) -> None:
        """Scan until cancelled (pre-warming the rooms meanwhile); the scanner is stopped on the way out."""
        warming = asyncio.create_task(self._prewarm()) if self.prewarm is not None else None
        try:
            await self.monitor.run()
        finally:
            if warming is not None:
                warming.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await warming
            await self.monitor.stop()

    async def _prewarm(self) -> None:
        assert self.prewarm is not None
        try:
            self.prewarmed = await self.prewarm()
        except Exception:
            # A failed pre-warm only means the first switch into a room pays the load.
            log.exception("pre-warming the rooms' namespaces failed")

    def set_override(self, room: str | None) -> dict[str, Any] | None:
        """Hold a room, or let the beacons decide again."""
        switch = (
            self.monitor.set_override(room, by="web")
            if room is not None
            else self.monitor.clear_override(by="web")
        )
        if switch is None:
            return None
        data = switch.to_json()
        found = self.monitor.plan.rooms.get(switch.to_room) if switch.to_room else None
        data["room_name"] = found.name if found else None
        return data

    def rooms(self) -> dict[str, list[str]]:
        """Room name -> namespaces."""
        return {r.name: list(r.namespaces) for r in self.monitor.plan.rooms.values()}


class Vocabulary:
    """Drawing numbers and titles in the index, which the recogniser is biased toward.

    Called from the voice front end on the event loop, so it never opens the index itself (the first
    question does that, off the loop) and refreshes at most once a minute.
    """

    def __init__(self, reader: ReaderStore, ttl_s: float = 60.0) -> None:
        self.reader = reader
        self.ttl_s = ttl_s
        #: The rooms' names (the rooms file), for "switch to <room>": set once presence is up.
        self.rooms: list[str] = []
        #: The active room's namespaces, whose drawings lead the index's names: set by the
        #: appliance once its room control exists.
        self.room_namespaces: Callable[[], Sequence[str]] = tuple
        self._sources: list[SourceInfo] = []
        self._at = -float("inf")

    def __call__(self) -> list[str]:
        """The current word list: the rooms' names, then the index's names, the active room's
        drawings first (ordered on every call, so a room change counts at once)."""
        return [*self.rooms, *index_names(self._index_sources(), self.room_namespaces())]

    def _index_sources(self) -> list[SourceInfo]:
        store = self.reader.opened()
        now = time.monotonic()
        if store is None or now - self._at < self.ttl_s:
            return self._sources
        self._at = now
        # An index being replaced keeps the last list until the next refresh.
        with contextlib.suppress(OpenClawError):
            self._sources = store.list_sources()
        return self._sources


def build_parts(config: Config, bus: EventBus) -> Parts:
    """Every part the configuration asks for; one that cannot be built is disabled with a reason."""
    embedder = SharedEmbedder(config)
    reader = ReaderStore(config, embedder)

    def library() -> IndexLibrary:
        from appliance.index.store import IndexStore

        return IndexLibrary(config, IndexStore.open(config, embedder=embedder.get()))

    parts = Parts(library_factory=library)
    parts.source_lister = lambda: source_records(reader.get())
    parts.closers.append(reader.close)
    parts.warmers.append(reader.get)
    _add_answer(config, bus, reader, parts)
    vocabulary = Vocabulary(reader)
    parts.room_followers.append(vocabulary)
    _add_voice(config, bus, vocabulary, parts)
    _add_presence(config, bus, reader, vocabulary, parts)
    return parts


def _add_answer(config: Config, bus: EventBus, reader: ReaderStore, parts: Parts) -> None:
    worker = None
    if config.answer.llm_model:
        from appliance.answer.worker import AnswerWorker

        def on_state(status: WorkerStatus) -> None:
            detail = {
                "component": "answer",
                "status": str(status.state),
                "pid": status.pid,
                "error": f"{status.last_error_code}: {status.last_error}"
                if status.last_error_code
                else "",
            }
            bus.publish(Event(EventType.COMPONENT_STATE, detail))

        worker = AnswerWorker(config.answer, models_dir=config.paths.models_dir, on_state=on_state)
        parts.components.append((AnswerWorkerComponent(worker), False))
    else:
        parts.disabled["answer"] = (
            "no answer model (answer.llm_model is empty): answers say what the drawings state"
        )
    parts.answerer = AnswerAdapter(config, reader, worker)


def _add_voice(config: Config, bus: EventBus, vocabulary: Vocabulary, parts: Parts) -> None:
    from appliance.audio.build import build_frontend, build_speaker

    if config.audio.source == "wav" and not config.audio.wav_files:
        parts.disabled["listener"] = "audio.source = wav with no audio.wav_files: nothing to hear"
        try:
            parts.speaker = SpeakerAdapter(build_speaker(config))
        except OpenClawError as err:
            parts.disabled["speaker"] = f"{err.code}: {err.message}"
        return
    try:
        frontend = build_frontend(
            config, bus=bus, vocabulary=vocabulary, rooms=lambda: vocabulary.rooms
        )
    except OpenClawError as err:
        parts.disabled["listener"] = "the wake or question engine cannot start"
        parts.faults["listener"] = (err.code, err.message)
        return
    voice = VoiceAdapter(frontend)
    parts.listener = voice
    parts.speaker = voice


def _log_empty_room_namespaces(config: Config, plan: RoomsPlan) -> None:
    """Warn about rooms' namespaces the index holds nothing in (a typo shows up here first)."""
    from appliance.presence.monitor import indexed_namespaces

    known = indexed_namespaces(config)
    if known is None:
        return
    for room in plan.rooms.values():
        empty = [n for n in room.namespaces if n not in known]
        if empty:
            log.warning(
                "rooms file: room %r names namespace(s) %s that hold nothing yet (the index has %s)",
                room.name,
                ", ".join(empty),
                ", ".join(known),
            )


def _add_presence(
    config: Config, bus: EventBus, reader: ReaderStore, vocabulary: Vocabulary, parts: Parts
) -> None:
    if config.presence.backend == "off":
        parts.disabled["presence"] = "presence.backend = off"
        return
    from appliance.presence.activator import NamespaceActivator
    from appliance.presence.monitor import PresenceMonitor, load_configured_rooms

    try:
        # Namespaces are not checked against the index here, as `openclaw rooms` does: a room's
        # first namespace is where captures made in it go, so a new room's namespace only comes
        # into being once the appliance has been there. Those not in the index yet are logged.
        plan = load_configured_rooms(config)
    except OpenClawError as err:
        parts.disabled["presence"] = f"{err.code}: {err.message}"
        return
    _log_empty_room_namespaces(config, plan)
    for key, advice in plan.placement_advice().items():
        log.info("room %s: %s", key, advice)
    # "switch to <room>": the recogniser is pulled toward the names it must write.
    vocabulary.rooms = sorted(room.name for room in plan.rooms.values())

    activators: list[NamespaceActivator] = []

    async def activate(namespaces: tuple[str, ...]) -> Any:
        if not activators:
            activators.append(NamespaceActivator(await asyncio.to_thread(reader.get)))
        return await activators[0].activate_async(namespaces)

    async def prewarm() -> object:
        # The index loads a namespace's vectors on its first search (~0.5 s per 10k slices); doing
        # that for every room at start-up keeps each later switch to the warming search alone.
        if not activators:
            activators.append(NamespaceActivator(await asyncio.to_thread(reader.get)))
        names = sorted({n for room in plan.rooms.values() for n in room.namespaces})
        return await asyncio.to_thread(activators[0].prewarm, names)

    monitor = PresenceMonitor.from_config(config, plan, bus=bus, activate=activate)
    parts.presence = PresenceAdapter(monitor, prewarm=prewarm)
