"""The exact text of an indexed source, for ``openclaw get`` and citations."""

from __future__ import annotations

import hashlib
from pathlib import Path

from appliance.errors import InputError, public_name
from appliance.index.store import IndexStore
from appliance.ingest.files import MAX_TEXT_BYTES, media_type_of
from appliance.ingest.names import absolute_path, display_name


def source_lines(store: IndexStore, namespace: str, source: str) -> tuple[list[str], str]:
    """(lines, origin): the original file's lines when unchanged on disk, else the slices' text."""
    candidates = [source, absolute_path(source)]
    for candidate in dict.fromkeys(candidates):
        expected = store.current_hash(namespace, candidate)
        if expected is None:
            continue
        original = _original_text(Path(candidate), expected)
        if original is not None:
            return original.splitlines(), "original file"
        slices = store.source_slices(namespace, candidate)
        lines: list[str] = []
        for sl in slices:
            lines.extend(sl.text.splitlines())
            lines.append("")
        why = "the file changed or is gone" if _is_text(candidate) else "not a text file"
        return lines, f"reassembled from indexed slices; {why}"
    raise InputError(
        f"{public_name(source)} is not indexed in namespace {display_name(namespace)[:64]}",
        code="source_not_found",
    )


def _is_text(name: str) -> bool:
    return (media_type_of(Path(name)) or "").startswith("text/")


def _original_text(path: Path, expected: str) -> str | None:
    """A text source's file as it is on disk, when its bytes still hash to ``expected``.

    PDFs and images are never printed as they are (their text is what was indexed), and a file
    that has grown past the text limit since it was indexed is not read into memory.
    """
    if not _is_text(str(path)):
        return None
    try:
        if not path.is_file() or path.stat().st_size > MAX_TEXT_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != expected:
        return None
    return data.decode("utf-8-sig", errors="replace")
