"""Switching namespaces against a real index (SQLite + sqlite-vec + FTS5, real ONNX embedder)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from appliance.config import load_config
from appliance.document import DocumentSlice, SourceDocument
from appliance.errors import IndexStoreError
from appliance.events import EventBus
from appliance.index.store import IndexStore
from appliance.presence.activator import NamespaceActivator
from appliance.presence.monitor import PresenceMonitor
from appliance.presence.rooms import RoomsPlan
from appliance.presence.settings import PresenceSettings
from tests.presence.presence_radio import scripted, wait_for

NOTES = {
    "shop": ["The lathe chuck key hangs on the left.", "M8 bracket bolts take 25 Nm of torque."],
    "electronics": ["The soldering station runs at 350 degrees.", "ESD mats are grounded."],
}


@pytest.fixture
def store(tmp_path: Path, embedder):  # type: ignore[no-untyped-def]
    config = load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data")})
    with IndexStore.open(config, embedder=embedder) as st:
        for namespace, texts in NOTES.items():
            slices = tuple(DocumentSlice(text=t) for t in texts)
            st.replace_source(SourceDocument(f"{namespace}.md", namespace, namespace * 8, slices))
        yield st


def test_activation_warms_the_new_and_releases_the_old(store: IndexStore) -> None:
    activator = NamespaceActivator(store, warm_query="torque of the bracket bolts")
    assert activator.active == ("global",)
    first = activator.activate(["shop"])
    assert first.namespaces == ("global", "shop")
    assert first.warmed == ("shop",) and first.released == ()
    assert first.warm_hits >= 1 and first.error is None
    second = activator.activate(["electronics"])
    assert second.warmed == ("electronics",) and second.released == ("shop",)
    assert activator.active == ("global", "electronics")
    # Going back to "no room" releases the room and keeps global.
    third = activator.activate([])
    assert third.namespaces == ("global",) and third.released == ("electronics",)
    assert third.warmed == () and third.warm_hits == 0
    assert activator.last is third
    assert third.to_json()["released"] == ["electronics"]


def test_a_broken_index_does_not_pin_the_old_room(store: IndexStore) -> None:
    def failing_search(*args: object, **kwargs: object) -> list[object]:
        raise IndexStoreError(
            "index database cannot be used (disk I/O error)", code="index_corrupt"
        )

    activator = NamespaceActivator(store, search=failing_search)
    result = activator.activate(["shop"])
    assert result.namespaces == ("global", "shop")
    assert result.error is not None and "disk I/O" in result.error
    assert activator.active == ("global", "shop")


def test_prewarming_searches_every_room_once_and_keeps_the_active_set(store: IndexStore) -> None:
    activator = NamespaceActivator(store, warm_query="torque of the bracket bolts")
    activator.activate(["shop"])
    result = activator.prewarm(["shop", "electronics"])
    assert result.warmed == ("global", "shop", "electronics")
    assert result.namespaces == ("global", "shop") == activator.active  # no switch
    assert result.released == () and result.error is None
    assert result.warm_hits >= 2  # the shop's bolts and at least one electronics note
    assert activator.activate(["electronics"]).warmed == ("electronics",)


def test_prewarming_a_broken_index_records_every_failure(store: IndexStore) -> None:
    def failing_search(*args: object, **kwargs: object) -> list[object]:
        raise IndexStoreError(
            "index database cannot be used (disk I/O error)", code="index_corrupt"
        )

    activator = NamespaceActivator(store, search=failing_search)
    result = activator.prewarm(["shop"])
    assert result.error is not None
    assert result.error.count("disk I/O") == 2 and "shop:" in result.error
    assert activator.active == ("global",)


async def test_a_manual_switch_without_a_radio_switches_the_index(
    store: IndexStore, sample_plan: RoomsPlan
) -> None:
    activator = NamespaceActivator(store, warm_query="bolts")
    no_radio = scripted(fail_starts=10**6)
    monitor = PresenceMonitor(
        sample_plan,
        PresenceSettings(retry_initial_s=0.01, retry_max_s=0.02),
        bus=EventBus(),
        activate=activator.activate_async,
        backend=no_radio,  # type: ignore[arg-type]
    )
    task = asyncio.create_task(monitor.run())
    monitor.set_override("assembly", by="button")
    await wait_for(lambda: activator.last is not None)
    assert activator.active == ("global", "assembly", "shop")
    await monitor.stop()
    await task
    assert monitor.activations[-1].namespaces == ("global", "assembly", "shop")
    assert monitor.scanner.state.status == "stopped" and no_radio.attempts >= 1
