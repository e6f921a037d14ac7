"""One open index database as the in-memory caches see it: its connection, file, write lock, vector
format and the counters that tell a cache its copy is stale.

:class:`appliance.index.store.IndexStore` owns one and hands it to its caches (vectors, keyword row
counts, BM25 phrase shares, source names), so a cache depends on this module and never on the store
that holds it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from appliance.index import db as dbmod
from appliance.index.vectors import VectorCodec


class IndexConnection:
    """The index's SQLite connection with what every reader of it shares."""

    def __init__(self, db: dbmod.Connection, path: Path | None, codec: VectorCodec) -> None:
        #: The connection (one per store; writers in this process share it under ``write_lock``).
        self.db = db
        #: The database file; None for an in-memory index (no background reader can open it).
        self.path = path
        #: How vectors are stored in the vec0 table.
        self.codec = codec
        #: Serialises this process's writers, and keeps them out of a cache's read transaction.
        self.write_lock = threading.RLock()
        # Commits made through this connection: PRAGMA data_version only counts other connections'.
        self._local_commits = 0
        self._generations_lock = threading.Lock()
        self._generations: tuple[tuple[int, int], dict[str, int]] | None = None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction; rolls back on any exception, including KeyboardInterrupt."""
        with self.write_lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            self._local_commits += 1

    def data_version(self) -> tuple[int, int]:
        """Changes whenever anything was committed to the index since the last call returned.

        ``PRAGMA data_version`` changes when another connection (in this process or another one)
        commits; commits through this connection are counted here. Cheap enough for every search.
        """
        row = self.db.execute("PRAGMA data_version").fetchone()
        return int(row[0]), self._local_commits

    def generations(self) -> dict[str, int]:
        """Every namespace's write generation, read again only after something was committed.

        The in-memory caches (vectors, BM25 shares) compare these to what they hold. The same
        dict object is returned until a commit: callers may compare by identity.
        """
        version = self.data_version()
        with self._generations_lock:
            if self._generations is not None and self._generations[0] == version:
                return self._generations[1]
        rows = self.db.execute("SELECT namespace, generation FROM namespace_generations")
        found = {str(r[0]): int(r[1]) for r in rows.fetchall()}
        with self._generations_lock:
            # Tagged with the version read before: a commit in between moves data_version again,
            # so the next call reads once more; a stale dict is never kept.
            self._generations = (version, found)
        return found
