"""The store: atomic replacement, skipping unchanged sources, forgetting, revisions."""

from __future__ import annotations

import pytest

from appliance.document import DocumentSlice, SliceKind, SourceDocument
from appliance.errors import IndexStoreError
from appliance.index.store import IndexStore


def doc(
    source: str, texts: list[str], *, namespace: str = "shop", digest: str = "h1", **kw
) -> SourceDocument:
    return SourceDocument(
        source=source,
        namespace=namespace,
        content_hash=digest,
        slices=tuple(DocumentSlice(text=t, **kw) for t in texts),
    )


def counts(store: IndexStore) -> tuple[int, int, int, int]:
    q = store.db.execute
    return (
        q("SELECT count(*) FROM slices").fetchone()[0],
        q("SELECT count(*) FROM slice_vectors").fetchone()[0],
        q("SELECT count(*) FROM slices_fts WHERE slices_fts MATCH 'bracket'").fetchone()[0],
        q("SELECT count(*) FROM sources").fetchone()[0],
    )


def test_replace_swaps_every_row_and_skips_unchanged(store: IndexStore) -> None:
    first = store.replace_source(doc("a.md", ["old bracket text", "second old bracket"]))
    assert (first.slices, first.skipped) == (2, False)
    assert store.replace_source(doc("a.md", ["old bracket text", "second old bracket"])).skipped
    store.replace_source(doc("a.md", ["new bracket text"], digest="h2"))
    assert counts(store) == (1, 1, 1, 1)
    assert [s.text for s in store.source_slices("shop", "a.md")] == ["new bracket text"]
    assert store.integrity_check() == "ok"


def test_delete_removes_every_trace(store: IndexStore) -> None:
    store.replace_source(doc("a.md", ["bracket one", "bracket two"]))
    store.replace_source(doc("b.md", ["bracket three"]))
    assert store.delete_source("shop", "a.md")
    assert counts(store) == (1, 1, 1, 1)
    assert not store.delete_source("shop", "a.md")
    tri = store.db.execute(
        "SELECT count(*) FROM slices_trigram WHERE slices_trigram MATCH '\"one\"'"
    )
    assert tri.fetchone()[0] == 0


def test_failed_replace_leaves_old_version(
    store: IndexStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.replace_source(doc("a.md", ["old bracket"]))

    def explode(*args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store, "_update_superseded", explode)
    with pytest.raises(RuntimeError):
        store.replace_source(
            doc("a.md", ["new bracket", "newer bracket"], drawing_number="A-1", digest="h2")
        )
    assert [s.text for s in store.source_slices("shop", "a.md")] == ["old bracket"]
    assert counts(store) == (1, 1, 1, 1)


def test_newer_revision_supersedes_older(store: IndexStore) -> None:
    store.replace_source(
        doc("rev-b.png", ["bracket B"], drawing_number="A-1024", revision="B", digest="1")
    )
    store.replace_source(
        doc("rev-c.png", ["bracket C"], drawing_number="A-1024", revision="C", digest="2")
    )
    states = {s.source: s.superseded for s in store.list_sources("shop")}
    assert states == {"rev-b.png": True, "rev-c.png": False}
    store.delete_source("shop", "rev-c.png")
    assert [s.superseded for s in store.list_sources("shop")] == [False]


def test_namespace_names_are_checked(store: IndexStore) -> None:
    with pytest.raises(IndexStoreError) as err:
        store.replace_source(doc("a.md", ["x"], namespace="../etc"))
    assert err.value.code == "namespace_invalid"


def test_slice_metadata_round_trips(store: IndexStore) -> None:
    from appliance.document import Box

    store.replace_source(
        doc(
            "d.png",
            ["DRAWING NO A-1024"],
            kind=SliceKind.TITLE_BLOCK,
            page=1,
            box=Box(1, 2, 3, 4),
            extra={"conf": 91},
        )
    )
    (sl,) = store.source_slices("shop", "d.png")
    assert (
        sl.kind is SliceKind.TITLE_BLOCK and sl.box == Box(1, 2, 3, 4) and sl.extra == {"conf": 91}
    )
    assert store.get_slice(sl.id).text == "DRAWING NO A-1024"


def test_model_mismatch_is_refused(config, embedder, store: IndexStore) -> None:  # type: ignore[no-untyped-def]
    store.close()
    with pytest.raises(IndexStoreError) as err:
        IndexStore.open_path(
            config.data_path("index.sqlite3"), embedder=embedder, vector_type="int8"
        )
    assert err.value.code == "index_model_mismatch"


def test_concurrent_first_opens_see_a_whole_index(tmp_path, embedder) -> None:  # type: ignore[no-untyped-def]
    """Two connections creating the same new index at once: both open it, neither sees half of it."""
    import threading

    path = tmp_path / "race.sqlite3"
    errors: list[BaseException] = []

    def open_and_close() -> None:
        try:
            IndexStore.open_path(path, embedder=embedder).close()
        except BaseException as err:  # collected and asserted below
            errors.append(err)

    for _ in range(5):
        path.unlink(missing_ok=True)
        threads = [threading.Thread(target=open_and_close) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
