"""The trace backend through bleak's own BleakScanner, the trace format, and recording."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from bleak import BleakScanner
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData

from appliance.events import EventBus, EventType
from appliance.presence.errors import TraceError
from appliance.presence.monitor import PresenceMonitor
from appliance.presence.parsers import EDDYSTONE_SERVICE_UUID
from appliance.presence.rooms import RoomsPlan
from appliance.presence.scanner import BeaconScanner, ScannerStatus
from appliance.presence.settings import PresenceSettings
from appliance.presence.trace import (
    DEV_TRACE_NAME,
    TraceClock,
    TraceRecord,
    TraceScannerBackend,
    TraceStats,
    TraceWriter,
    package_data,
    read_trace,
    write_trace,
)
from tests.presence.presence_radio import SHOP_IBEACON, wait_for

EDDY_UID = bytes.fromhex("00e8edd1ebeac04e5defa0170badc0ffee010000")


def small_trace(tmp_path: Path) -> Path:
    records = [
        TraceRecord(0.0, "C3:00:00:00:00:01", -61, "shop-beacon", {0x004C: SHOP_IBEACON}),
        TraceRecord(0.4, "C3:00:00:00:00:02", -75, None, {}, {EDDYSTONE_SERVICE_UUID: EDDY_UID}),
        TraceRecord(
            0.9, "C3:00:00:00:00:01", -63, "shop-beacon", {0x004C: SHOP_IBEACON}, tx_power=4
        ),
    ]
    path = tmp_path / "small.jsonl"
    assert write_trace(path, records, source="test") == 3
    return path


async def test_bleak_scanner_delivers_the_trace(tmp_path: Path) -> None:
    seen: list[tuple[BLEDevice, AdvertisementData]] = []
    scanner = BleakScanner(
        lambda device, adv: seen.append((device, adv)),
        backend=TraceScannerBackend,
        trace=small_trace(tmp_path),
        speed=0,
    )
    assert scanner.backend_id == "TraceScannerBackend"
    async with scanner:
        await wait_for(lambda: len(seen) == 3)
        devices = scanner.discovered_devices_and_advertisement_data  # bleak's own bookkeeping
    device, adv = seen[0]
    assert isinstance(device, BLEDevice) and device.address == "C3:00:00:00:00:01"
    assert device.name == "shop-beacon"
    assert adv.manufacturer_data == {0x004C: SHOP_IBEACON} and adv.rssi == -61
    assert adv.platform_data == ("trace", 0.0)
    assert seen[1][1].service_data == {EDDYSTONE_SERVICE_UUID: EDDY_UID}
    assert seen[2][1].tx_power == 4
    assert set(devices) == {"C3:00:00:00:00:01", "C3:00:00:00:00:02"}
    assert devices["C3:00:00:00:00:01"][1].rssi == -63  # the latest advertisement


async def test_bleak_advertisement_stream_works_with_the_trace(tmp_path: Path) -> None:
    scanner = BleakScanner(backend=TraceScannerBackend, trace=small_trace(tmp_path), speed=0)
    rssis = []
    async with scanner:
        async for _device, adv in scanner.advertisement_data():
            rssis.append(adv.rssi)
            if len(rssis) == 3:
                break
    assert rssis == [-61, -75, -63]


def test_trace_lines_that_are_broken_are_counted_and_skipped(tmp_path: Path) -> None:
    good = json.dumps(TraceRecord(1.0, "AA", -60, None, {76: SHOP_IBEACON}).to_json())
    path = tmp_path / "broken.jsonl"
    path.write_bytes(
        b"\n".join(
            [
                b'{"openclaw_trace": 1}',
                good.encode(),
                b"not json at all",
                b"[1, 2, 3]",
                b'{"t": 2.0, "address": "AA"}',  # no rssi
                b'{"t": 2.0, "address": "AA", "rssi": -60, "manufacturer_data": {"76": "zz"}}',
                b'{"t": -5, "address": "AA", "rssi": -60}',
                b'{"t": 2.0, "address": "AA", "rssi": "loud"}',
                b'{"t": 2.0, "address": "' + b"A" * 5000 + b'", "rssi": -60}',
                b"\xff\xfe\x00\x01binary",
                b"",
                good.encode(),
            ]
        )
    )
    stats = TraceStats()
    records = list(read_trace(path, stats))
    assert len(records) == 2 and stats.records == 2
    assert stats.bad_lines == 8
    assert records[0].manufacturer_data == {76: SHOP_IBEACON}


def test_unusable_traces_raise_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match=r"trace missing\.jsonl: cannot be opened"):
        list(read_trace(tmp_path / "missing.jsonl"))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("garbage\n{}\n", encoding="utf-8")
    with pytest.raises(TraceError, match="no readable advertisement") as caught:
        list(read_trace(empty))
    assert caught.value.code == "trace_invalid"
    assert str(tmp_path) not in caught.value.message


async def test_recording_what_the_scanner_hears_round_trips(tmp_path: Path) -> None:
    source = small_trace(tmp_path)
    out = tmp_path / "recorded.jsonl"
    with out.open("w", encoding="utf-8") as handle:
        writer = TraceWriter(handle, source="test")
        scanner = BeaconScanner(
            lambda s: None,
            backend=TraceScannerBackend,
            backend_args={"trace": source, "speed": 0, "loop": False},
            on_advertisement=writer,
        )
        task = asyncio.create_task(scanner.run())
        await wait_for(lambda: scanner.state.status == ScannerStatus.FINISHED)
        await scanner.stop()
        await task
    assert writer.written == 3
    again = list(read_trace(out))
    original = list(read_trace(source))
    assert [(r.address, r.rssi, r.manufacturer_data, r.service_data) for r in again] == [
        (r.address, r.rssi, r.manufacturer_data, r.service_data) for r in original
    ]
    assert json.loads(out.read_text().splitlines()[0])["openclaw_trace"] == 1


async def test_development_trace_walks_through_the_rooms(sample_plan: RoomsPlan) -> None:
    bus = EventBus()
    queue = bus.subscribe_queue()
    activated: list[tuple[str, ...]] = []

    async def activate(namespaces: tuple[str, ...]) -> None:
        activated.append(namespaces)

    clock = TraceClock()
    monitor = PresenceMonitor(
        sample_plan,
        PresenceSettings(),
        bus=bus,
        activate=activate,
        backend=TraceScannerBackend,
        backend_args={
            "trace": package_data(DEV_TRACE_NAME),
            "speed": 0,
            "loop": False,
            "clock": clock,
        },
        clock=clock,
    )
    task = asyncio.create_task(monitor.run())
    await wait_for(lambda: monitor.scanner.state.status == ScannerStatus.FINISHED)
    await monitor.stop()
    await task
    rooms = [s.to_room for s in monitor.engine.history]
    assert rooms == ["machine-shop", "electronics-lab", "assembly", "machine-shop"]
    assert all(s.detail and s.reason in ("entered", "nearer") for s in monitor.engine.history)
    events = []
    while not queue.empty():
        events.append(queue.get_nowait())
    changed = [e for e in events if e.type == EventType.ROOM_CHANGED]
    assert [e.data["to_room"] for e in changed] == rooms
    assert changed[1].data["room_name"] == "Electronics lab"
    assert changed[2].data["namespaces"] == ["global", "assembly", "shop"]
    seen = [e for e in events if e.type == EventType.BEACONS_SEEN]
    assert len(seen) >= 10  # every 5 s of a ~6.5 min trace
    assert {b["room"] for b in seen[-1].data["beacons"]} == {
        "machine-shop",
        "electronics-lab",
        "assembly",
    }
    states = [e.data["status"] for e in events if e.type == EventType.COMPONENT_STATE]
    assert states[:2] == ["starting", "scanning"] and "finished" in states
    # The worker coalesces bursts, but the index always ends in the last room.
    assert activated and activated[-1] == ("global", "shop")
    assert set(activated) <= {s.namespaces for s in monitor.engine.history}
    parse = monitor.scanner.state.parse
    assert parse.malformed["ibeacon"] > 0 and parse.absurd_rssi > 0 and parse.not_beacons > 0
    for event in events:
        json.dumps(event.to_json())  # every event is JSON-loggable


async def test_looping_replay_keeps_the_clock_moving(tmp_path: Path) -> None:
    clock = TraceClock()
    seen: list[float] = []
    scanner = BleakScanner(
        lambda d, a: seen.append(clock()),
        backend=TraceScannerBackend,
        trace=small_trace(tmp_path),
        speed=0,
        loop=True,
        clock=clock,
    )
    async with scanner:
        await wait_for(lambda: len(seen) >= 9)
    assert seen == sorted(seen)
    assert seen[3] > seen[2]  # the second pass continues after the first, not from zero


async def test_real_time_replay_keeps_order_and_spacing(tmp_path: Path) -> None:
    seen: list[float] = []
    scanner = BleakScanner(
        lambda d, a: seen.append(a.platform_data[1]),
        backend=TraceScannerBackend,
        trace=small_trace(tmp_path),
        speed=20.0,  # 0.9 s of trace in ~45 ms
    )
    async with scanner:
        await wait_for(lambda: len(seen) == 3)
    assert seen == [0.0, 0.4, 0.9]
