"""Memory notes: "remember that ..." becomes a dated line in plain Markdown a person can edit.

Each namespace (room) has ``data_dir/memory/<namespace>/``: one file per day (``YYYY-MM-DD.md``, the
running log) and ``MEMORY.md`` (every note, newest last, with its date). Both are ordinary Markdown, indexed
like any document, so a note is cited like a drawing; a person may edit them and the watcher re-indexes.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path

from appliance.errors import InputError

_NAMESPACE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
#: Longest note accepted (characters).
MAX_NOTE_CHARS = 2000


def check_namespace(namespace: str) -> str:
    """Return the namespace if it is a safe folder name, else raise InputError."""
    if not _NAMESPACE.match(namespace):
        raise InputError(
            f"namespace {namespace[:40]!r}: use lower-case letters, digits, '-' and '_' (max 64)",
            code="namespace_invalid",
        )
    return namespace


def _append(path: Path, header: str, line: str) -> None:
    new = not path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        if new:
            fh.write(header)
        fh.write(line)
        fh.flush()
        os.fsync(fh.fileno())


class MemoryNotes:
    """Writes notes into a namespace's memory folder."""

    def __init__(self, memory_root: Path) -> None:
        #: ``data_dir/memory``.
        self.root = memory_root

    def folder(self, namespace: str) -> Path:
        """The memory folder of a namespace."""
        return self.root / check_namespace(namespace)

    def remember(self, namespace: str, note: str, now: dt.datetime | None = None) -> list[Path]:
        """Append the note to today's file and to MEMORY.md; return the files written."""
        text = " ".join(note.split())
        if not text:
            raise InputError("there is nothing to remember in that note", code="memory_empty")
        if len(text) > MAX_NOTE_CHARS:
            raise InputError(
                f"a memory note is limited to {MAX_NOTE_CHARS} characters", code="memory_too_long"
            )
        now = now or dt.datetime.now().astimezone()
        folder = self.folder(namespace)
        day = folder / f"{now:%Y-%m-%d}.md"
        index = folder / "MEMORY.md"
        _append(day, f"# {now:%Y-%m-%d} ({namespace})\n\n", f"- {now:%H:%M} {text}\n")
        _append(
            index,
            f"# Memory of {namespace}\n\nNotes the appliance was asked to remember; edit freely.\n\n",
            f"- {now:%Y-%m-%d}: {text}\n",
        )
        return [day, index]
