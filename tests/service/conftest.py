"""Fixtures for service tests: a real index library in a temporary data directory."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from appliance.config import Config
from appliance.events import EventBus
from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore
from appliance.service.indexer import IndexQueue
from appliance.service.library import IndexLibrary


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
