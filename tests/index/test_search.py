"""Hybrid search: fusion, the keyword-only hit, identifiers, Chinese, namespace isolation."""

from __future__ import annotations

import itertools

from appliance.document import DocumentSlice, SourceDocument
from appliance.index.keyword import trigram_query, words_query
from appliance.index.search import SearchOptions, search
from appliance.index.store import IndexStore

NOTES = [
    "Torque the M8 bolts on the mounting bracket to 25 newton metres.",
    "The hydraulic pump must be bled before the first start.",
    "Use thread locker on all fasteners of the gearbox housing.",
    "Replacement seal kit QX-7731-B fits the rear cylinder.",
    "Surface finish of the shaft is Ra 0.8 after grinding.",
]


def index_notes(store: IndexStore, namespace: str = "shop") -> None:
    for i, text in enumerate(NOTES):
        store.replace_source(
            SourceDocument(f"note{i}.md", namespace, f"h{i}", (DocumentSlice(text=text),))
        )


def test_semantic_question_finds_the_torque_note(store: IndexStore) -> None:
    index_notes(store)
    hits = search(store, "how tight should the bracket bolts be?", ["shop"])
    assert hits[0].source == "note0.md"
    assert hits[0].vector.rank == 1


def test_keyword_only_hit_survives_min_score(store: IndexStore) -> None:
    """An exact part number no embedding knows must not be dropped by min_score (OpenClaw's bug)."""
    index_notes(store)
    for fusion in ("rrf", "weighted"):
        opts = SearchOptions(fusion=fusion, min_score=0.4, channels=("vector", "keyword"))
        hits = search(store, "QX-7731-B", ["shop"], options=opts)
        assert hits, fusion
        top = hits[0]
        assert top.source == "note3.md", fusion
        assert top.keyword.rank == 1 and top.score >= 0.4
        # The keyword channel decided it: the exact match scores the channel's maximum.
        assert top.keyword.normalized == 1.0


def test_identifier_matches_through_trigrams(store: IndexStore) -> None:
    store.replace_source(
        SourceDocument(
            "ur.md", "shop", "u", (DocumentSlice(text="Robot arm joint UR10_29.20 calibration"),)
        )
    )
    index_notes(store)
    hits = search(store, "UR10_29.20", ["shop"], options=SearchOptions(channels=("keyword",)))
    assert [h.source for h in hits] == ["ur.md"]


def test_chinese_text_is_found(store: IndexStore) -> None:
    store.replace_source(
        SourceDocument(
            "zh.md", "shop", "z", (DocumentSlice(text="安装支架的螺栓扭矩为二十五牛米。"),)
        )
    )
    index_notes(store)
    hits = search(
        store, "支架螺栓扭矩是多少", ["shop"], options=SearchOptions(channels=("keyword",))
    )
    assert hits and hits[0].source == "zh.md"


def test_namespaces_are_isolated_but_global_is_always_searched(store: IndexStore) -> None:
    index_notes(store, "shop")
    store.replace_source(
        SourceDocument(
            "lab.md", "lab", "l", (DocumentSlice(text="Solder the M8 connector at 350 C."),)
        )
    )
    store.replace_source(
        SourceDocument(
            "safety.md",
            "global",
            "g",
            (DocumentSlice(text="Wear eye protection near M8 grinders."),),
        )
    )
    hits = search(store, "M8", ["lab"], options=SearchOptions(max_results=20))
    assert {h.namespace for h in hits} == {"lab", "global"}
    hits = search(store, "M8", ["lab"], include_global=False, options=SearchOptions(max_results=20))
    assert {h.namespace for h in hits} == {"lab"}


def test_explain_names_the_channels(store: IndexStore) -> None:
    index_notes(store)
    hit = search(store, "gearbox thread locker", ["shop"], explain=True)[0]
    data = hit.to_json(explain=True)
    assert data["explain"]["vector"]["rank"] == 1 and data["explain"]["keyword"]["rank"] == 1
    assert "both channels" in data["explain"]["why"]


def test_recency_prefers_the_newer_of_equal_notes(store: IndexStore) -> None:
    import time

    old, new = time.time() - 200 * 86400, time.time()
    for name, mtime in (("old.md", old), ("new.md", new)):
        store.replace_source(
            SourceDocument(
                name, "shop", name, (DocumentSlice(text="Bracket torque is 25 N m"),), mtime=mtime
            )
        )
    hits = search(store, "bracket torque", ["shop"], options=SearchOptions(recency_weight=0.5))
    assert hits[0].source == "new.md" and hits[0].recency > hits[1].recency


def test_superseded_revisions_are_hidden_unless_asked(store: IndexStore) -> None:
    for rev, digest in (("B", "1"), ("C", "2")):
        store.replace_source(
            SourceDocument(
                f"a1024-{rev}.png",
                "shop",
                digest,
                (
                    DocumentSlice(
                        text=f"A-1024 torque {rev}", drawing_number="A-1024", revision=rev
                    ),
                ),
            )
        )
    current = search(store, "A-1024 torque", ["shop"])
    assert [h.revision for h in current] == ["C"]
    both = search(store, "A-1024 torque", ["shop"], options=SearchOptions(current_only=False))
    assert sorted(h.revision for h in both) == ["B", "C"]


def test_query_builders_defuse_fts_syntax() -> None:
    assert words_query('bolts" OR NEAR(x') == '"bolts" OR "near" OR "x"'
    assert trigram_query("drawing A-1024 rev") == '"A-1024"'
    assert words_query("the what") == ""


def test_quantised_vectors_are_rescored_to_the_same_ranking(tmp_path, embedder) -> None:  # type: ignore[no-untyped-def]
    """int8 and bit first passes, rescored from full vectors, rank like exact float32 search."""
    rankings = {}
    # vector_cache_mb=0: sqlite-vec's KNN and its rescoring; 64: the in-memory exact top-k.
    for vtype, cache_mb in itertools.product(("float32", "int8", "bit"), (0, 64)):
        with IndexStore.open_path(
            tmp_path / f"{vtype}-{cache_mb}.sqlite3",
            embedder=embedder,
            vector_type=vtype,
            vector_cache_mb=cache_mb,
        ) as st:
            index_notes(st)
            hits = search(
                st,
                "how tight should the bracket bolts be?",
                ["shop"],
                options=SearchOptions(channels=("vector",)),
            )
            rankings[vtype, cache_mb] = [(h.source, round(h.vector.raw or 0, 4)) for h in hits]
            assert (st.vectors.loads > 0) == (cache_mb > 0)
            assert st.integrity_check() == "ok"
            st.delete_source("shop", "note0.md")
            assert st.integrity_check() == "ok"
    assert len(set(map(tuple, rankings.values()))) == 1, rankings


def test_keyword_channel_finds_a_small_namespace_among_many_matches(store: IndexStore) -> None:
    """Hundreds of better matches elsewhere must not hide the one match inside the scope."""
    busy = tuple(DocumentSlice(text=f"bracket bracket bracket part {i}") for i in range(450))
    store.replace_source(SourceDocument("busy.md", "shop", "b", busy))
    store.replace_source(
        SourceDocument(
            "lab.md",
            "lab",
            "l",
            (
                DocumentSlice(
                    text="a long note that mentions the bracket once among many other words"
                ),
            ),
        )
    )
    hits = search(
        store,
        "bracket",
        ["lab"],
        include_global=False,
        options=SearchOptions(channels=("keyword",)),
    )
    assert [h.source for h in hits] == ["lab.md"]
