"""Typed events on one in-process asyncio bus.

Sources (microphone, camera, inbox, beacons, buttons) publish events; the pipeline and the sinks
(speaker, LEDs, status page) subscribe. Every event is a frozen dataclass with a closed
:class:`EventType`, a monotonic timestamp for latency accounting and a JSON form for the logs and the
status page. Streams (audio chunks, frames) are async iterators, never events.

Threads never touch asyncio objects directly: gpiozero and audio callbacks publish through
:meth:`EventBus.publish_threadsafe`, which hops onto the loop with ``call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


class EventType(enum.StrEnum):
    """Every kind of event the appliance publishes."""

    WAKE_DETECTED = "wake-detected"
    WAKE_REJECTED = "wake-rejected"
    LISTENING = "listening"
    TRANSCRIPT_PARTIAL = "transcript-partial"
    TRANSCRIPT_FINAL = "transcript-final"
    THINKING = "thinking"
    ANSWER_READY = "answer-ready"
    SPEAKING = "speaking"
    IDLE = "idle"
    BUTTON = "button"
    CAPTURE_REQUESTED = "capture-requested"
    CAPTURE_REJECTED = "capture-rejected"
    INDEX_QUEUED = "index-queued"
    INDEX_PROGRESS = "index-progress"
    INDEX_DONE = "index-done"
    INDEX_FAILED = "index-failed"
    ROOM_CHANGED = "room-changed"
    BEACONS_SEEN = "beacons-seen"
    COMPONENT_STATE = "component-state"
    MEMORY_NOTED = "memory-noted"
    FALSE_WAKE = "false-wake"
    IN_HAND = "in-hand"
    ERROR = "error"


@dataclass(frozen=True)
class Event:
    """One thing that happened."""

    #: What kind of event this is.
    type: EventType
    #: Event-specific payload; JSON-serialisable values only.
    data: dict[str, Any] = field(default_factory=dict)
    #: ``time.monotonic()`` when the event was created, for latency accounting.
    monotonic: float = field(default_factory=time.monotonic)
    #: Wall-clock UNIX time when the event was created, for display.
    wall: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        """The JSON-loggable form."""
        out = dataclasses.asdict(self)
        out["type"] = str(self.type)
        return out


class EventBus:
    """Fan-out of events to any number of bounded subscriber queues.

    A slow subscriber loses its oldest events rather than blocking publishers; the number dropped is
    counted in :attr:`dropped`.
    """

    def __init__(self, queue_size: int = 256) -> None:
        self._queues: set[asyncio.Queue[Event]] = set()
        self._queue_size = queue_size
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Events dropped because a subscriber's queue was full.
        self.dropped = 0

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remember the loop that foreign threads must hop onto."""
        self._loop = loop

    def publish(self, event: Event) -> None:
        """Publish from the event loop's own thread."""
        for queue in list(self._queues):
            if queue.full():
                queue.get_nowait()
                self.dropped += 1
            queue.put_nowait(event)

    def publish_threadsafe(self, event: Event) -> None:
        """Publish from any thread (gpiozero callbacks, audio callbacks)."""
        loop = self._loop
        if loop is None:
            raise RuntimeError("EventBus.bind(loop) must be called before publishing from threads")
        loop.call_soon_threadsafe(self.publish, event)

    async def subscribe(self) -> AsyncIterator[Event]:
        """Iterate over every event published from now on."""
        queue: asyncio.Queue[Event] = asyncio.Queue(self._queue_size)
        self._queues.add(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._queues.discard(queue)

    def subscribe_queue(self) -> asyncio.Queue[Event]:
        """A raw queue that receives every event; remove it with :meth:`unsubscribe`."""
        queue: asyncio.Queue[Event] = asyncio.Queue(self._queue_size)
        self._queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[Event]) -> None:
        """Stop delivering to a queue from :meth:`subscribe_queue`."""
        self._queues.discard(queue)
