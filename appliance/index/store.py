"""The knowledge index: sources and their slices, vectors and keyword rows, replaced atomically.

Replacing a source is one ``BEGIN IMMEDIATE`` transaction: the old slices, vectors and FTS rows go
and the new ones come, or nothing changes (a SIGKILL in the middle leaves the whole old version,
WAL rolls the half-written transaction back). Embeddings are computed *before* the transaction, so
the write lock is held only for the inserts. Writers in one process are serialised by a lock;
writers in different processes by SQLite's own lock and ``busy_timeout``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from appliance.document import Box, DocumentSlice, SliceKind, SourceDocument
from appliance.errors import IndexStoreError
from appliance.index import db as dbmod
from appliance.index.connection import IndexConnection
from appliance.index.fit import fit_slices
from appliance.index.fts import KeywordStats
from appliance.index.identity import NameCache
from appliance.index.matrix import VectorCache
from appliance.index.migrations import migrate
from appliance.index.postings import PhraseCache
from appliance.index.revisions import revision_key
from appliance.index.vectors import VectorCodec

if TYPE_CHECKING:
    from appliance.config import Config
    from appliance.index.embedder import Embedder

GLOBAL_NAMESPACE = "global"
#: Memory for in-memory vectors when the caller does not say (IndexSettings.vector_cache_mb).
DEFAULT_VECTOR_CACHE_MB = 512
#: Memory for in-memory BM25 phrase shares when the caller does not say
#: (IndexSettings.keyword_cache_mb).
DEFAULT_KEYWORD_CACHE_MB = 192


@dataclass(frozen=True)
class ReplaceResult:
    """What :meth:`IndexStore.replace_source` did."""

    #: Source identifier.
    source: str
    #: Namespace it lives in.
    namespace: str
    #: Slices now stored for it (0 when skipped).
    slices: int
    #: True when the content hash was unchanged and nothing was written.
    skipped: bool
    #: Seconds spent embedding.
    embed_seconds: float = 0.0


@dataclass(frozen=True)
class SourceInfo:
    """One indexed source, as listed by ``openclaw sources``."""

    #: Row id.
    id: int
    #: Namespace.
    namespace: str
    #: Source identifier (path relative to its inbox, or ``capture:<id>``).
    source: str
    #: sha256 of the source's bytes.
    content_hash: str
    #: Media type.
    media_type: str
    #: Title, when known.
    title: str
    #: Number of slices.
    slices: int
    #: When it was indexed (UNIX seconds).
    indexed_at: float
    #: Drawing number, when known.
    drawing_number: str
    #: Drawing revision, when known.
    revision: str
    #: True when a newer revision of the same drawing number exists in the namespace.
    superseded: bool
    #: Source-level metadata.
    extra: dict[str, Any]


@dataclass(frozen=True)
class StoredSlice:
    """A slice as stored, with the identity of its source."""

    #: Row id (what citations point at).
    id: int
    #: Source identifier.
    source: str
    #: Namespace.
    namespace: str
    #: Position of the slice in its source.
    ord: int
    #: Text.
    text: str
    #: Kind.
    kind: SliceKind
    #: Page (1-based; 0 when none).
    page: int
    #: Region on the page.
    box: Box | None
    #: Section or heading path.
    section: str
    #: First line in the source (0 when not line-based).
    line_start: int
    #: Last line in the source.
    line_end: int
    #: Drawing number.
    drawing_number: str
    #: Drawing revision.
    revision: str
    #: Slice metadata.
    extra: dict[str, Any]
    #: Source modification time (UNIX seconds).
    mtime: float
    #: Whether the source is an older revision of its drawing.
    superseded: bool
    #: Source title.
    title: str


SLICE_COLUMNS = (
    "s.id, src.source, s.namespace, s.ord, s.text, s.kind, s.page, s.box, s.section, s.line_start,"
    " s.line_end, s.drawing_number, s.revision, s.extra, src.mtime, src.superseded, src.title"
)


def slice_from_row(row: Sequence[Any]) -> StoredSlice:
    """Build a StoredSlice from a row selected with :data:`SLICE_COLUMNS`."""
    return StoredSlice(
        id=int(row[0]),
        source=row[1],
        namespace=row[2],
        ord=int(row[3]),
        text=row[4],
        kind=SliceKind(row[5]),
        page=int(row[6]),
        box=Box.from_list(json.loads(row[7])) if row[7] else None,
        section=row[8],
        line_start=int(row[9]),
        line_end=int(row[10]),
        drawing_number=row[11],
        revision=row[12],
        extra=json.loads(row[13]),
        mtime=float(row[14]),
        superseded=bool(row[15]),
        title=row[16],
    )


class IndexStore:
    """One SQLite file holding every namespace's sources, slices, vectors and keyword indexes."""

    def __init__(
        self,
        db: dbmod.Connection,
        path: Path | None,
        embedder: Embedder | None,
        *,
        vector_cache_mb: int = DEFAULT_VECTOR_CACHE_MB,
        keyword_cache_mb: int = DEFAULT_KEYWORD_CACHE_MB,
    ) -> None:
        self.db = db
        self.path = path
        self._embedder = embedder
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        self.codec = VectorCodec(meta["vector_type"], int(meta["dimensions"]))
        self.embedding_model = meta["embedding_model"]
        #: The connection with its write lock and change counters, as the caches below read it.
        self.conn = IndexConnection(db, path, self.codec)
        #: In-memory vectors of the namespaces searched recently (exact numpy top-k).
        self.vectors = VectorCache(self.conn, max_bytes=vector_cache_mb * 1_000_000)
        #: Row counts the keyword channel plans its queries with, cached per data version.
        self.keyword_stats = KeywordStats(self.conn)
        #: In-memory BM25 shares of the phrases searched recently (the keyword channel's fast path).
        self.phrases = PhraseCache(
            self.conn, self.keyword_stats, max_bytes=keyword_cache_mb * 1_000_000
        )
        #: The sources' names (drawing number, title, file name) that questions name drawings by.
        self.names = NameCache(self.conn)

    # -- opening ---------------------------------------------------------------------------------

    @classmethod
    def open(cls, config: Config, *, embedder: Embedder | None = None) -> IndexStore:
        """Open the index of a configuration, creating and migrating it as needed."""
        from appliance.index.embedder import Embedder

        if embedder is None:
            embedder = Embedder.from_settings(config.index, config.paths.models_dir)
        path = config.data_path(config.index.db_file)
        return cls.open_path(
            path,
            embedder=embedder,
            vector_type=config.index.vector_type,
            vector_cache_mb=config.index.vector_cache_mb,
            keyword_cache_mb=config.index.keyword_cache_mb,
        )

    @classmethod
    def open_path(
        cls,
        path: Path | str,
        *,
        embedder: Embedder,
        vector_type: str = "float32",
        vector_cache_mb: int = DEFAULT_VECTOR_CACHE_MB,
        keyword_cache_mb: int = DEFAULT_KEYWORD_CACHE_MB,
    ) -> IndexStore:
        """Open an index file directly (tests and benchmarks)."""
        db = dbmod.connect(path)
        try:
            wanted = {
                "embedding_model": embedder.name,
                "dimensions": str(embedder.dimensions),
                "vector_type": vector_type,
            }
            # One transaction: another connection opening the index at the same moment must see
            # either no meta at all or all of it, never a half-written set.
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(
                    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
                )
                meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
                if not meta:
                    db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", wanted.items())
                    meta = dict(wanted)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            for key in ("embedding_model", "dimensions", "vector_type"):
                if meta.get(key) != wanted[key]:
                    raise IndexStoreError(
                        f"the index was built with {key}={meta.get(key)!r} but the configuration asks "
                        f"for {wanted[key]!r}; move the index aside and index the sources again",
                        code="index_model_mismatch",
                    )
            migrate(db, meta)
        except dbmod.sqlean.DatabaseError as err:
            db.close()
            raise IndexStoreError(
                f"index database cannot be used ({err})", code="index_corrupt"
            ) from err
        except BaseException:
            db.close()
            raise
        return cls(
            db,
            Path(path) if str(path) != ":memory:" else None,
            embedder,
            vector_cache_mb=vector_cache_mb,
            keyword_cache_mb=keyword_cache_mb,
        )

    def close(self) -> None:
        """Close the database (checkpointing the WAL) and stop the keyword cache's filler."""
        self.phrases.close()
        self.db.close()

    def __enter__(self) -> IndexStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def embedder(self) -> Embedder:
        """The embedder queries and passages go through."""
        if self._embedder is None:
            raise IndexStoreError(
                "this index was opened without an embedder", code="index_no_embedder"
            )
        return self._embedder

    # -- writing ---------------------------------------------------------------------------------

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction; rolls back on any exception, including KeyboardInterrupt."""
        return self.conn.transaction()

    def data_version(self) -> tuple[int, int]:
        """Changes whenever anything was committed to the index (:meth:`IndexConnection.data_version`)."""
        return self.conn.data_version()

    def generations(self) -> dict[str, int]:
        """Every namespace's write generation (:meth:`IndexConnection.generations`)."""
        return self.conn.generations()

    def _bump_generation(self, namespace: str) -> None:
        """Mark a namespace as changed; called inside the write transaction that changes it."""
        self.db.execute(
            "INSERT INTO namespace_generations (namespace, generation) VALUES (?, 1)"
            " ON CONFLICT (namespace) DO UPDATE SET generation = generation + 1",
            (namespace,),
        )

    def current_hash(self, namespace: str, source: str) -> str | None:
        """The content hash stored for a source, or None when it is not indexed."""
        row = self.db.execute(
            "SELECT content_hash FROM sources WHERE namespace = ? AND source = ?",
            (namespace, source),
        ).fetchone()
        return row[0] if row else None

    def replace_source(self, doc: SourceDocument, *, force: bool = False) -> ReplaceResult:
        """Store a source's slices in place of its old ones, atomically; skip it if unchanged."""
        check_namespace(doc.namespace)
        if not force and self.current_hash(doc.namespace, doc.source) == doc.content_hash:
            return ReplaceResult(doc.source, doc.namespace, 0, skipped=True)
        # A slice longer than the model reads (a long table or title block, a vision text block)
        # is stored as parts the model sees whole (appliance.index.fit).
        slices = fit_slices(doc.slices, self.embedder.tokens)
        started = time.perf_counter()
        vectors = self.embedder.embed_passages([s.text for s in slices])
        embed_seconds = time.perf_counter() - started
        drawing_number = next((s.drawing_number for s in slices if s.drawing_number), "")
        revision = next((s.revision for s in slices if s.revision), "")
        drawing_number = str(doc.extra.get("drawing_number", drawing_number))
        revision = str(doc.extra.get("revision", revision))
        with self.transaction():
            old = self.db.execute(
                "SELECT id, drawing_number FROM sources WHERE namespace = ? AND source = ?",
                (doc.namespace, doc.source),
            ).fetchone()
            if old is not None:
                self._delete_source_rows(old[0])
            cur = self.db.execute(
                "INSERT INTO sources (namespace, source, content_hash, media_type, title, mtime,"
                " indexed_at, drawing_number, revision, extra)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    doc.namespace,
                    doc.source,
                    doc.content_hash,
                    doc.media_type,
                    doc.title,
                    doc.mtime,
                    time.time(),
                    drawing_number,
                    revision,
                    json.dumps(doc.extra, ensure_ascii=False, default=str),
                ),
            )
            source_id = cur.lastrowid
            self._insert_slices(source_id, doc.namespace, slices, vectors)
            self._bump_generation(doc.namespace)
            for number in {drawing_number, old[1] if old else ""} - {""}:
                self._update_superseded(doc.namespace, number)
        return ReplaceResult(doc.source, doc.namespace, len(slices), False, embed_seconds)

    def _insert_slices(
        self,
        source_id: int,
        namespace: str,
        slices: Sequence[DocumentSlice],
        vectors: np.ndarray,
    ) -> None:
        for ord_, (sl, vector) in enumerate(zip(slices, vectors, strict=True)):
            cur = self.db.execute(
                "INSERT INTO slices (source_id, namespace, ord, text, kind, page, box, section,"
                " line_start, line_end, drawing_number, revision, content_hash, extra)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    source_id,
                    namespace,
                    ord_,
                    sl.text,
                    str(sl.kind),
                    sl.page,
                    json.dumps(sl.box.to_list()) if sl.box else None,
                    sl.section,
                    sl.line_start,
                    sl.line_end,
                    sl.drawing_number,
                    sl.revision,
                    sl.content_hash,
                    json.dumps(sl.extra, ensure_ascii=False, default=str),
                ),
            )
            self.db.execute(
                f"INSERT INTO slice_vectors (slice_id, namespace, embedding)"
                f" VALUES (?, ?, {self.codec.sql_wrap('?')})",
                (cur.lastrowid, namespace, self.codec.encode(vector)),
            )
            if self.codec.rescored:
                self.db.execute(
                    "INSERT INTO slice_vectors_full (slice_id, embedding) VALUES (?, ?)",
                    (cur.lastrowid, np.asarray(vector, dtype=np.float32).tobytes()),
                )

    def _delete_source_rows(self, source_id: int) -> None:
        for table in ("slice_vectors", "slice_vectors_full"):
            self.db.execute(
                f"DELETE FROM {table} WHERE slice_id IN (SELECT id FROM slices WHERE source_id = ?)",
                (source_id,),
            )
        self.db.execute("DELETE FROM slices WHERE source_id = ?", (source_id,))
        self.db.execute("DELETE FROM sources WHERE id = ?", (source_id,))

    def _update_superseded(self, namespace: str, drawing_number: str) -> None:
        rows = self.db.execute(
            "SELECT id, revision FROM sources WHERE namespace = ? AND drawing_number = ?",
            (namespace, drawing_number),
        ).fetchall()
        if not rows:
            return
        newest = max(revision_key(r[1]) for r in rows)
        for row_id, revision in rows:
            self.db.execute(
                "UPDATE sources SET superseded = ? WHERE id = ?",
                (int(revision_key(revision) < newest), row_id),
            )

    def delete_source(self, namespace: str, source: str) -> bool:
        """Forget a source and every trace of it; False when it was not indexed."""
        with self.transaction():
            row = self.db.execute(
                "SELECT id, drawing_number FROM sources WHERE namespace = ? AND source = ?",
                (namespace, source),
            ).fetchone()
            if row is None:
                return False
            self._delete_source_rows(row[0])
            self._bump_generation(namespace)
            if row[1]:
                self._update_superseded(namespace, row[1])
        return True

    # -- reading ---------------------------------------------------------------------------------

    def namespaces(self) -> list[str]:
        """Every namespace that holds at least one source, plus ``global``."""
        return _namespaces(self.db)

    @staticmethod
    def namespaces_at(path: Path) -> list[str] | None:
        """:meth:`namespaces` of the index file at ``path``, read without opening a store (no
        embedder, no migration, nothing written); None when there is no readable index there.

        For what checks names against the index before the service opens it (the rooms file).
        """
        if not path.is_file():
            return None
        try:
            db = dbmod.connect(path, read_only=True)
        except Exception:
            return None
        try:
            return _namespaces(db)
        except Exception:
            return None  # not an index yet (no sources table), or not an index at all
        finally:
            db.close()

    def list_sources(self, namespace: str | None = None) -> list[SourceInfo]:
        """Every indexed source, optionally of one namespace."""
        if namespace is None:
            return self._sources("", ())
        return self._sources(" WHERE src.namespace = ?", (namespace,))

    def source_info(self, namespace: str, source: str) -> SourceInfo | None:
        """One indexed source, or None when it is not indexed."""
        found = self._sources(" WHERE src.namespace = ? AND src.source = ?", (namespace, source))
        return found[0] if found else None

    def _sources(self, where: str, args: tuple[Any, ...]) -> list[SourceInfo]:
        sql = (
            "SELECT src.id, src.namespace, src.source, src.content_hash, src.media_type, src.title,"
            " (SELECT count(*) FROM slices s WHERE s.source_id = src.id), src.indexed_at,"
            " src.drawing_number, src.revision, src.superseded, src.extra FROM sources src"
        )
        rows = self.db.execute(sql + where + " ORDER BY src.namespace, src.source", args).fetchall()
        return [
            SourceInfo(
                id=r[0],
                namespace=r[1],
                source=r[2],
                content_hash=r[3],
                media_type=r[4],
                title=r[5],
                slices=r[6],
                indexed_at=r[7],
                drawing_number=r[8],
                revision=r[9],
                superseded=bool(r[10]),
                extra=json.loads(r[11]),
            )
            for r in rows
        ]

    def get_slice(self, slice_id: int) -> StoredSlice:
        """One slice by id (what a citation points at)."""
        row = self.db.execute(
            f"SELECT {SLICE_COLUMNS} FROM slices s JOIN sources src ON src.id = s.source_id"
            " WHERE s.id = ?",
            (slice_id,),
        ).fetchone()
        if row is None:
            raise IndexStoreError(f"no slice with id {slice_id}", code="slice_not_found")
        return slice_from_row(row)

    def source_slices(self, namespace: str, source: str) -> list[StoredSlice]:
        """Every slice of one source, in order."""
        rows = self.db.execute(
            f"SELECT {SLICE_COLUMNS} FROM slices s JOIN sources src ON src.id = s.source_id"
            " WHERE src.namespace = ? AND src.source = ? ORDER BY s.ord",
            (namespace, source),
        ).fetchall()
        return [slice_from_row(r) for r in rows]

    def stats(self) -> dict[str, Any]:
        """Counts per namespace and the database size."""
        per_ns = self.db.execute(
            "SELECT src.namespace, count(DISTINCT src.id), count(s.id) FROM sources src"
            " LEFT JOIN slices s ON s.source_id = src.id GROUP BY src.namespace"
        ).fetchall()
        size = 0
        if self.path is not None:
            for suffix in ("", "-wal"):
                p = Path(str(self.path) + suffix)
                size += p.stat().st_size if p.exists() else 0
        return {
            "embedding_model": self.embedding_model,
            "vector_type": self.codec.vector_type,
            "dimensions": self.codec.dimensions,
            "namespaces": {ns: {"sources": n, "slices": m} for ns, n, m in per_ns},
            "sources": sum(r[1] for r in per_ns),
            "slices": sum(r[2] for r in per_ns),
            "bytes": size,
        }

    def integrity_check(self) -> str:
        """``PRAGMA integrity_check`` plus the FTS5 integrity checks; "ok" when all pass."""
        result = self.db.execute("PRAGMA integrity_check").fetchone()[0]
        if result != "ok":
            return str(result)
        for table in ("slices_fts", "slices_trigram"):
            try:
                self.db.execute(f"INSERT INTO {table} ({table}) VALUES ('integrity-check')")
            except dbmod.sqlean.DatabaseError as err:
                return f"{table}: {err}"
        n_slices = self.db.execute("SELECT count(*) FROM slices").fetchone()[0]
        n_vectors = self.db.execute("SELECT count(*) FROM slice_vectors").fetchone()[0]
        if n_slices != n_vectors:
            return f"{n_slices} slices but {n_vectors} vectors"
        n_full = self.db.execute("SELECT count(*) FROM slice_vectors_full").fetchone()[0]
        if n_full != (n_slices if self.codec.rescored else 0):
            return f"{n_slices} slices but {n_full} full-precision vectors"
        return "ok"


def _namespaces(db: dbmod.Connection) -> list[str]:
    rows = db.execute("SELECT DISTINCT namespace FROM sources").fetchall()
    return sorted({GLOBAL_NAMESPACE, *(str(r[0]) for r in rows)})


def check_namespace(namespace: str) -> None:
    """Namespaces are short lower-case identifiers (they name folders and appear in URLs)."""
    import re

    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", namespace):
        raise IndexStoreError(
            f"namespace {namespace!r} is not allowed: use 1-64 of a-z, 0-9, '-' and '_'",
            code="namespace_invalid",
        )
