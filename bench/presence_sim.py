"""Simulated beacon traces from a log-distance path-loss model, for the presence benchmarks.

Received power of one advertisement, in dBm::

    rssi = P1m - 10 n log10(d)              log-distance path loss (n per link, 2.2..3.0)
           - walls * wall_db               drywall between rooms
           + shadow(p) + drift(t)          shadowing: spatially correlated (sigma 4 dB, decorrelates
                                           over ~2 m moved) plus a slow drift (sigma 1.5 dB, ~20 s)
           + fading                        multipath: Rician-like, sigma 2.5 dB, 4 % deep fades -15 dB
           - body(t)                       a person between appliance and beacon: -8..-14 dB, 3..20 s
                                           (random per link; scenarios can schedule longer ones)
           - battery(t)                    a dying beacon: power falls, adverts thin out, then none

An advertisement is lost when it falls under the receiver's sensitivity (-97 dBm) or at random
(5 %, rising to 40 % near the sensitivity: collisions and missed scan windows). Beacons advertise
every ``interval_s`` with the spec's 0..10 ms random delay. Payloads are real iBeacon / Eddystone-UID /
AltBeacon bytes, so the product's parsers run on them.

Run as a script to write a trace: ``python bench/presence_sim.py walk out.jsonl``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.presence.rooms import RoomsPlan, parse_rooms
from appliance.presence.scanner import BeaconScanner
from appliance.presence.trace import TraceRecord, write_trace

SENSITIVITY_DBM = -97.0
WALL_DB = 5.0


@dataclass(frozen=True)
class Channel:
    """The physical parameters of the channel model (defaults: the figures the engine was tuned on).

    Published indoor 2.4 GHz figures these sit among are cited in ``docs/presence.md``.
    """

    #: Log-normal shadowing, standard deviation (dB).
    shadow_db: float = 4.0
    #: Distance moved (m) over which shadowing decorrelates (exponential, Gudmundson).
    shadow_distance_m: float = 2.0
    #: Slow drift while nothing moves: standard deviation (dB) and time constant (s).
    drift_db: float = 1.5
    drift_s: float = 20.0
    #: Loss of one drywall (dB).
    wall_db: float = WALL_DB
    #: A person in the line of sight: loss range (dB).
    body_db: tuple[float, float] = (8.0, 14.0)


Point = tuple[float, float]


@dataclass
class SimBeacon:
    """One beacon in the simulated floor plan."""

    #: Canonical id (must match the rooms file).
    beacon_id: str
    #: Room key.
    room: str
    #: Position (m).
    x: float
    y: float
    #: True RSSI at 1 m (dBm); the rooms file may or may not be calibrated to it.
    rssi_at_1m: float = -59.0
    #: Seconds between advertisements.
    interval_s: float = 0.5
    #: Bluetooth address it advertises from.
    address: str = ""
    #: Battery: dB of power lost per minute from ``battery_from_s`` on, and when it dies.
    battery_db_per_min: float = 0.0
    battery_from_s: float = 0.0
    dies_at_s: float | None = None
    #: Scheduled blockages (start s, end s, dB): a person standing between it and the appliance,
    #: on top of the random ones every link gets.
    blocked: list[tuple[float, float, float]] = field(default_factory=list)

    def payload(self) -> tuple[dict[int, bytes], dict[str, bytes]]:
        """Manufacturer and service data of its frame, byte-exact."""
        kind, _, rest = self.beacon_id.partition(":")
        power = round(self.rssi_at_1m) & 0xFF
        if kind == "ibeacon":
            ident, major, minor = rest.split(":")
            body = (
                b"\x02\x15"
                + uuid.UUID(ident).bytes
                + int(major).to_bytes(2, "big")
                + int(minor).to_bytes(2, "big")
                + bytes([power])
            )
            return {0x004C: body}, {}
        if kind == "altbeacon":
            ident, id2, id3 = rest.split(":")
            body = (
                b"\xbe\xac"
                + uuid.UUID(ident).bytes
                + int(id2).to_bytes(2, "big")
                + int(id3).to_bytes(2, "big")
                + bytes([power, 0x00])
            )
            return {0x0118: body}, {}
        if kind == "eddystone-uid":
            namespace, instance = rest.split(":")
            tx0 = (round(self.rssi_at_1m) + 41) & 0xFF
            body = b"\x00" + bytes([tx0]) + bytes.fromhex(namespace) + bytes.fromhex(instance)
            return {}, {"0000feaa-0000-1000-8000-00805f9b34fb": body + b"\x00\x00"}
        raise ValueError(kind)


@dataclass
class FloorPlan:
    """Rooms (axis-aligned rectangles), walls (segments with door gaps) and beacons."""

    rooms: dict[str, tuple[float, float, float, float]]
    walls: list[tuple[Point, Point]]
    beacons: list[SimBeacon]
    rooms_toml: dict[str, object] = field(default_factory=dict)

    def room_at(self, p: Point) -> str | None:
        for key, (x0, y0, x1, y1) in self.rooms.items():
            if x0 <= p[0] < x1 and y0 <= p[1] < y1:
                return key
        return None

    def walls_between(self, p: Point, q: Point) -> int:
        return sum(1 for a, b in self.walls if _segments_cross(p, q, a, b))

    def plan(self) -> RoomsPlan:
        return parse_rooms(self.rooms_toml, known_namespaces=None, source="sim")


def _segments_cross(p: Point, q: Point, a: Point, b: Point) -> bool:
    def orient(u: Point, v: Point, w: Point) -> float:
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])

    d1, d2 = orient(a, b, p), orient(a, b, q)
    d3, d4 = orient(p, q, a), orient(p, q, b)
    return d1 * d2 < 0 and d3 * d4 < 0


SHOP_UUID = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
ALT_UUID = "4c0f1b2e-5a6d-4e7f-8a9b-0c1d2e3f4a5b"


#: Beacon layouts of the bench floor: ``bench`` (one beacon in the shop and one in the lab, two in
#: the assembly area; what every revision of the engine was tuned on) and ``paired`` (the same
#: four plus a second beacon in the shop and the lab, as ``hardware/README.md`` asks for rooms that
#: share a wall). The extra beacons come last, so a seed gives the first four beacons the same
#: advertisements in both layouts.
LAYOUTS = ("bench", "paired")


def bench_floor(*, next_to: bool = True, layout: str = "bench") -> FloorPlan:
    """Three 6 x 5 m rooms in a row, drywall between them with 1.2 m doors at y 1.9..3.1.

    The rooms file says which rooms open into which (``next_to``) unless ``next_to`` is False.
    ``layout`` is one of ``LAYOUTS``.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown beacon layout {layout!r} (one of {', '.join(LAYOUTS)})")
    rooms = {
        "machine-shop": (0.0, 0.0, 6.0, 5.0),
        "electronics-lab": (6.0, 0.0, 12.0, 5.0),
        "assembly": (12.0, 0.0, 18.0, 5.0),
    }
    walls: list[tuple[Point, Point]] = []
    for x in (6.0, 12.0):
        walls += [((x, 0.0), (x, 1.9)), ((x, 3.1), (x, 5.0))]
    beacons = [
        SimBeacon(
            f"ibeacon:{SHOP_UUID}:1:1", "machine-shop", 3.0, 2.5, -59, 0.5, "C3:00:00:00:00:01"
        ),
        SimBeacon(
            "eddystone-uid:0123456789abcdef0123:0000000000a1",
            "electronics-lab",
            9.0,
            2.5,
            -62,
            0.5,
            "C3:00:00:00:00:02",
        ),
        SimBeacon(
            f"altbeacon:{ALT_UUID}:7:1", "assembly", 13.8, 1.2, -58, 0.5, "C3:00:00:00:00:03"
        ),
        SimBeacon(
            f"altbeacon:{ALT_UUID}:7:2", "assembly", 16.5, 4.0, -60, 0.5, "C3:00:00:00:00:04"
        ),
    ]
    toml = {
        "rooms": {
            "machine-shop": {
                "name": "Machine shop",
                "namespaces": ["shop"],
                "radius_m": 4.0,
                "beacons": [{"id": beacons[0].beacon_id, "label": "above the lathe"}],
            },
            "electronics-lab": {
                "name": "Electronics lab",
                "namespaces": ["electronics"],
                "radius_m": 4.0,
                "beacons": [{"id": beacons[1].beacon_id, "label": "soldering station"}],
            },
            "assembly": {
                "name": "Assembly area",
                "namespaces": ["assembly", "shop"],
                "radius_m": 3.5,
                "beacons": [
                    {"id": beacons[2].beacon_id, "label": "press corner"},
                    {"id": beacons[3].beacon_id, "label": "packing table"},
                ],
            },
        }
    }
    if layout == "paired":
        # Each second beacon follows hardware/beacons.md: 2.5-2.7 m from the room's first, away
        # from the shared walls and the doors, not in the bench's line of sight to the first, and
        # at least 4 m from every other room's beacons.
        extra = [
            SimBeacon(
                f"ibeacon:{SHOP_UUID}:1:2", "machine-shop", 1.0, 0.8, -60, 0.5, "C3:00:00:00:00:05"
            ),
            SimBeacon(
                "eddystone-uid:0123456789abcdef0123:0000000000a2",
                "electronics-lab",
                7.5,
                0.6,
                -61,
                0.5,
                "C3:00:00:00:00:06",
            ),
        ]
        beacons += extra
        for beacon, label in zip(extra, ("by the tool cabinet", "by the scope shelf"), strict=True):
            toml["rooms"][beacon.room]["beacons"].append(  # type: ignore[index]
                {"id": beacon.beacon_id, "label": label}
            )
    if next_to:
        toml["rooms"]["machine-shop"]["next_to"] = ["electronics-lab"]  # type: ignore[index]
        toml["rooms"]["assembly"]["next_to"] = ["electronics-lab"]  # type: ignore[index]
    return FloorPlan(rooms, walls, beacons, toml)


class _Link:
    """Slow channel state between the appliance and one beacon."""

    def __init__(self, rng: random.Random, channel: Channel) -> None:
        self.rng = rng
        self.channel = channel
        self.exponent = rng.uniform(2.2, 3.0)
        self.shadow = rng.gauss(0.0, channel.shadow_db)
        self.drift = rng.gauss(0.0, channel.drift_db)
        self.last_t = 0.0
        self.last_p: Point | None = None
        self.body_until = -1.0
        self.body_db = 0.0
        self.next_body = rng.expovariate(1 / 90.0)

    def slow(self, t: float, p: Point, person_db: float = 0.0) -> float:
        """Shadowing, drift and blockage (dB) at time ``t`` and place ``p``.

        ``person_db`` is a scheduled blockage; while it lasts it replaces a random one (one person
        in the line of sight at a time, not two stacked).
        """
        dt = max(0.0, t - self.last_t)
        self.last_t = t
        moved = 0.0 if self.last_p is None else math.dist(p, self.last_p)
        self.last_p = p
        # Gudmundson: shadowing is a property of the place, decorrelating over ~2 m.
        c = self.channel
        rho = math.exp(-moved / c.shadow_distance_m)
        self.shadow = rho * self.shadow + math.sqrt(1 - rho * rho) * self.rng.gauss(
            0.0, c.shadow_db
        )
        # People and doors changing the room: a slow drift even when nothing moves.
        rho = math.exp(-dt / c.drift_s)
        self.drift = rho * self.drift + math.sqrt(1 - rho * rho) * self.rng.gauss(0.0, c.drift_db)
        if t >= self.next_body:
            self.body_db = self.rng.uniform(*c.body_db)
            self.body_until = t + self.rng.uniform(3.0, 20.0)
            self.next_body = self.body_until + self.rng.expovariate(1 / 90.0)
        body = max(self.body_db if t < self.body_until else 0.0, person_db)
        return self.shadow + self.drift - body


def simulate(
    floor: FloorPlan,
    path: Callable[[float], Point],
    duration_s: float,
    *,
    seed: int = 1,
    channel: Channel | None = None,
    clean: Callable[[str, float, float], None] | None = None,
) -> Iterator[TraceRecord]:
    """Advertisements as heard at the appliance moving along ``path``, in time order.

    ``clean``, when given, is called for every advertisement sent (heard or lost) with the
    beacon's id, the time and its *noise-free* received power (dBm): the path loss, walls, the
    link's slow state (shadowing, drift, a body in the way) and the battery's loss, without the
    multipath fading. It draws no random numbers, so the trace is the same with it or without.
    """
    channel = channel or Channel()
    rng = random.Random(seed)
    events: list[TraceRecord] = []
    for beacon in floor.beacons:
        link = _Link(random.Random(rng.random()), channel)
        manufacturer, service = beacon.payload()
        t = rng.uniform(0, beacon.interval_s)
        while t < duration_s:
            interval = beacon.interval_s
            battery = 0.0
            if beacon.battery_db_per_min and t > beacon.battery_from_s:
                battery = beacon.battery_db_per_min * (t - beacon.battery_from_s) / 60.0
                interval *= 1.0 + battery / 6.0  # a sagging supply stretches the interval
            if beacon.dies_at_s is not None and t >= beacon.dies_at_s:
                break
            p = path(t)
            d = max(0.3, math.dist(p, (beacon.x, beacon.y)))
            walls = floor.walls_between(p, (beacon.x, beacon.y))
            person = max((db for a, b, db in beacon.blocked if a <= t < b), default=0.0)
            fading = rng.gauss(0.0, 2.5)
            if rng.random() < 0.04:
                fading -= 15.0
            # The link draws from its own generator, so calling it before the sum changes nothing.
            slow = link.slow(t, p, person)
            rssi = (
                beacon.rssi_at_1m
                - 10 * link.exponent * math.log10(d)
                - walls * channel.wall_db
                + slow
                + fading
                - battery
            )
            if clean is not None:
                clean(
                    beacon.beacon_id,
                    t,
                    beacon.rssi_at_1m
                    - 10 * link.exponent * math.log10(d)
                    - walls * channel.wall_db
                    + slow
                    - battery,
                )
            margin = rssi - SENSITIVITY_DBM
            loss = 0.05 + (0.35 * max(0.0, 1 - margin / 10.0) if margin < 10 else 0.0)
            if margin > 0 and rng.random() > loss:
                events.append(
                    TraceRecord(
                        t=t,
                        address=beacon.address,
                        rssi=max(-120, min(-1, round(rssi))),
                        manufacturer_data=dict(manufacturer),
                        service_data=dict(service),
                    )
                )
            t += interval + rng.uniform(0.0, 0.01)
    events.sort(key=lambda r: r.t)
    yield from events


# -- appliance paths --------------------------------------------------------------------------


def replay(
    records: Iterable[TraceRecord],
    scanner: BeaconScanner,
    clock: list[float],
    tick_s: float,
    until: float,
    on_tick: Callable[[float], None],
) -> None:
    """Hand each advertisement to the product ``scanner`` at its time, with the engine's ticks between.

    ``clock[0]`` is the time the scanner and engine read; ``on_tick(now)`` runs every ``tick_s``
    from 0 to ``until`` (the caller evaluates its engine there and records what it needs).
    """
    from bleak.backends.device import BLEDevice

    next_tick = 0.0

    def ticks_until(t: float) -> None:
        nonlocal next_tick
        while next_tick <= t:
            clock[0] = next_tick
            on_tick(next_tick)
            next_tick += tick_s

    for record in records:
        ticks_until(record.t)
        clock[0] = record.t
        scanner.handle(BLEDevice(record.address, record.name, None), record.advertisement())
    ticks_until(until)


def waypoints(points: list[tuple[float, Point]], speed: float = 1.0) -> Callable[[float], Point]:
    """A path that stays at each point for its dwell time, walking between them at ``speed``."""
    legs: list[tuple[float, float, Point, Point]] = []
    t = 0.0
    here = points[0][1]
    for dwell, target in points:
        walk = math.dist(here, target) / speed
        legs.append((t, t + walk, here, target))
        t += walk
        legs.append((t, t + dwell, target, target))
        t += dwell
        here = target

    def at(now: float) -> Point:
        for start, end, a, b in legs:
            if now < end:
                f = 0.0 if end == start else (now - start) / (end - start)
                return (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))
        return legs[-1][3]

    at.duration = t  # type: ignore[attr-defined]
    return at


def walk_path(stay: float = 90.0) -> Callable[[float], Point]:
    """Machine shop -> electronics lab -> assembly -> machine shop, ``stay`` s at each bench."""
    door1, door2 = (6.0, 2.5), (12.0, 2.5)
    return waypoints(
        [
            (stay, (2.0, 1.5)),
            (0.0, door1),
            (stay, (10.0, 1.2)),
            (0.0, door2),
            (stay, (15.0, 2.5)),
            (0.0, door2),
            (0.0, door1),
            (stay, (1.5, 3.5)),
        ]
    )


def early_move_path(lead: float, stay: float) -> Callable[[float], Point]:
    """Shop bench for ``lead`` s from switching on, then lab and assembly ``stay`` s each."""
    shop, lab, assembly = (2.0, 1.5), (10.0, 1.2), (15.0, 2.5)
    door1, door2 = (6.0, 2.5), (12.0, 2.5)
    return waypoints([(lead, shop), (0.0, door1), (stay, lab), (0.0, door2), (stay, assembly)])


def with_bystanders(records: Iterator[TraceRecord], seed: int) -> Iterator[TraceRecord]:
    """Mix in what else a workshop radio hears: phones, a laptop, a broken beacon, an odd RSSI."""
    rng = random.Random(seed)
    for record in records:
        yield record
        roll = rng.random()
        t = record.t + 0.01
        if roll < 0.15:  # an iPhone's Nearby Info: Apple data, not a beacon
            yield TraceRecord(
                t,
                "5A:11:22:33:44:55",
                rng.randint(-90, -60),
                None,
                {0x004C: bytes.fromhex("1005031c1a2b3c")},
            )
        elif roll < 0.20:  # a Windows laptop (Microsoft CDP)
            yield TraceRecord(
                t,
                "6B:22:33:44:55:66",
                rng.randint(-95, -70),
                None,
                {0x0006: bytes.fromhex("0109200276")},
            )
        elif roll < 0.22:  # a beacon with a truncated iBeacon frame
            yield TraceRecord(
                t, "C3:00:00:00:00:09", -70, None, {0x004C: bytes.fromhex("0215e2c56db5dffb")}
            )
        elif roll < 0.23:  # a driver reporting "no RSSI"
            yield TraceRecord(
                t,
                "C3:00:00:00:00:01",
                127,
                None,
                {0x004C: bytes.fromhex("0215e2c56db5dffb48d2b060d0f5a71096e000010001c5")},
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=["walk"])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--interval", type=float, default=1.0, help="advertising interval (s)")
    parser.add_argument("--bystanders", action="store_true", help="add phones and broken frames")
    args = parser.parse_args(argv)
    floor = bench_floor()
    for beacon in floor.beacons:
        beacon.interval_s = args.interval
    path = walk_path()
    records = simulate(floor, path, path.duration, seed=args.seed)  # type: ignore[attr-defined]
    if args.bystanders:
        records = with_bystanders(records, args.seed)
    count = write_trace(args.out, records, source=f"bench/presence_sim.py walk seed={args.seed}")
    print(f"wrote {count} advertisements to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
