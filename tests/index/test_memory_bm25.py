"""The keyword channel's in-memory BM25: FTS5's ranking score for score, never stale."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.document import DocumentSlice, SourceDocument
from appliance.index import postings
from appliance.index.embedder import Embedder
from appliance.index.fts import TRIGRAMS, WORDS, WORDS_TOKENIZE
from appliance.index.keyword import Ranked, ranked, trigram_phrases, words_phrases
from appliance.index.search import SearchOptions, search
from appliance.index.store import IndexStore
from tests.index.test_fast_paths import QUERIES, _other_process, abstracts

KEYWORD_ONLY = SearchOptions(channels=("keyword",), max_results=20)
SCOPES = (["shop"], ["lab"], ["shop", "lab"], ["shop", "lab", "global"])


@pytest.fixture(scope="module")
def index(
    tmp_path_factory: pytest.TempPathFactory, shared_data: Path, embedder: Embedder
) -> Iterator[IndexStore]:
    """SciFact abstracts over two namespaces, plus notes with part numbers for the trigrams."""
    path = tmp_path_factory.mktemp("bm25") / "index.sqlite3"
    with IndexStore.open_path(path, embedder=embedder) as store:
        for i, (doc_id, text) in enumerate(abstracts(shared_data, 60)):
            ns = "shop" if i % 3 else "lab"
            store.replace_source(SourceDocument(doc_id, ns, doc_id, (DocumentSlice(text=text),)))
        for i in range(12):
            text = f"Bracket A-10{i:02d} uses seal kit QX-77{i % 4}1-B and bolts UR10_29.2{i}"
            store.replace_source(
                SourceDocument(
                    f"p{i}.md", "shop" if i % 2 else "lab", f"p{i}", (DocumentSlice(text=text),)
                )
            )
        yield store


def _fts5(store: IndexStore, table: object, phrases: list[str], ns: list[str], k: int) -> Ranked:
    store.phrases.max_bytes, saved = 0, store.phrases.max_bytes
    try:
        return ranked(store, table, phrases, ns, k)  # type: ignore[arg-type]
    finally:
        store.phrases.max_bytes = saved


def test_memory_ranking_is_fts5s_score_for_score(index: IndexStore) -> None:
    cases = [(WORDS, words_phrases(q)) for q in QUERIES] + [
        (TRIGRAMS, trigram_phrases(q)) for q in ("A-1003 QX-7721-B", "UR10_29.21", "A-10")
    ]
    compared = 0
    for table, phrases in cases:
        for ns in SCOPES:
            mine = ranked(index, table, phrases, ns, 30)
            theirs = _fts5(index, table, phrases, ns, 30)
            assert mine.in_memory and not theirs.in_memory
            # Same floating-point sum in the same order: equal, not approximately equal.
            assert mine.rows == theirs.rows, (phrases, ns)
            compared += len(theirs.rows)
    assert compared > 300


def test_the_words_tokenizer_is_the_tables(index: IndexStore) -> None:
    sql = index.db.execute("SELECT sql FROM sqlite_master WHERE name = 'slices_fts'").fetchone()[0]
    assert f"tokenize='{WORDS_TOKENIZE}'" in sql
    # Inflections share one cache entry because FTS5 stems them to one token.
    assert index.phrases.key(WORDS, '"effects"') == index.phrases.key(WORDS, '"effect"')
    assert index.phrases.key(WORDS, '"ur10_29"')[1] == ("ur10", "29")


def _keyword_hits(store: IndexStore, query: str) -> list[tuple[str, float]]:
    hits = search(store, query, ["shop"], include_global=False, options=KEYWORD_ONLY)
    return [(h.source, h.keyword.raw or 0.0) for h in hits]


def test_writes_make_every_share_stale(tmp_path: Path, embedder: Embedder) -> None:
    """One write changes every row's BM25 (row count, average length): nothing old is served."""
    path = tmp_path / "i.sqlite3"
    with IndexStore.open_path(path, embedder=embedder) as store:
        store.replace_source(_doc("pump.md", "Bleed the hydraulic pump before the first start."))
        store.replace_source(_doc("seal.md", "The hydraulic cylinder takes seal kit QX-7731-B."))
        before = _keyword_hits(store, "hydraulic pump")
        assert [s for s, _ in before] == ["pump.md", "seal.md"]
        store.replace_source(_doc("gear.md", "Grease the gearbox bearings every month."))
        after = _keyword_hits(store, "hydraulic pump")
        assert [s for s, _ in after] == ["pump.md", "seal.md"]
        assert after != before  # a third row moved the idf: the scores changed
        _other_process(str(path), "replace", "shop", "pump2.md", "Hydraulic pump pump pump.")
        seen = _keyword_hits(store, "hydraulic pump")
        assert seen[0][0] == "pump2.md"
        assert [round(s, 9) for _, s in seen] == [
            round(s, 9)
            for _, s in _fts5(store, WORDS, words_phrases("hydraulic pump"), ["shop"], 20).rows
        ]
        _other_process(str(path), "delete", "shop", "pump2.md")
        assert [s for s, _ in _keyword_hits(store, "hydraulic pump")] == ["pump.md", "seal.md"]


def _doc(source: str, text: str, namespace: str = "shop") -> SourceDocument:
    return SourceDocument(source, namespace, f"h-{text}", (DocumentSlice(text=text),))


def test_expensive_phrases_come_from_the_filler(
    tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phrase too costly to fetch inline: FTS5 ranks this query, the filler loads it for the next."""
    monkeypatch.setattr(postings, "INLINE_ROWS", 0)
    monkeypatch.setattr(postings, "PREFETCH_ROWS", 10**9)  # no common-word prefetch here
    with IndexStore.open_path(tmp_path / "i.sqlite3", embedder=embedder) as store:
        for i in range(8):
            store.replace_source(_doc(f"n{i}.md", f"hydraulic pump note {i} about valves"))
        phrases = words_phrases("hydraulic valves")
        first = ranked(store, WORDS, phrases, ["shop"], 5)
        assert not first.in_memory
        assert store.phrases.wait_idle(60)
        second = ranked(store, WORDS, phrases, ["shop"], 5)
        assert second.in_memory and second.rows == first.rows
        assert store.phrases.background_fetches == 2 and store.phrases.inline_fetches == 0


def test_common_words_are_loaded_after_a_write(
    tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postings, "INLINE_ROWS", 0)
    monkeypatch.setattr(postings, "PREFETCH_ROWS", 3)
    with IndexStore.open_path(tmp_path / "i.sqlite3", embedder=embedder) as store:
        for i in range(5):
            text = f"pumps note {i} increases" + (" rare" if i == 0 else "")
            store.replace_source(_doc(f"n{i}.md", text))
        store.phrases.warm()
        assert store.phrases.wait_idle(60)
        # "pumps" stems to the loaded "pump" (5 rows); "rare" (1 row) was not loaded.
        assert ranked(store, WORDS, ['"pumps"'], ["shop"], 5).in_memory
        assert not ranked(store, WORDS, ['"rare"'], ["shop"], 5).in_memory
        # The stem "increas" stems again to "increa", so it was asked for as "increase".
        assert store.phrases.key(WORDS, '"increas"')[1] == ("increa",)
        found = ranked(store, WORDS, ['"increased"'], ["shop"], 5)
        assert found.in_memory and len(found.rows) == 5
        store.replace_source(_doc("n9.md", "pumps again"))
        assert not ranked(store, WORDS, ['"pumps"'], ["shop"], 5).in_memory  # dropped
        assert store.phrases.wait_idle(60)
        assert ranked(store, WORDS, ['"pumps"'], ["shop"], 5).in_memory  # loaded again


def test_shares_read_before_a_write_are_not_kept(tmp_path: Path, embedder: Embedder) -> None:
    """The filler's arrays are tagged with the data they were read from; old ones are refused."""
    with IndexStore.open_path(tmp_path / "i.sqlite3", embedder=embedder) as store:
        store.replace_source(_doc("a.md", "hydraulic pump"))
        cache = store.phrases
        assert ranked(store, WORDS, ['"pump"'], ["shop"], 5).in_memory
        old = postings.signature_of(store.db)
        shares = postings.fetch_shares(store.db, WORDS, '"valve"')
        store.replace_source(_doc("b.md", "hydraulic valve"))
        cache.warm()
        assert not cache.keep(old, key=cache.key(WORDS, '"valve"'), shares=shares)
        assert not cache.has(cache.key(WORDS, '"valve"'))


def test_memory_is_bounded(tmp_path: Path, embedder: Embedder) -> None:
    with IndexStore.open_path(
        tmp_path / "i.sqlite3", embedder=embedder, keyword_cache_mb=1
    ) as store:
        store.phrases.max_bytes = 2 * 12 * 3  # two phrases of three rows each
        for i in range(3):
            store.replace_source(_doc(f"n{i}.md", "alpha beta gamma delta"))
        for word in ("alpha", "beta", "gamma", "delta"):
            assert ranked(store, WORDS, [f'"{word}"'], ["shop"], 5).in_memory
        assert store.phrases.phrase_bytes() == 2 * 12 * 3
        assert not store.phrases.has(store.phrases.key(WORDS, '"alpha"'))  # least recent went
        assert store.phrases.has(store.phrases.key(WORDS, '"delta"'))
