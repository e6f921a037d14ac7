"""Numbered, ordered schema migrations; the only place the schema changes.

Each migration runs once, inside the transaction that records it in ``migrations``. The vector table
depends on the embedding model (its dimension and the storage type), so its migration reads those
from the ``meta`` table written when the index is first created.
"""

from __future__ import annotations

from collections.abc import Callable

from appliance.errors import IndexStoreError
from appliance.index.db import Connection

Migration = Callable[[Connection, dict[str, str]], None]


_M001 = [
    """
    CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    source TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    media_type TEXT NOT NULL DEFAULT 'text/plain',
    title TEXT NOT NULL DEFAULT '',
    mtime REAL NOT NULL DEFAULT 0,
    indexed_at REAL NOT NULL,
    drawing_number TEXT NOT NULL DEFAULT '',
    revision TEXT NOT NULL DEFAULT '',
    superseded INTEGER NOT NULL DEFAULT 0,
    extra TEXT NOT NULL DEFAULT '{}',
    UNIQUE (namespace, source)
    )
    """,
    """
    CREATE INDEX sources_drawing ON sources (namespace, drawing_number)
    """,
    """
    CREATE TABLE slices (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    namespace TEXT NOT NULL,
    ord INTEGER NOT NULL,
    text TEXT NOT NULL,
    kind TEXT NOT NULL,
    page INTEGER NOT NULL DEFAULT 0,
    box TEXT,
    section TEXT NOT NULL DEFAULT '',
    line_start INTEGER NOT NULL DEFAULT 0,
    line_end INTEGER NOT NULL DEFAULT 0,
    drawing_number TEXT NOT NULL DEFAULT '',
    revision TEXT NOT NULL DEFAULT '',
    content_hash TEXT NOT NULL,
    extra TEXT NOT NULL DEFAULT '{}'
    )
    """,
    """
    CREATE INDEX slices_source ON slices (source_id, ord)
    """,
    """
    CREATE VIRTUAL TABLE slices_fts USING fts5 (
    text, section, content='slices', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
    )
    """,
    """
    CREATE VIRTUAL TABLE slices_trigram USING fts5 (
    text, content='slices', content_rowid='id', tokenize='trigram'
    )
    """,
    """
    CREATE TRIGGER slices_ai AFTER INSERT ON slices BEGIN
    INSERT INTO slices_fts (rowid, text, section) VALUES (new.id, new.text, new.section);
    INSERT INTO slices_trigram (rowid, text) VALUES (new.id, new.text);
    END
    """,
    """
    CREATE TRIGGER slices_ad AFTER DELETE ON slices BEGIN
    INSERT INTO slices_fts (slices_fts, rowid, text, section)
    VALUES ('delete', old.id, old.text, old.section);
    INSERT INTO slices_trigram (slices_trigram, rowid, text)
    VALUES ('delete', old.id, old.text);
    END
    """,
]


def m001_initial(db: Connection, meta: dict[str, str]) -> None:
    """Sources, slices and the two keyword indexes (words and trigrams)."""
    # executescript() would commit on its own; run statement by statement inside the transaction.
    for statement in _M001:
        db.execute(statement)


def m002_vectors(db: Connection, meta: dict[str, str]) -> None:
    """The vector table, partitioned by namespace so a room's search never scans another room.

    float32 vectors use the L2 metric: on unit vectors it ranks exactly like cosine and sqlite-vec
    computes it with SIMD. int8 and bit vectors are a fast first pass; their full float32 vectors
    are kept in ``slice_vectors_full`` to rescore the candidates exactly.
    """
    dims = int(meta["dimensions"])
    element = {"float32": "float", "int8": "int8", "bit": "bit"}[meta["vector_type"]]
    metric = "" if element == "bit" else " distance_metric=l2"
    db.execute(
        f"CREATE VIRTUAL TABLE slice_vectors USING vec0 ("
        f" slice_id INTEGER PRIMARY KEY,"
        f" namespace TEXT PARTITION KEY,"
        f" embedding {element}[{dims}]{metric})"
    )
    db.execute(
        "CREATE TABLE slice_vectors_full (slice_id INTEGER PRIMARY KEY, embedding BLOB NOT NULL)"
    )


#: The FTS5 token naming a namespace: ``ns`` + hex of the name + ``0``. Hex keeps ``-`` and ``_``
#: from splitting the name into several tokens (``shop-a`` and ``shop_a`` would both become
#: ``shop a``), and the trailing digit keeps the Porter stemmer from touching it. The same SQL
#: expression builds the query side (:func:`appliance.index.keyword.namespace_token`).
NAMESPACE_TOKEN_SQL = "'ns' || lower(hex(namespace)) || '0'"

_M003 = [
    "DROP TRIGGER slices_ai",
    "DROP TRIGGER slices_ad",
    "DROP TABLE slices_fts",
    "DROP TABLE slices_trigram",
    f"ALTER TABLE slices ADD COLUMN ns_token TEXT GENERATED ALWAYS AS ({NAMESPACE_TOKEN_SQL}) VIRTUAL",
    """
    CREATE VIRTUAL TABLE slices_fts USING fts5 (
    text, section, ns_token, content='slices', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
    )
    """,
    """
    CREATE VIRTUAL TABLE slices_trigram USING fts5 (
    text, ns_token, content='slices', content_rowid='id', tokenize='trigram'
    )
    """,
    """
    CREATE TRIGGER slices_ai AFTER INSERT ON slices BEGIN
    INSERT INTO slices_fts (rowid, text, section, ns_token)
    VALUES (new.id, new.text, new.section, new.ns_token);
    INSERT INTO slices_trigram (rowid, text, ns_token) VALUES (new.id, new.text, new.ns_token);
    END
    """,
    """
    CREATE TRIGGER slices_ad AFTER DELETE ON slices BEGIN
    INSERT INTO slices_fts (slices_fts, rowid, text, section, ns_token)
    VALUES ('delete', old.id, old.text, old.section, old.ns_token);
    INSERT INTO slices_trigram (slices_trigram, rowid, text, ns_token)
    VALUES ('delete', old.id, old.text, old.ns_token);
    END
    """,
    # Rebuilt from the slices themselves: nothing a user indexed is lost.
    "INSERT INTO slices_fts (slices_fts) VALUES ('rebuild')",
    "INSERT INTO slices_trigram (slices_trigram) VALUES ('rebuild')",
    """
    CREATE TABLE namespace_generations (
    namespace TEXT PRIMARY KEY,
    generation INTEGER NOT NULL
    )
    """,
    "INSERT INTO namespace_generations SELECT DISTINCT namespace, 1 FROM sources",
]


def m003_scoped_keywords(db: Connection, meta: dict[str, str]) -> None:
    """The namespace inside both FTS5 indexes, and a write generation per namespace.

    A search restricted to some namespaces then filters inside FTS5 (``ns_token : (...) AND ...``)
    instead of joining every match to ``slices``. The generation of a namespace is bumped in the
    same transaction as every replace or delete in it, so an in-memory copy of its vectors can tell
    whether it is still current (:mod:`appliance.index.matrix`).
    """
    for statement in _M003:
        db.execute(statement)


#: Every migration in order. Append only; never edit or reorder one that has shipped.
MIGRATIONS: list[tuple[str, Migration]] = [
    ("m001_initial", m001_initial),
    ("m002_vectors", m002_vectors),
    ("m003_scoped_keywords", m003_scoped_keywords),
]


def migrate(db: Connection, meta: dict[str, str]) -> list[str]:
    """Apply every pending migration; returns the names applied."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)"
    )
    done = {row[0] for row in db.execute("SELECT name FROM migrations")}
    unknown = done - {name for name, _ in MIGRATIONS}
    if unknown:
        raise IndexStoreError(
            f"index was written by a newer version (migration {sorted(unknown)[0]}); upgrade openclaw",
            code="index_too_new",
        )
    applied = []
    for name, migration in MIGRATIONS:
        if name in done:
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            # Another connection may have applied it since `done` was read: check under the lock.
            if db.execute("SELECT 1 FROM migrations WHERE name = ?", (name,)).fetchone():
                db.execute("COMMIT")
                continue
            migration(db, meta)
            db.execute(
                "INSERT INTO migrations (name, applied_at) VALUES (?, unixepoch('subsec'))", (name,)
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied
