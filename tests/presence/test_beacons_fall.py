"""Every beacon of a two-beacon room falling further than a body costs is a move (decision 0006,
session 10, ``beacons_fall_db``).

``data/walk-shop-after-assembly.jsonl`` is the simulator's (``bench/presence_fixture.py --seed 5
--walk --no-block --duration 335``, tuning walk 5's first 335 s, the channel's own random
blockages, drift and fading in it): 90 s at the assembly area's bench, then carried through the
lab (x 12 -> 6 m, 288-293 s) into the machine shop, whose one beacon reads no stronger at its bench
than it did from the assembly area. Both assembly beacons fall 16-22 dB within 2 s of the shop's
door; the room's level, their soft maximum, falls less (16-21 dB) and the room's deep fall (24 dB)
comes only ~30 s later. Revision 9 waited for it.

``data/assembly-one-beacon-blocked.jsonl`` (``presence_fixture.py --seed 3 --at 15,2.5 --beacon
7:1 --block-from 100 --block-to 250 --duration 300``): standing at the assembly area's bench, a
person in front of its press-corner beacon for 150 s (14 dB), with the channel's random
blockages on top (at 130 s one on the packing table's link too).
"""

from __future__ import annotations

from pathlib import Path

from appliance.presence.engine import RoomEngine
from appliance.presence.settings import PresenceSettings
from tests.presence.test_standstill import replay

DATA = Path(__file__).parent / "data"
WALK = DATA / "walk-shop-after-assembly.jsonl"
BLOCKED = DATA / "assembly-one-beacon-blocked.jsonl"
#: Where walk 5 crosses into the shop (``presence_sim.walk_path``).
ENTERED_SHOP_S = 293.0
ASSEMBLY_BEACONS = (
    "4c0f1b2e-5a6d-4e7f-8a9b-0c1d2e3f4a5b:7:1",
    "4c0f1b2e-5a6d-4e7f-8a9b-0c1d2e3f4a5b:7:2",
)
REVISION_9 = PresenceSettings(beacons_fall_db=0.0)


def _falls(engine: RoomEngine) -> dict[str, float]:
    """dB each assembly beacon reads under its median over the motion window."""
    return {
        key: trail.median() - trail[-1][1]
        for key, trail in engine.memory.beacons.items()
        if key.endswith(ASSEMBLY_BEACONS)
    }


def test_carried_out_of_the_assembly_area_the_shop_is_entered_within_ten_seconds() -> None:
    settings = PresenceSettings()
    assert settings.beacons_fall_db > 0.0  # on by default
    engine, switches = replay(settings, WALK)
    assert [s.to_room for s in switches] == [
        "machine-shop",
        "electronics-lab",
        "assembly",
        "electronics-lab",  # passed on the way, still the strongest for a moment
        "machine-shop",
    ]
    shop = switches[-1]
    assert shop.moving is True and shop.reason == "nearer"
    assert ENTERED_SHOP_S < shop.at <= ENTERED_SHOP_S + 10.0
    assert engine.state.room == "machine-shop"


def test_the_move_is_seen_on_the_beacons_before_the_room_level_shows_it() -> None:
    settings = PresenceSettings()
    engine, _ = replay(settings, WALK, until=ENTERED_SHOP_S + 2.0)
    assert engine.state.room == "assembly"
    falls = _falls(engine)
    assert len(falls) == 2 and min(falls.values()) >= settings.beacons_fall_db
    # The room's own level is not yet down by more than a body could take from it...
    assert engine.memory.fall("assembly") < settings.deep_fall_db
    # ...but the move is seen: the standstill is over and the lab (strongest) is moved to.
    assert engine.moves.deep_fall_until > ENTERED_SHOP_S
    assert "electronics-lab" in engine.state.moving


def test_revision_9_waits_for_the_room_level() -> None:
    _engine, switches = replay(REVISION_9, WALK)
    shop = switches[-1]
    assert shop.to_room == "machine-shop"
    assert shop.at - ENTERED_SHOP_S > 10.0  # 33.5 s: the room's deep fall, 24 dB
    before, _ = replay(REVISION_9, WALK, until=ENTERED_SHOP_S + 2.0)
    assert before.moves.deep_fall_until < 0.0


def test_a_person_in_front_of_one_of_the_two_beacons_is_no_move() -> None:
    settings = PresenceSettings()
    engine, _ = replay(settings, BLOCKED, until=110.0)
    falls = sorted(_falls(engine).values())
    assert falls[-1] >= 12.0 and falls[0] < 3.0  # one beacon blocked, the other as before
    engine, switches = replay(settings, BLOCKED)
    assert [s.to_room for s in switches] == ["assembly"]
    assert engine.moves.deep_fall_until < 0.0  # never taken for a move
