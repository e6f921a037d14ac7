"""The namespaces the rooms file is checked against come from the index, asked through its API."""

from __future__ import annotations

from appliance.config import Config
from appliance.document import DocumentSlice, SourceDocument
from appliance.index.store import IndexStore
from appliance.presence.monitor import indexed_namespaces


def test_no_index_yet_leaves_namespaces_unchecked(config: Config) -> None:
    assert indexed_namespaces(config) is None


def test_a_file_that_is_no_index_leaves_namespaces_unchecked(config: Config) -> None:
    path = config.data_path(config.index.db_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database at all " * 64)
    assert indexed_namespaces(config) is None


def test_the_index_namespaces_and_global(config: Config, store: IndexStore) -> None:
    assert indexed_namespaces(config) == ["global"]
    store.replace_source(
        SourceDocument(
            source="a.md",
            namespace="machine-shop",
            content_hash="h1",
            slices=(DocumentSlice(text="bracket"),),
        )
    )
    assert indexed_namespaces(config) == ["global", "machine-shop"] == store.namespaces()
