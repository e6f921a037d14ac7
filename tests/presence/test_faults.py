"""Radio faults: no adapter, an adapter that vanishes mid-scan, hostile advertisements, floods."""

from __future__ import annotations

import asyncio
import random
import threading
import tracemalloc
from pathlib import Path

import pytest
from bleak.exc import BleakError

from appliance.errors import InputError
from appliance.events import EventBus, EventType
from appliance.presence.monitor import PresenceMonitor
from appliance.presence.rooms import RoomsPlan
from appliance.presence.scanner import BeaconScanner, ScannerStatus
from appliance.presence.settings import PresenceSettings
from appliance.presence.smoothing import Sighting
from appliance.presence.trace import TraceRecord, TraceScannerBackend, write_trace
from tests.presence.presence_radio import (
    SHOP_IBEACON,
    SHOP_ID,
    advert,
    dbus_not_ready,
    scripted,
    wait_for,
)

FAST = {"retry_initial_s": 0.01, "retry_max_s": 0.04}


async def test_no_adapter_starts_anyway_reports_and_retries(sample_plan: RoomsPlan) -> None:
    radio = scripted(fail_starts=4, bursts=[[("C3:00:00:00:00:01", advert(-60))] * 12])
    bus = EventBus()
    queue = bus.subscribe_queue()
    monitor = PresenceMonitor(
        sample_plan,
        PresenceSettings(**FAST),
        bus=bus,
        backend=radio,  # type: ignore[arg-type]
    )
    task = asyncio.create_task(monitor.run())
    await wait_for(lambda: monitor.scanner.state.failures >= 2)
    state = monitor.scanner.state
    assert state.status == ScannerStatus.NO_ADAPTER
    assert state.last_error == "Bluetooth not available (no bluetooth)"
    assert state.retry_in_s is not None and state.retry_in_s <= FAST["retry_max_s"]
    assert not task.done()  # the monitor keeps running without a radio
    # The adapter appears: scanning starts and the beacons are heard.
    await wait_for(lambda: monitor.scanner.state.status == ScannerStatus.SCANNING)
    await wait_for(lambda: monitor.scanner.state.parse.frames == 12)
    assert radio.attempts == 5 and monitor.scanner.state.failures == 0
    await monitor.stop()
    await task
    assert monitor.scanner.state.status == ScannerStatus.STOPPED
    states = []
    while not queue.empty():
        event = queue.get_nowait()
        if event.type == EventType.COMPONENT_STATE:
            states.append(event.data["status"])
    assert states[:3] == ["starting", "no-adapter", "starting"]
    assert "scanning" in states and states[-1] == "stopped"


async def test_retry_delay_backs_off_to_the_ceiling() -> None:
    radio = scripted(fail_starts=10**6)
    scanner = BeaconScanner(
        lambda s: None, backend=radio, retry_initial_s=0.001, retry_max_s=0.008, stall_timeout_s=0
    )
    delays: list[float | None] = []
    scanner.on_state = lambda st: delays.append(st.retry_in_s) if st.status != "starting" else None
    task = asyncio.create_task(scanner.run())
    await wait_for(lambda: len(delays) >= 6)
    await scanner.stop()
    await task
    assert delays[:6] == [0.001, 0.002, 0.004, 0.008, 0.008, 0.008]


async def test_adapter_vanishing_mid_scan_is_noticed_and_recovered(sample_plan: RoomsPlan) -> None:
    burst = [("C3:00:00:00:00:01", advert(-60))] * 5
    radio = scripted(bursts=[burst, burst], stop_error=dbus_not_ready)
    settings = PresenceSettings(**FAST, stall_timeout_s=0.1)
    monitor = PresenceMonitor(sample_plan, settings, backend=radio)  # type: ignore[arg-type]
    task = asyncio.create_task(monitor.run())
    await wait_for(lambda: monitor.scanner.state.parse.frames == 5)
    # The dongle is pulled: nothing more arrives, stop() fails, start() finds no adapter twice.
    radio.fail_starts = 2
    await wait_for(lambda: monitor.scanner.state.stall_restarts >= 1)
    await wait_for(lambda: radio.starts == 2)  # back after the two failed starts
    await wait_for(lambda: monitor.scanner.state.parse.frames == 10)
    state = monitor.scanner.state
    assert state.starts == 2 and radio.attempts >= 4
    await monitor.stop()
    await task  # a failing stop() of a vanished adapter does not escape


async def test_passive_scanning_falls_back_to_active() -> None:
    radio = scripted(
        fail_starts=1,
        start_error=lambda: BleakError("passive scanning on this adapter requires BlueZ >= 5.56"),
        bursts=[[("C3:00:00:00:00:01", advert(-60))]],
    )
    heard: list[Sighting] = []
    scanner = BeaconScanner(heard.append, backend=radio, scanning_mode="passive", stall_timeout_s=0)
    task = asyncio.create_task(scanner.run())
    await wait_for(lambda: len(heard) == 1)
    await scanner.stop()
    await task
    assert radio.modes == ["passive", "active"]
    assert scanner.state.mode == "active"
    assert "BlueZ" in (scanner.state.passive_fallback or "")
    assert heard[0].beacon_id == SHOP_ID


async def test_hostile_advertisements_are_counted_and_dropped() -> None:
    huge = bytes(random.Random(1).getrandbits(8) for _ in range(10_000))
    hostile = [
        advert(127),  # BlueZ's "unknown RSSI"
        advert(-300),
        advert(0),
        advert(50),
        advert(True),  # type: ignore[arg-type]
        advert(-60, {0x004C: b"\x10" + huge}),  # 10 kB of Apple "Nearby": not a beacon
        advert(-60, {0x004C: b"\x02\x15" + huge}),  # an iBeacon frame 10 kB long: malformed
        advert(-60, {0x004C: b""}),  # empty: not a beacon
        advert(-60, {}, service_data={"0000feaa-0000-1000-8000-00805f9b34fb": b"\x00" + huge}),
        advert(-60, {0x004C: SHOP_IBEACON}),  # one good one among them
    ]
    radio = scripted(bursts=[[(f"C3:00:00:00:00:{i:02X}", a) for i, a in enumerate(hostile)]])
    heard: list[Sighting] = []
    scanner = BeaconScanner(heard.append, backend=radio, stall_timeout_s=0)
    task = asyncio.create_task(scanner.run())
    await wait_for(lambda: scanner.state.parse.adverts == len(hostile))
    await scanner.stop()
    await task
    parse = scanner.state.parse
    assert parse.absurd_rssi == 5
    assert parse.malformed == {"ibeacon": 1, "eddystone-uid": 1}
    assert parse.not_beacons == 4  # adverts without a usable frame, malformed ones included
    assert [s.beacon_id for s in heard] == [SHOP_ID]
    assert scanner.state.status == ScannerStatus.STOPPED


async def test_a_crashing_consumer_does_not_stop_the_scan() -> None:
    burst = [("C3:00:00:00:00:01", advert(-60))] * 3
    radio = scripted(bursts=[burst])
    calls = []

    def explode(sighting: Sighting) -> None:
        calls.append(sighting)
        raise RuntimeError("consumer bug")

    scanner = BeaconScanner(explode, backend=radio, stall_timeout_s=0)
    task = asyncio.create_task(scanner.run())
    await wait_for(lambda: len(calls) == 3)
    await scanner.stop()
    await task
    assert scanner.state.parse.malformed["handler-error"] == 3


async def test_a_flood_of_random_addresses_keeps_memory_bounded(
    tmp_path: Path, sample_plan: RoomsPlan
) -> None:
    rng = random.Random(7)
    records = []
    for i in range(6000):
        ident = rng.getrandbits(128).to_bytes(16, "big")
        payload = b"\x02\x15" + ident + rng.getrandbits(32).to_bytes(4, "big") + b"\xc5"
        address = ":".join(f"{rng.getrandbits(8):02X}" for _ in range(6))
        records.append(
            TraceRecord(i * 0.01, address, rng.randint(-100, -40), None, {0x004C: payload})
        )
        if i % 20 == 0:
            records.append(
                TraceRecord(i * 0.01, "C3:00:00:00:00:01", -60, None, {0x004C: SHOP_IBEACON})
            )
    path = tmp_path / "flood.jsonl"
    write_trace(path, records)
    settings = PresenceSettings(max_tracked=128)
    monitor = PresenceMonitor(
        sample_plan,
        settings,
        backend=TraceScannerBackend,
        backend_args={"trace": path, "speed": 0, "loop": False},
    )
    tracemalloc.start()
    task = asyncio.create_task(monitor.run())
    await wait_for(lambda: monitor.scanner.state.parse.frames >= 3000)
    middle, _ = tracemalloc.get_traced_memory()
    await wait_for(lambda: monitor.scanner.state.status == ScannerStatus.FINISHED)
    end, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    await monitor.stop()
    await task
    # Twice the strangers heard, no more memory held: the growth is bounded, not proportional
    # (without the caps the second 3,000 strangers cost several MB).
    assert end - middle < 1_000_000, end - middle
    table = monitor.engine.table
    assert len(table.strangers) == 128
    assert table.evicted == 6000 - 128
    assert SHOP_ID in table.known
    snapshot = monitor.snapshot()
    assert len(snapshot["strangers"]) == 10 and snapshot["strangers_evicted"] == 6000 - 128


async def test_sightings_may_arrive_from_a_foreign_thread_via_the_loop(
    sample_plan: RoomsPlan,
) -> None:
    monitor = PresenceMonitor(sample_plan, PresenceSettings())
    loop = asyncio.get_running_loop()
    done = asyncio.Event()

    def radio_thread() -> None:
        for _ in range(10):
            sighting = Sighting(0.0, SHOP_ID, -60)
            loop.call_soon_threadsafe(monitor.on_sighting, sighting)
        loop.call_soon_threadsafe(done.set)

    threading.Thread(target=radio_thread).start()
    await done.wait()
    assert monitor.engine.table.known[SHOP_ID].count == 10


def test_unknown_room_override_is_a_clear_input_error(sample_plan: RoomsPlan) -> None:
    monitor = PresenceMonitor(sample_plan, PresenceSettings())
    with pytest.raises(InputError) as caught:
        monitor.set_override("kitchen")
    assert caught.value.code == "room_unknown"
    assert "Machine shop" in caught.value.message
    switch = monitor.set_override("electronics lab", by="voice")
    assert switch is not None and switch.to_room == "electronics-lab"
    assert monitor.snapshot()["override_active"] is True
    cleared = monitor.clear_override()
    assert cleared is not None and cleared.to_room is None


def test_quiet_strangers_are_forgotten_known_beacons_kept(sample_plan: RoomsPlan) -> None:
    now = [0.0]
    monitor = PresenceMonitor(sample_plan, PresenceSettings(), clock=lambda: now[0])
    monitor.on_sighting(Sighting(0.0, SHOP_ID, -60))
    stranger = "ibeacon:00000000-0000-4000-8000-000000000001:1:1"
    monitor.on_sighting(Sighting(0.0, stranger, -70))
    assert len(monitor.engine.table.strangers) == 1
    now[0] = 120.0
    monitor.tick()
    assert monitor.engine.table.strangers == {}
    assert SHOP_ID in monitor.engine.table.known
