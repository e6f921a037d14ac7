"""A room's beacons all falling while another room's beacon rises is a move (decision 0006, session
16, ``carried_fall_db`` / ``carried_rise_db``; off by default, these tests turn it on at 8 dB).

Both traces are the simulator's in the paired layout (two beacons in every room,
``data/rooms-paired.toml``):

``data/walk-paired-assembly-from-lab.jsonl`` (``bench/presence_fixture.py --seed 1015 --walk
--no-block --layout paired --duration 225``, tuning walk 1015's first 225 s): 90 s at the lab's
bench, then carried into the assembly area (door at 191 s). Both lab beacons fall 8-16 dB, short
of the 16 dB the beacons' deep fall asks, while an assembly beacon rises; without this sign the
engine stands in the lab until a lead held for long switches it (29 s after the door).

``data/door-paired-lab-both-blocked.jsonl`` (``presence_fixture.py --seed 13 --layout paired
--beacon 0000000000a1 --beacon 0000000000a2 --block-from 150 --block-to 190 --duration 240``):
standing 0.4 m inside the lab's door, two people in front of the lab's two beacons at once for 40 s
(14 dB each). Both lab beacons fall as far as on the walk, but nothing reads stronger than lately.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from appliance.presence.engine import RoomEngine
from appliance.presence.settings import PresenceSettings
from tests.presence.test_standstill import replay

DATA = Path(__file__).parent / "data"
ROOMS = DATA / "rooms-paired.toml"
WALK = DATA / "walk-paired-assembly-from-lab.jsonl"
DOOR = DATA / "door-paired-lab-both-blocked.jsonl"
#: Where the walk crosses into the assembly area (``presence_sim.walk_path``).
ENTERED_ASSEMBLY_S = 191.0
SESSION_12 = PresenceSettings()
CARRIED = PresenceSettings(carried_fall_db=8.0)


def _lab_falls(engine: RoomEngine) -> list[float]:
    """dB each lab beacon reads under its median over the motion window."""
    return [
        trail.median() - trail[-1][1]
        for key, trail in engine.memory.beacons.items()
        if engine.plan.beacons[key].room == "electronics-lab"
    ]


def test_carried_from_the_lab_the_assembly_area_is_entered_within_ten_seconds() -> None:
    settings = CARRIED
    engine, switches = replay(settings, WALK, rooms=ROOMS)
    assert [s.to_room for s in switches] == ["machine-shop", "electronics-lab", "assembly"]
    entry = switches[-1]
    assert entry.moving is True
    assert ENTERED_ASSEMBLY_S < entry.at <= ENTERED_ASSEMBLY_S + 10.0
    assert engine.state.room == "assembly"


def test_the_sign_fires_on_a_fall_the_beacons_deep_fall_does_not_reach() -> None:
    settings = CARRIED
    engine, _ = replay(settings, WALK, rooms=ROOMS, until=ENTERED_ASSEMBLY_S + 4.0)
    assert engine.state.room == "electronics-lab"
    falls = _lab_falls(engine)
    assert len(falls) == 2
    assert settings.carried_fall_db <= min(falls) < settings.beacons_fall_db
    assert engine.moves.beacons_fell("electronics-lab", ENTERED_ASSEMBLY_S + 4.0)
    # The rise beside it is on a beacon of another room.
    assert engine.moves.other_beacon_rose("electronics-lab", ENTERED_ASSEMBLY_S + 4.0)
    assert engine.moves.deep_fall_until > ENTERED_ASSEMBLY_S


def test_off_by_default_the_engine_waits_for_a_held_lead() -> None:
    assert SESSION_12.carried_fall_db == 0.0
    _engine, switches = replay(SESSION_12, WALK, rooms=ROOMS)
    assert switches[-1].to_room == "assembly"
    assert switches[-1].at > ENTERED_ASSEMBLY_S + 20.0


def test_two_people_in_front_of_both_lab_beacons_move_nothing() -> None:
    settings = CARRIED
    engine, switches = replay(settings, DOOR, rooms=ROOMS)
    assert [s.to_room for s in switches] == ["electronics-lab"]
    assert engine.state.room == "electronics-lab"
    # The blockage was as deep as the walk's fall: the rule saw it and refused it.
    blocked, _ = replay(settings, DOOR, rooms=ROOMS, until=160.0)
    assert min(_lab_falls(blocked)) >= settings.carried_fall_db
    assert not blocked.moves.beacons_fell("electronics-lab", 160.0)


def test_without_the_rise_the_same_fall_would_switch() -> None:
    # What the rise condition is for: with any rise accepted, the two people switch the door.
    no_rise = dataclasses.replace(CARRIED, carried_rise_db=-99.0)
    _engine, switches = replay(no_rise, DOOR, rooms=ROOMS)
    assert [s.to_room for s in switches] == ["electronics-lab", "machine-shop"]
    assert 150.0 < switches[-1].at < 190.0
