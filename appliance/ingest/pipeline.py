"""From a path on disk to slices in the index: one file, or a folder walked recursively."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from appliance.document import DocumentSlice, SourceDocument
from appliance.errors import OpenClawError, public_name
from appliance.index.tokens import passage_tokens
from appliance.ingest import pdf
from appliance.ingest.chunking import Block, pack
from appliance.ingest.errors import IngestError
from appliance.ingest.files import (
    InputFile,
    decode_text,
    media_type_of,
    open_input,
    printable_document,
)
from appliance.ingest.markdown import first_heading, markdown_blocks, text_blocks
from appliance.ingest.names import display_name

if TYPE_CHECKING:
    from appliance.config import Config
    from appliance.index.store import IndexStore, ReplaceResult

ProgressFn = Callable[[str, int, int], None]


@dataclass
class IngestReport:
    """What one ``ingest_path`` call did."""

    #: One result per source written or skipped.
    results: list[ReplaceResult] = field(default_factory=list)
    #: (file name, error) for every file that could not be indexed.
    failures: list[tuple[str, OpenClawError]] = field(default_factory=list)

    @property
    def indexed(self) -> int:
        """Sources written."""
        return sum(1 for r in self.results if not r.skipped)

    @property
    def skipped(self) -> int:
        """Sources unchanged since the last run."""
        return sum(1 for r in self.results if r.skipped)


def iter_files(root: Path) -> Iterator[Path]:
    """Supported files under a folder, in a stable order; symlinked folders are not followed."""
    if not root.is_dir():
        yield root
        return
    for dirpath, dirnames, filenames in os.walk(root, onerror=_raise_walk_error):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if not name.startswith(".") and media_type_of(path) is not None:
                yield path


def _raise_walk_error(err: OSError) -> None:
    raise IngestError(err.filename or "<folder>", "permission denied", code="permission_denied")


def build_document(
    path: Path,
    *,
    namespace: str,
    config: Config,
    source: str | None = None,
    progress: ProgressFn | None = None,
) -> SourceDocument:
    """Read and slice one file (no index write)."""
    info = open_input(path, max_bytes=config.ingest.max_file_mb * 1024 * 1024)
    source = source or str(info.path)
    if info.media_type.startswith("image/"):
        return _image_document(info, namespace=namespace, source=source, config=config)
    title = ""
    blocks: list[Block] = []
    ocr_slices: list[DocumentSlice] = []
    if info.media_type == "application/pdf":
        page_progress = None
        if progress is not None:
            page_progress = lambda done, total: progress(public_name(path), done, total)  # noqa: E731
        for _page, items in pdf.pdf_pages(info.path, config=config, progress=page_progress):
            for item in items:
                if isinstance(item, Block):
                    blocks.append(item)
                else:
                    ocr_slices.append(item)
        title = pdf.pdf_title(info.path)
    else:
        text = decode_text(path, info.path.read_bytes())
        if not text.strip():
            raise IngestError(path, "contains only whitespace", code="file_empty")
        if info.media_type == "text/markdown":
            blocks = list(markdown_blocks(text))
            title = first_heading(text)
        else:
            blocks = list(text_blocks(text))
    slices = pack(
        blocks,
        target=config.ingest.chunk_tokens,
        overlap=config.ingest.overlap_tokens,
        tokens=passage_tokens(config.index.embedding_model, config.paths.models_dir),
    )
    if ocr_slices:
        slices = sorted([*slices, *ocr_slices], key=lambda s: s.page)
    if not slices:
        raise IngestError(path, "has no text to index", code="no_text")
    return SourceDocument(
        source=source,
        namespace=namespace,
        content_hash=info.sha256,
        slices=tuple(slices),
        mtime=info.mtime,
        media_type=info.media_type,
        title=title or info.path.stem,
        extra={"file_name": info.path.name, "bytes": info.size},
    )


def _image_document(
    info: InputFile, *, namespace: str, source: str, config: Config
) -> SourceDocument:
    # Imported here, not at the top: the vision path loads OpenCV and its own modules (0.2 s on a
    # development PC), which a run that indexes only notes and PDFs with a text layer never needs.
    from appliance.vision.ingest import ingest_image

    return ingest_image(info.path, namespace=namespace, source=source, config=config)


def ingest_path(
    store: IndexStore,
    path: Path | str,
    namespace: str = "global",
    *,
    config: Config,
    source: str | None = None,
    force: bool = False,
    progress: ProgressFn | None = None,
) -> IngestReport:
    """Index a file or every supported file under a folder; one bad file never stops the rest."""
    path = Path(path)
    report = IngestReport()
    files = list(iter_files(path)) if path.is_dir() and not path.is_symlink() else [path]
    for file in files:
        try:
            ident = source if (source and len(files) == 1) else None
            doc = build_document(
                file, namespace=namespace, config=config, source=ident, progress=progress
            )
            report.results.append(store.replace_source(printable_document(doc), force=force))
        except OpenClawError as err:
            report.failures.append((display_name(public_name(file)), err))
        if progress is not None:
            progress(public_name(file), len(report.results) + len(report.failures), len(files))
    return report
