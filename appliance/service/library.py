"""The index as the service writes it: :class:`~appliance.service.ports.Library` over the real
``IndexStore`` and ingest pipeline.

Source identifiers of watched files are their paths relative to the data directory
(``inbox/shop/bracket.pdf``, ``memory/shop/2026-11-29.md``): stable across restarts and moves of the
data directory, unique across namespaces, and never an absolute path (which would leak on the LAN).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

from appliance.errors import InputError, public_name
from appliance.service.ports import Progress, SourceRecord

if TYPE_CHECKING:
    from appliance.config import Config
    from appliance.index.store import IndexStore


class IndexLibrary:
    """Writes through one IndexStore connection (owned by the index-writer thread)."""

    def __init__(self, config: Config, store: IndexStore | None = None) -> None:
        from appliance.index.store import IndexStore

        self.config = config
        self.data_dir = config.paths.data_dir
        self.store = store or IndexStore.open(config)

    def source_id(self, path: Path, namespace: str) -> str:
        """Path relative to the data directory; files elsewhere are refused."""
        try:
            return Path(path).resolve().relative_to(self.data_dir.resolve()).as_posix()
        except ValueError:
            raise InputError(
                f"{public_name(path)} is outside the data directory", code="path_outside_store"
            ) from None

    def index_file(self, path: Path, namespace: str, progress: Progress) -> str:
        """Index one file through the ingest pipeline; raise its error when it fails."""
        from appliance.ingest.pipeline import ingest_path

        def step(name: str, done: int, total: int) -> None:
            progress(done / total if total else 0.0, name)

        report = ingest_path(
            self.store,
            path,
            namespace,
            config=self.config,
            source=self.source_id(path, namespace),
            progress=step,
        )
        if report.failures:
            raise report.failures[0][1]
        result = report.results[0]
        if result.skipped:
            return f"{public_name(path)} unchanged"
        info = next(
            (s for s in self.store.list_sources(namespace) if s.source == result.source), None
        )
        if info is not None and info.drawing_number:
            rev = f" revision {info.revision}" if info.revision else ""
            return f"indexed drawing {info.drawing_number}{rev}"
        return f"indexed {public_name(path)} ({result.slices} slices)"

    def index_image(self, image_path: Path, namespace: str, progress: Progress) -> str:
        """A camera capture: quality gate, OCR, index (the vision part does the work)."""
        vision = importlib.import_module("appliance.vision.capture_ingest")
        summary: str = vision.index_capture(
            self.store, image_path, namespace=namespace, config=self.config, progress=progress
        )
        return summary

    def forget(self, namespace: str, source: str) -> bool:
        """Remove a source and every trace of it."""
        return self.store.delete_source(namespace, source)

    def sources(self, namespace: str | None = None) -> list[SourceRecord]:
        """Indexed sources."""
        return [
            SourceRecord(
                source=s.source,
                namespace=s.namespace,
                content_hash=s.content_hash,
                slices=s.slices,
                title=s.title,
                drawing_number=s.drawing_number,
                revision=s.revision,
            )
            for s in self.store.list_sources(namespace)
        ]

    def close(self) -> None:
        """Close the database."""
        self.store.close()
