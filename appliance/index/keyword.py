"""The keyword channel: BM25 over words (FTS5, Porter) and over trigrams, scoped inside FTS5.

Two FTS5 indexes: ``unicode61`` words with the Porter stemmer for ordinary text, and trigrams for
identifiers such as ``A-1024`` or ``UR10_29.20`` and for Chinese, which ``unicode61`` does not
segment. FTS5's ``bm25()`` is *negative* (lower is better); it is negated here, so a strong
keyword-only hit scores high and survives ``min_score``.

Two costs made this channel slow on a large index, both removed here:

- **The namespace filter.** Each FTS5 row carries its namespace as one token (``ns_token``), so a
  scoped search is ``ns_token : (...) AND (...)`` and FTS5 scores only rows in scope, instead of
  joining every match to ``slices``. The column has bm25 weight 0.
- **Scoring every row that shares one common word with the query.** FTS5 computes BM25 for every
  matching row before ``ORDER BY ... LIMIT`` (about 1 us a row): a query OR-ing eight words matched
  57,000 of 100,000 slices and cost 48 ms. BM25 is a sum over the query's phrases, and a phrase
  adds at most ``idf * (k1 + 1)`` to any row. So the rarest phrases (the *essential* ones) are
  matched first and their rows are scored with the *whole* query (``E`` alone, then ``E AND N``:
  each phrase appears once, so the scores are exactly the full query's). A row that contains none
  of the rare phrases scores at most the sum of the common phrases' bounds; when the k-th score
  found is above that, the result is provably the full query's (``Ranked.exact``). The rare set
  grows while the rows it touches stay within ``budget_rows``; past that the common words only
  re-rank, which is what keeps the cost bounded on a large index.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from appliance.index import db as dbmod
from appliance.index.fts import TRIGRAMS, WORDS, FtsTable, KeywordStats
from appliance.index.postings import PhraseCache, PhraseShares, RowNamespaces

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

#: BM25 constants of FTS5's bm25() (k1 = 1.2): the most one phrase can add to a row's score is
#: ``idf * (K1 + 1)``.
K1 = 1.2


def words_phrases(text: str) -> list[str]:
    """The query's content words, each quoted (quoting defuses FTS5 syntax)."""
    words = [
        w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS and not _CJK.fullmatch(w)
    ]
    return [f'"{w}"' for w in dict.fromkeys(words)]


def trigram_phrases(text: str) -> list[str]:
    """Trigram phrases: identifiers with a digit as exact phrases, Chinese as trigrams."""
    terms = [m for m in _IDENT.findall(text) if any(c.isdigit() for c in m) and len(m) >= 3]
    for run in _CJK.findall(text):
        if len(run) >= 3:
            terms.extend(run[i : i + 3] for i in range(len(run) - 2))
    return ['"' + t.replace('"', '""') + '"' for t in dict.fromkeys(terms)]


def words_query(text: str) -> str:
    """An FTS5 query OR-ing the query's quoted content words."""
    return " OR ".join(words_phrases(text))


def trigram_query(text: str) -> str:
    """An FTS5 trigram query OR-ing the identifiers and Chinese trigrams of the query."""
    return " OR ".join(trigram_phrases(text))


def namespace_token(namespace: str) -> str:
    """The token a namespace is indexed as (see ``NAMESPACE_TOKEN_SQL`` in the migrations)."""
    return "ns" + namespace.encode("utf-8").hex() + "0"


class KeywordSource(Protocol):
    """What the channel reads an index through (an :class:`~appliance.index.store.IndexStore`)."""

    #: The index's connection.
    db: dbmod.Connection
    #: Its row counts (the budget's plan).
    keyword_stats: KeywordStats
    #: Its in-memory BM25 shares.
    phrases: PhraseCache


@dataclass(frozen=True)
class Ranked:
    """The best rows of one FTS5 index for a query."""

    #: (slice id, negated BM25) best first.
    rows: list[tuple[int, float]]
    #: True when the result is provably the full query's top k (or the full query ran).
    exact: bool = True
    #: True when the budget applied: only rows matching the rarest phrases were candidates.
    pruned: bool = False
    #: True when ranked from the in-memory phrase shares (:mod:`appliance.index.postings`).
    in_memory: bool = False


def _run(store: KeywordSource, table: FtsTable, match: str, k: int) -> list[tuple[int, float]]:
    rows = store.db.execute(
        f"SELECT rowid, bm25({table.name}, {table.weights}) AS rank FROM {table.name}"
        f" WHERE {table.name} MATCH ? ORDER BY rank, rowid LIMIT ?",
        (match, k),
    ).fetchall()
    # bm25() is negative, lower is better: negate so higher is better.
    return [(int(r[0]), -float(r[1])) for r in rows]


def ranked(
    store: KeywordSource,
    table: FtsTable,
    phrases: Sequence[str],
    namespaces: Sequence[str],
    k: int,
    *,
    budget_rows: int = 0,
) -> Ranked:
    """The k best rows in the namespaces for the OR of the phrases (see the module docstring).

    ``budget_rows`` 0 always runs the full query.
    """
    if not phrases or k <= 0:
        return Ranked([])
    stats = store.keyword_stats
    present = stats.namespaces()
    in_scope = [ns for ns in dict.fromkeys(namespaces) if present.get(ns)]
    if not in_scope:
        return Ranked([])
    total = max(1, sum(present.values()))
    scope_rows = sum(present[ns] for ns in in_scope)
    # Every namespace in scope: no filter at all (the common single-room appliance).
    scope = ""
    if len(in_scope) < len(present):
        scope = "ns_token : (" + " OR ".join(namespace_token(ns) for ns in in_scope) + ") AND "

    def query(part: Sequence[str]) -> str:
        return f"{table.text_columns} : (" + " OR ".join(part) + ")"

    if store.phrases.enabled:
        found = store.phrases.lookup(table, phrases, lambda p: stats.matching_rows(table, p))
        if found is not None:
            shares, rows = found
            best = rank_in_memory(phrases, shares, rows, in_scope if scope else None, k)
            return Ranked(best, in_memory=True)
    if budget_rows <= 0:
        return Ranked(_run(store, table, scope + query(phrases), k))
    # Counted without the column filter: a filter makes FTS5 read every position list, and query
    # words never occur in ns_token, so the count (bm25()'s idf input) is the same.
    counts = {p: stats.matching_rows(table, p) for p in phrases}
    live = [p for p in phrases if counts[p] > 0]
    if not live:
        return Ranked([])
    share = scope_rows / total
    estimate = sum(counts[p] for p in live) * share
    if estimate <= budget_rows:
        return Ranked(_run(store, table, scope + query(live), k))

    n_rows = max(stats.total_rows(table), 1)

    def idf(p: str) -> float:
        # FTS5's own idf, clamped the same way.
        value = math.log((n_rows - counts[p] + 0.5) / (counts[p] + 0.5))
        return value if value > 0 else 1e-6

    order = sorted(live, key=lambda p: (-idf(p), p))
    essential: list[str] = []
    touched = 0.0
    for p in order:
        if essential and touched + counts[p] * share > budget_rows:
            break
        essential.append(p)
        touched += counts[p] * share
    rest = order[len(essential) :]
    if not rest:
        return Ranked(_run(store, table, scope + query(live), k))
    alone = _run(store, table, scope + query(essential), k)
    both = _run(store, table, f"{scope}{query(essential)} AND {query(rest)}", k)
    # Rows matching a common phrase too carry their full score from `both`; rows matching only
    # rare phrases have it in `alone`. A row in `alone` that also matches a common phrase but is
    # not in `both`'s top k scores below all of `both`'s rows, so it never displaces one.
    scores = dict(alone)
    scores.update(both)
    best = sorted(scores.items(), key=lambda x: (-x[1], x[0]))[:k]
    bound = sum(idf(p) * (K1 + 1) for p in rest)
    exact = len(best) == k and best[-1][1] > bound
    return Ranked(best, exact, pruned=True)


def rank_in_memory(
    phrases: Sequence[str],
    shares: dict[str, PhraseShares],
    rows: RowNamespaces,
    namespaces: Sequence[str] | None,
    k: int,
) -> list[tuple[int, float]]:
    """(slice id, negated BM25) best first, from the phrases' in-memory shares.

    The shares are added in the query's phrase order, as FTS5 adds them, so every score equals
    the one FTS5's ``bm25()`` gives the whole query. ``namespaces`` None: no scope filter.
    """
    scores = np.zeros(len(rows.codes), dtype=np.float64)
    for p in phrases:
        if p in shares:
            scores[shares[p].ids] += shares[p].shares
    if namespaces is not None:
        codes = [rows.names[ns] for ns in namespaces if ns in rows.names]
        scores[~np.isin(rows.codes, codes)] = 0.0
    matched = int(np.count_nonzero(scores > 0))
    if matched == 0:
        return []
    take = min(k, matched)
    # The k-th best score, then every row above it and the lowest ids among the rows equal to
    # it: ties resolve by slice id, as FTS5's ``ORDER BY rank, rowid`` does.
    kth = -np.partition(-scores, take - 1)[take - 1]
    above = np.flatnonzero(scores > kth)
    tied = np.flatnonzero(scores == kth)[: take - len(above)]
    best = np.concatenate([above, tied])
    best = best[np.lexsort((best, -scores[best]))]
    return [(int(i), float(scores[i])) for i in best]


def keyword_channel(
    store: KeywordSource,
    query: str,
    namespaces: Sequence[str],
    k: int,
    rrf_k: int,
    *,
    budget_rows: int = 0,
) -> list[tuple[int, float]]:
    """(slice id, negated BM25) best first: word and trigram lists merged by reciprocal rank."""
    words = ranked(store, WORDS, words_phrases(query), namespaces, k, budget_rows=budget_rows)
    trigrams = ranked(
        store, TRIGRAMS, trigram_phrases(query), namespaces, k, budget_rows=budget_rows
    )
    return merge_lists(words.rows, trigrams.rows, k, rrf_k)


def merge_lists(
    words: list[tuple[int, float]], trigrams: list[tuple[int, float]], k: int, rrf_k: int
) -> list[tuple[int, float]]:
    """The word and trigram lists merged by reciprocal rank; each row keeps its best raw score."""
    if not trigrams or not words:
        return words or trigrams
    merged: dict[int, float] = {}
    raw: dict[int, float] = {}
    for hits in (words, trigrams):
        for rank, (sid, score) in enumerate(hits, 1):
            merged[sid] = merged.get(sid, 0.0) + 1.0 / (rrf_k + rank)
            raw[sid] = max(raw.get(sid, 0.0), score)
    order = sorted(merged, key=lambda s: -merged[s])[:k]
    return [(sid, raw[sid]) for sid in order]


def _run_within(
    store: KeywordSource, table: FtsTable, phrases: Sequence[str], ids: Sequence[int], k: int
) -> list[tuple[int, float]]:
    match = f"{table.text_columns} : (" + " OR ".join(phrases) + ")"
    rows = store.db.execute(
        f"SELECT rowid, bm25({table.name}, {table.weights}) AS rank FROM {table.name}"
        f" WHERE {table.name} MATCH ? AND rowid IN ({','.join('?' * len(ids))})"
        f" ORDER BY rank, rowid LIMIT ?",
        (match, *ids, k),
    ).fetchall()
    return [(int(r[0]), -float(r[1])) for r in rows]


def rank_within(
    phrases: Sequence[str], shares: dict[str, PhraseShares], ids: Sequence[int], k: int
) -> list[tuple[int, float]]:
    """(slice id, negated BM25) of the given rows, best first, from the phrases' in-memory
    shares (the same scores FTS5 gives them, up to the order of the additions)."""
    wanted = np.unique(np.asarray(ids, dtype=np.int64))
    scores = np.zeros(len(wanted), dtype=np.float64)
    for p in phrases:
        found = shares.get(p)
        if found is None:
            continue
        inside = np.isin(found.ids, wanted)
        scores[np.searchsorted(wanted, found.ids[inside])] += found.shares[inside]
    order = np.lexsort((wanted, -scores))
    return [(int(wanted[i]), float(scores[i])) for i in order[:k] if scores[i] > 0]


def _within(
    store: KeywordSource, table: FtsTable, phrases: Sequence[str], ids: Sequence[int], k: int
) -> list[tuple[int, float]]:
    """The best of the given rows for the OR of the phrases: in memory when the phrases are,
    else FTS5 restricted to the rows (which still reads each phrase's whole doclist)."""
    if not phrases or not ids:
        return []
    if store.phrases.enabled:
        stats = store.keyword_stats
        found = store.phrases.lookup(table, phrases, lambda p: stats.matching_rows(table, p))
        if found is not None:
            return rank_within(phrases, found[0], ids, k)
    return _run_within(store, table, phrases, ids, k)


def keyword_channel_within(
    store: KeywordSource, query: str, slice_ids: Sequence[int], k: int, rrf_k: int
) -> list[tuple[int, float]]:
    """The keyword channel over a given set of slices (a named drawing's): the same BM25 scores
    as over the whole index, word and trigram lists merged by reciprocal rank."""
    words = _within(store, WORDS, words_phrases(query), slice_ids, k)
    trigrams = _within(store, TRIGRAMS, trigram_phrases(query), slice_ids, k)
    return merge_lists(words, trigrams, k, rrf_k)
