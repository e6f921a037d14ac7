"""Fixtures for service tests: a real index library in a temporary data directory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from appliance.config import Config, load_config
from appliance.events import EventBus
from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore
from appliance.service.indexer import IndexQueue
from appliance.service.library import IndexLibrary


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real development embedding model, verified by checksum."""
    return Embedder.from_manifest("all-minilm-l6-v2-int8", Path("/nonexistent-models-dir"))


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """A configuration whose data directory is a fresh temporary folder."""
    return load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data")})


@pytest_asyncio.fixture
async def queue(config: Config, embedder: Embedder) -> AsyncIterator[IndexQueue]:
    """A running index queue writing to a real index."""
    import asyncio

    bus = EventBus()
    bus.bind(asyncio.get_running_loop())

    def library() -> IndexLibrary:
        return IndexLibrary(config, IndexStore.open(config, embedder=embedder))

    q = IndexQueue(bus, library)
    task = asyncio.create_task(q.run())
    yield q
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await asyncio.to_thread(q.close)
