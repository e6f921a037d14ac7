"""Room levels and the memory of them (``levels.py``), on their own after the engine's split."""

from __future__ import annotations

import math

from appliance.presence.levels import LevelMemory, room_levels
from appliance.presence.records import BeaconReading
from appliance.presence.settings import PresenceSettings


def reading(
    beacon: str, room: str | None, proximity: float | None, *, silent: bool = False
) -> BeaconReading:
    return BeaconReading(
        beacon_id=beacon,
        room=room,
        rssi=None if proximity is None else -59.0 + proximity,
        raw_rssi=-60,
        proximity_db=proximity,
        distance_m=None,
        age_s=0.0,
        samples=1,
        silent=silent,
    )


def test_a_room_level_is_the_soft_maximum_of_its_heard_beacons() -> None:
    levels = room_levels(
        [
            reading("a1", "assembly", -10.0),
            reading("a2", "assembly", -10.0),
            reading("lab", "lab", -4.0),
            reading("gone", "lab", 20.0, silent=True),  # silent: no say, however strong
            reading("stranger", None, 30.0),  # no room
            reading("empty", "shop", None),  # window empty: the room is not heard
        ],
        temperature=3.0,
    )
    assert set(levels) == {"assembly", "lab"}
    # Two agreeing beacons add 3 ln 2 dB (about 2.1), not 3 dB as a power sum would.
    assert math.isclose(levels["assembly"].level_db, -10.0 + 3.0 * math.log(2.0))
    assert levels["lab"].level_db == -4.0 and levels["lab"].beacon.beacon_id == "lab"


def test_a_rise_is_over_the_high_end_of_the_earlier_levels_and_a_fall_under_the_median() -> None:
    settings = PresenceSettings()
    memory = LevelMemory(settings)
    t = 0.0
    # Two minutes at -20 dB with one 8-dB dip (a body): the dip is no reference for a rise.
    while t < 120.0:
        level = -28.0 if 40.0 <= t < 50.0 else -20.0
        memory.remember(room_levels([reading("b", "lab", level)], 3.0), t)
        t += 0.5
    memory.remember(room_levels([reading("b", "lab", -12.0)], 3.0), t)
    assert memory.rise("lab", t, started=-1000.0) == 8.0
    assert memory.fall("lab") == -8.0
    # A room never heard is a move towards it if it turns up; one not in memory has no fall.
    assert memory.rise("shop", t, started=-1000.0) == math.inf
    assert memory.fall("shop") == math.inf
