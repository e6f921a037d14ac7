"""The small interfaces the service needs from the other parts of the appliance.

The pipeline talks to the parts only through these protocols; ``appliance/service/parts.py`` adapts
the real packages (audio, index/ingest, vision, answer, presence) to them. Keeping the seams this
narrow lets the service be built and tested while the parts grow, and keeps each part replaceable.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from appliance.answer.in_hand import InHand
from appliance.audio.utterance import Utterance
from appliance.document import Citation

#: Progress callback: (fraction 0..1, short message). Called from worker threads.
Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class AnswerResult:
    """A finished answer."""

    #: Full answer text with ``[n]`` citation marks (for the status page).
    text: str
    #: Short form to speak.
    spoken: str
    #: The numbered sources.
    citations: tuple[Citation, ...] = ()
    #: How it was produced: "llm", "extractive", "abstain" or "command".
    mode: str = "extractive"
    #: Namespaces searched.
    namespaces: tuple[str, ...] = ()
    #: Any extra detail (model name, fallback reason).
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Acknowledgement:
    """Said at once when the answer will take a while (the model is asked); not part of the answer."""

    #: What to say ("Checking the drawings.").
    text: str


class AnswerTimes(Protocol):
    """Callbacks an answerer calls so the pipeline can account latency (monotonic timestamps)."""

    def retrieval(self, started: float, done: float) -> None:
        """Search ran from ``started`` to ``done``."""

    def first_token(self, at: float) -> None:
        """The first piece of the answer was produced at ``at``."""


class Answerer(Protocol):
    """Search + answer for one question."""

    def stream(
        self,
        question: str,
        namespaces: Sequence[str],
        times: AnswerTimes,
        in_hand: InHand | None = None,
    ) -> AsyncIterator[str | Acknowledgement | AnswerResult]:
        """Perhaps an :class:`Acknowledgement` first, then checked sentences to speak as they are
        ready, then the final :class:`AnswerResult`. ``in_hand``: the drawing a question that names
        none is about (:mod:`appliance.answer.in_hand`)."""

    async def drawing_in_reply(
        self,
        reply: str,
        namespaces: Sequence[str],
        only_name: bool = False,
        listed: Sequence[tuple[str, str]] = (),
    ) -> InHand | None:
        """The drawing a reply to "which drawing do you mean?" names, if the reply is only its
        name (:mod:`appliance.answer.which_drawing`); None for a question of its own.
        ``only_name``: not a word besides the name but "no", "I mean", "the" and the like;
        ``listed``: the drawings the question back named, which a reply may pick by language."""


class Speaker(Protocol):
    """Speech output."""

    async def speak(self, sentences: AsyncIterable[str]) -> float | None:
        """Speak a stream of text; return ``time.monotonic()`` of the first audio (None: none played)."""

    def stop(self) -> None:
        """Stop speaking now (the "stop" command, the false-wake button)."""

    async def prepare(self, text: str) -> None:
        """Synthesise a fixed phrase ahead, so that saying it later sounds at once."""


class Listener(Protocol):
    """The microphone side: wake word, capture and transcription."""

    def utterances(self) -> AsyncIterator[Utterance]:
        """Questions as they are heard, until the source ends or the task is cancelled."""

    def push_to_talk(self) -> None:
        """Start capturing a question now, skipping the wake word."""

    def describe(self) -> str:
        """What listens and speaks (the listener's line on the status page)."""


@dataclass(frozen=True)
class SourceRecord:
    """One indexed source as the service sees it."""

    #: Source identifier.
    source: str
    #: Namespace.
    namespace: str
    #: sha256 of its bytes when indexed.
    content_hash: str
    #: Number of slices.
    slices: int = 0
    #: Title, when known.
    title: str = ""
    #: Drawing number, when the source is a drawing.
    drawing_number: str = ""
    #: Revision, when known.
    revision: str = ""


@dataclass(frozen=True)
class Captured:
    """A camera capture, indexed."""

    #: The sentence to speak ("Indexed drawing A-1024 revision C.").
    summary: str
    #: Its source identifier in the index (``capture:<id>``).
    source: str


class Library(Protocol):
    """The index as the service writes it. Called from one writer thread only."""

    def source_id(self, path: Path, namespace: str) -> str:
        """The identifier a file gets in the index."""

    def index_file(self, path: Path, namespace: str, progress: Progress) -> str:
        """Index (or re-index) one file; return a short summary ("indexed drawing A-1024 rev C")."""

    def index_capture(self, namespace: str, progress: Progress) -> Captured:
        """Capture from the camera, gate, OCR and index; raises with a reason a person can act on."""

    def forget(self, namespace: str, source: str) -> bool:
        """Remove a source and every trace of it."""

    def sources(self, namespace: str | None = None) -> list[SourceRecord]:
        """Indexed sources, optionally of one namespace."""

    def close(self) -> None:
        """Release the database."""


class Presence(Protocol):
    """Rooms from BLE beacons; it publishes ``room-changed`` and ``beacons-seen`` on the bus itself."""

    async def run(self) -> None:
        """Scan and decide until cancelled."""

    def set_override(self, room: str | None) -> dict[str, Any] | None:
        """Hold a room by name (None: let the beacons decide again); the switch made, if any."""

    def rooms(self) -> dict[str, list[str]]:
        """Room name -> its namespaces."""


class RoomFollower(Protocol):
    """A part that follows the active room: the appliance gives it the room's namespaces."""

    #: The active room's namespaces, read when needed.
    room_namespaces: Callable[[], Sequence[str]]
