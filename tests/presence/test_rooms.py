"""The rooms file: the sample loads, and every kind of mistake stops start-up with a clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from appliance.errors import ConfigError
from appliance.presence.errors import RoomsFileError
from appliance.presence.rooms import load_rooms, spoken_room
from appliance.presence.trace import package_data

SHOP = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:1"
KNOWN = ["global", "shop", "electronics", "assembly"]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rooms.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_sample_rooms_file_loads() -> None:
    plan = load_rooms(package_data("rooms.sample.toml"), known_namespaces=KNOWN)
    assert list(plan.rooms) == ["machine-shop", "electronics-lab", "assembly"]
    assert plan.rooms["assembly"].namespaces == ("assembly", "shop")
    assert plan.rooms["assembly"].radius_m == 3.5
    assert plan.room_of(SHOP).key == "machine-shop"  # type: ignore[union-attr]
    assert len(plan.beacons) == 4
    assert plan.find_room("electronics lab") is plan.rooms["electronics-lab"]
    assert plan.find_room("Assembly Area") is plan.rooms["assembly"]
    assert plan.find_room("kitchen") is None


@pytest.mark.parametrize(
    "heard, key",
    [
        # How whisper tiny.en wrote "switch to the electronics lab" said by held-out espeak-ng
        # voices (bench/audio_capture.py), and other ways of naming the rooms.
        ("electronic slab", "electronics-lab"),
        ("an electronic slab", "electronics-lab"),
        ("electronic scan", "electronics-lab"),
        ("the machine shop", "machine-shop"),
        ("machine chop", "machine-shop"),
        ("Electronics", "electronics-lab"),
        ("kitchen", None),
        ("mid electric slam", None),  # too far from any name to guess
    ],
)
def test_a_room_name_as_a_recogniser_wrote_it(heard: str, key: str | None) -> None:
    plan = load_rooms(package_data("rooms.sample.toml"), known_namespaces=KNOWN)
    room = plan.find_room(heard)
    assert (room.key if room is not None else None) == key


def test_a_heard_name_between_two_alike_rooms_picks_neither() -> None:
    names = {"lab-1": ("lab 1",), "lab-2": ("lab 2",), "shop": ("shop",)}
    assert spoken_room("lab 2", names) == "lab-2"
    assert spoken_room("lab", names) is None  # as close to both labs
    assert spoken_room("shops", names) == "shop"


def test_calibration_and_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        f"""
[rooms.shop]
namespaces = "shop"
[[rooms.shop.beacons]]
id = "{SHOP.upper().replace("IBEACON", "ibeacon")}"
rssi_at_1m = -63.4
""",
    )
    plan = load_rooms(path, known_namespaces=KNOWN, default_radius_m=2.5)
    room = plan.rooms["shop"]
    assert room.name == "shop" and room.namespaces == ("shop",) and room.radius_m == 2.5
    assert room.beacons[0].beacon_id == SHOP  # normalised to the parser's form
    assert room.beacons[0].rssi_at_1m == -63


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[rooms.shop]\nnamespaces = ["workshop"]\n',
            "rooms.shop.namespaces: namespace 'workshop' does not exist in the index",
        ),
        (
            f'[rooms.a]\nnamespaces = ["shop"]\n[[rooms.a.beacons]]\nid = "{SHOP}"\n'
            f'[rooms.b]\nnamespaces = ["shop"]\n[[rooms.b.beacons]]\nid = "{SHOP}"\n',
            "rooms.b.beacons[0].id: beacon " + SHOP + " is listed twice (already in room 'a')",
        ),
        (
            f'[rooms.a]\nnamespaces = ["shop"]\n[[rooms.a.beacons]]\nid = "{SHOP}"\n'
            f'[[rooms.a.beacons]]\nid = "{SHOP.replace(":1:1", ":01:1")}"\n',
            "listed twice",
        ),
        (
            '[rooms.a]\nnamespaces = ["shop"]\n[[rooms.a.beacons]]\nid = "mac:aa"\n',
            "does not start",
        ),
        ('[rooms.a]\nnamespaces = ["shop"]\n[[rooms.a.beacons]]\nlabel = "x"\n', "id: missing"),
        ('[rooms.a]\nnamespaces = ["shop"]\ncolour = "red"\n', "rooms.a.colour: unknown key"),
        ('[rooms.a]\nnamespaces = ["shop"]\nradius_m = 0\n', "rooms.a.radius_m: 0.0 m is outside"),
        ('[rooms.a]\nnamespaces = ["shop"]\nradius_m = "far"\n', "expected a number"),
        ("[rooms.a]\nnamespaces = []\n", "rooms.a.namespaces: expected a non-empty list"),
        ("[rooms.a]\n", "rooms.a.namespaces: expected a non-empty list"),
        ('[rooms."Big Room"]\nnamespaces = ["shop"]\n', "room keys are lowercase"),
        (
            f'[rooms.a]\nnamespaces = ["shop"]\n[[rooms.a.beacons]]\nid = "{SHOP}"\nrssi_at_1m = 40\n',
            "rssi_at_1m: 40.0 dBm is outside",
        ),
        ("title = 'rooms'\n", "title: unknown top-level key"),
        ("", "no rooms defined"),
        ("[rooms.a\nnamespaces = 1", "not valid TOML"),
    ],
)
def test_bad_rooms_files(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RoomsFileError) as caught:
        load_rooms(path, known_namespaces=KNOWN)
    err = caught.value
    assert message in err.message
    assert err.message.startswith("rooms file rooms.toml: ")
    assert err.code == "rooms_invalid"
    assert isinstance(err, ConfigError)  # exits with the configuration exit code
    assert str(tmp_path) not in err.message  # no absolute paths in errors


def test_namespaces_unchecked_without_an_index(tmp_path: Path) -> None:
    path = write(tmp_path, '[rooms.a]\nnamespaces = ["anything"]\n')
    assert load_rooms(path, known_namespaces=None).rooms["a"].namespaces == ("anything",)
    # "global" is always a known namespace even if the index lists none.
    path = write(tmp_path, '[rooms.a]\nnamespaces = ["global"]\n')
    assert load_rooms(path, known_namespaces=[]).rooms["a"].namespaces == ("global",)


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(RoomsFileError, match=r"rooms file nowhere\.toml: not found"):
        load_rooms(tmp_path / "nowhere.toml", known_namespaces=None)
    binary = tmp_path / "rooms.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RoomsFileError, match="cannot be read"):
        load_rooms(binary, known_namespaces=None)


def test_next_to_is_symmetric_and_restricts_only_rooms_that_say_so(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[rooms.shop]
namespaces = ["shop"]
next_to = ["lab"]
[rooms.lab]
namespaces = ["electronics"]
[rooms.store]
namespaces = ["assembly"]
next_to = "lab"
[rooms.yard]
namespaces = ["global"]
""",
    )
    plan = load_rooms(path, known_namespaces=KNOWN)
    assert plan.rooms["lab"].next_to == {"shop", "store"}  # named by both, so it has a list
    assert plan.rooms["yard"].next_to is None
    assert plan.adjacent("shop", "lab") and plan.adjacent("lab", "store")
    assert not plan.adjacent("shop", "store") and not plan.adjacent("store", "shop")
    assert plan.adjacent("yard", "shop") and plan.adjacent("store", "yard")  # yard says nothing
    assert plan.to_json()["rooms"][0]["next_to"] == ["lab"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('["kitchen"]', "no room 'kitchen' in this file"),
        ('["shop"]', "a room cannot be next to itself"),
        ("[1]", "expected a list of room keys"),
    ],
)
def test_bad_next_to_is_a_clear_error(tmp_path: Path, value: str, message: str) -> None:
    path = write(
        tmp_path,
        f"""
[rooms.shop]
namespaces = ["shop"]
next_to = {value}
[rooms.lab]
namespaces = ["electronics"]
""",
    )
    with pytest.raises(RoomsFileError) as caught:
        load_rooms(path, known_namespaces=KNOWN)
    assert "rooms.shop.next_to" in str(caught.value) and message in str(caught.value)


def test_placement_advice_names_one_beacon_rooms_with_a_door(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[rooms.shop]
namespaces = ["shop"]
next_to = ["lab"]
[[rooms.shop.beacons]]
id = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:1"
[rooms.lab]
namespaces = ["electronics"]
[[rooms.lab.beacons]]
id = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:2:1"
[[rooms.lab.beacons]]
id = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:2:2"
[rooms.yard]
namespaces = ["global"]
[[rooms.yard.beacons]]
id = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:3:1"
""",
    )
    plan = load_rooms(path, known_namespaces=KNOWN)
    # The lab has two beacons; the yard opens into nothing the file names.
    assert list(plan.placement_advice()) == ["shop"]
    assert plan.to_json()["rooms"][1]["advice"] is None
