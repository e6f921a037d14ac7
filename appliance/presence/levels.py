"""Room levels and the engine's memory of them: what each room and beacon read lately.

A room's *level* is the soft maximum of its heard beacons' proximity (dB relative to each one's
RSSI at 1 m; :func:`room_levels`): a second beacon that agrees adds a little, a silent one costs
nothing. :class:`LevelMemory` keeps every room's and known beacon's levels over the motion window
(and, standing still, what they read at this spot: :class:`~appliance.presence.spot.SpotReference`)
and answers the questions the move signs ask of them: how far a room or beacon now reads over the
high end of its earlier levels (a *rise*), under its median (a *fall*), and its usual level since
the standstill began.
"""

from __future__ import annotations

import math

from appliance.presence.records import BeaconReading, RoomLevel
from appliance.presence.settings import PresenceSettings
from appliance.presence.spot import SpotReference
from appliance.presence.trail import LevelTrail, sorted_quantile


def room_levels(readings: list[BeaconReading], temperature: float) -> dict[str, RoomLevel]:
    """Per room with a heard beacon: the soft maximum (``temperature`` dB) of its proximity."""
    heard: dict[str, list[BeaconReading]] = {}
    for reading in readings:
        if reading.silent or reading.proximity_db is None or reading.room is None:
            continue
        heard.setdefault(reading.room, []).append(reading)
    levels: dict[str, RoomLevel] = {}
    for room, beacons in heard.items():
        top = max(beacons, key=lambda r: r.proximity_db or -math.inf)
        peak = top.proximity_db or 0.0
        spread = sum(math.exp(((r.proximity_db or 0.0) - peak) / temperature) for r in beacons)
        levels[room] = RoomLevel(room, peak + temperature * math.log(spread), top)
    return levels


class LevelMemory:
    """Recent levels per room and per known beacon, to tell "the appliance moved" from a body."""

    def __init__(self, settings: PresenceSettings) -> None:
        self.settings = settings
        #: Room -> its levels over the motion window.
        self.rooms: dict[str, LevelTrail] = {}
        #: Beacon id -> its proximity over the motion window (moves that show on one beacon).
        self.beacons: dict[str, LevelTrail] = {}
        #: What each room and beacon read at this spot since the standstill began
        #: (``standstill_reference``).
        self.spot = SpotReference(settings)

    def remember(self, levels: dict[str, RoomLevel], now: float) -> None:
        """Add each heard room's level now; forget what is older than the motion window."""
        horizon = now - self.settings.motion_window_s
        for key, level in levels.items():
            trail = self.rooms.get(key)
            if trail is None:
                trail = self.rooms[key] = LevelTrail()
            trail.append(now, level.level_db)
        for key, trail in list(self.rooms.items()):
            trail.prune(horizon)
            if not trail:
                del self.rooms[key]

    def remember_beacons(self, readings: list[BeaconReading], now: float) -> None:
        """Add each heard known beacon's proximity now (only when the beacon rise is on)."""
        if self.settings.beacon_rise_db <= 0.0:
            return
        horizon = now - self.settings.motion_window_s
        for reading in readings:
            if reading.silent or reading.proximity_db is None or reading.room is None:
                continue
            trail = self.beacons.get(reading.beacon_id)
            if trail is None:
                trail = self.beacons[reading.beacon_id] = LevelTrail()
            trail.append(now, reading.proximity_db)
        for key, trail in list(self.beacons.items()):
            trail.prune(horizon)
            if not trail:
                del self.beacons[key]

    def beacon_rise(self, beacon: str, now: float) -> float:
        """dB one beacon now exceeds the high end of its earlier readings (-inf if too new)."""
        s = self.settings
        trail = self.beacons[beacon]
        if trail[0][0] > now - s.motion_window_s / 2 or trail[-1][0] < now - s.tick_s:
            return -math.inf
        values = trail.sorted_until(now - s.motion_lag_s)
        if not values:
            return -math.inf
        reference = sorted_quantile(values, s.rise_quantile)
        usual = self.spot.reference(beacon, s.rise_quantile, now, beacon=True)
        if usual is not None:
            reference = max(reference, usual)
        return trail[-1][1] - reference

    def rise(self, room: str, now: float, started: float | None) -> float:
        """dB the room's level now exceeds the high end of its earlier levels (inf if new).

        The high end, not the median: a beacon recovering from a blockage returns to a level it
        already had before it, which is no move. "Earlier" leaves out the last ``motion_lag_s``,
        which hold the rise itself when the appliance is carried in at walking pace. ``started``
        is when the engine heard its first beacon.
        """
        s = self.settings
        trail = self.rooms.get(room)
        if not trail:
            return math.inf
        started = started if started is not None else now
        # Heard since the engine started: its first seconds of smoothing are no evidence of
        # anything, so they are left out of the reference (and there is no rise before it).
        since_start = trail[0][0] <= started + s.motion_lag_s
        if not since_start and trail[0][0] > now - s.motion_window_s / 2:
            return math.inf  # newly heard: a move towards it
        earliest = started + s.motion_lag_s if since_start else -math.inf
        if since_start and now - s.motion_lag_s - earliest < s.startup_rise_s:
            return -math.inf  # too few seconds yet to know what this room reads here
        if trail[0][0] >= earliest:
            values = trail.sorted_until(now - s.motion_lag_s)
        else:  # the first seconds after the start are left out: the slow way
            values = sorted(p for t, p in trail if earliest <= t <= now - s.motion_lag_s)
        if not values:
            return -math.inf if since_start else math.inf
        reference = sorted_quantile(values, s.rise_quantile)
        usual = self.spot.reference(room, s.rise_quantile, now)
        if usual is not None:
            reference = max(reference, usual)
        return trail[-1][1] - reference

    def fall(self, room: str) -> float:
        """dB the room's level now lies under its median over the motion window."""
        trail = self.rooms.get(room)
        if not trail:
            return math.inf
        return trail.median() - trail[-1][1]

    def usual_level(
        self, room: str, since: float | None, quantile: float | None = None
    ) -> float | None:
        """A quantile (default ``rise_quantile``) of a room's levels since ``since``."""
        trail = self.rooms.get(room)
        if not trail or since is None:
            return None
        if trail[0][0] >= since:
            values = trail.sorted_levels()
        else:
            values = sorted(p for t, p in trail if t >= since)
        if not values:
            return None
        q = self.settings.rise_quantile if quantile is None else quantile
        return sorted_quantile(values, q)
