"""Fixtures for index tests: one real embedder per session, a fresh store per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.config import Config, load_config
from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real development embedding model (all-MiniLM-L6-v2 int8), verified by checksum."""
    return Embedder.from_manifest("all-minilm-l6-v2-int8", Path("/nonexistent-models-dir"))


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """A configuration whose data directory is a fresh temporary folder."""
    return load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data")})


@pytest.fixture
def store(config: Config, embedder: Embedder) -> Iterator[IndexStore]:
    """A fresh index in the temporary data directory."""
    with IndexStore.open(config, embedder=embedder) as st:
        yield st
