"""What the room engine reads and reports: beacon readings, room levels, switches, its state.

Plain records, no logic beyond their JSON forms: :class:`BeaconReading` (one tracked beacon at one
moment), :class:`RoomLevel` (one room's combined reading), :class:`RoomSwitch` (a change of the
active room and why) and :class:`EngineState` (the engine's view at its last evaluation, for
displays).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class BeaconReading:
    """One tracked beacon as the engine sees it at one moment."""

    #: Canonical beacon id.
    beacon_id: str
    #: Room key of a known beacon, None for a stranger.
    room: str | None
    #: Smoothed RSSI (dBm), None when its window is empty.
    rssi: float | None
    #: Last raw RSSI (dBm).
    raw_rssi: int
    #: Smoothed RSSI minus the beacon's RSSI at 1 m (dB; 0 = 1 m, more negative = further).
    proximity_db: float | None
    #: Estimated distance (m) from the path-loss model.
    distance_m: float | None
    #: Seconds since it was last heard.
    age_s: float
    #: Readings in its window.
    samples: int
    #: Whether it has been silent longer than the silence timeout.
    silent: bool
    #: Label from the rooms file.
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON form (BEACONS_SEEN events, ``openclaw presence --json``)."""
        return {
            "id": self.beacon_id,
            "room": self.room,
            "rssi": None if self.rssi is None else round(self.rssi, 1),
            "raw_rssi": self.raw_rssi,
            "proximity_db": None if self.proximity_db is None else round(self.proximity_db, 1),
            "distance_m": None if self.distance_m is None else round(self.distance_m, 2),
            "age_s": round(self.age_s, 1),
            "samples": self.samples,
            "silent": self.silent,
            "label": self.label,
        }


@dataclass(frozen=True)
class RoomSwitch:
    """One change of the active room, and why it happened."""

    #: Room left (None = no room).
    from_room: str | None
    #: Room entered (None = no room, only ``global`` is active).
    to_room: str | None
    #: Namespaces active from now on (always starts with ``global``).
    namespaces: tuple[str, ...]
    #: Why: ``entered``, ``nearer``, ``left``, ``silent``, ``override``, ``override-cleared``.
    reason: str
    #: One sentence for people (status page, logs).
    detail: str
    #: Clock time of the switch.
    at: float
    #: Beacon that decided it (None for overrides and silence).
    beacon_id: str | None = None
    #: Its smoothed RSSI (dBm).
    rssi: float | None = None
    #: Its estimated distance (m).
    distance_m: float | None = None
    #: How long the new state had been the candidate before the switch (s).
    held_s: float = 0.0
    #: Posterior probability of the new state when it was switched to (None for manual switches).
    posterior: float | None = None
    #: Whether the beacons showed a move towards the new state (rather than a long-held lead).
    moving: bool = False
    #: Who asked, for manual switches ("voice", "web", "button").
    by: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form (the ROOM_CHANGED event payload)."""
        return {
            "from_room": self.from_room,
            "to_room": self.to_room,
            "namespaces": list(self.namespaces),
            "reason": self.reason,
            "detail": self.detail,
            "at": self.at,
            "beacon": self.beacon_id,
            "rssi": None if self.rssi is None else round(self.rssi, 1),
            "distance_m": None if self.distance_m is None else round(self.distance_m, 2),
            "held_s": round(self.held_s, 2),
            "posterior": None if self.posterior is None else round(self.posterior, 3),
            "moving": self.moving,
            "by": self.by,
            "manual": self.reason == "override",
        }


@dataclass
class RoomLevel:
    """One room's combined reading at one evaluation."""

    #: Room key.
    room: str
    #: Soft maximum of its heard beacons' proximity (dB relative to 1 m).
    level_db: float
    #: Its strongest heard beacon (the one a switch names).
    beacon: BeaconReading


@dataclass
class EngineState:
    """The engine's view at the last evaluation (for displays)."""

    #: Active room (override included), None = no room.
    room: str | None = None
    #: Room the beacons alone point to.
    auto_room: str | None = None
    #: Room whose posterior is over the switch threshold, waiting out ``dwell_s`` (or None).
    candidate: str | None = None
    #: Clock time the candidate crossed the threshold.
    candidate_since: float | None = None
    #: Manually chosen room (None = no override); see ``override_active``.
    override: str | None = None
    #: Whether a manual override holds.
    override_active: bool = False
    #: Level (dB relative to 1 m) per heard room at the last evaluation.
    proximity: dict[str, float] = field(default_factory=dict)
    #: Posterior probability per room key ("" = no room) at the last evaluation.
    posterior: dict[str, float] = field(default_factory=dict)
    #: Rooms (None = no room) the beacons show a move towards (their hazard is raised).
    moving: list[str | None] = field(default_factory=list)
    #: Rooms shown a move to only by the walk into the current room (``arrival_margin``): they
    #: need the between-rooms margin, not the moving one.
    arrival: list[str] = field(default_factory=list)
    #: Since when no sign of a move towards any room was seen (None while one is): standing
    #: still, the current room counts at its usual level against rivals that did not rise.
    still_since: float | None = None
    #: Since when the rooms' levels at this spot are counted as the rises' reference
    #: (``standstill_reference``; it applies once that is longer than the motion window).
    reference_since: float | None = None
    #: Switches so far.
    switches: int = 0
