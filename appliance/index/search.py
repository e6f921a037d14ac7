"""Hybrid search: a vector channel and a keyword channel, fused into one explainable ranking.

The vector channel ranks by cosine similarity: exactly, from the namespace's in-memory vectors
(:mod:`appliance.index.matrix`) when they are loaded, else through sqlite-vec's KNN. The keyword
channel (:mod:`appliance.index.keyword`) is BM25 over words and trigrams; its scores are negated
``bm25()`` values, so a strong keyword-only hit scores high and survives ``min_score`` (the bug
that made OpenClaw's hybrid search silently vector-only).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from appliance.index.keyword import keyword_channel, keyword_channel_within
from appliance.index.matrix import NamespaceMatrix
from appliance.index.settings import IndexSettings
from appliance.index.store import (
    GLOBAL_NAMESPACE,
    SLICE_COLUMNS,
    IndexStore,
    StoredSlice,
    slice_from_row,
)


@dataclass(frozen=True)
class ChannelScore:
    """A hit's place in one channel."""

    #: 1-based rank in the channel, or None when the channel did not return it.
    rank: int | None = None
    #: Raw channel score (cosine similarity; negated BM25, higher is better).
    raw: float | None = None
    #: Score normalised to 0..1 within this query.
    normalized: float = 0.0


@dataclass(frozen=True)
class Hit(StoredSlice):
    """One search result: the slice, its fused score and how each channel ranked it."""

    #: Fused score, 0..1.
    score: float = 0.0
    #: Vector channel (cosine similarity).
    vector: ChannelScore = field(default_factory=ChannelScore)
    #: Keyword channel (BM25 over words and trigrams, fused by rank).
    keyword: ChannelScore = field(default_factory=ChannelScore)
    #: Recency term added (0 when disabled).
    recency: float = 0.0
    #: One line on why the hit ranked where it did.
    why: str = ""
    #: True when the hit is a slice of a source the question names, ranked ahead of the rest.
    focused: bool = False

    @property
    def slice_id(self) -> int:
        """Alias of ``id``: the slice a citation points at."""
        return self.id

    def to_json(self, *, explain: bool = False) -> dict[str, Any]:
        """The JSON form of ``openclaw search --json``."""
        out: dict[str, Any] = {
            "slice_id": self.id,
            "score": round(self.score, 4),
            "namespace": self.namespace,
            "source": self.source,
            "title": self.title,
            "page": self.page,
            "box": self.box.to_list() if self.box else None,
            "kind": str(self.kind),
            "section": self.section,
            "lines": [self.line_start, self.line_end] if self.line_start else None,
            "drawing_number": self.drawing_number,
            "revision": self.revision,
            "superseded": self.superseded,
            "focused": self.focused,
            "text": self.text,
        }
        if explain:
            out["explain"] = {
                "vector": vars(self.vector),
                "keyword": vars(self.keyword),
                "recency": round(self.recency, 4),
                "why": self.why,
            }
        return out


@dataclass(frozen=True)
class SearchOptions:
    """Per-query overrides of the index settings."""

    #: Most hits returned.
    max_results: int = 8
    #: Hits below this fused score are dropped.
    min_score: float = 0.0
    #: ``rrf`` or ``weighted``.
    fusion: str = "rrf"
    #: RRF constant.
    rrf_k: int = 60
    #: Vector weight for weighted fusion.
    vector_weight: float = 0.5
    #: Weight of the recency term.
    recency_weight: float = 0.0
    #: Recency half-life in days.
    recency_half_life_days: float = 30.0
    #: Candidates per channel.
    candidates: int = 50
    #: Drop slices of superseded drawing revisions.
    current_only: bool = True
    #: Which channels run ("vector", "keyword"); benchmarks switch one off.
    channels: tuple[str, ...] = ("vector", "keyword")
    #: Run the keyword channel in a worker thread beside the embedding and in-memory ranking.
    parallel_channels: bool = True
    #: Rows the keyword channel may score for a query's rare words before the common words only
    #: re-rank them (0: score every matching row).
    keyword_budget_rows: int = 4000
    #: Source row ids the question names (:mod:`appliance.index.identity`): their slices are
    #: ranked among themselves by the same channels and fusion and come first; the rest of the
    #: search follows. Empty: an ordinary search.
    focus_sources: tuple[int, ...] = ()
    #: Keep every slice of the focused sources found by the channels, past ``max_results``: a
    #: drawing is a few kilobytes in tens of small slices, and a reader of the named drawing needs
    #: all of it ("Ra 12" by its symbol is the eleventh slice of the gripper's).
    whole_focus: bool = False

    @classmethod
    def from_settings(cls, s: IndexSettings, **overrides: Any) -> SearchOptions:
        """Options from the configuration, with per-call overrides."""
        base = cls(
            max_results=s.max_results,
            min_score=s.min_score,
            fusion=s.fusion,
            rrf_k=s.rrf_k,
            vector_weight=s.vector_weight,
            recency_weight=s.recency_weight,
            recency_half_life_days=s.recency_half_life_days,
            candidates=s.candidates,
            keyword_budget_rows=s.keyword_budget_rows,
        )
        return replace(base, **{k: v for k, v in overrides.items() if v is not None})


def scope(namespaces: Iterable[str] | None, *, include_global: bool = True) -> list[str]:
    """The namespaces a search covers: the ones asked for plus ``global``."""
    out = list(dict.fromkeys(namespaces or []))
    if include_global and GLOBAL_NAMESPACE not in out:
        out.append(GLOBAL_NAMESPACE)
    return out


def _placeholders(n: int) -> str:
    return ",".join("?" * n)


#: Candidates fetched from an int8 or bit first pass per result wanted, before exact rescoring.
RESCORE_FACTOR = 4


def vector_channel(
    store: IndexStore,
    query: str,
    namespaces: Sequence[str],
    k: int,
    *,
    matrices: Mapping[str, NamespaceMatrix | None] | None = None,
) -> list[tuple[int, float]]:
    """(slice id, cosine similarity) best first, per namespace then merged.

    A namespace whose vectors are in memory is ranked exactly by numpy; any other goes through
    one partition-key KNN in sqlite-vec (:func:`sqlite_vec_knn`). ``matrices``: copies fetched by
    the caller (then no database access happens here when none is None).
    """
    vector = store.embedder.embed_query(query)
    found: list[tuple[int, float]] = []
    for ns in namespaces:
        matrix = matrices[ns] if matrices is not None else store.vectors.matrix(ns)
        if matrix is not None:
            found.extend(matrix.top_k(vector, k, first_pass=store.vectors.first_pass))
        else:
            found.extend(sqlite_vec_knn(store, vector, ns, k))
    found.sort(key=lambda x: (-x[1], x[0]))
    return found[:k]


def sqlite_vec_knn(
    store: IndexStore, vector: np.ndarray, namespace: str, k: int
) -> list[tuple[int, float]]:
    """(slice id, cosine similarity) of one namespace from sqlite-vec's KNN; int8 and bit first
    passes are rescored from the full float32 vectors."""
    wrap = store.codec.sql_wrap("?")
    first_pass = k * RESCORE_FACTOR if store.codec.rescored else k
    rows = store.db.execute(
        f"SELECT slice_id, distance FROM slice_vectors"
        f" WHERE embedding MATCH {wrap} AND k = ? AND namespace = ?",
        (store.codec.encode(vector), first_pass, namespace),
    ).fetchall()
    if store.codec.rescored:
        return _rescore(store, [int(r[0]) for r in rows], vector)
    return [(int(r[0]), store.codec.similarity(float(r[1]))) for r in rows]


def _rescore(store: IndexStore, ids: list[int], query: np.ndarray) -> list[tuple[int, float]]:
    """Exact cosine similarities of first-pass candidates from their full float32 vectors."""
    if not ids:
        return []
    rows = store.db.execute(
        f"SELECT slice_id, embedding FROM slice_vectors_full"
        f" WHERE slice_id IN ({_placeholders(len(ids))})",
        ids,
    ).fetchall()
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    sims = np.clip(matrix @ query, 0.0, 1.0)
    return [(int(r[0]), float(s)) for r, s in zip(rows, sims, strict=True)]


def _load(store: IndexStore, ids: Iterable[int]) -> dict[int, StoredSlice]:
    ids = list(ids)
    if not ids:
        return {}
    rows = store.db.execute(
        f"SELECT {SLICE_COLUMNS} FROM slices s JOIN sources src ON src.id = s.source_id"
        f" WHERE s.id IN ({_placeholders(len(ids))})",
        ids,
    ).fetchall()
    return {int(r[0]): slice_from_row(r) for r in rows}


def _fusion_facts(store: IndexStore, ids: Iterable[int]) -> list[tuple[int, float, bool]]:
    """(slice id, source mtime, superseded) of each candidate still in the index."""
    ids = list(ids)
    if not ids:
        return []
    rows = store.db.execute(
        f"SELECT s.id, src.mtime, src.superseded FROM slices s"
        f" JOIN sources src ON src.id = s.source_id WHERE s.id IN ({_placeholders(len(ids))})",
        ids,
    ).fetchall()
    return [(int(r[0]), float(r[1]), bool(r[2])) for r in rows]


def _why(vec: ChannelScore, kw: ChannelScore) -> str:
    if vec.rank and kw.rank:
        return f"both channels: vector #{vec.rank}, keyword #{kw.rank}"
    if kw.rank:
        return f"keyword only (#{kw.rank}): exact terms matched that the embedding does not rank"
    return f"vector only (#{vec.rank}): similar meaning, no shared keywords"


#: Runs the keyword channel beside the query embedding and the in-memory vector ranking.
_KEYWORD_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="index-keyword")


def _run_channels(
    store: IndexStore, query: str, spaces: list[str], opts: SearchOptions
) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """(vector hits, keyword hits).

    When every namespace's vectors are in memory, the vector channel needs no database access
    after the matrices are fetched, so the keyword channel's SQLite work (which releases the GIL)
    runs in a worker thread while this thread embeds the query (onnxruntime, also GIL-free) and
    ranks the matrices: the search takes about the longer of the two, not their sum. The
    connection is used by one thread at a time: the matrices are fetched before the worker starts.
    """
    k = opts.candidates
    want_vec, want_kw = "vector" in opts.channels, "keyword" in opts.channels

    def keywords() -> list[tuple[int, float]]:
        return keyword_channel(
            store, query, spaces, k, opts.rrf_k, budget_rows=opts.keyword_budget_rows
        )

    if want_vec and want_kw and opts.parallel_channels:
        matrices = {ns: store.vectors.matrix(ns) for ns in spaces}
        if all(m is not None for m in matrices.values()):
            pending = _KEYWORD_THREADS.submit(keywords)
            try:
                vec = vector_channel(store, query, spaces, k, matrices=matrices)
            finally:
                kw = pending.result()
            return vec, kw
    vec = vector_channel(store, query, spaces, k) if want_vec else []
    return vec, keywords() if want_kw else []


def search(
    store: IndexStore,
    query: str,
    namespaces: Iterable[str] | None = None,
    *,
    options: SearchOptions | None = None,
    include_global: bool = True,
    explain: bool = False,
) -> list[Hit]:
    """The best slices for a query in the given namespaces (plus ``global``), best first.

    With ``options.focus_sources`` the named sources' slices come first, ranked among
    themselves, then the ordinary ranking without them.
    """
    opts = options or SearchOptions()
    query = query.strip()
    if not query:
        return []
    spaces = scope(namespaces, include_global=include_global)
    vec, kw = _run_channels(store, query, spaces, opts)
    ranked = _fuse(store, vec, kw, opts)
    if opts.focus_sources:
        first = _fuse(store, *_focus_channels(store, query, spaces, opts), opts, focused=True)
        named = {f.slice_id for f in first}
        ranked = first + [r for r in ranked if r.slice_id not in named]
    if opts.whole_focus:
        ranked = ranked[: opts.max_results] + [r for r in ranked[opts.max_results :] if r.focused]
    else:
        ranked = ranked[: opts.max_results]
    slices = _load(store, [r.slice_id for r in ranked])
    hits: list[Hit] = []
    for r in ranked:
        sl = slices.get(r.slice_id)
        if sl is None:  # deleted between the channels and this read
            continue
        why = _why(r.vector, r.keyword)
        hits.append(
            Hit(
                **vars(sl),
                score=r.fused,
                vector=r.vector,
                keyword=r.keyword,
                recency=r.recency,
                why=f"named drawing, {why}" if r.focused else why,
                focused=r.focused,
            )
        )
    return hits


@dataclass(frozen=True)
class _Fused:
    """A candidate's fused score and its channel places."""

    #: Fused score, 0..1.
    fused: float
    #: Slice id.
    slice_id: int
    #: Recency term included in ``fused``.
    recency: float
    #: Vector channel place.
    vector: ChannelScore
    #: Keyword channel place.
    keyword: ChannelScore
    #: From the focused (named sources) ranking.
    focused: bool


def _fuse(
    store: IndexStore,
    vec: list[tuple[int, float]],
    kw: list[tuple[int, float]],
    opts: SearchOptions,
    *,
    focused: bool = False,
) -> list[_Fused]:
    """The channels' candidates fused into one ranking, best first (ties by slice id)."""
    vec_scores = {sid: ChannelScore(rank, sim, sim) for rank, (sid, sim) in enumerate(vec, 1)}
    top_kw = kw[0][1] if kw else 1.0
    kw_scores = {
        sid: ChannelScore(rank, raw, raw / top_kw if top_kw > 0 else 0.0)
        for rank, (sid, raw) in enumerate(kw, 1)
    }
    candidates = set(vec_scores) | set(kw_scores)
    n_channels = len(opts.channels)
    now = time.time()
    scored: list[_Fused] = []
    # Fusion needs only each candidate's revision state and age; the full rows (text, JSON
    # metadata) are read for the hits returned, not for all 100 candidates.
    for sid, mtime, superseded in _fusion_facts(store, candidates):
        if opts.current_only and superseded:
            continue
        v = vec_scores.get(sid, ChannelScore())
        w = kw_scores.get(sid, ChannelScore())
        if opts.fusion == "weighted":
            if n_channels == 1:
                fused = v.normalized if "vector" in opts.channels else w.normalized
            else:
                fused = opts.vector_weight * v.normalized + (1 - opts.vector_weight) * w.normalized
        else:
            rrf = sum(1.0 / (opts.rrf_k + c.rank) for c in (v, w) if c.rank)
            fused = rrf / (n_channels / (opts.rrf_k + 1))
        recency = 0.0
        if opts.recency_weight > 0 and mtime > 0:
            age_days = max(0.0, now - mtime) / 86400
            recency = opts.recency_weight * math.pow(0.5, age_days / opts.recency_half_life_days)
            fused = (fused + recency) / (1 + opts.recency_weight)
        if fused < opts.min_score:
            continue
        scored.append(_Fused(fused, sid, recency, v, w, focused))
    scored.sort(key=lambda x: (-x.fused, x.slice_id))
    return scored


def _focus_channels(
    store: IndexStore, query: str, spaces: Sequence[str], opts: SearchOptions
) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """(vector hits, keyword hits) among the slices of the focused sources only.

    A drawing has tens of slices, so every one of them is scored exactly: cosine similarity from
    the in-memory vectors (or the stored ones), BM25 with the whole index's statistics.
    """
    ids = focus_slice_ids(store, opts.focus_sources)
    if not ids:
        return [], []
    k = opts.candidates
    vec: list[tuple[int, float]] = []
    if "vector" in opts.channels:
        vec = _similarities(store, store.embedder.embed_query(query), ids, spaces)[:k]
    kw: list[tuple[int, float]] = []
    if "keyword" in opts.channels:
        kw = keyword_channel_within(store, query, ids, k, opts.rrf_k)
    return vec, kw


def focus_slice_ids(store: IndexStore, source_ids: Sequence[int]) -> list[int]:
    """Every slice id of the given sources."""
    if not source_ids:
        return []
    rows = store.db.execute(
        f"SELECT id FROM slices WHERE source_id IN ({_placeholders(len(source_ids))})",
        list(source_ids),
    ).fetchall()
    return [int(r[0]) for r in rows]


def _similarities(
    store: IndexStore, query: np.ndarray, ids: list[int], spaces: Sequence[str]
) -> list[tuple[int, float]]:
    """(slice id, cosine similarity clipped to 0..1) of the given slices, best first."""
    wanted = np.asarray(ids, dtype=np.int64)
    found: list[tuple[int, float]] = []
    missing = set(ids)
    for ns in spaces:
        matrix = store.vectors.matrix(ns)
        if matrix is None or not missing:
            continue
        rows = np.flatnonzero(np.isin(matrix.ids, wanted))
        sims = np.clip(matrix.vectors[rows] @ query, 0.0, 1.0)
        for sid, sim in zip(matrix.ids[rows], sims, strict=True):
            found.append((int(sid), float(sim)))
            missing.discard(int(sid))
    if missing:
        found.extend(_stored_similarities(store, sorted(missing), query))
    found.sort(key=lambda x: (-x[1], x[0]))
    return found


def _stored_similarities(
    store: IndexStore, ids: list[int], query: np.ndarray
) -> list[tuple[int, float]]:
    """Exact similarities of slices whose namespace is not in memory, from the stored vectors."""
    if store.codec.rescored:
        return _rescore(store, ids, query)
    rows = store.db.execute(
        f"SELECT slice_id, embedding FROM slice_vectors"
        f" WHERE slice_id IN ({_placeholders(len(ids))})",
        ids,
    ).fetchall()
    if not rows:
        return []
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    sims = np.clip(matrix @ query, 0.0, 1.0)
    return [(int(r[0]), float(x)) for r, x in zip(rows, sims, strict=True)]
