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

#: Progress callback: (fraction 0..1, short message). Called from worker threads.
Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class Utterance:
    """A question as heard, handed from the audio part to the pipeline."""

    #: Final transcript of the question (wake phrase removed).
    text: str
    #: ``time.monotonic()`` when the wake word was detected or push-to-talk pressed.
    wake_at: float
    #: ``time.monotonic()`` when the spoken question ended.
    captured_at: float
    #: ``time.monotonic()`` when the transcript was final.
    transcribed_at: float
    #: Detection delay after the end of the wake phrase (seconds; 0 for push-to-talk).
    wake_delay_s: float = 0.0
    #: Wake detector confidence (1.0 for push-to-talk).
    wake_score: float = 1.0
    #: Whether the button started it instead of the wake word.
    push_to_talk: bool = False
    #: The audio of the wake word and question: 16 kHz mono int16 PCM, kept for "that wasn't for you".
    pcm: bytes = b""
    #: Name of the recogniser that produced the transcript.
    engine: str = ""


@dataclass(frozen=True)
class Citation:
    """One numbered source of an answer, with what the status page needs to show it."""

    #: The number used in the answer text ("[1]" -> 1).
    n: int
    #: Slice id in the index.
    slice_id: int
    #: Source identifier (file name relative to its inbox, or capture id).
    source: str
    #: Namespace of the source.
    namespace: str
    #: Quoted text of the slice (shortened).
    text: str = ""
    #: 1-based page, 0 when none.
    page: int = 0
    #: Box on the page in the source's coordinates ``[x0, y0, x1, y1]``, or None.
    box: list[float] | None = None
    #: Drawing number, when a drawing is cited.
    drawing_number: str = ""
    #: Drawing revision, when known.
    revision: str = ""
    #: Thumbnail path relative to ``data_dir`` (under ``artifacts/``), or "".
    thumbnail: str = ""
    #: Size ``[width, height]`` of the coordinate space the box is in, when known.
    page_size: list[float] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form for the status page."""
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        if self.box and self.page_size and self.page_size[0] > 0 and self.page_size[1] > 0:
            w, h = self.page_size
            x0, y0, x1, y1 = self.box
            # The region as fractions of the page, so the page can overlay it on any thumbnail size.
            out["region"] = [
                round(max(0.0, x0 / w), 4),
                round(max(0.0, y0 / h), 4),
                round(min(1.0, x1 / w), 4),
                round(min(1.0, y1 / h), 4),
            ]
        return out


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
        self, question: str, namespaces: Sequence[str], times: AnswerTimes
    ) -> AsyncIterator[str | Acknowledgement | AnswerResult]:
        """Perhaps an :class:`Acknowledgement` first, then checked sentences to speak as they are
        ready, then the final :class:`AnswerResult`."""


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


class Library(Protocol):
    """The index as the service writes it. Called from one writer thread only."""

    def source_id(self, path: Path, namespace: str) -> str:
        """The identifier a file gets in the index."""

    def index_file(self, path: Path, namespace: str, progress: Progress) -> str:
        """Index (or re-index) one file; return a short summary ("indexed drawing A-1024 rev C")."""

    def index_capture(self, namespace: str, progress: Progress) -> str:
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
