"""A move during start-up ends it (decision 0006, revision 8).

``data/early-move.jsonl`` is the simulator's (``bench/presence_fixture.py --seed 1002 --early 25
--no-block --duration 120``, a tuning seed): the appliance is switched on at the machine shop's
bench, carried off after 25 s through the door (x = 6 m, reached at ~29 s) to the electronics
lab's bench, and left there. The channel's own random blockages, drift and fading are in it.
Replayed through the product's scanner and engine, as the other simulated traces are.

Revision 7 holds a room's rise back until 50 s of its levels are known and keeps the 10-s
start-up dwell, so it believes the move once start-up is over (60.5 s, by the lasting fall).
Revision 8 takes the lab's rise far over its levels since the start, with the shop falling, for
the move it is, and ends start-up.
"""

from __future__ import annotations

from pathlib import Path

from appliance.presence.settings import PresenceSettings
from tests.presence.test_standstill import replay

TRACE = Path(__file__).parent / "data" / "early-move.jsonl"
#: Where the route crosses into the lab (25 s at the bench, 4 m to the door at 1 m/s).
ENTERED_LAB_S = 29.0
#: Revision 7's behaviour: a move in the first minute is believed once start-up is over.
REVISION_7 = PresenceSettings(startup_move_db=0.0)


def test_carried_off_during_start_up_the_lab_is_entered_within_seconds() -> None:
    settings = PresenceSettings()
    engine, switches = replay(settings, TRACE)
    assert [(s.to_room, s.reason) for s in switches] == [
        ("machine-shop", "entered"),
        ("electronics-lab", "nearer"),
    ]
    shop, lab = switches
    assert "start-up" in shop.detail  # the first decision is start-up's, as before
    assert lab.moving is True
    assert "moving, seen during start-up" in lab.detail
    assert lab.at < settings.startup_s  # believed before start-up would have ended
    assert lab.at - ENTERED_LAB_S <= 10.0
    # The ordinary dwell, not start-up's: start-up ended with the move.
    assert lab.held_s < settings.startup_dwell_s
    assert engine.startup.starting(lab.at) is False
    assert engine.state.room == "electronics-lab"


def test_revision_7_believes_the_move_once_start_up_is_over() -> None:
    engine, switches = replay(REVISION_7, TRACE)
    assert [s.to_room for s in switches] == ["machine-shop", "electronics-lab"]
    lab = switches[1]
    assert lab.at >= REVISION_7.startup_s
    assert lab.at - ENTERED_LAB_S > 30.0
    assert "seen during start-up" not in lab.detail
    assert engine.state.room == "electronics-lab"


def test_standing_at_a_door_no_start_up_move_is_seen() -> None:
    # Nothing moves in the door trace of revision 7's start-up test: the new sign never fires,
    # and the decision is the same single one.
    from tests.presence.test_startup import TRACE as DOOR_STARTUP

    engine, switches = replay(PresenceSettings(), DOOR_STARTUP)
    assert [(s.to_room, s.reason) for s in switches] == [("electronics-lab", "entered")]
    assert engine.startup.over is False
