"""The inbox watcher: folders per namespace whose files are kept in step with the index.

``data_dir/inbox/<namespace>/`` receives PDFs, images and Markdown (copied in, uploaded from the
status page, synced from elsewhere); ``data_dir/memory/<namespace>/`` holds the memory notes. Both are
watched with ``watchfiles``; a change is acted on once the folder has been quiet for the debounce time
(~1.5 s, so a file still being copied is not read half-written). New or changed files are indexed, deleted
ones forgotten. At start-up a checksum pass reconciles each folder with the index, so changes made while
the service was down are not missed.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Iterable
from functools import partial
from pathlib import Path

import watchfiles

from appliance.service.indexer import IndexQueue
from appliance.service.memory import check_namespace
from appliance.service.ports import Library

log = logging.getLogger(__name__)

#: File types the inbox accepts (lower-case suffixes).
SUFFIXES = frozenset({".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".md", ".markdown", ".txt"})


def wanted(path: Path) -> bool:
    """Whether a file in a watched folder should be indexed (no hidden, temporary or foreign files)."""
    name = path.name
    if name.startswith((".", "~")) or name.endswith(("~", ".part", ".tmp", ".swp")):
        return False
    return path.suffix.lower() in SUFFIXES


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _source_id(lib: Library, *, path: Path, namespace: str) -> str:
    return lib.source_id(path, namespace)


class InboxWatcher:
    """Watches the inbox and memory roots and turns changes into index jobs."""

    name = "inbox"

    def __init__(self, queue: IndexQueue, roots: Iterable[Path], debounce_s: float = 1.5) -> None:
        self.queue = queue
        #: Folders whose immediate subfolders are namespaces (``inbox/``, ``memory/``).
        self.roots = [Path(r) for r in roots]
        self.debounce_s = debounce_s
        #: Set once the start-up reconciliation has queued its jobs.
        self.reconciled = asyncio.Event()

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
        return sorted(p for p in folder.rglob("*") if p.is_file() and wanted(p))

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
        files = self._files(folder)
        ids = await self.queue.call(lambda lib: [lib.source_id(p, namespace) for p in files])
        hashes = await asyncio.to_thread(lambda: [sha256_of(p) for p in files])
        jobs = 0
        for path, source, digest in zip(files, ids, hashes, strict=True):
            if by_source.get(source) != digest:
                self.queue.submit("index", namespace, path=path)
                jobs += 1
        # The folder's own prefix tells which indexed sources came from it (and not from a capture).
        prefix = await self.queue.call(lambda lib: lib.source_id(folder / "x", namespace)[:-1])
        present = set(ids)
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
            if change == watchfiles.Change.deleted or not path.exists():
                source = await self.queue.call(partial(_source_id, path=path, namespace=namespace))
                self.queue.submit("forget", namespace, source=source)
            elif path.is_file():
                self.queue.submit("index", namespace, path=path)

    async def run(self) -> None:
        """Reconcile, then watch until cancelled."""
        for root in self.roots:
            (root / "global").mkdir(parents=True, exist_ok=True)
        await self.reconcile()
        quiet_ms = int(self.debounce_s * 1000)
        # step = quiet time before a batch is yielded; debounce = the longest a batch may grow.
        async for changes in watchfiles.awatch(
            *self.roots, step=quiet_ms, debounce=quiet_ms * 20, recursive=True
        ):
            await self._apply(changes)
