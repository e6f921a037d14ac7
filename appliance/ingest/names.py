"""File names as people and protocols can see them.

Linux file names are bytes. Python hands a name that is not valid UTF-8 over as a string with
surrogate escapes (``b"note\\xff.md"`` becomes ``"note\\udcff.md"``), which SQLite, JSON encoders and a
UTF-8 terminal all refuse. :func:`display_name` turns such a name into a printable, ASCII-escaped
form (``note\\xff.md``) that is used wherever a name is stored or shown; the original string is kept
only to open the file.
"""

from __future__ import annotations

import os
from pathlib import Path

# C0 and C1 control characters and DEL: a name with a newline or an escape sequence must not
# break a log line or drive the terminal.
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))}


def is_printable(text: str) -> bool:
    """Whether a string can be stored and shown as it is (valid UTF-8, no control characters)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(ord(ch) in _CONTROLS for ch in text)


def display_name(name: str | bytes | os.PathLike[str]) -> str:
    """A printable form of a file name or path: undecodable bytes and controls shown as ``\\xNN``.

    Valid UTF-8 names are returned unchanged (apart from control characters), so the display form
    of an ordinary name is the name itself.
    """
    if isinstance(name, bytes):
        raw = name
    else:
        text = os.fspath(name) if not isinstance(name, str) else name
        try:
            raw = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a lone surrogate that no file system produced (from JSON)
            raw = text.encode("utf-8", "backslashreplace")
    return raw.decode("utf-8", "backslashreplace").translate(_CONTROLS)


def display_path(path: Path | str) -> str:
    """:func:`display_name` of a whole path."""
    return display_name(str(path))


def absolute_path(path: str | Path) -> str:
    """The resolved form of a path, or its absolute form when it cannot be resolved.

    ``Path.resolve`` raises on a symbolic link loop; a name given on the command line may be one,
    and looking it up in the index must then simply not find it.
    """
    try:
        return str(Path(path).resolve())
    except (RuntimeError, OSError):
        return os.path.abspath(path)
