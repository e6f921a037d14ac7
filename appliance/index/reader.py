"""The exact text of an indexed source, for ``openclaw get`` and citations."""

from __future__ import annotations

import hashlib
from pathlib import Path

from appliance.errors import InputError, public_name
from appliance.index.store import IndexStore


def source_lines(store: IndexStore, namespace: str, source: str) -> tuple[list[str], str]:
    """(lines, origin): the original file's lines when unchanged on disk, else the slices' text."""
    candidates = [source, str(Path(source).resolve())]
    for candidate in dict.fromkeys(candidates):
        expected = store.current_hash(namespace, candidate)
        if expected is None:
            continue
        path = Path(candidate)
        if path.is_file():
            data = path.read_bytes()
            if hashlib.sha256(data).hexdigest() == expected:
                return data.decode("utf-8-sig", errors="replace").splitlines(), "original file"
        slices = store.source_slices(namespace, candidate)
        lines: list[str] = []
        for sl in slices:
            lines.extend(sl.text.splitlines())
            lines.append("")
        return lines, "reassembled from indexed slices; the file changed or is gone"
    raise InputError(
        f"{public_name(source)} is not indexed in namespace {namespace}", code="source_not_found"
    )
