"""Errors of file ingestion; each names the input by file name only."""

from __future__ import annotations

from pathlib import Path

from appliance.errors import InputError, public_name
from appliance.ingest.names import display_name


def scrub(text: str, path: str | Path) -> str:
    """Remove a path's folders from a foreign error message, keeping only the file name.

    Libraries quote the path as it is, as its ``repr`` (MuPDF: a name that is not UTF-8 then shows
    ``\\udc80``) or in a printable form; each form of the path, then of its folder, is removed.
    """
    full = str(path)
    if not full:
        return display_name(text)
    folder = str(Path(full).parent)
    for whole, part in ((full, public_name(path)), (folder + "/", "")):
        for form in dict.fromkeys((whole, repr(whole)[1:-1], display_name(whole))):
            text = text.replace(form, part)
    return display_name(text)


class IngestError(InputError):
    """A file cannot be indexed; ``code`` says why."""

    code = "ingest_failed"

    def __init__(self, path: str | Path, reason: str, *, code: str) -> None:
        name = display_name(public_name(path))
        super().__init__(f"{name}: {display_name(reason)}", code=code)
        #: The file's name in its display form (never its absolute path).
        self.name = name
