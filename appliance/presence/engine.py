"""The room decision: which room the appliance is in, from smoothed beacon readings.

Pure and clock-injected: the engine never sleeps or reads the wall clock itself, so the benchmark
drives it with simulated time and tests step it second by second. :class:`RoomEngine` ties the
parts together, each in its own module (``docs/decisions/0006-presence-room-decision.md`` says why
each rule exists and what it measured):

* :mod:`~appliance.presence.records` — the readings, room levels, switch records and the state
  shown to displays (re-exported here);
* :mod:`~appliance.presence.levels` — each room's level (a soft maximum of its beacons in dB
  relative to 1 m) and the memory of recent levels: rises, falls, usual levels;
* :mod:`~appliance.presence.moves` — the signs of a move and the hazard of entering each state;
* :mod:`~appliance.presence.evidence` — each state's score, the margins, the usual level while
  standing still: the evidence per second;
* :mod:`~appliance.presence.arrival` — after a switch into a room, rivals shown a move only by
  the walk in (``arrival_margin``);
* :mod:`~appliance.presence.startup` — the first minute (longer dwell, a settled first decision);
* :class:`~appliance.presence.posterior.RoomPosterior` — the online HMM over the rooms and
  "no room" that the evidence and hazards drive;
  :class:`~appliance.presence.spot.SpotReference` — what the rooms read at this spot.

The active room changes when another state's posterior stays at or above ``switch_posterior``
for ``dwell_s``. A manual override (voice, status page, button) pins the room until cleared; the
automatic decision keeps running underneath so clearing the override lands in the right room at
once.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from appliance.presence.arrival import Arrival
from appliance.presence.evidence import Evidence
from appliance.presence.levels import LevelMemory, room_levels
from appliance.presence.moves import MoveSigns
from appliance.presence.posterior import RoomPosterior
from appliance.presence.records import BeaconReading, EngineState, RoomLevel, RoomSwitch
from appliance.presence.rooms import GLOBAL_NAMESPACE, RoomsPlan
from appliance.presence.settings import PresenceSettings
from appliance.presence.smoothing import BeaconTable, BeaconTrack, Sighting
from appliance.presence.startup import StartUp

__all__ = ["BeaconReading", "EngineState", "RoomEngine", "RoomLevel", "RoomSwitch"]


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
        self.posterior = RoomPosterior(plan.rooms)
        #: Recent levels per room and beacon (and at this spot, standing still).
        self.memory = LevelMemory(s)
        #: When the engine started, and whether start-up still holds.
        self.startup = StartUp(s)
        #: The signs of a move seen so far, and the hazards they raise.
        self.moves = MoveSigns(plan, s, self.memory, self.startup)
        #: Scores, margins and the usual level: the evidence per second.
        self.evidence = Evidence(plan, s, self.memory)
        #: The last automatic switch into a room and what weaker rooms read then.
        self.arrival = Arrival(s)
        #: Since when no sign of a move was seen (None while one is).
        self._still_since: float | None = None
        self._last_t: float | None = None

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
        # Holding the room it is already in is still a decision (the beacons no longer decide),
        # so it is recorded and announced like any other switch.
        return self._switch_to(
            room, "override", f"switched to {name} by hand ({by})", by=by, force=True
        )

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
        known = [self._reading(track, now) for track in self.table.known.values()]
        return self.decide(known, now)

    def decide(self, readings: list[BeaconReading], now: float) -> RoomSwitch | None:
        """Update the posterior from these readings of known beacons and decide.

        :meth:`evaluate` calls this with the beacon table's readings; the benchmark's tuning replay
        calls it with recorded ones.
        """
        s = self.settings
        if self.startup.started is None:
            if not readings:
                # Nothing heard yet (no adapter, or none of the rooms' beacons): nothing to
                # decide, and no standstill to count. Start-up begins with the first beacon
                # heard, so a radio that comes up late still gets the start-up rules.
                return None
            self.startup.started = now
        levels = room_levels(readings, s.combine_db)
        self.state.proximity = {k: round(v.level_db, 1) for k, v in levels.items()}
        self.memory.remember(levels, now)
        self.memory.remember_beacons(readings, now)
        current = self.state.auto_room
        score = self.evidence.scores(levels)
        hazard, self.state.moving = self.moves.hazards(levels, current, now)
        entered = self.memory.rooms.get(current or "")
        self.state.arrival = [
            k
            for k in self.state.moving
            if k is not None and self.arrival.holds(k, levels, now, entered)
        ]
        dt = 0.0 if self._last_t is None else min(max(0.0, now - self._last_t), s.max_step_s)
        self._last_t = now if self._last_t is None else max(self._last_t, now)
        # Standing still (no sign of a move towards any room, through a door or not): a loss of
        # the current room is not evidence, so it counts at its usual level.
        still = self.moves.still(now)
        if not still or self._still_since is None:
            self._still_since = None if not still else now
        self.state.still_since = self._still_since
        self.memory.spot.update(
            self.memory.rooms, self.memory.beacons, self._still_since, current, levels, now
        )
        self.state.reference_since = self.memory.spot.since
        usual = self.evidence.usual_scores(levels, current, self._still_since, now) if still else {}
        rates = self.evidence.rates(score, current, self.state.moving, self.state.arrival, usual)
        self.posterior.step(dt, rates, hazard)
        self.state.posterior = {(k or ""): round(v, 3) for k, v in self.posterior.as_dict().items()}
        best, probability = self.posterior.best()
        if best == current or probability < s.switch_posterior:
            self.state.candidate = None
            self.state.candidate_since = None
            return None
        if best != self.state.candidate or self.state.candidate_since is None:
            self.state.candidate = best
            self.state.candidate_since = now
        held = now - self.state.candidate_since
        if held < self.startup.dwell(now):
            return None
        self.state.auto_room = best
        self.state.candidate = None
        self.state.candidate_since = None
        if s.startup_settle and self.startup.starting(now):
            self.posterior.settle(best, -math.log(s.hazard_still_per_s))
        elif s.arrival_margin and best is not None:
            self.arrival.note(best, levels, now)
        if self.state.override_active:
            return None  # the override holds; the automatic room is remembered for later
        moving = best in self.state.moving
        return self._auto_switch(current, best, levels, held, probability, moving, now)

    # -- helpers ------------------------------------------------------------------------------

    def _auto_switch(
        self,
        previous: str | None,
        target: str | None,
        levels: dict[str, RoomLevel],
        held: float,
        probability: float,
        moving: bool,
        now: float,
    ) -> RoomSwitch | None:
        why = (
            "lasting fall" if target in self.moves.lasting else "moving" if moving else "held lead"
        )
        if self.startup.starting(now):
            why += ", start-up"  # little history yet: the start-up rules applied
        elif moving and self.startup.move_until >= now:
            why += ", seen during start-up"  # the move that ended start-up early
        if target is not None:
            beacon = levels[target].beacon if target in levels else None
            reason = "nearer" if previous is not None else "entered"
            heard = (
                f"beacon {beacon.label or beacon.beacon_id} at {beacon.rssi:.0f} dBm "
                f"(~{beacon.distance_m:.1f} m)"
                if beacon is not None and beacon.rssi is not None and beacon.distance_m is not None
                else "no beacon heard"
            )
            detail = (
                f"{self._name(target)}: {heard}, posterior {probability:.2f} for {held:.1f} s "
                f"({why})"
            )
            return self._switch_to(
                target,
                reason,
                detail,
                beacon=beacon,
                held=held,
                now=now,
                posterior=probability,
                moving=moving,
            )
        room = self.plan.rooms.get(previous) if previous else None
        heard_level = levels.get(previous) if previous else None
        if heard_level is not None and room is not None:
            beacon = heard_level.beacon
            detail = (
                f"left {room.name}: nearest beacon at {beacon.rssi:.0f} dBm "
                f"(~{beacon.distance_m:.1f} m, radius {room.radius_m:g} m), "
                f"posterior {probability:.2f} for {held:.1f} s"
            )
            return self._switch_to(
                None, "left", detail, beacon=beacon, held=held, now=now, posterior=probability
            )
        detail = (
            f"left {self._name(previous)}: its beacons silent, posterior {probability:.2f} "
            f"for {held:.1f} s"
        )
        return self._switch_to(
            None, "silent", detail, held=held, now=now, posterior=probability, moving=moving
        )

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
        posterior: float | None = None,
        moving: bool = False,
        force: bool = False,
    ) -> RoomSwitch | None:
        previous = self.state.room
        if target == previous and not force:
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
            posterior=posterior,
            moving=moving,
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
