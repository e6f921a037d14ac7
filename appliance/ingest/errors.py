"""Errors of file ingestion; each names the input by file name only."""

from __future__ import annotations

from pathlib import Path

from appliance.errors import InputError, public_name
from appliance.ingest.names import display_name


def scrub(text: str, path: str | Path) -> str:
    """Remove a path's folders from a foreign error message, keeping only the file name."""
    full = str(path)
    return display_name(text.replace(full, public_name(path)) if full else text)


class IngestError(InputError):
    """A file cannot be indexed; ``code`` says why."""

    code = "ingest_failed"

    def __init__(self, path: str | Path, reason: str, *, code: str) -> None:
        name = display_name(public_name(path))
        super().__init__(f"{name}: {display_name(reason)}", code=code)
        #: The file's name in its display form (never its absolute path).
        self.name = name
