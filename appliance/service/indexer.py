"""The indexing queue: one writer thread that applies every change to the index in order.

Inbox files, uploads, memory notes, captures and forget requests all become jobs here. Jobs run one at
a time in a dedicated thread (SQLite has one writer anyway, and a long PDF must not block the event
loop); their progress is published on the bus for the status page. A failing job is reported with its
error code and the queue goes on: nothing already indexed is touched by a failed job.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance.errors import public_name
from appliance.events import Event, EventBus, EventType
from appliance.ingest.names import display_name
from appliance.service.ports import Library, Progress
from appliance.service.supervisor import public_error

log = logging.getLogger(__name__)


@dataclass
class IndexJob:
    """One change to apply to the index."""

    #: What to do: "index", "capture" or "forget".
    action: str
    #: Namespace.
    namespace: str
    #: File to index (index/capture) or None (forget).
    path: Path | None = None
    #: Source identifier (forget; a capture's once it is indexed) or "" to derive it from the path.
    source: str = ""
    #: Unique id shown on the status page.
    job: str = ""
    #: Resolved with the job's summary message, or the error.
    done: asyncio.Future[str] | None = field(default=None, repr=False)

    def label(self) -> str:
        """What the status page shows for this job."""
        if self.action == "capture":
            return "camera capture"
        if self.source:
            return display_name(self.source)
        return display_name(public_name(self.path)) if self.path else ""


def _mark_retrieved(future: asyncio.Future[str]) -> None:
    if not future.cancelled():
        future.exception()


class IndexQueue:
    """Serialises index writes on one thread and reports progress on the bus."""

    name = "indexer"

    def __init__(self, bus: EventBus, library_factory: Callable[[], Library]) -> None:
        self.bus = bus
        self._library_factory = library_factory
        self._library: Library | None = None
        self._queue: asyncio.Queue[IndexJob] = asyncio.Queue()
        self._ids = itertools.count(1)
        # One thread owns the writer connection for its whole life (SQLite connections are per thread).
        self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="index-writer")

    def submit(
        self, action: str, namespace: str, *, path: Path | None = None, source: str = ""
    ) -> IndexJob:
        """Queue a job; await ``job.done`` for its result."""
        job = IndexJob(action, namespace, path, source, job=f"j{next(self._ids)}")
        job.done = asyncio.get_running_loop().create_future()
        # Failures are reported on the bus; nobody has to await the future for them to count.
        job.done.add_done_callback(_mark_retrieved)
        self._queue.put_nowait(job)
        self.bus.publish(Event(EventType.INDEX_QUEUED, self._job_data(job)))
        return job

    def pending(self) -> int:
        """Jobs waiting to run."""
        return self._queue.qsize()

    def _job_data(self, job: IndexJob, **more: Any) -> dict[str, Any]:
        return {
            "job": job.job,
            "action": job.action,
            "namespace": job.namespace,
            "source": job.label(),
            **more,
        }

    async def call(self, fn: Callable[[Library], Any]) -> Any:
        """Run ``fn(library)`` on the writer thread (for reads that must see the latest writes)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(self._open()))

    def _open(self) -> Library:
        if self._library is None:
            self._library = self._library_factory()
        return self._library

    def _run_job(self, job: IndexJob, progress: Progress) -> str:
        library = self._open()
        if job.action == "forget":
            removed = library.forget(job.namespace, job.source)
            return f"forgot {job.source}" if removed else f"{job.source} was not indexed"
        if job.action == "capture":
            captured = library.index_capture(job.namespace, progress)
            # The drawing just scanned is the one the next question is about (the pipeline
            # puts it in hand).
            job.source = captured.source
            return captured.summary
        assert job.path is not None
        return library.index_file(job.path, job.namespace, progress)

    async def run(self) -> None:
        """Work through the queue until cancelled."""
        loop = asyncio.get_running_loop()
        while True:
            job = await self._queue.get()
            try:
                await self._handle(job, loop)
            finally:
                self._queue.task_done()

    async def drained(self) -> None:
        """Wait until every queued job has finished."""
        await self._queue.join()

    async def _handle(self, job: IndexJob, loop: asyncio.AbstractEventLoop) -> None:
        def progress(fraction: float, message: str) -> None:
            data = self._job_data(job, progress=round(fraction, 3), message=display_name(message))
            self.bus.publish_threadsafe(Event(EventType.INDEX_PROGRESS, data))

        self.bus.publish(Event(EventType.INDEX_PROGRESS, self._job_data(job, progress=0.0)))
        try:
            summary = await loop.run_in_executor(self._executor, self._run_job, job, progress)
        except asyncio.CancelledError:
            if job.done and not job.done.done():
                job.done.cancel()
            raise
        except Exception as err:  # one bad file must not stop the queue
            code, message = public_error(err)
            message = display_name(message)
            log.warning("index job failed", extra={"job": job.job, "code": code})
            self.bus.publish(
                Event(EventType.INDEX_FAILED, self._job_data(job, code=code, message=message))
            )
            if job.done and not job.done.done():
                job.done.set_exception(err)
            return
        self.bus.publish(
            Event(EventType.INDEX_DONE, self._job_data(job, message=display_name(summary)))
        )
        if job.done and not job.done.done():
            job.done.set_result(summary)

    def is_open(self) -> bool:
        """Whether the writer connection is open."""
        return self._library is not None

    def close(self) -> None:
        """Stop the writer thread, then close the database.

        The thread is stopped first: a call still running on it (opening the index at start-up) must
        finish before the connection it creates can be closed.
        """
        self._executor.shutdown(wait=True, cancel_futures=True)
        if self._library is not None:
            library = self._library
            self._library = None
            try:
                library.close()
            except Exception:  # closing is best effort at shutdown
                log.warning("closing the index failed", exc_info=True)
