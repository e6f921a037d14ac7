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

At 100k slices the product reads 154 MB per query and that memory traffic is the vector channel's
whole cost. A large namespace is therefore ranked in two exact stages (:class:`Projection`): a
product over its vectors projected on 128 leading directions, a Cauchy-Schwarz bound on what the
projection leaves out, and the exact product for only the rows the bound cannot rule out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from appliance.index.store import IndexStore


#: Below this many rows one full product is cheap (0.6 ms at 10k); above it the two-stage product.
TWO_STAGE_MIN_ROWS = 20_000
#: Leading dimensions of the rotated vectors the first stage reads (a third of 384).
HEAD_DIMENSIONS = 128
#: Rows sampled to find the rotation.
BASIS_SAMPLE_ROWS = 20_000
#: Slack on the bound for float32 rounding, so a row on the boundary is always rescored.
BOUND_SLACK = 1e-5


def fit_basis(vectors: np.ndarray, head: int) -> np.ndarray:
    """d x head orthonormal columns holding most of the rows' length (right singular vectors of a
    sample, strongest first; uncentred, because dot products, not variances, matter)."""
    step = max(1, len(vectors) // BASIS_SAMPLE_ROWS)
    _, _, vt = np.linalg.svd(vectors[::step].astype(np.float64), full_matrices=False)
    return np.ascontiguousarray(vt[:head].T, dtype=np.float32)


@dataclass(frozen=True)
class Projection:
    """The first stage of a large namespace's product: its vectors projected on a few directions.

    With ``basis`` orthonormal, ``q . x = (qB) . (xB) + q_rest . x_rest`` where the rest lies in
    the directions the basis leaves out, so ``q . x <= (qB) . (xB) + |q_rest| * |x_rest|``
    (Cauchy-Schwarz). The first stage reads only ``xB`` (a third of the memory traffic of the full
    product, which is what a search's vector time is); the rows the bound cannot rule out are
    scored exactly from the full vectors. Any orthonormal basis keeps this exact; a good one (the
    leading singular vectors) only makes the bound tight, so a namespace keeps its basis when it
    is read again after a write.
    """

    #: d x h orthonormal columns.
    basis: np.ndarray
    #: ``vectors @ basis``, contiguous.
    projected: np.ndarray
    #: |x_rest| of every row, rounded up.
    rest_norms: np.ndarray

    @classmethod
    def of(cls, vectors: np.ndarray, basis: np.ndarray) -> Projection:
        """Project the rows on the basis and bound what is left of each."""
        projected = np.ascontiguousarray(vectors @ basis)
        rest = _squared_norms(vectors) - _squared_norms(projected)
        # float32 rounding of the projection moves rest by ~1e-7; the 1e-6 pad keeps the norm an
        # upper bound even when the true rest is ~0 (where a square root magnifies the error).
        return cls(basis, projected, np.sqrt(np.maximum(rest, 0.0) + 1e-6).astype(np.float32))

    @property
    def nbytes(self) -> int:
        """Memory held."""
        return int(self.basis.nbytes + self.projected.nbytes + self.rest_norms.nbytes)


def _squared_norms(rows: np.ndarray) -> np.ndarray:
    return np.einsum("ij,ij->i", rows, rows, dtype=np.float64)


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
    #: The first stage of a large namespace's product; None: ranked by one full product.
    projection: Projection | None = None

    @classmethod
    def build(
        cls, generation: int, ids: np.ndarray, vectors: np.ndarray, basis: np.ndarray | None
    ) -> NamespaceMatrix:
        """A copy ready for searching; a large namespace gets its first stage (``basis``: the one
        it had before, or None to fit one)."""
        if len(ids) < TWO_STAGE_MIN_ROWS or vectors.shape[1] <= HEAD_DIMENSIONS:
            return cls(generation, ids, vectors)
        if basis is None or basis.shape != (vectors.shape[1], HEAD_DIMENSIONS):
            basis = fit_basis(vectors, HEAD_DIMENSIONS)
        return cls(generation, ids, vectors, projection=Projection.of(vectors, basis))

    @property
    def nbytes(self) -> int:
        """Memory held by this copy."""
        extra = self.projection.nbytes if self.projection else 0
        return int(self.ids.nbytes + self.vectors.nbytes + extra)

    def top_k(
        self, query: np.ndarray, k: int, *, two_stage: bool = True
    ) -> list[tuple[int, float]]:
        """(slice id, cosine similarity clipped to 0..1), best first; ties by slice id.

        ``two_stage`` False: one full product even when the first stage exists (benchmarks)."""
        if len(self.ids) == 0 or k <= 0:
            return []
        if self.projection is None or not two_stage or 8 * k >= len(self.ids):
            rows = np.arange(len(self.ids))
            scores = self.vectors @ query
        else:
            rows = self.candidates(query, k)
            scores = self.vectors[rows] @ query
        # argpartition finds the k best in linear time; only those k are sorted.
        best = np.argpartition(-scores, k - 1)[:k] if len(scores) > k else np.arange(len(scores))
        best = best[np.lexsort((self.ids[rows[best]], -scores[best]))]
        sims = np.clip(scores[best], 0.0, 1.0)
        return [(int(i), float(s)) for i, s in zip(self.ids[rows[best]], sims, strict=True)]

    def candidates(self, query: np.ndarray, k: int) -> np.ndarray:
        """Rows that can be in the top k (every row whose bound reaches a k-th best score)."""
        assert self.projection is not None
        p = self.projection
        q_head = query.astype(np.float32) @ p.basis
        head_scores = p.projected @ q_head
        # A first guess at the k-th best exact score, from the best rows by the head alone.
        guess = np.argpartition(-head_scores, 4 * k - 1)[: 4 * k]
        kth = np.partition(self.vectors[guess] @ query, -k)[-k]
        q_rest = float(np.sqrt(max(float(query @ query) - float(q_head @ q_head), 0.0) + 1e-6))
        bound = p.rest_norms * np.float32(q_rest)
        bound += head_scores
        return np.flatnonzero(bound >= kth - BOUND_SLACK)


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
        # First-stage bases kept across reloads of a namespace (fitting one takes a while).
        self._bases: dict[str, np.ndarray] = {}
        #: Rank large namespaces in two stages (benchmarks switch it off to compare).
        self.two_stage = True
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
                if count >= TWO_STAGE_MIN_ROWS:
                    needed += count * (HEAD_DIMENSIONS * 4 + 4)  # the first stage
                self._make_room(needed)
                rows = store.db.execute(self._vectors_sql(), (namespace,)).fetchall()
            finally:
                store.db.execute("COMMIT")
        self.loads += 1
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
        old = self._bases.get(namespace)
        copy = NamespaceMatrix.build(generation, ids, vectors.reshape(len(rows), dims).copy(), old)
        if copy.projection is not None:
            self._bases[namespace] = copy.projection.basis
        return copy

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
