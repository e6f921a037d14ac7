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

At 100k slices the float32 product reads 154 MB per query, and that memory traffic is the vector
channel's whole cost. A large namespace therefore also keeps an int8 copy (:class:`Int8FirstPass`,
a quarter of the bytes), scored by onnxruntime's integer matrix kernel. Rounding moves each score by
at most a bound known per row, so every row whose int8 score plus bound reaches the k-th best exact
score is rescored from the float32 vectors, and no other row can be in the top k: the ranking is
the full product's, with a few hundred rows rescored instead of all of them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from appliance.index.connection import IndexConnection

if TYPE_CHECKING:
    import onnxruntime as ort


#: Namespaces this large get the int8 first pass (below it one float32 product takes < 1 ms).
INT8_MIN_ROWS = 20_000
#: Largest |component| of the int8 query: seven bits, so that no CPU's byte kernel saturates.
QUERY_LEVELS = 63.0
#: Slack for float32 rounding in the bound test, so a row on the boundary is always rescored.
BOUND_SLACK = 1e-5


@dataclass(frozen=True)
class Int8FirstPass:
    """Every row rounded to int8 with its own scale, scored in one onnxruntime call.

    With ``x = s_x (X + dx)`` and ``q = s_q (Q + dq)``, ``|dx|, |dq| <= 1/2`` per component, the
    exact ``q . x`` differs from ``s_x s_q (Q . X)`` by at most
    ``s_x s_q (|Q|_1 / 2 + |X|_1 / 2 + d / 4)``: the bound the rescoring test uses.
    """

    #: onnxruntime session holding the int8 rows (MatMulInteger, then each row's scale).
    session: ort.InferenceSession
    #: Scale of each row (its largest |component| / 127).
    row_scales: np.ndarray
    #: ``s_x |X|_1 / 2`` of each row (its share of the error bound).
    row_bounds: np.ndarray
    #: Vector length.
    dimensions: int

    @classmethod
    def of(cls, vectors: np.ndarray) -> Int8FirstPass:
        """Quantize the rows and build the session."""
        import onnxruntime as ort
        from onnx import TensorProto, helper, numpy_helper

        scales = np.maximum(np.abs(vectors).max(axis=1), 1e-12) / 127.0
        rows = np.round(vectors / scales[:, None]).astype(np.int16)
        bounds = (scales * np.abs(rows).sum(axis=1) / 2).astype(np.float32)
        # onnxruntime's fast integer kernel takes unsigned rows: stored +128, zero point 128.
        shifted = (rows + 128).astype(np.uint8)
        n, d = vectors.shape
        graph = helper.make_graph(
            [
                helper.make_node("MatMulInteger", ["rows", "query", "zero"], ["dots"]),
                helper.make_node("Cast", ["dots"], ["dots_f"], to=TensorProto.FLOAT),
                helper.make_node("Mul", ["dots_f", "scales"], ["scores"]),
            ],
            "int8_first_pass",
            [helper.make_tensor_value_info("query", TensorProto.INT8, [d, 1])],
            [helper.make_tensor_value_info("scores", TensorProto.FLOAT, [n, 1])],
            [
                numpy_helper.from_array(shifted, "rows"),
                numpy_helper.from_array(np.array(128, dtype=np.uint8), "zero"),
                numpy_helper.from_array(scales.astype(np.float32)[:, None], "scales"),
            ],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        options = ort.SessionOptions()
        # One thread: the call is memory-bound and takes ~2 ms; a second thread mostly waits.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = ort.InferenceSession(
            model.SerializeToString(), sess_options=options, providers=["CPUExecutionProvider"]
        )
        return cls(session, scales.astype(np.float32), bounds, d)

    @property
    def nbytes(self) -> int:
        """Memory held (the int8 rows inside the session plus the per-row arrays)."""
        return int(len(self.row_scales) * self.dimensions + 2 * self.row_scales.nbytes)

    def scores(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(approximate score, error bound) of every row."""
        # The query in seven bits: x86 CPUs without VNNI multiply unsigned by signed bytes in
        # pairs summed into 16 bits with saturation, and 255 x 127 x 2 overflows it, where
        # 255 x 63 x 2 does not (the "reduce range" of onnxruntime's own quantizer). With 127 the
        # scores of such a CPU (an AVX2-only EPYC) left the bound.
        q_scale = max(float(np.abs(query).max()), 1e-12) / QUERY_LEVELS
        q = np.round(query / q_scale)
        approx = self.session.run(None, {"query": q.astype(np.int8)[:, None]})[0][:, 0]
        approx *= np.float32(q_scale)
        per_row = np.float32(q_scale * (np.abs(q).sum() / 2 + self.dimensions / 4))
        bound = self.row_scales * per_row
        bound += self.row_bounds * np.float32(q_scale)
        return approx, bound


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
    #: The int8 first pass of a large namespace; None: ranked by one float32 product.
    first_pass: Int8FirstPass | None = None

    @classmethod
    def build(cls, generation: int, ids: np.ndarray, vectors: np.ndarray) -> NamespaceMatrix:
        """A copy ready for searching; a large namespace gets its int8 first pass."""
        first_pass = Int8FirstPass.of(vectors) if len(ids) >= INT8_MIN_ROWS else None
        return cls(generation, ids, vectors, first_pass=first_pass)

    @property
    def nbytes(self) -> int:
        """Memory held by this copy."""
        extra = self.first_pass.nbytes if self.first_pass else 0
        return int(self.ids.nbytes + self.vectors.nbytes + extra)

    def top_k(
        self, query: np.ndarray, k: int, *, first_pass: bool = True
    ) -> list[tuple[int, float]]:
        """(slice id, cosine similarity clipped to 0..1), best first; ties by slice id.

        ``first_pass`` False: one float32 product even when the int8 pass exists (benchmarks).
        """
        if len(self.ids) == 0 or k <= 0:
            return []
        if self.first_pass is not None and first_pass and 8 * k < len(self.ids):
            rows = self.candidates(query, k)
            scores = self.vectors[rows] @ query
        else:
            rows = np.arange(len(self.ids))
            scores = self.vectors @ query
        # argpartition finds the k best in linear time; only those k are sorted.
        best = np.argpartition(-scores, k - 1)[:k] if len(scores) > k else np.arange(len(scores))
        best = best[np.lexsort((self.ids[rows[best]], -scores[best]))]
        sims = np.clip(scores[best], 0.0, 1.0)
        return [(int(i), float(s)) for i, s in zip(self.ids[rows[best]], sims, strict=True)]

    def candidates(self, query: np.ndarray, k: int) -> np.ndarray:
        """Rows that can be in the top k: every row whose int8 score plus bound reaches the k-th
        best exact score of the int8 pass's best 4k rows."""
        assert self.first_pass is not None
        approx, bound = self.first_pass.scores(query)
        guess = np.argpartition(-approx, 4 * k - 1)[: 4 * k]
        kth = np.partition(self.vectors[guess] @ query, -k)[-k]
        bound += approx
        return np.flatnonzero(bound >= kth - BOUND_SLACK)


class VectorCache:
    """The in-memory vector copies of one store, least recently searched dropped first.

    ``max_bytes`` bounds the memory (float32: 1.54 MB per 1,000 slices of 384 dimensions); a
    namespace that does not fit alone is searched through sqlite-vec. ``max_bytes=0`` disables
    the cache entirely.
    """

    def __init__(self, conn: IndexConnection, *, max_bytes: int) -> None:
        self._conn = conn
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._copies: OrderedDict[str, NamespaceMatrix] = OrderedDict()
        self._seen: dict[str, int] | None = None
        #: Use the int8 first pass of large namespaces (benchmarks switch it off to compare).
        self.first_pass = True
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
        generations = self._conn.generations()
        if generations is self._seen:
            return
        for ns in [ns for ns, m in self._copies.items() if generations.get(ns, 0) != m.generation]:
            del self._copies[ns]
        self._seen = generations

    def _read(self, namespace: str) -> NamespaceMatrix:
        conn = self._conn
        dims = conn.codec.dimensions
        # The write lock keeps this connection's own writers out of the read transaction.
        with conn.write_lock:
            conn.db.execute("BEGIN")
            try:
                row = conn.db.execute(
                    "SELECT generation FROM namespace_generations WHERE namespace = ?",
                    (namespace,),
                ).fetchone()
                generation = int(row[0]) if row else 0
                count = conn.db.execute(
                    "SELECT count(*) FROM slices s JOIN sources src ON src.id = s.source_id"
                    " WHERE src.namespace = ?",
                    (namespace,),
                ).fetchone()[0]
                needed = count * (dims * 4 + 8)
                if count >= INT8_MIN_ROWS:
                    needed += count * (dims + 8)  # the int8 first pass
                if needed > self.max_bytes:
                    empty = np.zeros(0, dtype=np.int64)
                    return NamespaceMatrix(
                        generation, empty, np.zeros((0, dims), np.float32), False
                    )
                self._make_room(needed)
                rows = conn.db.execute(self._vectors_sql(), (namespace,)).fetchall()
            finally:
                conn.db.execute("COMMIT")
        self.loads += 1
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
        return NamespaceMatrix.build(generation, ids, vectors.reshape(len(rows), dims).copy())

    def _vectors_sql(self) -> str:
        if self._conn.codec.rescored:
            # int8 and bit tables are lossy; their exact float32 twins live beside them.
            return (
                "SELECT f.slice_id, f.embedding FROM slice_vectors_full f"
                " JOIN slices s ON s.id = f.slice_id WHERE s.namespace = ?"
            )
        return "SELECT slice_id, embedding FROM slice_vectors WHERE namespace = ?"

    def _make_room(self, needed: int) -> None:
        while self._copies and self.held_bytes() + needed > self.max_bytes:
            self._copies.popitem(last=False)
