"""In-memory vectors per namespace, searched exactly with numpy instead of sqlite-vec's KNN.

sqlite-vec's ``vec0`` scans its chunks in SQLite pages on every query (58 ms at 100k slices on the
development machine); the same float32 vectors held as one contiguous numpy matrix are scored by
one BLAS matrix-vector product. The ranking is the same: on unit vectors the L2 distance sqlite-vec
sorts by and the dot product sorted here are tied by ``d^2 = 2 - 2 cos``.

A copy must never be served after the index changed. Every replace or delete bumps its namespace's
row in ``namespace_generations`` inside the same transaction; before answering, the cache asks the
cheap ``PRAGMA data_version`` (changes when any other connection or process committed) plus the
store's own commit count, and only when one moved does it re-read the generations and drop the
copies whose namespace moved on. A copy is read inside one read transaction together with its
generation, so it is exactly one committed state of the namespace.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from appliance.index.store import IndexStore


@dataclass(frozen=True)
class NamespaceMatrix:
    """The vectors of one namespace as of one generation."""

    #: Generation of the namespace this copy was read at (0: never written).
    generation: int
    #: Slice id of each row.
    ids: np.ndarray
    #: Unit float32 vectors, one row per slice.
    vectors: np.ndarray
    #: False when the namespace is larger than the cache may hold: use sqlite-vec for it.
    fits: bool = True

    @property
    def nbytes(self) -> int:
        """Memory held by this copy."""
        return int(self.ids.nbytes + self.vectors.nbytes)

    def top_k(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """(slice id, cosine similarity clipped to 0..1), best first; ties by slice id."""
        if len(self.ids) == 0 or k <= 0:
            return []
        scores = self.vectors @ query
        # argpartition finds the k best in linear time; only those k are sorted.
        best = np.argpartition(-scores, k - 1)[:k] if len(scores) > k else np.arange(len(scores))
        best = best[np.lexsort((self.ids[best], -scores[best]))]
        sims = np.clip(scores[best], 0.0, 1.0)
        return [(int(i), float(s)) for i, s in zip(self.ids[best], sims, strict=True)]


class VectorCache:
    """The in-memory vector copies of one store, least recently searched dropped first.

    ``max_bytes`` bounds the memory (float32: 1.54 MB per 1,000 slices of 384 dimensions); a
    namespace that does not fit alone is searched through sqlite-vec. ``max_bytes=0`` disables
    the cache entirely.
    """

    def __init__(self, store: IndexStore, *, max_bytes: int) -> None:
        self._store = store
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._copies: OrderedDict[str, NamespaceMatrix] = OrderedDict()
        self._seen: tuple[int, int] | None = None
        #: Copies read from the database so far (a benchmark and test counter).
        self.loads = 0

    @property
    def enabled(self) -> bool:
        """Whether searches may use in-memory copies at all."""
        return self.max_bytes > 0

    def held_bytes(self) -> int:
        """Memory held by the current copies."""
        return sum(m.nbytes for m in self._copies.values())

    def clear(self) -> None:
        """Drop every copy (the next search reads them again)."""
        with self._lock:
            self._copies.clear()
            self._seen = None

    def matrix(self, namespace: str) -> NamespaceMatrix | None:
        """The current copy of a namespace, read now if needed; None: use sqlite-vec for it."""
        if not self.enabled:
            return None
        with self._lock:
            self._drop_stale()
            copy = self._copies.get(namespace)
            if copy is None:
                copy = self._read(namespace)
                self._copies[namespace] = copy
            self._copies.move_to_end(namespace)
            return copy if copy.fits else None

    def warm(self, namespaces: list[str]) -> None:
        """Read the copies of these namespaces now (the room switch calls this via a search)."""
        for ns in namespaces:
            self.matrix(ns)

    def _drop_stale(self) -> None:
        version = self._store.data_version()
        if version == self._seen:
            return
        generations = dict(
            self._store.db.execute("SELECT namespace, generation FROM namespace_generations")
        )
        for ns in [ns for ns, m in self._copies.items() if generations.get(ns, 0) != m.generation]:
            del self._copies[ns]
        # Recorded after the generations were read: a commit in between moves data_version again,
        # so the next search checks once more; a stale copy is never kept.
        self._seen = version

    def _read(self, namespace: str) -> NamespaceMatrix:
        store = self._store
        dims = store.codec.dimensions
        # The write lock keeps this connection's own writers out of the read transaction.
        with store._write_lock:
            store.db.execute("BEGIN")
            try:
                row = store.db.execute(
                    "SELECT generation FROM namespace_generations WHERE namespace = ?",
                    (namespace,),
                ).fetchone()
                generation = int(row[0]) if row else 0
                count = store.db.execute(
                    "SELECT count(*) FROM slices s JOIN sources src ON src.id = s.source_id"
                    " WHERE src.namespace = ?",
                    (namespace,),
                ).fetchone()[0]
                needed = count * (dims * 4 + 8)
                if needed > self.max_bytes:
                    empty = np.zeros(0, dtype=np.int64)
                    return NamespaceMatrix(
                        generation, empty, np.zeros((0, dims), np.float32), False
                    )
                self._make_room(needed)
                rows = store.db.execute(self._vectors_sql(), (namespace,)).fetchall()
            finally:
                store.db.execute("COMMIT")
        self.loads += 1
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
        return NamespaceMatrix(generation, ids, vectors.reshape(len(rows), dims).copy())

    def _vectors_sql(self) -> str:
        if self._store.codec.rescored:
            # int8 and bit tables are lossy; their exact float32 twins live beside them.
            return (
                "SELECT f.slice_id, f.embedding FROM slice_vectors_full f"
                " JOIN slices s ON s.id = f.slice_id WHERE s.namespace = ?"
            )
        return "SELECT slice_id, embedding FROM slice_vectors WHERE namespace = ?"

    def _make_room(self, needed: int) -> None:
        while self._copies and self.held_bytes() + needed > self.max_bytes:
            self._copies.popitem(last=False)
