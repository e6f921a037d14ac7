"""The index as the service writes it: :class:`~appliance.service.ports.Library` over the real
``IndexStore`` and ingest pipeline.

Source identifiers of watched files are their paths relative to the data directory
(``inbox/shop/bracket.pdf``, ``memory/shop/2026-11-29.md``): stable across restarts and moves of the
data directory, unique across namespaces, and never an absolute path (which would leak on the LAN).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from appliance.errors import InputError, public_name
from appliance.ingest.names import display_name
from appliance.service.ports import Captured, Progress, SourceRecord

if TYPE_CHECKING:
    from appliance.config import Config
    from appliance.index.store import IndexStore


def source_records(store: IndexStore, namespace: str | None = None) -> list[SourceRecord]:
    """The sources of an index as the service's records."""
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
        for s in store.list_sources(namespace)
    ]


class IndexLibrary:
    """Writes through one IndexStore connection (owned by the index-writer thread)."""

    def __init__(self, config: Config, store: IndexStore | None = None) -> None:
        from appliance.index.store import IndexStore

        self.config = config
        self.data_dir = config.paths.data_dir
        self.store = store or IndexStore.open(config)

    def source_id(self, path: Path, namespace: str) -> str:
        """Path relative to the data directory, in its display form; files elsewhere are refused.

        A name that is not UTF-8 gets its display form (``note\\xff.md``), which is what the index,
        the status page and the logs can hold.
        """
        path = Path(path)
        try:
            resolved = path.resolve()
        except (RuntimeError, OSError):
            # A symbolic link loop: name it by its folder; opening it fails later with a coded error.
            resolved = path.parent.resolve() / path.name
        try:
            rel = resolved.relative_to(self.data_dir.resolve()).as_posix()
        except ValueError:
            raise InputError(
                f"{display_name(public_name(path))} is outside the data directory",
                code="path_outside_store",
            ) from None
        return display_name(rel)

    def index_file(self, path: Path, namespace: str, progress: Progress) -> str:
        """Index one file through the ingest pipeline; raise its error when it fails."""
        from appliance.ingest.pipeline import ingest_path

        def step(name: str, done: int, total: int) -> None:
            progress(done / total if total else 0.0, display_name(name))

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
            return f"{display_name(public_name(path))} unchanged"
        info = next(
            (s for s in self.store.list_sources(namespace) if s.source == result.source), None
        )
        if info is not None and info.drawing_number:
            rev = f" revision {info.revision}" if info.revision else ""
            return f"indexed drawing {info.drawing_number}{rev}"
        return f"indexed {display_name(public_name(path))} ({result.slices} slices)"

    def index_capture(self, namespace: str, progress: Progress) -> Captured:
        """Capture from the configured camera, gate strictly, OCR, index; the sentence to speak.

        A rejected shot raises the vision part's PageQualityError, whose message says what to do
        ("too blurry, hold it still"); nothing is indexed then.
        """
        from appliance.vision.scan import capture_document

        progress(0.05, "capturing")
        capture, doc = capture_document(
            self.config, namespace, captured=lambda: progress(0.7, "indexing")
        )
        result = self.store.replace_source(doc)
        fields = capture.analysis.fields
        if result.skipped:
            return Captured("That drawing is already indexed.", result.source)
        if fields.get("drawing_number"):
            rev = f" revision {fields['revision']}" if fields.get("revision") else ""
            return Captured(f"Indexed drawing {fields['drawing_number']}{rev}.", result.source)
        return Captured(f"Indexed the page: {len(doc.slices)} pieces of text.", result.source)

    def forget(self, namespace: str, source: str) -> bool:
        """Remove a source and every trace of it."""
        return self.store.delete_source(namespace, source)

    def sources(self, namespace: str | None = None) -> list[SourceRecord]:
        """Indexed sources."""
        return source_records(self.store, namespace)

    def close(self) -> None:
        """Close the database."""
        self.store.close()
