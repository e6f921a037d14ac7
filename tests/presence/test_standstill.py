"""Standing still, the current room counts at its usual level (decision 0006, revision 4).

The trace in ``data/door-two-people.jsonl`` is the simulator's (``bench/presence_fixture.py``,
tuning seed 17): the appliance stands 0.4 m inside the electronics lab's door and decides "machine
shop"; from 200 to 255 s two people, one after the other, stand between it and the shop's beacon
(14 dB). It is replayed through the product's scanner (frame parsers, sanity gate) and engine.
"""

from __future__ import annotations

from pathlib import Path

from bleak.backends.device import BLEDevice

from appliance.presence.engine import RoomEngine, RoomSwitch
from appliance.presence.rooms import load_rooms
from appliance.presence.scanner import BeaconScanner
from appliance.presence.settings import PresenceSettings
from appliance.presence.trace import SAMPLE_ROOMS_NAME, package_data, read_trace
from tests.presence.test_engine import LAB, SHOP, Drive

TRACE = Path(__file__).parent / "data" / "door-two-people.jsonl"
BLOCKED_FROM, BLOCKED_TO = 200.0, 255.0


def replay(settings: PresenceSettings) -> tuple[RoomEngine, list[RoomSwitch]]:
    """The trace through the scanner and the engine, evaluated every tick of trace time."""
    clock = [0.0]
    engine = RoomEngine(
        load_rooms(package_data(SAMPLE_ROOMS_NAME), known_namespaces=None),
        settings,
        clock=lambda: clock[0],
    )
    scanner = BeaconScanner(engine.observe, clock=lambda: clock[0])
    switches: list[RoomSwitch] = []
    tick = 0.0
    for record in read_trace(TRACE):
        while tick <= record.t:
            switch = engine.evaluate(tick)
            if switch is not None:
                switches.append(switch)
            tick += settings.tick_s
        clock[0] = record.t
        scanner.handle(BLEDevice(record.address, record.name, None), record.advertisement())
    return engine, switches


def test_two_people_in_front_of_the_current_beacon_at_a_door_do_not_switch() -> None:
    engine, switches = replay(PresenceSettings())
    assert [(s.to_room, s.reason) for s in switches] == [("machine-shop", "entered")]
    assert engine.state.room == "machine-shop"
    # Nothing moved: the engine stood still through the blockage and after it.
    assert engine.state.moving == []
    assert engine.state.still_since is not None and engine.state.still_since < BLOCKED_FROM


def test_against_the_level_now_the_same_trace_switches_by_a_held_lead() -> None:
    _, switches = replay(PresenceSettings(standstill_usual_level=False))
    assert [s.to_room for s in switches] == ["machine-shop", "electronics-lab"]
    flap = switches[1]
    assert BLOCKED_FROM < flap.at < BLOCKED_TO + 10.0
    assert flap.reason == "nearer" and flap.moving is False and "held lead" in flap.detail


def test_a_rival_that_rose_is_measured_against_the_current_room_as_it_reads() -> None:
    # The lab reads 5 dB over its usual level (under every move sign's threshold; the lasting
    # fall is off to isolate the rule) while the shop falls 10 dB: a person does not raise a
    # link, so the shop counts as it reads and the 16 dB lead switches after the standstill
    # hazard's ~46 s. Had the lab not counted as risen, its lead over the shop's usual level
    # would be 6 dB, the margin: no evidence at all.
    def drive(settings: PresenceSettings) -> Drive:
        d = Drive(settings, seed=8)
        d.run(60.0, {SHOP: -66, LAB: -73})
        d.run(180.0, {SHOP: -74, LAB: -73})
        assert d.rooms == ["shop"]
        d.run(70.0, {SHOP: -84, LAB: -68})
        return d

    rose = drive(PresenceSettings(lasting_fall_s=0.0))
    assert rose.rooms == ["shop", "lab"]
    assert rose.switches[1].moving is False and "held lead" in rose.switches[1].detail
    held = drive(PresenceSettings(lasting_fall_s=0.0, standstill_rise_db=10.0))
    assert held.rooms == ["shop"]
