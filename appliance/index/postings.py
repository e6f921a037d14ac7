"""Per-phrase BM25 shares held in memory, so the keyword channel adds arrays instead of asking
FTS5 to score every row that shares one common word with the query.

FTS5's ``bm25()`` is a sum over the query's phrases: phrase ``p`` adds
``idf(p) * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl))`` to a row, with ``idf``, ``avgdl``
and the row count taken over the whole table, never over the query. So the score a one-phrase
query gives a row is exactly that phrase's share of any longer query, and adding the shares in
the query's phrase order repeats FTS5's own floating-point sum: the in-memory ranking is FTS5's,
score for score (the tests compare the two on a real index).

Shares are keyed by what FTS5's tokenizer makes of a phrase (``effects`` and ``effect`` are one
stem), learnt from an in-memory FTS5 table with the same tokenizer. Every share depends on the
whole table (row count, average length, the phrase's row count), so any write makes every array
stale: the arrays are tagged with the *signature* of the data (every namespace's write generation,
bumped inside each replace or delete) and dropped when it moves.

Fetching a phrase costs about 2 us per row it matches. Rare phrases are fetched inline by the
search; a background filler on its own read-only connection fetches the rest. The first search
that has to fall back after a write (a process that keeps searching: the service) also makes the
filler load every word matching at least :data:`PREFETCH_ROWS` rows, so later questions rarely
meet a common word that is not in memory. Until a query's phrases are all in memory, that query
takes the budgeted FTS5 path of :mod:`appliance.index.keyword`.
"""

from __future__ import annotations

import queue
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from appliance.index import db as dbmod
from appliance.index.connection import IndexConnection
from appliance.index.fts import WORDS, FtsTable, KeywordStats

#: Rows one search may fetch from FTS5 for its phrases not yet in memory (about 2 us a row).
INLINE_ROWS = 2000
#: The filler loads every word matching at least this many rows after each write.
PREFETCH_ROWS = 200

_NAMESPACE_TOKEN = re.compile(r"ns(?:[0-9a-f]{2})+0")

#: Every namespace's write generation: BM25 shares are valid for exactly one of these.
Signature = tuple[tuple[str, int], ...]
#: (table name, the phrase's tokens).
Key = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class PhraseShares:
    """One phrase's BM25 share of every row it matches."""

    #: Slice ids (FTS5 rowids) of the rows matching the phrase.
    ids: np.ndarray
    #: The phrase's BM25 share of each row, positive (FTS5's bm25() negated).
    shares: np.ndarray

    @property
    def nbytes(self) -> int:
        """Memory held."""
        return int(self.ids.nbytes + self.shares.nbytes)


@dataclass(frozen=True)
class RowNamespaces:
    """Which namespace every slice id belongs to (the in-memory scope filter)."""

    #: Namespace code per slice id; -1 where no slice has that id.
    codes: np.ndarray
    #: Code of each namespace name.
    names: dict[str, int]


def signature_from(generations: dict[str, int]) -> Signature:
    """The data's identity for BM25 from every namespace's write generation."""
    return tuple(sorted(generations.items()))


def signature_of(db: dbmod.Connection) -> Signature:
    """The data's identity for BM25, read on a connection of its own (the filler's)."""
    rows = db.execute("SELECT namespace, generation FROM namespace_generations").fetchall()
    return signature_from({str(r[0]): int(r[1]) for r in rows})


def fetch_shares(db: dbmod.Connection, table: FtsTable, phrase: str) -> PhraseShares:
    """A phrase's share of every row, from a one-phrase FTS5 query."""
    rows = db.execute(
        f"SELECT rowid, bm25({table.name}, {table.weights}) FROM {table.name}"
        f" WHERE {table.name} MATCH ?",
        (phrase,),
    ).fetchall()
    ids = np.fromiter((r[0] for r in rows), dtype=np.int32, count=len(rows))
    # bm25() is negative (lower is better); shares are kept positive.
    shares = -np.fromiter((r[1] for r in rows), dtype=np.float64, count=len(rows))
    return PhraseShares(ids, shares)


def fetch_namespaces(db: dbmod.Connection) -> RowNamespaces:
    """The namespace code of every slice id."""
    rows = db.execute("SELECT id, namespace FROM slices").fetchall()
    names: dict[str, int] = {}
    top = max((int(r[0]) for r in rows), default=0)
    codes = np.full(top + 1, -1, dtype=np.int16)
    for sid, ns in rows:
        codes[sid] = names.setdefault(str(ns), len(names))
    return RowNamespaces(codes, names)


class PhraseTokens:
    """The tokens FTS5 makes of a phrase, from an in-memory FTS5 table with the same tokenizer."""

    def __init__(self, tokenize: str, *, memo: int = 20_000) -> None:
        self._db = dbmod.sqlean.connect(":memory:", check_same_thread=False)
        self._db.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize={tokenize!r})")
        self._db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
        self._lock = threading.Lock()
        self._memo: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._limit = memo

    def __call__(self, phrase: str) -> tuple[str, ...]:
        with self._lock:
            found = self._memo.get(phrase)
            if found is None:
                self._db.execute("INSERT INTO t (rowid, x) VALUES (1, ?)", (phrase,))
                rows = self._db.execute("SELECT term FROM v ORDER BY offset").fetchall()
                self._db.execute("DELETE FROM t WHERE rowid = 1")
                found = tuple(str(r[0]) for r in rows)
                self._memo[phrase] = found
                if len(self._memo) > self._limit:
                    self._memo.popitem(last=False)
            return found


class PhraseCache:
    """The phrase shares and row namespaces of one store, valid for one data signature.

    ``max_bytes`` bounds the memory of the shares (12 bytes per row a phrase matches); least
    recently used phrases go first. The row namespaces add 2 bytes per slice. ``max_bytes=0`` disables it (the keyword channel then always asks FTS5).
    """

    def __init__(self, conn: IndexConnection, stats: KeywordStats, *, max_bytes: int) -> None:
        self._conn = conn
        self._stats = stats
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._signature: Signature | None = None
        self._phrases: OrderedDict[Key, PhraseShares] = OrderedDict()
        self._held = 0
        self._namespaces: RowNamespaces | None = None
        self._tokens: dict[str, PhraseTokens] = {}
        self._filler: _Filler | None = None
        self._filler_lock = threading.Lock()
        self._common_words_for: Signature | None = None
        #: Phrases fetched inline by searches, and by the background filler; rankings that fell
        #: back to FTS5 because a phrase was not in memory (benchmark counters).
        self.inline_fetches = 0
        self.background_fetches = 0
        self.fallbacks = 0
        self.lookups = 0

    @property
    def enabled(self) -> bool:
        """Whether the keyword channel may rank in memory."""
        return self.max_bytes > 0

    def held_bytes(self) -> int:
        """Memory held by the arrays."""
        with self._lock:
            return self._held + (self._namespaces.codes.nbytes if self._namespaces else 0)

    def phrase_bytes(self) -> int:
        """Memory held by the phrase shares alone (what ``max_bytes`` bounds)."""
        with self._lock:
            return self._held

    def clear(self) -> None:
        """Drop everything (benchmarks measure a cold cache this way)."""
        with self._lock:
            self._drop()
            self._signature = None

    def close(self) -> None:
        """Stop the background filler."""
        with self._filler_lock:
            if self._filler is not None:
                self._filler.stop()
                self._filler = None

    def wait_idle(self, timeout: float = 120.0) -> bool:
        """Wait until the filler has nothing queued (tests, benchmarks, start-up warming)."""
        return self._filler.wait_idle(timeout) if self._filler else True

    def key(self, table: FtsTable, phrase: str) -> Key:
        """The cache key of a phrase: the tokens FTS5 makes of it."""
        tokens = self._tokens.get(table.name)
        if tokens is None:
            tokens = self._tokens.setdefault(table.name, PhraseTokens(table.tokenize))
        return table.name, tokens(phrase)

    def warm(self) -> None:
        """Start loading the common words now (benchmarks; searches start it when they need it)."""
        signature = self._check_signature()
        with self._lock:
            if self._common_words_for == signature:
                return
            self._common_words_for = signature
        self._queue(_Request(WORDS, (), False, True, signature))

    def lookup(
        self, table: FtsTable, phrases: Sequence[str], count: Callable[[str], int]
    ) -> tuple[dict[str, PhraseShares], RowNamespaces] | None:
        """Every phrase's shares and the row namespaces, or None while some are not in memory.

        Missing phrases are fetched inline while the rows they match (``count``) stay within
        :data:`INLINE_ROWS`; the rest are queued for the filler and this query returns None.
        """
        signature = self._check_signature()
        self.lookups += 1
        keys = {p: self.key(table, p) for p in phrases}
        with self._lock:
            found = {p: self._phrases.get(keys[p]) for p in phrases}
            for p, shares in found.items():
                if shares is not None:
                    self._phrases.move_to_end(keys[p])
            namespaces = self._namespaces
        counts = {p: count(p) for p, s in found.items() if s is None}
        inline_rows = 0
        queued: list[tuple[str, Key]] = []
        for p in sorted(counts, key=lambda p: counts[p]):
            if inline_rows + counts[p] <= INLINE_ROWS:
                inline_rows += counts[p]
                found[p] = shares = fetch_shares(self._conn.db, table, p)
                self.inline_fetches += 1
                self.keep(signature, key=keys[p], shares=shares)
            else:
                queued.append((p, keys[p]))
        if namespaces is None and sum(self._stats.namespaces().values()) <= 20_000:
            namespaces = fetch_namespaces(self._conn.db)  # ~10 ms at 20k slices
            self.keep(signature, namespaces=namespaces)
        if queued or namespaces is None:
            # A search that had to fall back is a sign of a process that keeps searching (the
            # service): load the common words too, once per state of the data.
            with self._lock:
                common = self._common_words_for != signature
                self._common_words_for = signature
            self._queue(_Request(table, tuple(queued), namespaces is None, common, signature))
            self.fallbacks += 1
            return None
        return {p: s for p, s in found.items() if s is not None}, namespaces

    def keep(
        self,
        signature: Signature,
        *,
        key: Key | None = None,
        shares: PhraseShares | None = None,
        namespaces: RowNamespaces | None = None,
        evict: bool = True,
    ) -> bool:
        """Keep arrays read at ``signature`` if the data has not moved on since.

        ``evict`` False: keep the shares only if they fit without dropping others (prefetching
        must not push out what searches use).
        """
        with self._lock:
            if signature != self._signature:
                return False
            if namespaces is not None:
                self._namespaces = namespaces
            if key is None or shares is None or key in self._phrases:
                return True
            if self._held + shares.nbytes > self.max_bytes:
                if not evict or shares.nbytes > self.max_bytes:
                    return False
                while self._phrases and self._held + shares.nbytes > self.max_bytes:
                    self._held -= self._phrases.popitem(last=False)[1].nbytes
            self._phrases[key] = shares
            self._held += shares.nbytes
            return True

    def has(self, key: Key) -> bool:
        """Whether a phrase's shares are in memory."""
        with self._lock:
            return key in self._phrases

    # -- internals -------------------------------------------------------------------------------

    def _drop(self) -> None:
        self._phrases.clear()
        self._held = 0
        self._namespaces = None

    def _check_signature(self) -> Signature:
        signature = signature_from(self._conn.generations())
        with self._lock:
            if signature != self._signature:
                self._drop()
                self._signature = signature
        return signature

    def _queue(self, request: _Request) -> None:
        path = self._conn.path
        if path is None:
            return
        with self._filler_lock:
            if self._filler is None:
                self._filler = _Filler(self, path)
            self._filler.put(request)


@dataclass(frozen=True)
class _Request:
    """Work for the filler, valid only while the data still has ``signature``."""

    table: FtsTable
    phrases: tuple[tuple[str, Key], ...]
    namespaces: bool
    common_words: bool
    signature: Signature


#: Endings the Porter stemmer strips: a stem that is not a word of its own ("increas") is asked for
#: as one of the words it comes from ("increase").
_ENDINGS = (
    "", "e", "s", "es", "ed", "ing", "y", "ies", "ion", "ions", "al", "ally", "ly", "er", "ers",
    "ate", "ation", "ive", "ity", "ous", "ment", "ness", "ence", "ance", "ent", "ant", "ism",
    "ize", "ful", "ble", "able", "ible",
)  # fmt: skip


def _surface_form(cache: PhraseCache, table: FtsTable, term: str) -> str | None:
    """A quoted phrase FTS5 tokenizes to exactly ``term``, or None if no common ending gives one."""
    for ending in _ENDINGS:
        phrase = '"' + (term + ending).replace('"', '""') + '"'
        if cache.key(table, phrase)[1] == (term,):
            return phrase
    return None


class _Filler:
    """Fetches expensive phrases on its own read-only connection, off the search path."""

    def __init__(self, cache: PhraseCache, path: Path) -> None:
        self._cache = cache
        self._path = path
        self._requests: queue.Queue[_Request | None] = queue.Queue()
        self._state = threading.Condition()
        self._pending: set[Key] = set()
        self._busy = 0
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="index-phrase-filler", daemon=True)
        self._thread.start()

    def put(self, request: _Request) -> None:
        with self._state:
            # A phrase already queued is not queued twice (a burst of similar questions).
            fresh = tuple((p, k) for p, k in request.phrases if k not in self._pending)
            if not (fresh or request.namespaces or request.common_words):
                return
            self._pending.update(k for _, k in fresh)
            self._busy += 1
        self._requests.put(
            _Request(
                request.table, fresh, request.namespaces, request.common_words, request.signature
            )
        )

    def stop(self) -> None:
        # Checked between phrases: closing a store does not wait for a whole common-words load.
        self._stopping.set()
        self._requests.put(None)
        self._thread.join(timeout=10)

    def wait_idle(self, timeout: float) -> bool:
        with self._state:
            return self._state.wait_for(lambda: self._busy == 0, timeout)

    def _run(self) -> None:
        db = dbmod.connect(self._path, read_only=True)
        try:
            while (request := self._requests.get()) is not None and not self._stopping.is_set():
                try:
                    self._serve(db, request)
                except dbmod.sqlean.Error:
                    pass  # e.g. the file went away; searches keep using FTS5 directly
                finally:
                    with self._state:
                        self._pending.difference_update(k for _, k in request.phrases)
                        self._busy -= 1
                        self._state.notify_all()
        finally:
            db.close()

    def _serve(self, db: dbmod.Connection, request: _Request) -> None:
        cache = self._cache
        # One read transaction: the arrays and the signature they are tagged with agree.
        db.execute("BEGIN")
        try:
            signature = signature_of(db)
            if signature != request.signature:
                return  # the index moved on; a later search asks again
            if request.namespaces:
                cache.keep(signature, namespaces=fetch_namespaces(db))
            for phrase, key in request.phrases:
                if self._stopping.is_set():
                    return
                if not cache.has(key):
                    shares = fetch_shares(db, request.table, phrase)
                    cache.background_fetches += cache.keep(signature, key=key, shares=shares)
            if request.common_words:
                self._common_words(db, request.table, signature)
        finally:
            db.execute("COMMIT")

    def _common_words(self, db: dbmod.Connection, table: FtsTable, signature: Signature) -> None:
        """Load every word matching at least PREFETCH_ROWS rows, most common first."""
        cache = self._cache
        db.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{table.name}_rows"
            f" USING fts5vocab(main, {table.name}, 'row')"
        )
        terms = db.execute(
            f"SELECT term FROM temp.{table.name}_rows WHERE doc >= ? ORDER BY doc DESC",
            (PREFETCH_ROWS,),
        ).fetchall()
        for (term,) in terms:
            if self._stopping.is_set():
                return
            if _NAMESPACE_TOKEN.fullmatch(term) or cache.has((table.name, (term,))):
                continue  # a namespace token (see NAMESPACE_TOKEN_SQL) is never a query word
            phrase = _surface_form(cache, table, str(term))
            if phrase is None:
                continue
            key = (table.name, (term,))
            shares = fetch_shares(db, table, phrase)
            if not cache.keep(signature, key=key, shares=shares, evict=False):
                return  # full, or the data moved on
            cache.background_fetches += 1
