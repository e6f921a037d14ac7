"""The live state of the appliance, as the status page and the LEDs see it.

:class:`LiveState` consumes the event bus and keeps a small snapshot: what the appliance is doing, the
active room and the beacons heard, the last questions with their answers and citations, the indexing
queue with progress, the health of every component and the latency figures. Every change bumps a version
number; server-sent-event streams wait on it instead of polling.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from appliance.events import Event, EventBus, EventType
from appliance.ingest.names import display_name
from appliance.latency import LatencyBook

log = logging.getLogger(__name__)

#: What the status light shows, derived from the pipeline's events.
ACTIVITY_BY_EVENT: dict[EventType, str] = {
    EventType.WAKE_DETECTED: "listening",
    EventType.LISTENING: "listening",
    EventType.TRANSCRIPT_FINAL: "thinking",
    EventType.THINKING: "thinking",
    EventType.SPEAKING: "speaking",
    EventType.IDLE: "idle",
    EventType.ERROR: "error",
}


@dataclass
class LiveState:
    """Snapshot of everything the status page shows, kept current from the bus."""

    #: Latency book shared with the pipeline.
    latency: LatencyBook = field(default_factory=LatencyBook)
    #: How many questions are kept.
    keep_questions: int = 20
    #: How many finished indexing jobs are kept.
    keep_jobs: int = 30
    #: Current activity: idle, listening, thinking, speaking, error.
    activity: str = "idle"
    #: Active room: name, namespaces, why, manual flag.
    room: dict[str, Any] = field(default_factory=lambda: {"name": "", "namespaces": ["global"]})
    #: Beacons heard recently (as the presence part reports them).
    beacons: list[dict[str, Any]] = field(default_factory=list)
    #: Component health by name.
    components: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Counters shown on the page and exported to Prometheus.
    counters: dict[str, int] = field(
        default_factory=lambda: {
            "questions": 0,
            "errors": 0,
            "false_wakes": 0,
            "wakes_rejected": 0,
            "indexed": 0,
            "index_failed": 0,
            "captures_rejected": 0,
            "memory_notes": 0,
        }
    )
    #: The last transcript heard (partial or final).
    transcript: str = ""
    #: The last error shown to people (code and message).
    last_error: dict[str, str] = field(default_factory=dict)
    #: The drawing in hand (name, namespace, why, until: UNIX seconds when it is let go), or {}.
    in_hand: dict[str, Any] = field(default_factory=dict)
    #: Monotonically increasing change number.
    version: int = 0
    #: Reports event-loop lag figures (set by the appliance; None in tests).
    loop_figures: Callable[[], dict[str, float]] | None = None
    _questions: deque[dict[str, Any]] = field(init=False)
    _jobs: OrderedDict[str, dict[str, Any]] = field(init=False)
    _changed: asyncio.Event | None = field(default=None, init=False)
    _started: float = field(default_factory=time.time, init=False)

    def __post_init__(self) -> None:
        self._questions = deque(maxlen=self.keep_questions)
        self._jobs = OrderedDict()

    # -- reading ---------------------------------------------------------------------------------
    @property
    def questions(self) -> list[dict[str, Any]]:
        """The last questions, newest first."""
        return list(reversed(self._questions))

    @property
    def jobs(self) -> list[dict[str, Any]]:
        """Indexing jobs, newest first (queued and running ones and the recent finished ones)."""
        return list(reversed(self._jobs.values()))

    def indexing(self) -> bool:
        """True while any indexing job is queued or running."""
        return any(j["state"] in ("queued", "running") for j in self._jobs.values())

    def snapshot(self) -> dict[str, Any]:
        """Everything the status page shows, JSON-serialisable."""
        return {
            "version": self.version,
            "activity": self.activity,
            "indexing": self.indexing(),
            "room": self.room,
            "beacons": self.beacons,
            "questions": self.questions,
            "jobs": self.jobs,
            "components": list(self.components.values()),
            "latency": self.latency.summary(),
            "counters": self.counters,
            "transcript": self.transcript,
            "last_error": self.last_error,
            "in_hand": self.in_hand,
            "uptime_s": round(time.time() - self._started, 1),
            "loop": self.loop_figures() if self.loop_figures is not None else {},
        }

    async def wait_change(self, seen_version: int, timeout: float) -> bool:
        """Wait until the version passes ``seen_version`` or the timeout; True when it changed."""
        if self.version > seen_version:
            return True
        if self._changed is None:
            self._changed = asyncio.Event()
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return self.version > seen_version
        return True

    # -- writing ---------------------------------------------------------------------------------
    def _bump(self) -> None:
        self.version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    def add_question(self, record: dict[str, Any]) -> None:
        """Record an answered (or failed) question."""
        self._questions.append(record)
        self.counters["questions"] += 1
        self._bump()

    def apply(self, event: Event) -> None:
        """Fold one event into the snapshot."""
        data = event.data
        kind = event.type
        if kind in ACTIVITY_BY_EVENT:
            self.activity = ACTIVITY_BY_EVENT[kind]
        if kind in (EventType.TRANSCRIPT_PARTIAL, EventType.TRANSCRIPT_FINAL):
            self.transcript = display_name(str(data.get("text", "")))
        elif kind == EventType.ANSWER_READY and "record" in data:
            self.add_question(dict(data["record"]))
            return
        elif kind == EventType.COMPONENT_STATE:
            self._apply_component(data)
        elif kind == EventType.ROOM_CHANGED:
            # Presence sends its RoomSwitch form (to_room, room_name, detail); overrides without
            # presence send the short form (room, reason).
            self.room = {
                "name": data.get("room_name") or data.get("room") or data.get("to_room") or "",
                "namespaces": list(data.get("namespaces") or ["global"]),
                "reason": str(data.get("detail") or data.get("reason") or ""),
                "manual": bool(data.get("manual")) or str(data.get("reason")) == "override",
            }
        elif kind == EventType.BEACONS_SEEN:
            self.beacons = list(data.get("beacons", []))[:50]
        elif kind in (
            EventType.INDEX_QUEUED,
            EventType.INDEX_PROGRESS,
            EventType.INDEX_DONE,
            EventType.INDEX_FAILED,
        ):
            self._apply_job(kind, data)
        elif kind == EventType.CAPTURE_REJECTED:
            self.counters["captures_rejected"] += 1
            self.last_error = {
                "code": display_name(str(data.get("code", ""))),
                "message": display_name(str(data.get("reason", ""))),
            }
        elif kind == EventType.MEMORY_NOTED:
            self.counters["memory_notes"] += 1
        elif kind == EventType.FALSE_WAKE:
            self.counters["false_wakes"] += 1
        elif kind == EventType.IN_HAND:
            self.in_hand = (
                {
                    "name": display_name(str(data.get("source", ""))),
                    "namespace": str(data.get("namespace", "")),
                    "why": str(data.get("why", "")),
                    "until": float(data.get("until", 0.0)),
                }
                if data.get("source")
                else {}
            )
        elif kind == EventType.WAKE_REJECTED:
            self.counters["wakes_rejected"] += 1
        elif kind == EventType.ERROR:
            self.counters["errors"] += 1
            self.last_error = {
                "code": display_name(str(data.get("code", ""))),
                "message": display_name(str(data.get("message", ""))),
            }
        self._bump()

    def _apply_component(self, data: dict[str, Any]) -> None:
        if "name" in data:
            self.components[str(data["name"])] = dict(data)
            if data.get("status") in ("disabled", "failed") and data.get("last_error_code"):
                # Off because it cannot start, not by configuration: the page says so loudly.
                self.last_error = {
                    "code": display_name(str(data["last_error_code"])),
                    "message": display_name(f"{data['name']} is off: {data.get('last_error', '')}"),
                }
            return
        # A part reporting on itself (the presence scanner): shown as the component's detail.
        name = str(data.get("component", ""))
        if name in self.components:
            detail = str(data.get("status", ""))
            if data.get("pid"):
                detail += f" (pid {data['pid']})"
            if data.get("error"):
                detail += f": {data['error']}"
            self.components[name] = {**self.components[name], "detail": detail}

    def _apply_job(self, kind: EventType, data: dict[str, Any]) -> None:
        # Names come from file names, which may be any bytes: only their display form is kept, so the
        # snapshot always serialises (one stray name must not take the page down).
        job_id = display_name(str(data.get("job", "")))
        job = self._jobs.setdefault(
            job_id,
            {
                "job": job_id,
                "source": display_name(str(data.get("source", ""))),
                "namespace": display_name(str(data.get("namespace", ""))),
                "action": display_name(str(data.get("action", "index"))),
                "state": "queued",
                "progress": 0.0,
                "message": "",
                "queued_at": time.time(),
            },
        )
        if kind == EventType.INDEX_PROGRESS:
            job["state"] = "running"
            job["progress"] = float(data.get("progress", job["progress"]))
            job["message"] = display_name(str(data.get("message", "")))
        elif kind == EventType.INDEX_DONE:
            job["state"] = "done"
            job["progress"] = 1.0
            job["message"] = display_name(str(data.get("message", "")))
            self.counters["indexed"] += 1
        elif kind == EventType.INDEX_FAILED:
            job["state"] = "failed"
            job["message"] = display_name(str(data.get("message", "")))
            job["code"] = display_name(str(data.get("code", "")))
            if data.get("recorded"):
                # A failure remembered from an earlier run: shown, not counted again.
                job["recorded"] = True
            else:
                self.counters["index_failed"] += 1
        finished = [k for k, j in self._jobs.items() if j["state"] in ("done", "failed")]
        for old in finished[: max(0, len(finished) - self.keep_jobs)]:
            del self._jobs[old]

    def attach(self, bus: EventBus) -> asyncio.Queue[Event]:
        """Subscribe now (so no early event is missed); :meth:`follow` consumes the queue."""
        return bus.subscribe_queue()

    async def follow(self, queue: asyncio.Queue[Event]) -> None:
        """Apply every event from an attached queue until cancelled."""
        while True:
            event = await queue.get()
            try:
                self.apply(event)
            except Exception:
                log.exception("event not understood", extra={"event_type": str(event.type)})
