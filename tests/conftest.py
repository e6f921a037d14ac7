"""Shared fixtures: the real test data beside the repository, and isolated configurations."""

from __future__ import annotations

from pathlib import Path

import pytest

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
    """A configuration file whose data directory is a fresh temporary folder."""
    path = tmp_path / "openclaw.toml"
    path.write_text(f'[paths]\ndata_dir = "{tmp_path / "data"}"\n', encoding="utf-8")
    return path
