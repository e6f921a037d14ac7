"""The room decision: which room the appliance is in, from smoothed beacon readings.

Pure and clock-injected: the engine never sleeps or reads the wall clock itself, so the benchmark
drives it with simulated time and tests step it second by second.

Per room, the *proximity* is the strongest smoothed reading of its beacons expressed as dB relative to
that beacon's RSSI at 1 m (0 dB = 1 m away, -7.5 dB = 2 m with path-loss exponent 2.5); a room's
radius sits at the proximity the path-loss model gives for it. The rules (``_candidate``):

* from "no room", the best room within its radius is entered after ``dwell_s``;
* a move to another room needs evidence of movement: that room rose ``rise_db`` over its own median
  of the last ``rise_window_s`` while the current room fell ``fall_db`` under its own (remembered for
  ``move_memory_s``), then a lead of ``switch_margin_db`` for ``dwell_s``; a room that rose and leads
  by ``rise_only_margin_db`` needs no fall;
* without such evidence (a body in front of one beacon, a door), a lead of ``ambiguous_margin_db``
  must hold for ``ambiguous_dwell_s``;
* the current room is left for "no room" when it stays below radius minus ``exit_hysteresis_db`` for
  ``leave_dwell_s`` while heard, or at once (after ``dwell_s``) once all its beacons were silent for
  ``silence_timeout_s``.

A manual override (voice, status page, button) pins the room until cleared; the automatic decision
keeps running underneath so clearing the override lands in the right room at once. See
``docs/decisions/0006-presence-room-decision.md`` for why and for the measured figures.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from appliance.presence.rooms import GLOBAL_NAMESPACE, RoomsPlan
from appliance.presence.settings import PresenceSettings
from appliance.presence.smoothing import BeaconTable, BeaconTrack, Sighting


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
            "by": self.by,
            "manual": self.reason == "override",
        }


@dataclass
class _RoomScore:
    room: str
    proximity_db: float
    beacon: BeaconReading


@dataclass
class EngineState:
    """The engine's view at the last evaluation (for displays)."""

    #: Active room (override included), None = no room.
    room: str | None = None
    #: Room the beacons alone point to.
    auto_room: str | None = None
    #: Room waiting out its dwell time (or None), and since when.
    candidate: str | None = None
    #: Clock time the candidate appeared.
    candidate_since: float | None = None
    #: Manually chosen room (None = no override); see ``override_active``.
    override: str | None = None
    #: Whether a manual override holds.
    override_active: bool = False
    #: Proximity (dB) per room at the last evaluation.
    proximity: dict[str, float] = field(default_factory=dict)
    #: Switches so far.
    switches: int = 0


class RoomEngine:
    """Decides the active room from sightings; returns a :class:`RoomSwitch` when it changes."""

    def __init__(
        self,
        plan: RoomsPlan,
        settings: PresenceSettings | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.plan = plan
        self.settings = settings or PresenceSettings()
        self.clock = clock
        s = self.settings
        self.table = BeaconTable(
            plan.beacons,
            max_tracked=s.max_tracked,
            window_s=s.window_s,
            tau_s=s.smoothing_tau_s,
            max_jump_db=s.max_jump_db,
            jump_confirm=s.jump_confirm,
            max_fall_db_s=s.max_fall_db_s,
        )
        self.state = EngineState()
        #: Every switch so far, newest last (bounded).
        self.history: list[RoomSwitch] = []
        #: Recent proximity per room, to tell "a rival came nearer" from "the current one faded".
        self._trail: dict[str, deque[tuple[float, float]]] = {}
        #: Room -> until when the evidence "the appliance moved towards it" holds.
        self._moved: dict[str, float] = {}

    # -- inputs -------------------------------------------------------------------------------

    def observe(self, sighting: Sighting) -> None:
        """Feed one beacon reading."""
        self.table.observe(sighting)

    def set_override(self, room: str | None, *, by: str = "manual") -> RoomSwitch | None:
        """Pin the active room (None = no room, only ``global``) until :meth:`clear_override`.

        Raises KeyError for a room the rooms file does not name.
        """
        if room is not None and room not in self.plan.rooms:
            raise KeyError(room)
        self.state.override = room
        self.state.override_active = True
        name = self._name(room)
        return self._switch_to(room, "override", f"switched to {name} by hand ({by})", by=by)

    def clear_override(self, *, by: str = "manual") -> RoomSwitch | None:
        """Return to the automatic decision."""
        if not self.state.override_active:
            return None
        self.state.override = None
        self.state.override_active = False
        target = self.state.auto_room
        detail = f"override cleared ({by}); beacons say {self._name(target)}"
        return self._switch_to(target, "override-cleared", detail, by=by)

    # -- decision -----------------------------------------------------------------------------

    def readings(self, now: float | None = None) -> list[BeaconReading]:
        """Every tracked beacon, known ones first, strongest first."""
        now = self.clock() if now is None else now
        tracks = list(self.table.known.values()) + list(self.table.strangers.values())
        out = [self._reading(track, now) for track in tracks]
        out.sort(key=lambda r: (r.room is None, -(r.rssi if r.rssi is not None else -999.0)))
        return out

    def evaluate(self, now: float | None = None) -> RoomSwitch | None:
        """Decide at ``now``; returns the switch if the active room changed."""
        now = self.clock() if now is None else now
        scores = self._scores(now)
        self.state.proximity = {k: round(v.proximity_db, 1) for k, v in scores.items()}
        self._remember(scores, now)
        candidate, needed = self._candidate(scores, now)
        current = self.state.auto_room
        if candidate == current:
            self.state.candidate = None
            self.state.candidate_since = None
            return None
        if candidate != self.state.candidate or self.state.candidate_since is None:
            self.state.candidate = candidate
            self.state.candidate_since = now
        held = now - self.state.candidate_since
        if held < needed:
            return None
        self.state.auto_room = candidate
        self.state.candidate = None
        self.state.candidate_since = None
        if self.state.override_active:
            return None  # the override holds; the automatic room is remembered for later
        return self._auto_switch(current, candidate, scores, held, now)

    def _remember(self, scores: dict[str, _RoomScore], now: float) -> None:
        horizon = now - self.settings.rise_window_s
        for key, score in scores.items():
            trail = self._trail.setdefault(key, deque())
            trail.append((now, score.proximity_db))
        for key, trail in list(self._trail.items()):
            while trail and trail[0][0] < horizon:
                trail.popleft()
            if not trail:
                del self._trail[key]

    def _rise(self, room: str, now: float) -> float:
        """dB the room's proximity now exceeds its median over the rise window (inf if new).

        The median, not the low point: a beacon recovering from a short blockage has not risen.
        """
        trail = self._trail.get(room)
        if not trail or trail[0][0] > now - self.settings.rise_window_s / 2:
            return math.inf
        return trail[-1][1] - statistics.median(p for _, p in trail)

    def _fall(self, room: str) -> float:
        """dB the room's proximity now lies under its median over the rise window."""
        trail = self._trail.get(room)
        if not trail:
            return math.inf
        return statistics.median(p for _, p in trail) - trail[-1][1]

    def _candidate(self, scores: dict[str, _RoomScore], now: float) -> tuple[str | None, float]:
        """The room the readings point to now, and how long it must stay so before switching."""
        s = self.settings
        current = self.state.auto_room
        if current is None:
            entering = [sc for key, sc in scores.items() if sc.proximity_db >= self._enter_db(key)]
            best = max(entering, key=lambda sc: sc.proximity_db, default=None)
            return (best.room, s.dwell_s) if best is not None else (None, 0.0)
        # Rivals must be at least as near as their own exit level.
        rivals = [
            sc
            for key, sc in scores.items()
            if key != current and sc.proximity_db >= self._enter_db(key) - s.exit_hysteresis_db
        ]
        best = max(rivals, key=lambda sc: sc.proximity_db, default=None)
        mine = scores.get(current)
        if mine is None:
            # Every beacon of the current room went silent (the silence timeout already waited):
            # the nearest rival, or no room.
            return (best.room, s.dwell_s) if best is not None else (None, s.dwell_s)
        # The appliance moved when the strongest other room came nearer while the current one
        # faded (one beacon recovering from a body, or one being blocked, is only half of that).
        # The radius is not asked here: a room that clearly took over is the better answer even
        # where shadowing makes its beacon look further away than it is.
        mover = max(
            (sc for key, sc in scores.items() if key != current),
            key=lambda sc: sc.proximity_db,
            default=None,
        )
        if mover is not None:
            rise, fall = self._rise(mover.room, now), self._fall(current)
            if rise >= s.rise_db and fall >= s.fall_db:
                # Remember the evidence for a while: the old room's smoothed value falls at a
                # limited rate, so the new room may lead only some seconds after the move.
                self._moved[mover.room] = now + s.move_memory_s
            moved = self._moved.get(mover.room, -math.inf) >= now
            lead = mover.proximity_db - mine.proximity_db
            if moved and lead >= s.switch_margin_db:
                return mover.room, s.dwell_s
            if lead >= s.rise_only_margin_db and rise >= s.rise_db:
                # Nearer and clearly ahead, though the old room's beacon did not fade (shadowing
                # can make a beacon look as near from the next room as from its own).
                return mover.room, s.dwell_s
        if best is not None:
            lead = best.proximity_db - mine.proximity_db
            if lead >= s.ambiguous_margin_db:
                # Only the current room faded (a body, a door): believe it only if it lasts.
                return best.room, s.ambiguous_dwell_s
        if mine.proximity_db >= self._enter_db(current) - s.exit_hysteresis_db:
            return current, 0.0
        if best is not None and best.proximity_db > mine.proximity_db:
            return best.room, s.ambiguous_dwell_s
        return None, s.leave_dwell_s

    # -- helpers ------------------------------------------------------------------------------

    def _auto_switch(
        self,
        previous: str | None,
        target: str | None,
        scores: dict[str, _RoomScore],
        held: float,
        now: float,
    ) -> RoomSwitch | None:
        if target is not None:
            beacon = scores[target].beacon
            reason = "nearer" if previous is not None and previous in scores else "entered"
            detail = (
                f"{self._name(target)}: beacon {beacon.label or beacon.beacon_id} at "
                f"{beacon.rssi:.0f} dBm (~{beacon.distance_m:.1f} m) for {held:.1f} s"
            )
            return self._switch_to(
                target,
                reason,
                detail,
                beacon=beacon,
                held=held,
                now=now,
            )
        room = self.plan.rooms.get(previous) if previous else None
        heard = previous in scores
        reason = "left" if heard else "silent"
        if heard and room is not None:
            beacon = scores[previous].beacon  # type: ignore[index]
            detail = (
                f"left {room.name}: nearest beacon at {beacon.rssi:.0f} dBm "
                f"(~{beacon.distance_m:.1f} m, radius {room.radius_m:g} m) for {held:.1f} s"
            )
            return self._switch_to(None, reason, detail, beacon=beacon, held=held, now=now)
        detail = f"left {self._name(previous)}: its beacons silent for {held:.1f} s"
        return self._switch_to(None, reason, detail, held=held, now=now)

    def _switch_to(
        self,
        target: str | None,
        reason: str,
        detail: str,
        *,
        beacon: BeaconReading | None = None,
        held: float = 0.0,
        now: float | None = None,
        by: str | None = None,
    ) -> RoomSwitch | None:
        previous = self.state.room
        if target == previous:
            return None
        self.state.room = target
        self.state.switches += 1
        switch = RoomSwitch(
            from_room=previous,
            to_room=target,
            namespaces=self.namespaces_for(target),
            reason=reason,
            detail=detail,
            at=self.clock() if now is None else now,
            beacon_id=beacon.beacon_id if beacon else None,
            rssi=beacon.rssi if beacon else None,
            distance_m=beacon.distance_m if beacon else None,
            held_s=held,
            by=by,
        )
        self.history.append(switch)
        del self.history[:-100]
        return switch

    def namespaces_for(self, room: str | None) -> tuple[str, ...]:
        """Namespaces active in ``room``: ``global`` first, then the room's own."""
        own = self.plan.rooms[room].namespaces if room is not None else ()
        return tuple(dict.fromkeys((GLOBAL_NAMESPACE, *own)))

    def _name(self, room: str | None) -> str:
        return self.plan.rooms[room].name if room in self.plan.rooms else "no room"

    def _enter_db(self, room: str) -> float:
        radius = self.plan.rooms[room].radius_m
        return -10.0 * self.settings.path_loss_exponent * math.log10(radius)

    def _rssi_at_1m(self, track: BeaconTrack) -> int:
        spec = self.plan.beacons.get(track.beacon_id)
        if spec is not None and spec.rssi_at_1m is not None:
            return spec.rssi_at_1m
        if track.advertised_rssi_at_1m is not None:
            return track.advertised_rssi_at_1m
        return self.settings.default_rssi_at_1m

    def _reading(self, track: BeaconTrack, now: float) -> BeaconReading:
        rssi = track.filter.value(now)
        spec = self.plan.beacons.get(track.beacon_id)
        proximity = distance = None
        if rssi is not None:
            proximity = rssi - self._rssi_at_1m(track)
            distance = 10 ** (-proximity / (10.0 * self.settings.path_loss_exponent))
        age = max(0.0, now - track.last_heard)
        return BeaconReading(
            beacon_id=track.beacon_id,
            room=spec.room if spec else None,
            rssi=rssi,
            raw_rssi=track.last_rssi,
            proximity_db=proximity,
            distance_m=distance,
            age_s=age,
            samples=len(track.filter),
            silent=age > self.settings.silence_timeout_s,
            label=spec.label if spec else "",
        )

    def _scores(self, now: float) -> dict[str, _RoomScore]:
        scores: dict[str, _RoomScore] = {}
        for track in self.table.known.values():
            reading = self._reading(track, now)
            if reading.silent or reading.proximity_db is None or reading.room is None:
                continue
            best = scores.get(reading.room)
            if best is None or reading.proximity_db > best.proximity_db:
                scores[reading.room] = _RoomScore(reading.room, reading.proximity_db, reading)
        return scores
