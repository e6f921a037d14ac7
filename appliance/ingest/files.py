"""Reading input files defensively: symlink loops, permissions, sizes, binary data, encodings."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance.document import DocumentSlice, SourceDocument
from appliance.ingest.errors import IngestError
from appliance.ingest.names import display_name, is_printable

#: Suffix -> media type of every file kind the appliance indexes.
MEDIA_TYPES = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".text": "text/plain",
    ".pdf": "application/pdf",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".tif": "image/tiff",
    ".tiff": "image/tiff",
}
#: Largest text or Markdown file: a note larger than this is almost certainly a dump or a log,
#: and embedding it would occupy the appliance for many minutes.
MAX_TEXT_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class InputFile:
    """A file that passed the checks, with its bytes' hash."""

    #: Resolved path.
    path: Path
    #: Media type from the suffix.
    media_type: str
    #: Size in bytes.
    size: int
    #: sha256 of the bytes.
    sha256: str
    #: Modification time.
    mtime: float


def media_type_of(path: Path) -> str | None:
    """The media type of a supported file, or None."""
    return MEDIA_TYPES.get(path.suffix.lower())


def open_input(path: Path, *, max_bytes: int) -> InputFile:
    """Check a file can be read and hash it, or raise an IngestError that says why."""
    try:
        resolved = path.resolve(strict=True)
    except RuntimeError:
        raise IngestError(path, "symbolic link loop", code="symlink_loop") from None
    except FileNotFoundError:
        if path.is_symlink():
            raise IngestError(path, "broken symbolic link", code="symlink_broken") from None
        raise IngestError(path, "no such file", code="file_not_found") from None
    except PermissionError:
        raise IngestError(path, "permission denied", code="permission_denied") from None
    if resolved.is_dir():
        raise IngestError(path, "is a directory", code="is_directory")
    media_type = media_type_of(resolved)
    if media_type is None:
        supported = ", ".join(sorted(MEDIA_TYPES))
        raise IngestError(
            path, f"unsupported file type; supported: {supported}", code="unsupported_type"
        )
    st = resolved.stat()
    if st.st_size == 0:
        raise IngestError(path, "file is empty", code="file_empty")
    limit = min(max_bytes, MAX_TEXT_BYTES) if media_type.startswith("text/") else max_bytes
    if st.st_size > limit:
        raise IngestError(
            path,
            f"file is {st.st_size // (1024 * 1024)} MB; the limit for this type is "
            f"{limit // (1024 * 1024)} MB",
            code="file_too_large",
        )
    digest = hashlib.sha256()
    try:
        with resolved.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
    except PermissionError:
        raise IngestError(path, "permission denied", code="permission_denied") from None
    except OSError as err:
        raise IngestError(
            path, f"cannot be read ({os.strerror(err.errno or 0)})", code="read_failed"
        ) from None
    return InputFile(resolved, media_type, st.st_size, digest.hexdigest(), st.st_mtime)


def decode_text(path: Path, data: bytes) -> str:
    """UTF-8 text of a file, refusing binary data and other encodings with a specific error."""
    if b"\x00" in data[:8192]:
        raise IngestError(path, "contains binary data (NUL bytes), not text", code="binary_as_text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise IngestError(
            path,
            f"is not UTF-8 (invalid byte 0x{data[err.start]:02x} on line {line}); "
            "convert it with: iconv -f LATIN1 -t UTF-8",
            code="text_not_utf8",
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _printable_value(value: Any) -> Any:
    if isinstance(value, str):
        return value if is_printable(value) else display_name(value)
    if isinstance(value, dict):
        return {_printable_value(k): _printable_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_printable_value(v) for v in value)
    return value


def _printable_slice(piece: DocumentSlice) -> DocumentSlice:
    if is_printable(piece.section) and all(
        is_printable(v) for v in piece.extra.values() if isinstance(v, str)
    ):
        return piece
    return dataclasses.replace(
        piece, section=display_name(piece.section), extra=_printable_value(piece.extra)
    )


def printable_document(doc: SourceDocument) -> SourceDocument:
    """The document with every name taken from a file name in its display form.

    A file name that is not UTF-8 reaches Python as a string with surrogate escapes, which SQLite,
    JSON and the terminal all refuse; the index stores the visible ``\\xNN`` form instead.
    """
    return dataclasses.replace(
        doc,
        source=display_name(doc.source),
        title=display_name(doc.title),
        extra=_printable_value(doc.extra),
        slices=tuple(_printable_slice(s) for s in doc.slices),
    )
