"""Inbox files that failed to index, remembered across restarts until they change.

Without this record the start-up checksum pass would queue a broken file again at every start (it is
never in the index, so it always looks new), and a crash it causes would come back with it. A failed
file is recorded with its fingerprint (size, modification time, sha256) and its error; while the file
on disk still has that fingerprint it is shown as failed and not retried. Changing the file in any way
(or touching it) retries it.

The record is a small JSON file in the data directory, replaced atomically. It is a cache of
decisions, not data: when it is unreadable it is ignored and each failing file is tried once more.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_VERSION = 1


@dataclass(frozen=True)
class Fingerprint:
    """What identifies one version of a file."""

    #: Size in bytes.
    size: int
    #: Modification time in nanoseconds.
    mtime_ns: int
    #: sha256 of the bytes; "" when the file cannot be read.
    sha256: str


def fingerprint(path: Path) -> Fingerprint | None:
    """The file's fingerprint, or None when it cannot even be looked at (gone, a link loop)."""
    try:
        st = path.stat()
    except (OSError, RuntimeError):
        return None
    digest = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return Fingerprint(st.st_size, st.st_mtime_ns, "")
    return Fingerprint(st.st_size, st.st_mtime_ns, digest.hexdigest())


@dataclass(frozen=True)
class Failure:
    """One remembered failure."""

    #: Namespace the file belongs to.
    namespace: str
    #: The file as it was when it failed.
    size: int
    #: Modification time (ns) when it failed.
    mtime_ns: int
    #: sha256 when it failed ("" when unreadable).
    sha256: str
    #: Stable error code.
    code: str
    #: Human message (already safe for the LAN).
    message: str
    #: When it failed (UNIX seconds).
    at: float

    def matches(self, fp: Fingerprint | None) -> bool:
        """Whether the file is still the version that failed."""
        if fp is None:
            return self.size == -1
        return (self.size, self.mtime_ns, self.sha256) == (fp.size, fp.mtime_ns, fp.sha256)


class FailureBook:
    """The record of failed inbox files, keyed by their display name relative to the data directory."""

    def __init__(self, path: Path | None) -> None:
        #: Where the record is kept (None: in memory only).
        self.path = path
        self._failures: dict[str, Failure] = self._load()

    def _load(self) -> dict[str, Failure]:
        if self.path is None or not self.path.is_file():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("version") != _VERSION:
                return {}
            return {str(k): Failure(**v) for k, v in data["failures"].items()}
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            log.warning("the record of failed files is unreadable; failed files are retried once")
            return {}

    def _save(self) -> None:
        if self.path is None:
            return
        data: dict[str, Any] = {
            "version": _VERSION,
            "failures": {k: asdict(v) for k, v in sorted(self._failures.items())},
        }
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, ensure_ascii=True, indent=1), encoding="ascii")
            os.replace(tmp, self.path)
        except OSError:
            log.warning("cannot write the record of failed files", exc_info=True)

    def get(self, key: str) -> Failure | None:
        """The failure recorded for a file, if any."""
        return self._failures.get(key)

    def unchanged(self, key: str, fp: Fingerprint | None) -> Failure | None:
        """The recorded failure when the file is still the version that failed, else None."""
        failure = self._failures.get(key)
        return failure if failure is not None and failure.matches(fp) else None

    def record(
        self, key: str, namespace: str, fp: Fingerprint | None, code: str, message: str
    ) -> None:
        """Remember that this version of the file failed."""
        size, mtime_ns, sha = (fp.size, fp.mtime_ns, fp.sha256) if fp else (-1, 0, "")
        self._failures[key] = Failure(namespace, size, mtime_ns, sha, code, message, time.time())
        self._save()

    def clear(self, key: str) -> None:
        """Forget a failure (the file was indexed or removed)."""
        if self._failures.pop(key, None) is not None:
            self._save()

    def prune(self, prefix: str, present: set[str]) -> None:
        """Forget failures of files under ``prefix`` that are no longer there."""
        gone = [k for k in self._failures if k.startswith(prefix) and k not in present]
        for key in gone:
            del self._failures[key]
        if gone:
            self._save()

    def items(self) -> list[tuple[str, Failure]]:
        """Every recorded failure."""
        return sorted(self._failures.items())
