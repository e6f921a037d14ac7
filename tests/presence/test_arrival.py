"""The walk into a room is no move towards the room beyond it (decision 0006, revision 9).

``data/walk-lab-then-assembly.jsonl`` is the simulator's (``bench/presence_fixture.py --seed
1002 --walk --no-block --duration 205``, tuning walk 1002's first 205 s): switched on at the
machine shop's bench, carried into the electronics lab (door at 94 s, its bench from ~99 s),
90 s there, then into the assembly area (door at 191 s). The channel's own random blockages,
drift and fading are in it. Replayed through the product's scanner and engine.

On the way into the lab the assembly area's beacons, behind the lab's far wall, rose with the
lab's (that rise is measured against the shop bench's readings and then remembered). At the lab
bench, ~29 s after the switch, the lab's level fell ~10 dB (a person in front of its beacon)
and the assembly area led it by ~6 dB: revision 8 still took the walk's rise for a move towards
the assembly area (margin 0 dB) and switched there at 128.5 s, while the appliance stood in the
lab; its real entry at 191 s was then no entry at all (the benchmark counts it missed).
"""

from __future__ import annotations

from pathlib import Path

from appliance.presence.settings import PresenceSettings
from tests.presence.test_standstill import replay

TRACE = Path(__file__).parent / "data" / "walk-lab-then-assembly.jsonl"
#: Tuning walk 56's first 305 s (``presence_fixture.py --seed 56 --walk --no-block --duration
#: 305``): from the assembly area through the lab (x 12 -> 6 m, 288-293 s) into the shop.
THROUGH_TRACE = Path(__file__).parent / "data" / "walk-through-the-lab.jsonl"
#: Where that walk crosses into the shop.
ENTERED_SHOP_S = 293.0
#: Where the walk crosses into the lab and into the assembly area (``presence_sim.walk_path``).
ENTERED_LAB_S = 94.0
ENTERED_ASSEMBLY_S = 191.0
#: When revision 8 left the lab for the assembly area, standing at the lab's bench.
REVISION_8_HOP_S = 128.5
ARRIVAL = PresenceSettings(arrival_margin=True)
REVISION_8 = PresenceSettings(arrival_margin=False)


def test_at_the_lab_bench_the_room_beyond_is_not_entered_and_the_next_entry_is_on_time() -> None:
    engine, switches = replay(ARRIVAL, TRACE)
    assert [(s.to_room, s.reason) for s in switches] == [
        ("machine-shop", "entered"),
        ("electronics-lab", "nearer"),
        ("assembly", "nearer"),
    ]
    _shop, lab, assembly = switches
    assert lab.moving is True and lab.at - ENTERED_LAB_S <= 10.0
    # The assembly area is entered when the appliance is carried there, within the target,
    # and the record says it was a move.
    assert assembly.at >= ENTERED_ASSEMBLY_S
    assert assembly.at - ENTERED_ASSEMBLY_S <= 10.0
    assert assembly.moving is True and "(moving)" in assembly.detail
    assert engine.state.room == "assembly"


def test_the_rival_held_back_by_the_arrival_is_shown_while_it_lasts() -> None:
    # At the moment revision 8 switched: the lab's beacon is down, the assembly area leads it
    # and is still shown a move (the walk's), but needs the between-rooms margin.
    engine, _ = replay(ARRIVAL, TRACE, until=REVISION_8_HOP_S)
    assert engine.state.room == "electronics-lab"
    assert engine.state.proximity["assembly"] > engine.state.proximity["electronics-lab"]
    assert "assembly" in engine.state.moving
    assert engine.state.arrival == ["assembly"]
    assert engine.arrival.levels["assembly"] < engine.state.proximity["assembly"]
    # Once the walk's signs are over, nothing is held back any more.
    engine, _ = replay(ARRIVAL, TRACE, until=ENTERED_ASSEMBLY_S - 10.0)
    assert engine.state.room == "electronics-lab"
    assert engine.state.arrival == []


def test_revision_8_takes_the_walk_in_for_a_move_to_the_room_beyond() -> None:
    engine, switches = replay(REVISION_8, TRACE)
    assert [s.to_room for s in switches] == ["machine-shop", "electronics-lab", "assembly"]
    hop = switches[2]
    assert ENTERED_LAB_S + 30.0 < hop.at < ENTERED_ASSEMBLY_S - 30.0  # standing in the lab
    assert hop.moving is True
    assert engine.state.arrival == []
    assert not any(s.at >= ENTERED_ASSEMBLY_S for s in switches)  # no entry when it came


def test_the_start_up_decision_notes_no_arrival() -> None:
    # Start-up has its own rules (the settled posterior): the arrival begins with the first
    # switch after it.
    engine, switches = replay(ARRIVAL, TRACE, until=60.0)
    assert [s.to_room for s in switches] == ["machine-shop"]
    assert engine.arrival.at is None and engine.state.arrival == []


def test_carried_through_a_room_the_arrival_ends_when_that_room_falls_away() -> None:
    # Walking from the assembly area through the lab, the engine switches into the lab as the
    # appliance passes its beacon (293 s); the shop read >6 dB under it then and is held to the
    # between-rooms margin, until the lab falls away within seconds (passed, not arrived in):
    # then the shop's move counts again, and it is entered as in revision 8.
    engine, switches = replay(ARRIVAL, THROUGH_TRACE, until=ENTERED_SHOP_S + 1.5)
    lab = switches[-1]
    assert lab.to_room == "electronics-lab" and lab.at <= ENTERED_SHOP_S + 0.5
    assert engine.state.arrival == ["machine-shop"]
    engine, switches = replay(ARRIVAL, THROUGH_TRACE, until=ENTERED_SHOP_S + 3.0)
    assert engine.state.room == "electronics-lab"
    assert "machine-shop" in engine.state.moving and engine.state.arrival == []
    engine, switches = replay(ARRIVAL, THROUGH_TRACE)
    _, revision_8 = replay(REVISION_8, THROUGH_TRACE)
    assert [(s.to_room, s.at) for s in switches] == [(s.to_room, s.at) for s in revision_8]
    shop = switches[-1]
    assert shop.to_room == "machine-shop" and shop.moving is True
    assert shop.at - ENTERED_SHOP_S <= 10.0
