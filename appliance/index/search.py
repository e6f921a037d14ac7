"""Hybrid search: a vector channel and a keyword channel, fused into one explainable ranking.

All search SQL lives in this module. The keyword channel is itself two FTS5 indexes: ``unicode61`` with the Porter stemmer
words (BM25) for ordinary text, and trigrams for identifiers such as ``A-1024`` or ``UR10_29.20``
and for Chinese, which ``unicode61`` does not segment. FTS5's ``bm25()`` is *negative* (lower is
better); it is negated before any normalisation, so a strong keyword-only hit scores high and
survives ``min_score`` (the bug that made OpenClaw's hybrid search silently vector-only).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from appliance.index.settings import IndexSettings
from appliance.index.store import (
    GLOBAL_NAMESPACE,
    SLICE_COLUMNS,
    IndexStore,
    StoredSlice,
    slice_from_row,
)

_WORD = re.compile(r"\w+", re.UNICODE)
# An identifier: letters/digits joined by - _ . / and containing at least one digit.
_IDENT = re.compile(r"[A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)*")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "of",
        "on",
        "or",
        "please",
        "show",
        "tell",
        "that",
        "the",
        "their",
        "there",
        "these",
        "this",
        "to",
        "was",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
    ]
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
        )
        return replace(base, **{k: v for k, v in overrides.items() if v is not None})


def scope(namespaces: Iterable[str] | None, *, include_global: bool = True) -> list[str]:
    """The namespaces a search covers: the ones asked for plus ``global``."""
    out = list(dict.fromkeys(namespaces or []))
    if include_global and GLOBAL_NAMESPACE not in out:
        out.append(GLOBAL_NAMESPACE)
    return out


def words_query(text: str) -> str:
    """An FTS5 query OR-ing the query's quoted content words (quoting defuses FTS5 syntax)."""
    words = [
        w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS and not _CJK.fullmatch(w)
    ]
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(words))


def trigram_query(text: str) -> str:
    """An FTS5 trigram query: identifiers with a digit as exact phrases, Chinese as trigrams."""
    terms = [m for m in _IDENT.findall(text) if any(c.isdigit() for c in m) and len(m) >= 3]
    for run in _CJK.findall(text):
        if len(run) >= 3:
            terms.extend(run[i : i + 3] for i in range(len(run) - 2))
    terms = [t.replace('"', '""') for t in dict.fromkeys(terms)]
    return " OR ".join(f'"{t}"' for t in terms)


def _placeholders(n: int) -> str:
    return ",".join("?" * n)


#: Candidates fetched from an int8 or bit first pass per result wanted, before exact rescoring.
RESCORE_FACTOR = 4


def vector_channel(
    store: IndexStore, query: str, namespaces: Sequence[str], k: int
) -> list[tuple[int, float]]:
    """(slice id, cosine similarity) best first; one partition-key KNN per namespace, merged."""
    vector = store.embedder.embed_query(query)
    blob = store.codec.encode(vector)
    wrap = store.codec.sql_wrap("?")
    first_pass = k * RESCORE_FACTOR if store.codec.rescored else k
    found: list[tuple[int, float]] = []
    for ns in namespaces:
        rows = store.db.execute(
            f"SELECT slice_id, distance FROM slice_vectors"
            f" WHERE embedding MATCH {wrap} AND k = ? AND namespace = ?",
            (blob, first_pass, ns),
        ).fetchall()
        if store.codec.rescored:
            found.extend(_rescore(store, [int(r[0]) for r in rows], vector))
        else:
            found.extend((int(r[0]), store.codec.similarity(float(r[1]))) for r in rows)
    found.sort(key=lambda x: -x[1])
    return found[:k]


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


#: How many more global candidates the keyword channel reads before filtering by namespace.
SCOPE_OVERFETCH = 8


def _fts_channel(
    store: IndexStore, table: str, match: str, namespaces: Sequence[str], k: int
) -> list[tuple[int, float]]:
    """(slice id, negated BM25) of the best keyword matches inside the namespaces, best first.

    Joining every match to ``slices`` to test its namespace costs one row lookup per match, which
    dominates on a large index. The best matches over the whole index are read first and filtered;
    only when too few of them are in scope is the joined query run.
    """
    if not match:
        return []
    wanted = k * SCOPE_OVERFETCH
    rows = store.db.execute(
        f"SELECT rowid, bm25({table}) AS rank FROM {table} WHERE {table} MATCH ?"
        f" ORDER BY rank LIMIT ?",
        (match, wanted),
    ).fetchall()
    if rows:
        ids = [int(r[0]) for r in rows]
        in_scope = {
            int(r[0])
            for r in store.db.execute(
                f"SELECT id FROM slices WHERE id IN ({_placeholders(len(ids))})"
                f" AND namespace IN ({_placeholders(len(namespaces))})",
                (*ids, *namespaces),
            )
        }
        kept = [r for r in rows if int(r[0]) in in_scope]
        if len(kept) < k and len(rows) == wanted:
            kept = store.db.execute(
                f"SELECT {table}.rowid, bm25({table}) AS rank FROM {table}"
                f" JOIN slices s ON s.id = {table}.rowid"
                f" WHERE {table} MATCH ? AND s.namespace IN ({_placeholders(len(namespaces))})"
                f" ORDER BY rank LIMIT ?",
                (match, *namespaces, k),
            ).fetchall()
        rows = kept[:k]
    # bm25() is negative, lower is better: negate so higher is better.
    return [(int(r[0]), -float(r[1])) for r in rows]


def keyword_channel(
    store: IndexStore, query: str, namespaces: Sequence[str], k: int, rrf_k: int
) -> list[tuple[int, float]]:
    """(slice id, negated BM25) best first: word and trigram lists merged by reciprocal rank."""
    words = _fts_channel(store, "slices_fts", words_query(query), namespaces, k)
    trigrams = _fts_channel(store, "slices_trigram", trigram_query(query), namespaces, k)
    if not trigrams:
        return words
    if not words:
        return trigrams
    merged: dict[int, float] = {}
    raw: dict[int, float] = {}
    for hits in (words, trigrams):
        for rank, (sid, score) in enumerate(hits, 1):
            merged[sid] = merged.get(sid, 0.0) + 1.0 / (rrf_k + rank)
            raw[sid] = max(raw.get(sid, 0.0), score)
    order = sorted(merged, key=lambda s: -merged[s])[:k]
    return [(sid, raw[sid]) for sid in order]


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


def _why(vec: ChannelScore, kw: ChannelScore) -> str:
    if vec.rank and kw.rank:
        return f"both channels: vector #{vec.rank}, keyword #{kw.rank}"
    if kw.rank:
        return f"keyword only (#{kw.rank}): exact terms matched that the embedding does not rank"
    return f"vector only (#{vec.rank}): similar meaning, no shared keywords"


def search(
    store: IndexStore,
    query: str,
    namespaces: Iterable[str] | None = None,
    *,
    options: SearchOptions | None = None,
    include_global: bool = True,
    explain: bool = False,
) -> list[Hit]:
    """The best slices for a query in the given namespaces (plus ``global``), best first."""
    opts = options or SearchOptions()
    query = query.strip()
    if not query:
        return []
    spaces = scope(namespaces, include_global=include_global)
    k = opts.candidates
    vec = vector_channel(store, query, spaces, k) if "vector" in opts.channels else []
    kw = keyword_channel(store, query, spaces, k, opts.rrf_k) if "keyword" in opts.channels else []
    vec_scores = {sid: ChannelScore(rank, sim, sim) for rank, (sid, sim) in enumerate(vec, 1)}
    top_kw = kw[0][1] if kw else 1.0
    kw_scores = {
        sid: ChannelScore(rank, raw, raw / top_kw if top_kw > 0 else 0.0)
        for rank, (sid, raw) in enumerate(kw, 1)
    }
    slices = _load(store, set(vec_scores) | set(kw_scores))
    n_channels = len(opts.channels)
    now = time.time()
    hits: list[Hit] = []
    for sid, sl in slices.items():
        if opts.current_only and sl.superseded:
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
        if opts.recency_weight > 0 and sl.mtime > 0:
            age_days = max(0.0, now - sl.mtime) / 86400
            recency = opts.recency_weight * math.pow(0.5, age_days / opts.recency_half_life_days)
            fused = (fused + recency) / (1 + opts.recency_weight)
        if fused < opts.min_score:
            continue
        hits.append(
            Hit(**vars(sl), score=fused, vector=v, keyword=w, recency=recency, why=_why(v, w))
        )
    hits.sort(key=lambda h: (-h.score, h.id))
    return hits[: opts.max_results]
