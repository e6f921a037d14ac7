"""Shared fixtures: the real test data beside the repository, the real embedder, isolated indexes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.config import Config, load_config
from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore

REPO = Path(__file__).resolve().parents[1]
#: ../shared/data beside the checkout (CI lays a copy of shared/ there too).
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The public test data of ../shared/data; read from there, never copied into the repo."""
    if not SHARED_DATA.is_dir():
        pytest.fail(f"test data folder missing: {SHARED_DATA} (it must sit beside the checkout)")
    return SHARED_DATA


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    """A configuration file whose data directory is a fresh temporary folder; its models are the
    checkout's (``var/models``, where ``openclaw models install`` joins the answer model)."""
    path = tmp_path / "openclaw.toml"
    path.write_text(
        f'[paths]\ndata_dir = "{tmp_path / "data"}"\nmodels_dir = "{REPO / "var" / "models"}"\n',
        encoding="utf-8",
    )
    return path


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
