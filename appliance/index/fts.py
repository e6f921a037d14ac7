"""The two FTS5 tables the keyword channel reads, and the row counts it plans its queries with.

The keyword channel (:mod:`appliance.index.keyword`) and the in-memory BM25 shares
(:mod:`appliance.index.postings`) both name the tables and read the counts through this module.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from appliance.index.connection import IndexConnection


@dataclass(frozen=True)
class FtsTable:
    """One FTS5 index the channel reads."""

    #: Table name.
    name: str
    #: Column filter of the text columns (the namespace column never matches query words).
    text_columns: str
    #: bm25() column weights, namespace column last at 0.
    weights: str
    #: The table's tokenizer, as in its migration (query phrases are tokenized the same way).
    tokenize: str


#: The words table's tokenizer (migration m003); a test checks it against the schema.
WORDS_TOKENIZE = "porter unicode61 remove_diacritics 2"
WORDS = FtsTable("slices_fts", "{text section}", "1.0, 1.0, 0.0", WORDS_TOKENIZE)
TRIGRAMS = FtsTable("slices_trigram", "text", "1.0, 0.0", "trigram")


def _varint(blob: bytes) -> int:
    """The first SQLite varint of a blob (FTS5 starts its averages record with the row count)."""
    value = 0
    for i, byte in enumerate(blob[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            break
    return value


class KeywordStats:
    """Row counts the keyword channel plans with, cached until anything is committed."""

    def __init__(self, conn: IndexConnection) -> None:
        self._conn = conn
        self._lock = threading.Lock()
        self._version: tuple[int, int] | None = None
        self._cache: dict[tuple[str, str], Any] = {}

    def _cached(self, key: tuple[str, str], compute: Callable[[], Any]) -> Any:
        with self._lock:
            version = self._conn.data_version()
            if version != self._version:
                self._cache.clear()
                self._version = version
            if key in self._cache:
                return self._cache[key]
        value = compute()
        with self._lock:
            # Kept only if nothing was committed meanwhile (the next call re-checks anyway).
            if self._version == version:
                self._cache[key] = value
        return value

    def clear(self) -> None:
        """Forget every count (benchmarks measure cold plans this way)."""
        with self._lock:
            self._cache.clear()
            self._version = None

    def total_rows(self, table: FtsTable) -> int:
        """Rows in the FTS5 table as bm25() counts them: the first varint of its averages record."""

        def read() -> int:
            row = self._conn.db.execute(
                f"SELECT block FROM {table.name}_data WHERE id = 1"
            ).fetchone()
            return _varint(bytes(row[0])) if row else 0

        return int(self._cached((table.name, ""), read))

    def matching_rows(self, table: FtsTable, match: str) -> int:
        """Rows matching an FTS5 expression anywhere in the index (bm25()'s count for idf)."""
        sql = f"SELECT count(*) FROM {table.name} WHERE {table.name} MATCH ?"
        return int(
            self._cached(
                (table.name, match), lambda: self._conn.db.execute(sql, (match,)).fetchone()[0]
            )
        )

    def namespaces(self) -> dict[str, int]:
        """Slices per namespace (only namespaces holding at least one)."""

        def read() -> dict[str, int]:
            rows = self._conn.db.execute(
                "SELECT src.namespace, count(*) FROM slices s"
                " JOIN sources src ON src.id = s.source_id GROUP BY src.namespace"
            ).fetchall()
            return {str(r[0]): int(r[1]) for r in rows}

        return dict(self._cached(("", "namespaces"), read))
