"""Start-up: the first decision at a door holds (decision 0006, revision 7).

``data/door-startup.jsonl`` is the simulator's (``bench/presence_fixture.py --seed 1572 --no-block
--duration 100``, a tuning seed): the appliance is switched on 0.4 m inside the electronics lab's
door and stands there for 100 s; nobody is scheduled in front of a beacon, the channel's own
random blockages, drift and fading are in it. Replayed through the product's scanner (frame
parsers, sanity gate) and engine, as the other standstill traces are.

Revision 6 decides the lab after 1.5 s, takes a short-reference "rise" of the shop for a move and
switches there at 27 s, and comes back to the lab by a held lead at 36.5 s: two switches while
nothing moved. Revision 7 decides once.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

from appliance.presence.settings import PresenceSettings
from tests.presence.test_standstill import replay

TRACE = Path(__file__).parent / "data" / "door-startup.jsonl"
#: Revision 6's behaviour: none of the start-up rules.
REVISION_6 = PresenceSettings(startup_rise_s=0.0, startup_dwell_s=0.0, startup_settle=False)


def test_switched_on_at_a_door_the_first_decision_holds() -> None:
    settings = PresenceSettings()
    engine, switches = replay(settings, TRACE)
    assert [(s.to_room, s.reason) for s in switches] == [("electronics-lab", "entered")]
    first = switches[0]
    # Taken on the start-up dwell's worth of evidence, and the record says it was start-up.
    assert first.held_s >= settings.startup_dwell_s
    assert first.at >= settings.startup_dwell_s
    assert "start-up" in first.detail and "held lead" in first.detail
    assert first.beacon_id is not None and first.rssi is not None
    assert engine.state.room == "electronics-lab"
    # Settled: the shop is as unlikely as after a long stay, not a few seconds' evidence.
    assert engine.posterior.log_p["machine-shop"] < math.log(1e-30)


def test_revision_6_changes_its_mind_twice_on_the_same_trace() -> None:
    _, switches = replay(REVISION_6, TRACE)
    assert [s.to_room for s in switches] == ["electronics-lab", "machine-shop", "electronics-lab"]
    lab, shop, back = switches
    assert lab.at < 3.0  # on the first second or two of readings
    # A rise measured against a reference of a few seconds, taken for a move.
    assert shop.moving is True and "moving" in shop.detail and "start-up" in shop.detail
    assert back.moving is False and "held lead" in back.detail
    assert back.at < 60.0  # inside the minute the benchmark's flap count leaves out


def test_a_firm_first_decision_alone_does_not_stop_the_short_reference_rise() -> None:
    # The shop's "rise" over a few seconds of readings is a move sign, whatever the prior: with
    # only the settled first decision, the moving hazard still switches to the shop.
    settle_only = dataclasses.replace(REVISION_6, startup_settle=True)
    _, switches = replay(settle_only, TRACE)
    assert [s.to_room for s in switches][:2] == ["electronics-lab", "machine-shop"]
    assert switches[1].moving is True
    # Without that rise (a reference of startup_rise_s first), the first decision holds here.
    rise_only = dataclasses.replace(REVISION_6, startup_rise_s=PresenceSettings().startup_rise_s)
    _, switches = replay(rise_only, TRACE)
    assert [s.to_room for s in switches] == ["electronics-lab"]


def test_after_start_up_the_ordinary_dwell_applies() -> None:
    settings = PresenceSettings()
    engine, _ = replay(settings, TRACE)
    assert engine.startup.dwell(settings.startup_s + 1.0) == settings.dwell_s
    assert engine.startup.dwell(1.0) == max(settings.dwell_s, settings.startup_dwell_s)


def test_the_two_people_door_trace_is_decided_once_for_the_lab() -> None:
    # The standstill tests' door trace (seed 17, people in front of the shop's beacon from 200 to
    # 255 s) decided "machine shop" on its first second of readings; after the start-up dwell
    # the lab, 0.4 m inside whose door the appliance stands, leads, and nothing changes that.
    from tests.presence.test_standstill import TRACE as DOOR_TWO_PEOPLE

    engine, switches = replay(PresenceSettings(), DOOR_TWO_PEOPLE)
    assert [(s.to_room, s.reason) for s in switches] == [("electronics-lab", "entered")]
    assert "start-up" in switches[0].detail
    assert engine.state.room == "electronics-lab"


def test_start_up_begins_with_the_first_beacon_heard() -> None:
    # No adapter for the first two minutes (the engine evaluates, nothing is heard), then the
    # door trace: the start-up rules apply from the first reading, not from the engine's start.
    settings = PresenceSettings()
    late = 120.0
    _, switches = replay(settings, TRACE, late=late)
    assert [(s.to_room, s.reason) for s in switches] == [("electronics-lab", "entered")]
    assert "start-up" in switches[0].detail
    assert switches[0].at >= late + settings.startup_dwell_s
