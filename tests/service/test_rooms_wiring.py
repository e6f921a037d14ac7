"""Rooms in the running appliance: the presence part (replayed trace through bleak's machinery) switches
the room, the pipeline searches the room's namespaces, and a manual hold overrides the beacons."""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from pathlib import Path

from appliance.config import load_config
from appliance.events import EventBus
from appliance.presence.activator import Activation
from appliance.presence.trace import DEV_TRACE_NAME, package_data
from appliance.service.appliance import Appliance
from appliance.service.parts import (
    PresenceAdapter,
    ReaderStore,
    SharedEmbedder,
    Vocabulary,
    build_parts,
)
from tests.utterances import heard


async def test_presence_switches_rooms_and_a_manual_hold_wins(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(package_data("rooms.sample.toml"), data / "rooms.toml")
    assert package_data(DEV_TRACE_NAME).exists()
    base = load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(data)})
    config = dataclasses.replace(
        base,
        presence=dataclasses.replace(base.presence, backend="trace", trace_speed=0.0),
        answer=dataclasses.replace(base.answer, llm_model=""),
        web=dataclasses.replace(base.web, port=0),
    )
    bus = EventBus(queue_size=1024)
    appliance = Appliance(config, build_parts(config, bus), bus=bus)
    bus.bind(asyncio.get_running_loop())
    runner = asyncio.create_task(appliance.run())
    try:
        await appliance.started()
        for _ in range(
            600
        ):  # the replayed trace walks into a room (bounded wait, not a timing check)
            if appliance.rooms.room:
                break
            await asyncio.sleep(0.05)
        assert appliance.rooms.room, appliance.state.room
        for _ in range(600):  # the switch is announced on the speaker (espeak-ng into a WAV file)
            if any((data / "speech-out").glob("*.wav")):
                break
            await asyncio.sleep(0.05)
        assert any((data / "speech-out").glob("*.wav"))
        assert appliance.state.beacons
        assert appliance.rooms.namespaces[0] == "global" and len(appliance.rooms.namespaces) > 1

        held = await appliance.set_room("Electronics lab")
        assert held["name"] == "Electronics lab" and held["manual"]
        assert appliance.rooms.namespaces == ["global", "electronics"]
        assert appliance.rooms.memory_namespace() == "electronics"
        # The recogniser's vocabulary puts the room's drawings first, then global's.
        (follower,) = appliance.parts.room_followers
        assert list(follower.room_namespaces()) == ["electronics", "global"]
        record = await appliance.pipeline.handle(heard("which room"))
        assert record["answer"].startswith("Now in Electronics lab")
        # "switch to the machine shop" as whisper tiny.en may write it: the room is still found.
        record = await appliance.pipeline.handle(heard("switch to the machine chop"))
        assert record["answer"] == "Now in Machine shop.", record["answer"]
        assert appliance.rooms.namespaces == ["global", "shop"]
        # A room there is not: told so, with the rooms there are; the hold stays where it was.
        record = await appliance.pipeline.handle(heard("switch to the kitchen"))
        assert "error" not in record and "Electronics lab" in record["answer"], record
        assert appliance.rooms.namespaces == ["global", "shop"]
        await appliance.set_room("Electronics lab")
        presence = appliance.parts.presence
        assert isinstance(presence, PresenceAdapter)
        for _ in range(600):  # every room's namespaces are loaded once, beside the scanner
            if presence.prewarmed is not None:
                break
            await asyncio.sleep(0.05)
        assert isinstance(presence.prewarmed, Activation)
        assert set(presence.prewarmed.warmed) >= {"global", "electronics"}
        assert presence.prewarmed.error is None
        health = {h.name: h.status for h in appliance.supervisor.health()}
        assert health["presence"] == "running"
    finally:
        appliance.request_stop()
        await runner


def test_room_names_lead_the_recognisers_vocabulary(tmp_path: Path) -> None:
    config = load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path)})
    vocabulary = Vocabulary(ReaderStore(config, SharedEmbedder(config)))
    assert vocabulary() == []  # no rooms yet, and the index is not opened for it
    vocabulary.rooms = ["Electronics lab", "Machine shop"]
    assert vocabulary() == ["Electronics lab", "Machine shop"]


def test_service_rooms_take_the_configured_radius_and_name_empty_namespaces(
    tmp_path: Path,
    embedder,
    caplog,
) -> None:
    """The running appliance reads the rooms file as `openclaw rooms` does (the default radius),
    and logs a room's namespace the index holds nothing in instead of refusing it: captures made
    in a new room are what fill its namespace."""
    from appliance.document import DocumentSlice, SourceDocument
    from appliance.index.store import IndexStore

    data = tmp_path / "data"
    data.mkdir()
    base = load_config(
        environ={
            "OPENCLAW_PATHS__DATA_DIR": str(data),
            "OPENCLAW_PRESENCE__DEFAULT_RADIUS_M": "5.5",
        }
    )
    with IndexStore.open(base, embedder=embedder) as store:
        store.replace_source(
            SourceDocument("notes.md", "shop", "h1", (DocumentSlice(text="lathe speeds"),))
        )
    (data / "rooms.toml").write_text(
        '[rooms.shop]\nnamespaces = ["shop"]\n'
        '[rooms.lab]\nnamespaces = ["electronics"]\nradius_m = 2.0\n',
        encoding="utf-8",
    )
    config = dataclasses.replace(
        base,
        presence=dataclasses.replace(base.presence, backend="trace", trace_speed=0.0),
        answer=dataclasses.replace(base.answer, llm_model=""),
    )
    parts = build_parts(config, EventBus(queue_size=64))
    assert "presence" not in parts.disabled
    assert isinstance(parts.presence, PresenceAdapter)
    rooms = parts.presence.monitor.plan.rooms
    assert rooms["shop"].radius_m == 5.5 and rooms["lab"].radius_m == 2.0
    assert "room 'lab' names namespace(s) electronics that hold nothing yet" in caplog.text
    assert "room 'shop'" not in caplog.text
