"""The inbox watcher: folders per namespace whose files are kept in step with the index.

``data_dir/inbox/<namespace>/`` receives PDFs, images and Markdown (copied in, uploaded from the
status page, synced from elsewhere); ``data_dir/memory/<namespace>/`` holds the memory notes. Both are
watched with ``watchfiles``; a change is acted on once the folder has been quiet for the debounce time
(~1.5 s, so a file still being copied is not read half-written). New or changed files are indexed, deleted
ones forgotten. At start-up a checksum pass reconciles each folder with the index, so changes made while
the service was down are not missed. A file that fails to index is recorded (:mod:`failures`) and not
tried again at the next start until it changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from functools import partial
from pathlib import Path

import watchfiles

from appliance.errors import OpenClawError
from appliance.events import Event, EventType
from appliance.ingest.names import display_name
from appliance.service.failures import FailureBook, fingerprint
from appliance.service.indexer import IndexJob, IndexQueue
from appliance.service.memory import check_namespace
from appliance.service.ports import Library
from appliance.service.supervisor import public_error

log = logging.getLogger(__name__)

#: How long the watch waits for changes before handing back an empty batch (ms): the checksum pass
#: starts at most this long after the watch is up, when nothing changes meanwhile.
WATCH_UP_MS = 500

#: File types the inbox accepts (lower-case suffixes).
SUFFIXES = frozenset({".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".md", ".markdown", ".txt"})


def wanted(path: Path) -> bool:
    """Whether a file in a watched folder should be indexed (no hidden, temporary or foreign files)."""
    name = path.name
    if name.startswith((".", "~")) or name.endswith(("~", ".part", ".tmp", ".swp")):
        return False
    return path.suffix.lower() in SUFFIXES


def _source_id(lib: Library, *, path: Path, namespace: str) -> str:
    return lib.source_id(path, namespace)


def _source_id_or_none(lib: Library, path: Path, namespace: str) -> str | None:
    try:
        return lib.source_id(path, namespace)
    except OpenClawError:
        return None  # outside the data directory: indexing it fails with its own coded error


def _undecodable_name(err: BaseException) -> bool:
    """Whether watchfiles gave up on a file name that is not UTF-8 (it cannot report such names)."""
    if isinstance(err, BaseExceptionGroup):
        return any(_undecodable_name(e) for e in err.exceptions)
    return type(err).__name__ == "WatchfilesRustInternalError" and "decode" in str(err)


class InboxWatcher:
    """Watches the inbox and memory roots and turns changes into index jobs."""

    name = "inbox"

    def __init__(
        self,
        queue: IndexQueue,
        roots: Iterable[Path],
        debounce_s: float = 1.5,
        *,
        failures: FailureBook | None = None,
    ) -> None:
        self.queue = queue
        #: Folders whose immediate subfolders are namespaces (``inbox/``, ``memory/``).
        self.roots = [Path(r) for r in roots]
        self.debounce_s = debounce_s
        #: Set once the watch is up and the start-up reconciliation has queued its jobs.
        self.reconciled = asyncio.Event()
        #: The data directory (the roots' parent): failure records are keyed relative to it.
        self.base = self.roots[0].parent if self.roots else Path(".")
        #: Files that failed, remembered across restarts.
        self.failures = failures or FailureBook(
            self.base / "index-failures.json" if self.roots else None
        )
        self._pending: set[asyncio.Task[None]] = set()
        self._queued: set[Path] = set()

    def key(self, path: Path) -> str:
        """A file's key in the failure record: its display path relative to the data directory."""
        try:
            return display_name(path.relative_to(self.base).as_posix())
        except ValueError:
            return display_name(path.as_posix())

    def _submit(self, namespace: str, path: Path) -> IndexJob | None:
        """Queue a file and record how its job ends (not again while a job for it is queued)."""
        if path in self._queued:
            return None  # a rescan while the first job still waits must not queue it twice
        job = self.queue.submit("index", namespace, path=path)
        assert job.done is not None
        self._queued.add(path)
        job.done.add_done_callback(partial(self._job_ended, namespace, path))
        return job

    def _job_ended(self, namespace: str, path: Path, done: asyncio.Future[str]) -> None:
        self._queued.discard(path)
        if done.cancelled():
            return
        task = asyncio.create_task(self._remember(namespace, path, done.exception()))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _remember(self, namespace: str, path: Path, err: BaseException | None) -> None:
        key = self.key(path)
        if err is None:
            self.failures.clear(key)
            return
        fp = await asyncio.to_thread(fingerprint, path)
        code, message = public_error(err)
        self.failures.record(key, namespace, fp, code, display_name(message))

    def _show_recorded(self, key: str) -> None:
        """Show a remembered failure on the status page without trying the file again."""
        failure = self.failures.get(key)
        if failure is None:
            return
        data = {
            "job": f"recorded:{key}",
            "action": "index",
            "namespace": failure.namespace,
            "source": key,
            "code": failure.code,
            "message": f"{failure.message} (failed before; change the file to retry)",
            "recorded": True,
        }
        self.queue.bus.publish(Event(EventType.INDEX_FAILED, data))

    def namespace_of(self, path: Path) -> tuple[Path, str] | None:
        """(root, namespace) of a path inside a watched root, or None."""
        for root in self.roots:
            try:
                rel = path.relative_to(root)
            except ValueError:
                continue
            if len(rel.parts) >= 2:
                try:
                    return root, check_namespace(rel.parts[0])
                except ValueError:
                    log.warning("ignoring a folder that is not a valid namespace name")
                    return None
        return None

    def _files(self, folder: Path) -> list[Path]:
        # Symbolic links are listed too: a broken one or a loop then fails with its own code
        # (shown on the page) instead of being skipped without a word.
        return sorted(p for p in folder.rglob("*") if (p.is_symlink() or p.is_file()) and wanted(p))

    async def reconcile(self) -> int:
        """Checksum pass: index what changed while down, forget what disappeared. Returns jobs queued."""
        jobs = 0
        for root in self.roots:
            root.mkdir(parents=True, exist_ok=True)
            for folder in sorted(p for p in root.iterdir() if p.is_dir()):
                try:
                    namespace = check_namespace(folder.name)
                except ValueError:
                    continue
                jobs += await self._reconcile_folder(folder, namespace)
        self.reconciled.set()
        return jobs

    async def _reconcile_folder(self, folder: Path, namespace: str) -> int:
        indexed = await self.queue.call(lambda lib: lib.sources(namespace))
        by_source = {s.source: s.content_hash for s in indexed}
        files = await asyncio.to_thread(self._files, folder)
        ids = await self.queue.call(
            lambda lib: [_source_id_or_none(lib, p, namespace) for p in files]
        )
        prints = await asyncio.to_thread(lambda: [fingerprint(p) for p in files])
        keys = [self.key(p) for p in files]
        jobs = 0
        for path, source, fp, key in zip(files, ids, prints, keys, strict=True):
            if source is not None and fp is not None and by_source.get(source) == fp.sha256:
                continue
            if self.failures.unchanged(key, fp) is not None:
                self._show_recorded(key)
                continue
            if self._submit(namespace, path) is not None:
                jobs += 1
        self.failures.prune(self.key(folder) + "/", set(keys))
        # The folder's own prefix tells which indexed sources came from it (and not from a capture).
        prefix = await self.queue.call(lambda lib: lib.source_id(folder / "x", namespace)[:-1])
        present = {i for i in ids if i is not None}
        for source in by_source:
            if source.startswith(prefix) and source not in present:
                self.queue.submit("forget", namespace, source=source)
                jobs += 1
        return jobs

    async def _apply(self, changes: set[tuple[watchfiles.Change, str]]) -> None:
        latest: dict[Path, watchfiles.Change] = {}
        for change, raw in changes:
            latest[Path(raw)] = change  # the last change of a path wins
        for path, change in sorted(latest.items()):
            located = self.namespace_of(path)
            if located is None or not wanted(path):
                continue
            _root, namespace = located
            if change == watchfiles.Change.deleted or not (path.exists() or path.is_symlink()):
                self.failures.clear(self.key(path))
                try:
                    source = await self.queue.call(
                        partial(_source_id, path=path, namespace=namespace)
                    )
                except OpenClawError:
                    continue  # never indexed: it could not have been
                self.queue.submit("forget", namespace, source=source)
            elif path.is_file() or path.is_symlink():
                self._submit(namespace, path)

    async def run(self) -> None:
        """Watch, reconcile once the watch is up, then act on changes until cancelled."""
        for root in self.roots:
            (root / "global").mkdir(parents=True, exist_ok=True)
        while True:
            try:
                await self._watch()
                return
            except Exception as err:
                if not _undecodable_name(err):
                    raise
            # watchfiles cannot report a name that is not UTF-8 and stops, dropping the changes it
            # held; the checksum pass can (Python keeps such names with surrogate escapes), so a new
            # watch reconciles again.
            log.warning(
                "a file name in the inbox is not UTF-8; rescanning the inbox",
                extra={"code": "filename_not_utf8"},
            )
            await asyncio.sleep(self.debounce_s)

    async def _watch(self) -> None:
        """One watch of the roots; its first batch (or quiet timeout) runs the checksum pass.

        The pass waits behind the index queue, so it can take minutes; a file dropped in while it
        runs, or just after, must still be seen. Reconciling only once the watch is up (the watcher
        keeps changes while they are not being read) leaves no moment when neither looks.
        """
        quiet_ms = int(self.debounce_s * 1000)
        reconciled = False
        # step = quiet time before a batch is yielded; debounce = the longest a batch may grow.
        async for changes in watchfiles.awatch(
            *self.roots,
            step=quiet_ms,
            debounce=quiet_ms * 20,
            recursive=True,
            rust_timeout=WATCH_UP_MS,
            yield_on_timeout=True,
        ):
            if not reconciled:
                await self.reconcile()
                reconciled = True
            if changes:
                await self._apply(changes)
