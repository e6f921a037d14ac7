"""The appliance: every component wired together under one supervisor, one event bus and one state.

:meth:`Appliance.run` starts the components, tells systemd it is ready, waits for the stop signal and
then unwinds in order: components cancelled (the answer worker reaped, audio closed, LEDs off), the
index queue drained and the database closed. The same object is what the status page's admin actions
act on (:class:`~appliance.web.base.ApplianceControl`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
from collections.abc import AsyncIterable, AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpiozero import Factory

from appliance.answer.in_hand import DrawingInHand, InHand
from appliance.answer.which_drawing import PendingQuestion
from appliance.config import Config
from appliance.errors import HardwareError, InputError
from appliance.events import Event, EventBus, EventType
from appliance.service.inbox import SUFFIXES, InboxWatcher, wanted
from appliance.service.indexer import IndexQueue
from appliance.service.looplag import LoopLagMonitor
from appliance.service.memory import MemoryNotes, check_namespace
from appliance.service.notify import SystemdNotifier
from appliance.service.pipeline import QuestionPipeline
from appliance.service.ports import (
    Answerer,
    AnswerResult,
    AnswerTimes,
    Library,
    Listener,
    Presence,
    RoomFollower,
    SourceRecord,
    Speaker,
)
from appliance.service.rooms import RoomControl
from appliance.service.supervisor import Backoff, ComponentStatus, FunctionComponent, Supervisor
from appliance.state import LiveState

log = logging.getLogger(__name__)

_FILENAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,150}$")


@dataclass
class Parts:
    """The parts the appliance is built from; a None part is shown as disabled with its reason."""

    #: Opens the index for the writer thread.
    library_factory: Callable[[], Library]
    #: Search + answer.
    answerer: Answerer | None = None
    #: Speech output.
    speaker: Speaker | None = None
    #: Microphone, wake word and transcription.
    listener: Listener | None = None
    #: Whether a camera is configured (captures go through the index queue and the vision part).
    capture_enabled: bool = True
    #: BLE rooms.
    presence: Presence | None = None
    #: Extra supervised components the parts need (the answer worker ...): (component, critical).
    components: list[tuple[Any, bool]] = field(default_factory=list)
    #: Why a part is missing, by component name.
    disabled: dict[str, str] = field(default_factory=dict)
    #: (code, message) of parts that are configured to run but cannot start (a missing model): shown
    #: as a fault on the status page and logged as an error, unlike a part switched off on purpose.
    faults: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: Called once at shutdown after the components stopped (close models, reap children).
    closers: list[Callable[[], None]] = field(default_factory=list)
    #: Lists indexed sources through a reader connection (the status page must not queue behind a
    #: long indexing job on the writer thread); None = ask the writer.
    source_lister: Callable[[], list[SourceRecord]] | None = None
    #: Called once in a thread after start-up (load models before the first question needs them).
    warmers: list[Callable[[], object]] = field(default_factory=list)
    #: Parts that follow the active room (the recogniser's vocabulary puts its drawings first).
    room_followers: list[RoomFollower] = field(default_factory=list)


class _SilentSpeaker:
    """Used when no speech output is configured: answers still reach the status page."""

    async def speak(self, sentences: AsyncIterable[str]) -> float | None:
        async for _ in sentences:
            pass
        return None

    def stop(self) -> None:
        return None

    async def prepare(self, text: str) -> None:
        return None


class _NoAnswers:
    """Used when no answer part is available: every question gets a clear error."""

    async def stream(
        self,
        question: str,
        namespaces: Sequence[str],
        times: AnswerTimes,
        in_hand: InHand | None = None,
    ) -> AsyncIterator[str | AnswerResult]:
        raise InputError(
            "answering is not available on this installation", code="answer_unavailable"
        )
        yield ""  # pragma: no cover - makes this an async generator

    async def drawing_in_reply(
        self,
        reply: str,
        namespaces: Sequence[str],
        only_name: bool = False,
        listed: Sequence[tuple[str, str]] = (),
    ) -> InHand | None:
        """No drawings without the answer part."""
        return None


class Appliance:
    """Everything the ``openclaw run`` process does."""

    def __init__(
        self,
        config: Config,
        parts: Parts,
        *,
        bus: EventBus | None = None,
        pin_factory: Factory | None = None,
        notifier: SystemdNotifier | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        from appliance.gpio.controller import GpioComponent
        from appliance.web.app import StatusPage
        from appliance.web.auth import load_or_create_token
        from appliance.web.server import WebServer

        self.config = config
        self.parts = parts
        self.data_dir = config.paths.data_dir
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.bus = bus or EventBus(queue_size=512)
        self.state = LiveState()
        self._state_queue = self.state.attach(self.bus)
        self.supervisor = Supervisor(self.bus, backoff)
        self.loop_monitor = LoopLagMonitor(self.state.latency.registry)
        self.state.loop_figures = self.loop_monitor.figures
        self.notifier = notifier or SystemdNotifier()
        self.queue = IndexQueue(self.bus, parts.library_factory)
        self.memory = MemoryNotes(self.data_dir / "memory")
        self.rooms = RoomControl(self.bus, self.state, parts.presence)
        for follower in parts.room_followers:
            follower.room_namespaces = self._room_namespaces_first
        self.inbox_root = self.data_dir / "inbox"
        self.inbox = InboxWatcher(
            self.queue, [self.inbox_root, self.data_dir / "memory"], config.ingest.debounce_s
        )
        answerer: Answerer = parts.answerer or _NoAnswers()
        speaker: Speaker = parts.speaker or _SilentSpeaker()
        self.pipeline = QuestionPipeline(
            self.bus,
            self.state.latency,
            answerer,
            speaker,
            self.queue,
            self.memory,
            self.rooms,
            self.data_dir,
            parts.capture_enabled,
            in_hand=DrawingInHand(config.answer.in_hand_s),
            asked=PendingQuestion(config.answer.ask_which_s),
            answered=PendingQuestion(config.answer.ask_which_s),
            listen_for_reply=parts.listener.push_to_talk if parts.listener is not None else None,
        )
        self.gpio = GpioComponent(config.gpio, self.bus, pin_factory=pin_factory)
        self.token = load_or_create_token(self.data_dir / config.web.token_file)
        self.page = StatusPage(
            self.state, self, config.web, self.data_dir, self.token, self.state.latency.registry
        )
        self.web = WebServer(self.page, config.web.host, config.web.port)
        self._stop = asyncio.Event()
        self._background: set[asyncio.Task[None]] = set()
        self.stopped_cleanly = False

    def _room_namespaces_first(self) -> list[str]:
        """The active room's own namespaces, then global: the order its drawings matter in."""
        own = [n for n in self.rooms.namespaces if n != "global"]
        return [*own, "global"]

    # -- components ------------------------------------------------------------------------------
    async def _buttons(self) -> None:
        queue = self.bus.subscribe_queue()
        try:
            while True:
                event = await queue.get()
                if event.type != EventType.BUTTON:
                    continue
                button = event.data.get("button")
                if button == "talk" and self.parts.listener is not None:
                    self.parts.listener.push_to_talk()
                elif button == "capture":
                    task = asyncio.create_task(self._scan_and_say())
                    self._background.add(task)
                    task.add_done_callback(self._background.discard)
                elif button == "not_for_you":
                    await asyncio.to_thread(self.pipeline.false_wake)
        finally:
            self.bus.unsubscribe(queue)

    async def _announce_rooms(self) -> None:
        """Say "now in <room>" when presence switches rooms (manual switches are answered already)."""
        queue = self.bus.subscribe_queue()
        try:
            while True:
                event = await queue.get()
                data = event.data
                if event.type != EventType.ROOM_CHANGED or "to_room" not in data:
                    continue
                if str(data.get("reason", "")).startswith("override"):
                    continue
                name = data.get("room_name") or ""
                await self.pipeline.announce(f"Now in {name}." if name else "Left the room.")
        finally:
            self.bus.unsubscribe(queue)

    async def _scan_and_say(self) -> None:
        summary = await self.pipeline.scan()
        await self.pipeline.say(summary)

    async def _listen(self) -> None:
        listener = self.parts.listener
        assert listener is not None
        self.supervisor.report("listener", listener.describe())
        async for utterance in listener.utterances():
            await self.pipeline.handle(utterance)

    async def _presence(self) -> None:
        presence = self.parts.presence
        assert presence is not None
        await presence.run()

    def _register(self) -> None:
        sup = self.supervisor
        sup.add(
            FunctionComponent("state", lambda: self.state.follow(self._state_queue)), critical=True
        )
        sup.add(self.queue, critical=True)
        sup.add(self.inbox)
        for component, critical in self.parts.components:
            sup.add(component, critical=critical)
        if self.parts.listener is not None:
            sup.add(FunctionComponent("listener", self._listen))
        if self.parts.presence is not None:
            sup.add(FunctionComponent("presence", self._presence))
            sup.add(FunctionComponent("room-announcer", self._announce_rooms))
        sup.add(FunctionComponent("buttons", self._buttons))
        sup.add(self.gpio)
        if self.config.web.enabled:
            sup.add(self.web, critical=True)
        else:
            sup.disable("web", "web.enabled = false")
        sup.add(
            FunctionComponent(
                "watchdog", lambda: self.notifier.watchdog_loop(self._alive, self._status_line)
            )
        )
        sup.add(self.loop_monitor)
        for name, reason in self.parts.disabled.items():
            sup.disable(name, reason)
            health = sup.get_health(name)
            if name in self.parts.faults:
                health.last_error_code, health.last_error = self.parts.faults[name]
                log.error(
                    f"{name} is off: it cannot start ({health.last_error})",
                    extra={"component": name, "code": health.last_error_code},
                )
            self.bus.publish(Event(EventType.COMPONENT_STATE, health.to_json()))

    def _status_line(self) -> str:
        """The one line ``systemctl status`` shows."""
        health = [h for h in self.supervisor.health() if h.status != ComponentStatus.DISABLED]
        down = [h.name for h in health if h.status != ComponentStatus.RUNNING]
        pending = sum(1 for j in self.state.jobs if j["state"] in ("queued", "running"))
        parts = [f"port {self.web.bound_port}", f"{len(health) - len(down)}/{len(health)} running"]
        if down:
            parts.append("down: " + ", ".join(down))
        if self.parts.faults:
            parts.append("cannot start: " + ", ".join(self.parts.faults))
        if pending:
            parts.append(f"indexing {pending}")
        parts.append(f"{self.state.counters['questions']} questions")
        return "; ".join(parts)

    def _alive(self) -> bool:
        # The loop runs (we are in it); withhold pings only if the core stopped working.
        core = ("state", "indexer")
        return all(self.supervisor.get_health(n).status == ComponentStatus.RUNNING for n in core)

    # -- life ------------------------------------------------------------------------------------
    def request_stop(self) -> None:
        """Begin a clean shutdown (signal handlers call this)."""
        self._stop.set()

    async def started(self) -> None:
        """Wait until the status page accepts connections (when enabled).

        Raises the web component's error if it cannot start (the port is taken), instead of waiting
        through its restarts.
        """
        if not self.config.web.enabled:
            return
        while not self.web.started.is_set():
            health = self.supervisor.get_health("web") if "web" in self.supervisor.names() else None
            if health is not None and health.status == ComponentStatus.BACKOFF:
                raise HardwareError(health.last_error, code=health.last_error_code or "web_failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.web.started.wait(), 0.1)

    async def run(self) -> None:
        """Run until :meth:`request_stop`; then unwind everything."""
        self._register()
        self.supervisor.start()
        try:
            startup = asyncio.ensure_future(self.started())
            stop = asyncio.ensure_future(self._stop.wait())
            await asyncio.wait({startup, stop}, return_when=asyncio.FIRST_COMPLETED)
            if startup.done() and startup.exception() is not None:
                # The status page cannot start (port taken): fail loudly rather than half-run.
                stop.cancel()
                raise startup.exception()  # type: ignore[misc]
            if not stop.done():
                port = self.web.bound_port
                self.notifier.ready(f"serving status page on port {port}")
                log.info("appliance ready", extra={"port": port, "pid": os.getpid()})
                warm = asyncio.ensure_future(self._warm())
                await stop
                warm.cancel()
            startup.cancel()
        finally:
            await self.shutdown()

    async def _warm(self) -> None:
        """Load what the first question would otherwise wait for, off the event loop."""
        for warmer in self.parts.warmers:
            try:
                await asyncio.to_thread(warmer)
            except Exception as err:  # a part that cannot warm up reports itself when used
                log.warning("warm-up failed", extra={"error": type(err).__name__})
        if self.config.answer.acknowledgement_heard:
            try:
                await self.pipeline.speaker.prepare(self.config.answer.acknowledgement_heard)
            except Exception as err:  # the voice reports itself when it is used
                log.warning("warm-up failed", extra={"error": type(err).__name__})

    async def shutdown(self) -> None:
        """Stop the components, close the index, release hardware."""
        self.notifier.stopping()
        await self.supervisor.stop()
        self.gpio.close()
        for closer in self.parts.closers:
            try:
                await asyncio.to_thread(closer)
            except Exception:
                log.warning("a part failed to close", exc_info=True)
        await asyncio.to_thread(self.queue.close)
        # Report what is actually so, not what was intended.
        leds = "off" if self.gpio.light is None and self.gpio.buttons is None else "on"
        index = "open" if self.queue.is_open() else "closed"
        running = [h.name for h in self.supervisor.health() if h.status == ComponentStatus.RUNNING]
        workers = [
            c.worker.status.pid
            for c, _ in self.parts.components
            if getattr(c, "worker", None) is not None and c.worker.status.pid
        ]
        self.stopped_cleanly = leds == "off" and index == "closed" and not running and not workers
        log.info(
            "shutdown complete",
            extra={
                "leds": leds,
                "index": index,
                "components_running": len(running),
                "worker_pids": len(workers),
                "clean": self.stopped_cleanly,
                "pid": os.getpid(),
            },
        )

    # -- ApplianceControl (the status page) -------------------------------------------------------
    def healthy(self) -> tuple[bool, list[str]]:
        """(all critical components running, the names of those that are not)."""
        failing = [
            h.name
            for h in self.supervisor.health()
            if h.critical and h.status != ComponentStatus.RUNNING
        ]
        return (not failing, failing)

    async def sources(self) -> dict[str, list[dict[str, Any]]]:
        """Indexed sources by namespace."""
        lister = self.parts.source_lister
        if lister is not None:
            records = await asyncio.to_thread(lister)
        else:
            records = await self.queue.call(lambda lib: lib.sources())
        out: dict[str, list[dict[str, Any]]] = {}
        for r in records:
            out.setdefault(r.namespace, []).append(
                {
                    "source": r.source,
                    "title": r.title,
                    "slices": r.slices,
                    "drawing_number": r.drawing_number,
                    "revision": r.revision,
                }
            )
        return out

    def _inbox_file(self, namespace: str, filename: str) -> Path:
        check_namespace(namespace)
        name = Path(filename).name
        if name != filename or not _FILENAME.match(name) or not wanted(Path(name)):
            allowed = ", ".join(sorted(SUFFIXES))
            raise InputError(
                f"file name {filename[:60]!r} is not accepted: plain names ending in {allowed}",
                code="filename_invalid",
            )
        return self.inbox_root / namespace / name

    async def upload(self, namespace: str, filename: str, staged: Path) -> dict[str, Any]:
        """Move a staged upload into the inbox (atomically) and queue it for indexing."""
        target = self._inbox_file(namespace, filename)
        with staged.open("rb") as fh:
            head = fh.read(8192)
        _check_magic(target.suffix.lower(), head, filename)
        target.parent.mkdir(parents=True, exist_ok=True)
        size = staged.stat().st_size
        # Same file system (both under the data directory): the file appears in the inbox whole.
        await asyncio.to_thread(shutil.move, staged, target)
        job = self.queue.submit("index", namespace, path=target)
        return {"job": job.job, "namespace": namespace, "file": target.name, "bytes": size}

    async def reindex(self, namespace: str | None) -> dict[str, Any]:
        """Queue every inbox file of a namespace (or all) for indexing again."""
        if namespace is not None:
            check_namespace(namespace)
        folders = [self.inbox_root / namespace] if namespace else sorted(self.inbox_root.iterdir())
        jobs = []
        for folder in folders:
            if not folder.is_dir():
                continue
            for path in sorted(p for p in folder.rglob("*") if p.is_file() and wanted(p)):
                jobs.append(self.queue.submit("index", folder.name, path=path).job)
        return {"jobs": jobs}

    async def forget(self, namespace: str, source: str) -> dict[str, Any]:
        """Forget a source; an inbox file behind it is removed too, or the watcher would re-add it."""
        check_namespace(namespace)
        job = self.queue.submit("forget", namespace, source=source)
        assert job.done is not None
        message = await job.done
        inbox_prefix = f"inbox/{namespace}/"
        if source.startswith(inbox_prefix):
            try:
                path = self._inbox_file(namespace, source[len(inbox_prefix) :])
            except InputError:
                path = None
            if path is not None and path.is_file():
                await asyncio.to_thread(path.unlink)
        return {"message": message}

    async def set_room(self, room: str | None) -> dict[str, Any]:
        """Hold a room (None: back to presence)."""
        return self.rooms.set_manual(room)

    async def restart(self, component: str) -> dict[str, Any]:
        """Restart a supervised component."""
        if component not in self.supervisor.names():
            known = ", ".join(self.supervisor.names())
            raise InputError(
                f"no component {component[:40]!r}; components: {known}", code="component_unknown"
            )
        self.supervisor.restart(component)
        return {"restarted": component}


_MAGIC: dict[str, tuple[bytes, ...]] = {
    ".pdf": (b"%PDF-",),
    ".png": (b"\x89PNG\r\n\x1a\n",),
    ".jpg": (b"\xff\xd8\xff",),
    ".jpeg": (b"\xff\xd8\xff",),
    ".tif": (b"II*\x00", b"MM\x00*"),
    ".tiff": (b"II*\x00", b"MM\x00*"),
}


def _check_magic(suffix: str, data: bytes, filename: str) -> None:
    """Refuse an upload whose bytes do not match its extension (a 'PNG' that is really text)."""
    magic = _MAGIC.get(suffix)
    if magic is not None and not data.startswith(magic):
        raise InputError(
            f"{Path(filename).name[:60]} does not look like a {suffix[1:].upper()} file",
            code="upload_type_mismatch",
        )
    if magic is None and b"\x00" in data[:8192]:
        raise InputError(
            f"{Path(filename).name[:60]} is not a text file", code="upload_type_mismatch"
        )
