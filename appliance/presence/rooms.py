"""The rooms file: which beacon stands in which room, and which namespaces each room activates.

```toml
[rooms.machine-shop]
name = "Machine shop"            # optional display name (voice, status page)
namespaces = ["shop"]            # one or more index namespaces; "global" is always searched too
radius_m = 4.0                   # optional; presence.default_radius_m otherwise
next_to = ["electronics-lab"]    # optional; rooms reached from here through one door

[[rooms.machine-shop.beacons]]
id = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:1"
rssi_at_1m = -61                 # optional calibration; else what the beacon advertises
label = "above the lathe"        # optional
```

Everything is checked once at start-up (:func:`load_rooms`): an unknown key, a namespace the index
does not know, a beacon listed twice, a malformed beacon id or an impossible number stops the program
with one line naming the room and key.

``next_to`` (optional) says which rooms a room opens into. It is symmetric (naming the lab in the
shop's list also puts the shop in the lab's) and only restricts pairs of rooms that both have a
``next_to`` list: the engine then does not take the beacons' sign of a move as a move straight
between two rooms that do not open into each other (it goes through the room between).
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from appliance.errors import public_name
from appliance.presence.errors import RoomsFileError
from appliance.presence.parsers import canonical_id

#: Namespace every question searches whatever the room; allowed in a rooms file without checking.
GLOBAL_NAMESPACE = "global"

_ROOM_KEY_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_ROOM_KEYS = {"name", "namespaces", "radius_m", "beacons", "next_to"}
_BEACON_KEYS = {"id", "rssi_at_1m", "label"}


@dataclass(frozen=True)
class BeaconSpec:
    """One beacon placed in a room."""

    #: Canonical beacon identifier (see :func:`appliance.presence.parsers.canonical_id`).
    beacon_id: str
    #: Key of the room the beacon stands in.
    room: str
    #: Measured RSSI at 1 m for this beacon on this appliance, or None to trust the advertisement.
    rssi_at_1m: int | None = None
    #: Free text for people (where exactly it is mounted).
    label: str = ""


@dataclass(frozen=True)
class Room:
    """A room and the document sets it activates."""

    #: Stable key (lowercase, as in the TOML table name).
    key: str
    #: Display name.
    name: str
    #: Namespaces activated in this room (``global`` is searched anyway).
    namespaces: tuple[str, ...]
    #: Radius in metres within which a beacon of this room counts as "here".
    radius_m: float
    #: The room's beacons.
    beacons: tuple[BeaconSpec, ...] = ()
    #: Rooms this one opens into (symmetric), or None when the rooms file does not say.
    next_to: frozenset[str] | None = None


@dataclass(frozen=True)
class RoomsPlan:
    """All rooms, with a beacon index for the decision engine."""

    #: Rooms by key, in file order.
    rooms: dict[str, Room]
    #: Beacon id -> its placement.
    beacons: dict[str, BeaconSpec] = field(default_factory=dict)
    #: File the plan came from (name only), for messages.
    source: str = "<memory>"

    def adjacent(self, a: str, b: str) -> bool:
        """Whether the appliance can be carried from room ``a`` straight into room ``b``.

        True unless both rooms have a ``next_to`` list and neither names the other.
        """
        first, second = self.rooms[a].next_to, self.rooms[b].next_to
        return first is None or second is None or b in first

    def room_of(self, beacon_id: str) -> Room | None:
        """The room a known beacon stands in, or None for a stranger."""
        spec = self.beacons.get(beacon_id)
        return self.rooms[spec.room] if spec is not None else None

    def find_room(self, text: str) -> Room | None:
        """A room by key or display name (for "switch to electronics lab"), as heard.

        Case and hyphens do not matter. A name that matches no room exactly may still be a room's
        name as a recogniser wrote it ("electronic slab", "the machine shop"):
        :func:`spoken_room` decides.
        """
        names = {room.key: (_plain(room.key), _plain(room.name)) for room in self.rooms.values()}
        key = spoken_room(text, names)
        return self.rooms[key] if key is not None else None

    def placement_advice(self) -> dict[str, str]:
        """Room key -> advice on its beacons, for rooms whose placement makes entries slow.

        A room with one beacon and a room it opens into: a person standing in front of that
        beacon costs as much signal as carrying the appliance out, so the engine waits for more
        evidence before it believes a move out of it. A second beacon a few metres from the
        first (not in the same line of sight from the bench) keeps the room's level up while one
        is blocked and lets the engine see both fall at once when it is carried out (the figures
        on the simulated floor are in decision 0006).
        """
        return {
            room.key: (
                "one beacon next to another room: a person in front of it looks like the "
                "appliance leaving, so moves out of it are believed late; a second beacon a few "
                "metres from the first makes them quicker (hardware/beacons.md)"
            )
            for room in self.rooms.values()
            if len(room.beacons) == 1 and room.next_to
        }

    def to_json(self) -> dict[str, Any]:
        """JSON form for ``openclaw rooms --json`` and the status page."""
        advice = self.placement_advice()
        return {
            "source": self.source,
            "rooms": [
                {
                    "key": room.key,
                    "name": room.name,
                    "namespaces": list(room.namespaces),
                    "radius_m": room.radius_m,
                    "next_to": None if room.next_to is None else sorted(room.next_to),
                    "advice": advice.get(room.key),
                    "beacons": [
                        {"id": b.beacon_id, "rssi_at_1m": b.rssi_at_1m, "label": b.label}
                        for b in room.beacons
                    ],
                }
                for room in self.rooms.values()
            ],
        }


#: How alike (difflib's ratio, 0..1) a heard name must be to a room's name to mean that room...
SPOKEN_NAME_RATIO = 0.75
#: ... and by how much it must be more alike to it than to any other room.
SPOKEN_NAME_MARGIN = 0.15


def _plain(name: str) -> str:
    return " ".join(name.lower().replace("-", " ").replace("_", " ").split())


def spoken_room(text: str, names: Mapping[str, tuple[str, ...]]) -> str | None:
    """The key of the room ``text`` names, given each room's names in plain form; None if unclear.

    An exact name wins. Otherwise the heard name (without a leading "the") is compared with every
    name letter by letter: whisper tiny.en writes "electronics lab" as "electronic slab" or
    "electronic lab", which are plainly the lab, while "kitchen" is no room at all. The closest
    room counts only when it is close (:data:`SPOKEN_NAME_RATIO`) and clearly closer than the
    next (:data:`SPOKEN_NAME_MARGIN`), so that a mishearing never picks between two alike rooms.
    """
    wanted = _plain(text)
    for key, plain in names.items():
        if wanted in plain:
            return key
    wanted = wanted.removeprefix("the ")
    alike = sorted(
        (max(SequenceMatcher(None, wanted, name).ratio() for name in plain), key)
        for key, plain in names.items()
    )
    if not alike or alike[-1][0] < SPOKEN_NAME_RATIO:
        return None
    if len(alike) > 1 and alike[-1][0] - alike[-2][0] < SPOKEN_NAME_MARGIN:
        return None
    return alike[-1][1]


def _fail(source: str, where: str, message: str) -> RoomsFileError:
    return RoomsFileError(f"rooms file {source}: {where}: {message}")


def _number(source: str, where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(source, where, f"expected a number, got {value!r}")
    return float(value)


def parse_rooms(
    data: Mapping[str, Any],
    *,
    known_namespaces: Collection[str] | None,
    default_radius_m: float = 3.0,
    source: str = "<memory>",
) -> RoomsPlan:
    """Validate parsed TOML into a :class:`RoomsPlan`.

    ``known_namespaces`` is the list the index knows; None skips that check (no index yet).
    """
    unknown_top = sorted(set(data) - {"rooms"})
    if unknown_top:
        raise _fail(source, unknown_top[0], "unknown top-level key; only [rooms.<key>] tables")
    table = data.get("rooms", {})
    if not isinstance(table, Mapping) or not table:
        raise _fail(source, "rooms", "no rooms defined; add a [rooms.<key>] table")
    known = set(known_namespaces) | {GLOBAL_NAMESPACE} if known_namespaces is not None else None
    rooms: dict[str, Room] = {}
    beacons: dict[str, BeaconSpec] = {}
    for key, body in table.items():
        where = f"rooms.{key}"
        if not _ROOM_KEY_RE.match(key):
            raise _fail(source, where, "room keys are lowercase letters, digits, '-' and '_'")
        if not isinstance(body, Mapping):
            raise _fail(source, where, "expected a table")
        extra = sorted(set(body) - _ROOM_KEYS)
        if extra:
            allowed = ", ".join(sorted(_ROOM_KEYS))
            raise _fail(source, f"{where}.{extra[0]}", f"unknown key; known keys are {allowed}")
        name = body.get("name", key.replace("-", " ").replace("_", " "))
        if not isinstance(name, str) or not name.strip():
            raise _fail(source, f"{where}.name", "expected a non-empty string")
        namespaces = body.get("namespaces")
        if isinstance(namespaces, str):
            namespaces = [namespaces]
        if (
            not isinstance(namespaces, list)
            or not namespaces
            or not all(isinstance(n, str) and n.strip() for n in namespaces)
        ):
            raise _fail(source, f"{where}.namespaces", "expected a non-empty list of names")
        for namespace in namespaces:
            if known is not None and namespace not in known:
                listed = ", ".join(sorted(known))
                raise _fail(
                    source,
                    f"{where}.namespaces",
                    f"namespace {namespace!r} does not exist in the index (known: {listed})",
                )
        radius = _number(source, f"{where}.radius_m", body.get("radius_m", default_radius_m))
        if not 0.1 <= radius <= 100.0:
            raise _fail(source, f"{where}.radius_m", f"{radius} m is outside 0.1..100")
        specs = _parse_beacons(source, where, key, body.get("beacons", []), beacons)
        rooms[key] = Room(key, name.strip(), tuple(dict.fromkeys(namespaces)), radius, specs)
    return RoomsPlan(_with_neighbours(source, table, rooms), beacons, source)


def _with_neighbours(
    source: str, table: Mapping[str, Any], rooms: dict[str, Room]
) -> dict[str, Room]:
    """Rooms with their ``next_to`` sets checked and made symmetric."""
    listed: dict[str, set[str]] = {}
    for key, body in table.items():
        if "next_to" not in body:
            continue
        where = f"rooms.{key}.next_to"
        items = body["next_to"]
        if isinstance(items, str):
            items = [items]
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise _fail(source, where, "expected a list of room keys")
        for other in items:
            if other == key:
                raise _fail(source, where, "a room cannot be next to itself")
            if other not in rooms:
                raise _fail(source, where, f"no room {other!r} in this file")
        listed[key] = set(items)
    if not listed:
        return rooms
    for key, others in list(listed.items()):
        for other in others:
            listed.setdefault(other, set()).add(key)
    return {
        key: Room(
            room.key,
            room.name,
            room.namespaces,
            room.radius_m,
            room.beacons,
            frozenset(listed[key]) if key in listed else None,
        )
        for key, room in rooms.items()
    }


def _parse_beacons(
    source: str, where: str, room: str, items: Any, seen: dict[str, BeaconSpec]
) -> tuple[BeaconSpec, ...]:
    if not isinstance(items, list):
        raise _fail(source, f"{where}.beacons", "expected [[rooms.<key>.beacons]] entries")
    specs: list[BeaconSpec] = []
    for index, item in enumerate(items):
        here = f"{where}.beacons[{index}]"
        if not isinstance(item, Mapping):
            raise _fail(source, here, "expected a table")
        extra = sorted(set(item) - _BEACON_KEYS)
        if extra:
            allowed = ", ".join(sorted(_BEACON_KEYS))
            raise _fail(source, f"{here}.{extra[0]}", f"unknown key; known keys are {allowed}")
        raw_id = item.get("id")
        if not isinstance(raw_id, str):
            raise _fail(source, f"{here}.id", "missing; every beacon needs an id")
        try:
            beacon_id = canonical_id(raw_id)
        except ValueError as err:
            raise _fail(source, f"{here}.id", str(err)) from None
        if beacon_id in seen:
            raise _fail(
                source,
                f"{here}.id",
                f"beacon {beacon_id} is listed twice (already in room {seen[beacon_id].room!r})",
            )
        calibration = item.get("rssi_at_1m")
        if calibration is not None:
            value = _number(source, f"{here}.rssi_at_1m", calibration)
            if not -127 <= value <= 20:
                raise _fail(source, f"{here}.rssi_at_1m", f"{value} dBm is outside -127..20")
            calibration = round(value)
        label = item.get("label", "")
        if not isinstance(label, str):
            raise _fail(source, f"{here}.label", "expected a string")
        spec = BeaconSpec(beacon_id, room, calibration, label)
        seen[beacon_id] = spec
        specs.append(spec)
    return tuple(specs)


def load_rooms(
    path: Path,
    *,
    known_namespaces: Collection[str] | None,
    default_radius_m: float = 3.0,
) -> RoomsPlan:
    """Read and validate a rooms file; raises :class:`RoomsFileError` naming the file and key."""
    source = public_name(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RoomsFileError(f"rooms file {source}: not found") from None
    except (OSError, UnicodeDecodeError) as err:
        raise RoomsFileError(
            f"rooms file {source}: cannot be read ({type(err).__name__})"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RoomsFileError(f"rooms file {source}: not valid TOML ({err})") from None
    return parse_rooms(
        data, known_namespaces=known_namespaces, default_radius_m=default_radius_m, source=source
    )
