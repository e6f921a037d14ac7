"""Signs of a move the room engine believes: a beacon rising anywhere, and doors (``next_to``)."""

from __future__ import annotations

from appliance.presence.rooms import RoomsPlan, parse_rooms
from appliance.presence.settings import PresenceSettings
from tests.presence.test_engine import Drive as EngineDrive

SHOP = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:1"
LAB = "eddystone-uid:0123456789abcdef0123:0000000000a1"
STORE = "altbeacon:4c0f1b2e-5a6d-4e7f-8a9b-0c1d2e3f4a5b:7:1"
STEP = 0.5
#: Longest time a person stands in front of a beacon in the simulator (bench/presence_sim.py).
LONGEST_BLOCKAGE_S = 20.0


def plan(*, doors: bool) -> RoomsPlan:
    """Shop | lab | store in a row; with ``doors`` the rooms file says so."""
    rooms: dict[str, dict[str, object]] = {
        "shop": {"namespaces": ["shop"], "radius_m": 4.0, "beacons": [{"id": SHOP}]},
        "lab": {"namespaces": ["electronics"], "radius_m": 4.0, "beacons": [{"id": LAB}]},
        "store": {"namespaces": ["store"], "radius_m": 4.0, "beacons": [{"id": STORE}]},
    }
    if doors:
        rooms["shop"]["next_to"] = ["lab"]
        rooms["store"]["next_to"] = ["lab"]
    return parse_rooms({"rooms": rooms}, known_namespaces=None)


class Drive(EngineDrive):
    """Readings at 2 Hz with 1 dB of noise on the shop | lab | store row, on the test's clock."""

    def __init__(self, *, doors: bool = True, settings: PresenceSettings | None = None) -> None:
        super().__init__(settings, seed=7, rooms=plan(doors=doors))


def test_a_third_rooms_beacon_rising_is_a_move_a_fall_alone_is_not() -> None:
    # Carried from the shop into the lab where shadowing hides the lab's own rise (+2 dB): the
    # shop's beacon falls like a body in front of it; what tells a move is the store's beacon,
    # behind the lab, rising 10 dB over anything it read in the last two minutes.
    carried, blocked = Drive(), Drive()
    for drive in (carried, blocked):
        drive.run(150.0, {SHOP: -62, LAB: -74, STORE: -90})
        assert drive.rooms == ["shop"]
    moved = carried.now
    carried.run(30.0, {SHOP: -76, LAB: -72, STORE: -80})
    blocked.run(LONGEST_BLOCKAGE_S * 2, {SHOP: -76, LAB: -72, STORE: -90})
    assert carried.rooms == ["shop", "lab"]
    assert carried.switches[1].at - moved <= 10.0 and carried.switches[1].moving
    assert blocked.rooms == ["shop"]  # a 4 dB lead after a body-like fall: held


def test_beacon_rises_can_be_switched_off() -> None:
    drive = Drive(settings=PresenceSettings(beacon_rise_db=0.0))
    drive.run(150.0, {SHOP: -62, LAB: -74, STORE: -90})
    drive.run(LONGEST_BLOCKAGE_S * 2, {SHOP: -76, LAB: -72, STORE: -80})
    assert drive.rooms == ["shop"]


def test_doors_keep_a_move_from_skipping_the_room_between() -> None:
    # Carried from the shop into the lab, whose bench sits by the wall where the store's beacon
    # reads stronger than the lab's own. Without doors the move goes to the store; with them the
    # store is behind the lab, so the lab it is.
    for doors, expected in ((False, "store"), (True, "lab")):
        drive = Drive(doors=doors)
        drive.run(150.0, {SHOP: -62, LAB: -75, STORE: -85})
        entered = drive.now
        drive.run(30.0, {SHOP: -85, LAB: -66, STORE: -63})
        assert drive.rooms[:2] == ["shop", expected], doors
        assert drive.switches[1].at - entered <= 10.0


def test_carried_through_the_room_between_switches_straight_to_the_far_room() -> None:
    # Store -> lab (2 s, past its beacon) -> shop: the lab rose and fell again, so it was passed,
    # and the shop may be entered straight from the store, without activating the lab on the way.
    drive = Drive()
    drive.run(150.0, {SHOP: -90, LAB: -80, STORE: -62})
    assert drive.rooms == ["store"]
    drive.run(2.0, {SHOP: -80, LAB: -60, STORE: -75})  # passing the lab's beacon, quickly
    entered = drive.now
    drive.run(30.0, {SHOP: -62, LAB: -78, STORE: -90})
    assert drive.rooms == ["store", "shop"]
    assert drive.switches[-1].at - entered <= 10.0
