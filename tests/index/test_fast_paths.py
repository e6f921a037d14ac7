"""The fast search paths: in-memory vectors (exact, never stale) and the scoped, budgeted BM25."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from appliance.document import DocumentSlice, SourceDocument
from appliance.index import db as dbmod
from appliance.index import matrix as matrix_module
from appliance.index.embedder import Embedder
from appliance.index.fts import TRIGRAMS, WORDS
from appliance.index.keyword import ranked, trigram_phrases, words_phrases
from appliance.index.migrations import MIGRATIONS
from appliance.index.search import SearchOptions, search, sqlite_vec_knn
from appliance.index.store import IndexStore

WRITER = Path(__file__).with_name("other_writer.py")
VECTOR_ONLY = SearchOptions(channels=("vector",), max_results=20)
N_ABSTRACTS = 90


def abstracts(shared_data: Path, n: int) -> list[tuple[str, str]]:
    """(id, title + text) of the first n SciFact abstracts."""
    out = []
    with (shared_data / "retrieval" / "scifact_beir" / "corpus.jsonl").open() as fh:
        for line in fh:
            d = json.loads(line)
            out.append((d["_id"], (d.get("title", "") + "\n\n" + d["text"]).strip()))
            if len(out) == n:
                break
    return out


@pytest.fixture(scope="module")
def scifact_index(
    tmp_path_factory: pytest.TempPathFactory, shared_data: Path, embedder: Embedder
) -> Iterator[IndexStore]:
    """A real index of SciFact abstracts, split over two namespaces (built once per module)."""
    path = tmp_path_factory.mktemp("scifact") / "index.sqlite3"
    with IndexStore.open_path(path, embedder=embedder) as store:
        for i, (doc_id, text) in enumerate(abstracts(shared_data, N_ABSTRACTS)):
            ns = "shop" if i % 3 else "lab"
            store.replace_source(SourceDocument(doc_id, ns, doc_id, (DocumentSlice(text=text),)))
        yield store


QUERIES = [
    "0-dimensional biomaterials show inductive properties",
    "vitamin D deficiency increases the risk of fractures",
    "stem cell transplantation lowers rejection rates",
    "ALDH1 expression is associated with poorer prognosis in breast cancer",
    "antibiotics do not shorten the course of bronchitis",
    "mutations in the gene cause neuronal loss",
]


def test_in_memory_top_k_equals_sqlite_vec_knn(scifact_index: IndexStore) -> None:
    store = scifact_index
    for ns in ("shop", "lab"):
        matrix = store.vectors.matrix(ns)
        assert matrix is not None and len(matrix.ids) >= 25
        for q in QUERIES:
            vector = store.embedder.embed_query(q)
            mine = matrix.top_k(vector, 20)
            theirs = sqlite_vec_knn(store, vector, ns, 20)
            assert [i for i, _ in mine] == [i for i, _ in theirs], q
            assert [s for _, s in mine] == pytest.approx([s for _, s in theirs], abs=1e-5)


def test_search_results_are_the_same_with_and_without_the_matrix(
    scifact_index: IndexStore,
) -> None:
    store = scifact_index
    for q in QUERIES:
        fast = [(h.id, round(h.score, 6)) for h in search(store, q, ["shop"])]
        store.vectors.max_bytes, saved = 0, store.vectors.max_bytes
        try:
            slow = [(h.id, round(h.score, 6)) for h in search(store, q, ["shop"])]
        finally:
            store.vectors.max_bytes = saved
        assert fast == slow, q


def test_a_namespace_too_large_for_the_cache_uses_sqlite_vec(
    tmp_path: Path, embedder: Embedder
) -> None:
    with IndexStore.open_path(tmp_path / "i.sqlite3", embedder=embedder) as store:
        texts = [f"hydraulic pump note {i}" for i in range(6)]
        store.replace_source(
            SourceDocument("a.md", "shop", "h", tuple(DocumentSlice(text=t) for t in texts))
        )
        store.vectors.max_bytes = 5 * (store.codec.dimensions * 4 + 8)  # five rows, six exist
        assert store.vectors.matrix("shop") is None
        hits = search(store, "hydraulic pump", ["shop"], options=VECTOR_ONLY)
        assert len(hits) == 6
        assert store.vectors.held_bytes() == 0


def _note(store: IndexStore, source: str, text: str, namespace: str = "shop") -> None:
    store.replace_source(
        SourceDocument(source, namespace, f"h-{text}", (DocumentSlice(text=text),))
    )


def _sources(store: IndexStore, query: str, namespace: str = "shop") -> list[str]:
    hits = search(store, query, [namespace], include_global=False, options=VECTOR_ONLY)
    return [h.source for h in hits]


def test_writes_through_the_same_store_are_seen_at_once(tmp_path: Path, embedder: Embedder) -> None:
    with IndexStore.open_path(tmp_path / "i.sqlite3", embedder=embedder) as store:
        _note(store, "pump.md", "Bleed the hydraulic pump before the first start.")
        assert _sources(store, "hydraulic pump") == ["pump.md"]
        assert store.vectors.loads == 1
        _note(store, "seal.md", "The rear cylinder takes seal kit QX-7731-B.")
        assert sorted(_sources(store, "cylinder seal kit")) == ["pump.md", "seal.md"]
        assert store.vectors.loads == 2
        store.delete_source("shop", "pump.md")
        assert _sources(store, "hydraulic pump") == ["seal.md"]
        # A write in another namespace leaves this namespace's copy in place.
        _note(store, "other.md", "Lab centrifuge speed settings.", namespace="lab")
        loads = store.vectors.loads
        assert _sources(store, "seal") == ["seal.md"]
        assert store.vectors.loads == loads


def test_writes_through_another_connection_are_seen(tmp_path: Path, embedder: Embedder) -> None:
    path = tmp_path / "i.sqlite3"
    with (
        IndexStore.open_path(path, embedder=embedder) as reader,
        IndexStore.open_path(path, embedder=embedder) as writer,
    ):
        _note(writer, "pump.md", "Bleed the hydraulic pump before the first start.")
        assert _sources(reader, "hydraulic pump") == ["pump.md"]
        _note(writer, "pump.md", "Grease the gearbox bearings every month.")
        hits = search(
            reader, "gearbox bearings grease", ["shop"], include_global=False, options=VECTOR_ONLY
        )
        assert [h.text for h in hits] == ["Grease the gearbox bearings every month."]
        # SQLite reuses the freed slice id, so the id alone cannot tell a stale copy: the score
        # must be the new vector's, as sqlite-vec computes it from the committed rows.
        vector = reader.embedder.embed_query("gearbox bearings grease")
        knn = sqlite_vec_knn(reader, vector, "shop", 5)
        assert [(h.id, round(h.vector.raw or 0, 5)) for h in hits] == [
            (i, round(s, 5)) for i, s in knn
        ]
        writer.delete_source("shop", "pump.md")
        assert _sources(reader, "gearbox bearings") == []


def _other_process(*args: str) -> None:
    out = subprocess.run(
        [sys.executable, str(WRITER), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        check=True,
    )
    assert out.stdout.strip() == "done"


def test_writes_by_another_process_are_seen(tmp_path: Path, embedder: Embedder) -> None:
    """The CLI indexing while the service runs: the service's warm copy must not go stale."""
    path = tmp_path / "i.sqlite3"
    with IndexStore.open_path(path, embedder=embedder) as store:
        _note(store, "pump.md", "Bleed the hydraulic pump before the first start.")
        assert _sources(store, "torque bracket bolts") == ["pump.md"]
        _other_process(str(path), "replace", "shop", "bolts.md", "Torque the M8 bracket bolts.")
        assert _sources(store, "torque bracket bolts")[0] == "bolts.md"
        _other_process(str(path), "delete", "shop", "pump.md")
        assert _sources(store, "torque bracket bolts") == ["bolts.md"]
        assert store.integrity_check() == "ok"


def test_namespaces_with_dash_and_underscore_stay_apart(store: IndexStore) -> None:
    _note(store, "a.md", "bracket torque A-1024 for the first line", namespace="line-a")
    _note(store, "b.md", "bracket torque A-1024 for the second line", namespace="line_a")
    _note(store, "c.md", "bracket torque A-1024 for the third line", namespace="line")
    only_keyword = SearchOptions(channels=("keyword",))
    for ns, source in (("line-a", "a.md"), ("line_a", "b.md"), ("line", "c.md")):
        for query in ("bracket torque", "A-1024"):
            hits = search(store, query, [ns], include_global=False, options=only_keyword)
            assert [h.source for h in hits] == [source], (ns, query)


def test_budgeted_keyword_result_is_the_full_one_when_proven(scifact_index: IndexStore) -> None:
    """Whenever the BM25 bound proves it, the budgeted ranking equals scoring every row.

    The budget is FTS5's path while a query's words are not in memory yet: the in-memory shares
    are switched off here so FTS5 ranks every query.
    """
    store = scifact_index
    store.phrases.max_bytes, saved = 0, store.phrases.max_bytes
    try:
        _check_budget(store)
    finally:
        store.phrases.max_bytes = saved


def _check_budget(store: IndexStore) -> None:
    pruned = proven = 0
    for q in QUERIES:
        for ns in (["shop"], ["shop", "lab"]):
            full = ranked(store, WORDS, words_phrases(q), ns, 10)
            # 40 rows: between "every query pruned and proven" and "nothing pruned" on these
            # abstracts, stored as parts the embedder reads whole.
            cheap = ranked(store, WORDS, words_phrases(q), ns, 10, budget_rows=40)
            assert full.exact
            pruned += cheap.pruned
            proven += cheap.pruned and cheap.exact
            if cheap.exact:
                assert [round(s, 9) for _, s in cheap.rows] == [round(s, 9) for _, s in full.rows]
            else:
                # Not proven: still real BM25 scores of the full query, just possibly not all.
                full_scores = {
                    i: round(s, 9) for i, s in ranked(store, WORDS, words_phrases(q), ns, 200).rows
                }
                assert all(full_scores.get(i) == round(s, 9) for i, s in cheap.rows)
    # Both cases happened: pruned and proven equal, pruned and only re-ranked.
    assert pruned > proven > 0


def test_trigram_channel_is_scoped_inside_fts5(store: IndexStore) -> None:
    _note(store, "a.md", "Robot joint UR10_29.20 calibration", namespace="cell-1")
    _note(store, "b.md", "Robot joint UR10_29.20 spare", namespace="cell-2")
    hits = ranked(store, TRIGRAMS, trigram_phrases("UR10_29.20"), ["cell-2"], 10)
    assert [store.get_slice(i).source for i, _ in hits.rows] == ["b.md"]


def test_an_index_of_the_previous_schema_is_migrated_without_loss(
    tmp_path: Path, embedder: Embedder
) -> None:
    """m003 rebuilds both keyword indexes from the slices: every indexed text stays findable."""
    path = tmp_path / "old.sqlite3"
    db = dbmod.connect(path)
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    meta = {
        "embedding_model": embedder.name,
        "dimensions": str(embedder.dimensions),
        "vector_type": "float32",
    }
    db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    for name, migration in MIGRATIONS[:2]:
        migration(db, meta)
        db.execute("INSERT INTO migrations VALUES (?, 0)", (name,))
    texts = {"shop": "Torque the M8 bracket bolts to 25 Nm.", "lab": "Centrifuge at 3000 rpm."}
    for i, (ns, text) in enumerate(texts.items(), 1):
        db.execute(
            "INSERT INTO sources (id, namespace, source, content_hash, indexed_at)"
            " VALUES (?, ?, ?, 'h', 0)",
            (i, ns, f"{ns}.md"),
        )
        db.execute(
            "INSERT INTO slices (id, source_id, namespace, ord, text, kind, content_hash)"
            " VALUES (?, ?, ?, 0, ?, 'prose', 'h')",
            (i, i, ns, text),
        )
        db.execute(
            "INSERT INTO slice_vectors (slice_id, namespace, embedding) VALUES (?, ?, ?)",
            (i, ns, embedder.embed_passages([text])[0].tobytes()),
        )
    db.close()
    with IndexStore.open_path(path, embedder=embedder) as store:
        assert store.integrity_check() == "ok"
        for ns, text in texts.items():
            for options in (SearchOptions(channels=("keyword",)), VECTOR_ONLY):
                hits = search(store, text, [ns], include_global=False, options=options)
                assert [h.text for h in hits] == [text], (ns, options.channels)
        generations = dict(store.db.execute("SELECT * FROM namespace_generations").fetchall())
        assert generations == {"shop": 1, "lab": 1}


def test_a_second_connection_in_the_process_keeps_the_first_ones_view_fresh(
    tmp_path: Path, embedder: Embedder
) -> None:
    """Opening the file again in this process must not drop the first connection's locks.

    (It did when the header was read with Python's open(): closing that descriptor released every
    POSIX lock the process held on the file, another process then reset the WAL, and the first
    connection kept reading an old snapshot.)
    """
    path = tmp_path / "i.sqlite3"
    with IndexStore.open_path(path, embedder=embedder) as store:
        _note(store, "pump.md", "Bleed the hydraulic pump before the first start.")
        second = dbmod.connect(path, read_only=True)
        try:
            for i in range(3):
                _other_process(str(path), "replace", "shop", f"n{i}.md", f"Torque note {i}.")
                count = store.db.execute("SELECT count(*) FROM slices").fetchone()[0]
                assert count == 2 + i
        finally:
            second.close()


def test_int8_first_pass_ranks_like_the_full_product(
    scifact_index: IndexStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The int8 pass's bound holds for every row, and its top k is the float32 product's."""
    store = scifact_index
    plain = store.vectors.matrix("shop")
    assert plain is not None and plain.first_pass is None
    monkeypatch.setattr(matrix_module, "INT8_MIN_ROWS", 10)
    store.vectors.clear()
    try:
        staged = store.vectors.matrix("shop")
        assert staged is not None and staged.first_pass is not None
        pruned_any = False
        for q in QUERIES:
            vector = store.embedder.embed_query(q)
            approx, bound = staged.first_pass.scores(vector)
            exact = staged.vectors @ vector
            assert np.all(np.abs(exact - approx) <= bound + 1e-6), q
            pruned_any |= len(staged.candidates(vector, 5)) < len(staged.ids)
            mine, theirs = staged.top_k(vector, 5), plain.top_k(vector, 5)
            assert [i for i, _ in mine] == [i for i, _ in theirs], q
            assert [s for _, s in mine] == pytest.approx([s for _, s in theirs], abs=1e-6)
        assert pruned_any  # the bound ruled rows out, so the rescoring path ran
    finally:
        store.vectors.clear()
