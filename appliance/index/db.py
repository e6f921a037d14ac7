"""Opening the index database: SQLite through sqlean.py, with sqlite-vec loaded.

sqlean.py bundles one SQLite build (with FTS5 and extension loading) on x86_64 and aarch64, so the
appliance does not depend on whether the system or pyenv Python can load extensions.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import sqlean
import sqlite_vec

from appliance.errors import IndexStoreError, public_name

Connection = Any  # sqlean.dbapi2.Connection; sqlean ships no type stubs

#: Seconds a writer waits for another writer's transaction before giving up.
BUSY_TIMEOUT_MS = 30_000


def _not_sqlite(path: Path | str) -> IndexStoreError:
    return IndexStoreError(
        f"index database {public_name(path)} is not an SQLite database; "
        "move it aside and run `openclaw index` again to rebuild",
        code="index_not_sqlite",
    )


def connect(path: Path | str, *, read_only: bool = False) -> Connection:
    """Open (or create) the database with sqlite-vec loaded, WAL journaling and foreign keys on."""
    memory = str(path) == ":memory:"
    if not memory:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        if read_only and not memory:
            db = sqlean.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        else:
            db = sqlean.connect(str(path), check_same_thread=False)
        # Autocommit mode: transactions are opened explicitly (BEGIN IMMEDIATE) by the store, so a
        # replace is exactly one transaction and nothing is committed implicitly.
        db.isolation_level = None
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # The first read checks the header: SQLite refuses a file that is not a database without
        # writing to it. (Reading the header with Python's own open() would be wrong: closing
        # that descriptor drops every POSIX lock this process holds on the file, including the
        # locks of connections already open, and another process may then reset the WAL under
        # them — they would go on reading an old snapshot.)
        try:
            db.execute("PRAGMA schema_version").fetchall()
        except sqlean.DatabaseError as err:
            db.close()
            if "not a database" in str(err):
                raise _not_sqlite(path) from err
            raise
        db.enable_load_extension(True)
        sqlite_vec.load(db)
        db.enable_load_extension(False)
        db.execute("PRAGMA foreign_keys = ON")
        if not memory and not read_only:
            _enable_wal(db)
            db.execute("PRAGMA synchronous = NORMAL")
    except sqlean.DatabaseError as err:
        raise IndexStoreError(
            f"index database {public_name(path)} cannot be opened ({err})", code="index_open_failed"
        ) from err
    return db


def _enable_wal(db: Connection) -> None:
    """Switch to WAL; retried, because SQLite does not wait on its busy handler for this switch
    while another connection is creating the same database."""
    for attempt in range(100):
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlean.OperationalError as err:
            if "locked" not in str(err) or attempt == 99:
                raise
            time.sleep(0.05)


def sqlite_versions() -> tuple[str, str]:
    """(SQLite version, sqlite-vec version) as loaded by :func:`connect`; used by ``openclaw doctor``."""
    db = connect(":memory:")
    try:
        row = db.execute("SELECT sqlite_version(), vec_version()").fetchone()
        return str(row[0]), str(row[1])
    finally:
        db.close()
