"""The room decision: which room the appliance is in, from smoothed beacon readings.

Pure and clock-injected: the engine never sleeps or reads the wall clock itself, so the benchmark
drives it with simulated time and tests step it second by second.

Per room, the *level* is the strongest smoothed reading of its beacons (a soft maximum, so a second
beacon that agrees adds a little) expressed as dB relative to that beacon's RSSI at 1 m (0 dB = 1 m,
-7.5 dB = 2 m with path-loss exponent 2.5). The decision is an online hidden Markov model
(:class:`~appliance.presence.posterior.RoomPosterior`) over the rooms and "no room":

* **evidence**: a state's score is its room's level minus the level at which "no room" explains
  its beacons as well (``none_margin_db`` beyond its radius); "no room" scores 0, a room whose
  beacons are all silent ``-silent_db``. A rival gains ``(its score - the current's - margin) /
  evidence_db`` nats/s (at most ``evidence_cap``), so a lead under the margin *loses* evidence and
  permanent shadowing never piles up (``_margin``: hysteresis between rooms, towards a room being
  moved to, into and out of "no room"). A beacon missing while another of its room is heard costs
  nothing (a dying battery, a body);
* **transitions** are sticky: while the appliance stands still a state is entered with the hazard
  ``hazard_still_per_s`` (so tiny that only a lead held for a long time switches: a person in front
  of a beacon, or two one after the other, is not enough); once the beacons show a *move* towards a
  room the hazard into it is ``hazard_moving_per_s`` and the evidence decides within seconds. A
  move is one of: that room rose ``rise_db`` over the high end of its levels in
  ``motion_window_s`` (or ``surge_db``, or ``rise_db`` while the current room fell ``fall_db``),
  remembered for ``move_memory_s``; the current room fell ``deep_fall_db``, more than a body costs
  (towards every room now stronger); or the current room stayed ``lasting_fall_db`` down for
  ``lasting_fall_s`` while that room rose ``lasting_rise_db`` (:meth:`RoomEngine._lasting_fall`);
  or any one beacon rose ``beacon_rise_db`` over the high end of its own readings (a body only
  takes signal away; carried, every link changes), towards every room now leading the current one.
  A move is not believed straight into a room the rooms file says the current one does not open
  into (``next_to``) until a room between them was passed (:meth:`RoomEngine._reachable`).
  "No room" is entered quickly only when the current room's beacons all went silent;
* **standing still** (no sign of a move for half the motion window): a rival is measured against
  the current room's *usual* level when it reads weaker now (a person in front of its beacon
  hands no rival a lead), and in "no room" a room that did not rise over its median gains no
  evidence (:meth:`RoomEngine._usual_scores`), unless the rival itself rose
  ``standstill_rise_db``. Standing at the same spot for longer than the motion window
  (``standstill_reference``), the rises are measured against what each room and beacon read
  here since the standstill began, so a beacon back from blockages that covered most of the
  window is no move; the spot counts as the same until the current room and another room both
  read far from their usual levels (:class:`~appliance.presence.spot.SpotReference`: a body changes one link, a
  missed move every link);
* **arriving** (``arrival_margin``): after a switch into a room, a rival that read well under it
  then and is shown a move only by the walk in (it rose with the room entered) needs the
  between-rooms margin while those signs last, unless the room entered falls away at once
  (carried through it) (:meth:`RoomEngine._arrival_holds`);
* **posterior hysteresis**: the active room changes when another state's posterior stays at or above
  ``switch_posterior`` for ``dwell_s``.

A manual override (voice, status page, button) pins the room until cleared; the automatic decision
keeps running underneath so clearing the override lands in the right room at once. See
``docs/decisions/0006-presence-room-decision.md`` for why and for the measured figures.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from appliance.presence.posterior import RoomPosterior
from appliance.presence.rooms import GLOBAL_NAMESPACE, RoomsPlan
from appliance.presence.settings import PresenceSettings
from appliance.presence.smoothing import BeaconTable, BeaconTrack, Sighting
from appliance.presence.spot import SpotReference
from appliance.presence.trail import LevelTrail, sorted_quantile

#: Seconds of the current room's levels before a lasting fall needed to call it a fall (the
#: median "before" must rest on more than the first moments of a stay).
_LASTING_REFERENCE_S = 20.0


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
class _RoomLevel:
    """One room's combined reading at one evaluation."""

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
        #: Recent level per room, to tell "the appliance moved" from "a body, a door".
        self._trail: dict[str, LevelTrail] = {}
        #: Room -> until when the evidence "the appliance moved towards it" holds.
        self._moved: dict[str, float] = {}
        #: Room -> until when "its level rose" / "its level fell" counts.
        self._rose: dict[str, float] = {}
        self._fell: dict[str, float] = {}
        self._surged: dict[str, float] = {}
        #: Rooms the current room's lasting fall points to at the last evaluation.
        self._lasting: set[str] = set()
        #: Recent proximity per known beacon, for moves that show on one beacon, not a room.
        self._beacon_trail: dict[str, LevelTrail] = {}
        #: Until when "some beacon rose beyond anything it read lately" counts as a move.
        self._motion_until = -1.0
        #: Until when the current room's fall deeper than a body counts as the appliance moving.
        self._deep_fall_until = -1.0
        #: Since when no sign of a move was seen (None while one is).
        self._still_since: float | None = None
        #: What each room and beacon read at this spot since the standstill began
        #: (``standstill_reference``).
        self._spot = SpotReference(self.settings)
        self._last_t: float | None = None
        self._started: float | None = None
        #: Whether a move seen during start-up ended it early (:meth:`_startup_moves`), and
        #: until when a switch counts as made on that move (its record says so).
        self._startup_over = False
        self._startup_move_until = -1.0
        #: When the last automatic switch into a room was made (``arrival_margin``) and the
        #: level then of each room reading well under the room entered.
        self._arrived_at: float | None = None
        self._arrival_levels: dict[str, float] = {}

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
        if self._started is None:
            if not readings:
                # Nothing heard yet (no adapter, or none of the rooms' beacons): nothing to
                # decide, and no standstill to count. Start-up begins with the first beacon
                # heard, so a radio that comes up late still gets the start-up rules.
                return None
            self._started = now
        levels = self._levels(readings)
        self.state.proximity = {k: round(v.level_db, 1) for k, v in levels.items()}
        self._remember(levels, now)
        self._remember_beacons(readings, now)
        current = self.state.auto_room
        score = self._scores(levels)
        hazard = self._hazards(levels, current, now)
        self.state.arrival = [
            k for k in self.state.moving if k is not None and self._arrival_holds(k, levels, now)
        ]
        dt = 0.0 if self._last_t is None else min(max(0.0, now - self._last_t), s.max_step_s)
        self._last_t = now if self._last_t is None else max(self._last_t, now)
        # Standing still (no sign of a move towards any room, through a door or not): a loss of
        # the current room is not evidence, so it counts at its usual level.
        still = max(self._motion_until, self._deep_fall_until) < now and all(
            u < now for u in self._moved.values()
        )
        if not still or self._still_since is None:
            self._still_since = None if not still else now
        self.state.still_since = self._still_since
        self._spot.update(self._trail, self._beacon_trail, self._still_since, current, levels, now)
        self.state.reference_since = self._spot.since
        usual = self._usual_scores(levels, current, now) if still else {}
        self.posterior.step(dt, self._evidence(score, current, usual), hazard)
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
        if held < self._dwell(now):
            return None
        self.state.auto_room = best
        self.state.candidate = None
        self.state.candidate_since = None
        if s.startup_settle and self._starting(now):
            self.posterior.settle(best, -math.log(s.hazard_still_per_s))
        elif s.arrival_margin and best is not None:
            self._arrive(best, levels, now)
        if self.state.override_active:
            return None  # the override holds; the automatic room is remembered for later
        moving = best in self.state.moving
        return self._auto_switch(current, best, levels, held, probability, moving, now)

    def _arrive(self, room: str, levels: dict[str, _RoomLevel], now: float) -> None:
        """Note what the rooms read when the appliance was switched into ``room``.

        Carried into a room, every link changed on the way in: the room entered rose, and so
        did the room beyond it, whose beacons read through the far wall. The signs of that walk
        are remembered for a while after the switch (a rise is measured against the high end of
        the last two minutes, mostly the previous room's bench, and then kept for
        ``move_memory_s``), so a room beyond still had the moving margin (0 dB) and a person in
        front of the entered room's beacon at its bench handed it the room. Only rooms reading
        well under the room entered (by more than ``evidence_margin_db``) are noted: one
        reading about as strong, or stronger, may be where the walk is going (a room passed
        on the way, or a wrong first choice), and keeps the moving margin.
        """
        entered = levels[room].level_db if room in levels else math.inf
        margin = self.settings.evidence_margin_db
        self._arrived_at = now
        self._arrival_levels = {
            k: v.level_db for k, v in levels.items() if k != room and v.level_db < entered - margin
        }

    def _arrival_holds(self, key: str, levels: dict[str, _RoomLevel], now: float) -> bool:
        """Whether ``key``'s move is only the walk into the current room (``arrival_margin``).

        It is while the signs seen before the switch can last — the previous bench's readings
        hold the top (1 - ``rise_quantile``) of the motion window for that share of it after the
        switch, plus the lag, and a sign is remembered ``move_memory_s`` more — and ``key`` has
        not risen ``rise_db`` over its level at the switch since (a new move towards it), and
        the room entered did not fall ``passed_fall_db`` within ``motion_lag_s`` of the switch
        (carried through it at walking pace; a person stepping in front of its beacon later is
        no walk).
        """
        s = self.settings
        arrived = self._arrival_levels.get(key)
        if not s.arrival_margin or self._arrived_at is None or arrived is None:
            return False
        lasting = (1.0 - s.rise_quantile) * s.motion_window_s + s.motion_lag_s + s.move_memory_s
        if now - self._arrived_at >= lasting:
            return False
        if key not in levels or levels[key].level_db - arrived >= s.rise_db:
            return False
        trail = self._trail.get(self.state.auto_room or "")
        span = self._arrived_at + s.motion_lag_s
        first = [p for t, p in trail or () if self._arrived_at <= t <= span]
        # Passed through: a fall of passed_fall_db under the highest level so far in that span.
        peaks = itertools.accumulate(first, max)
        return not any(peak - p >= s.passed_fall_db for peak, p in zip(peaks, first, strict=True))

    def _starting(self, now: float) -> bool:
        """Whether the engine is in its first ``startup_s`` (little history, no firm prior)."""
        return (
            self._started is not None
            and not self._startup_over
            and now - self._started < self.settings.startup_s
        )

    def _dwell(self, now: float) -> float:
        """Seconds a new state must hold the switch threshold: longer during start-up."""
        s = self.settings
        return max(s.dwell_s, s.startup_dwell_s) if self._starting(now) else s.dwell_s

    def _levels(self, readings: list[BeaconReading]) -> dict[str, _RoomLevel]:
        """Per room with a heard beacon: the soft maximum of its beacons' proximity."""
        temperature = self.settings.combine_db
        heard: dict[str, list[BeaconReading]] = {}
        for reading in readings:
            if reading.silent or reading.proximity_db is None or reading.room is None:
                continue
            heard.setdefault(reading.room, []).append(reading)
        levels: dict[str, _RoomLevel] = {}
        for room, beacons in heard.items():
            top = max(beacons, key=lambda r: r.proximity_db or -math.inf)
            peak = top.proximity_db or 0.0
            spread = sum(math.exp(((r.proximity_db or 0.0) - peak) / temperature) for r in beacons)
            levels[room] = _RoomLevel(room, peak + temperature * math.log(spread), top)
        return levels

    def _scores(self, levels: dict[str, _RoomLevel]) -> dict[str | None, float]:
        """Each state's score (dB): how far its room's level lies above its "no room" level."""
        score: dict[str | None, float] = {None: 0.0}
        for key in self.plan.rooms:
            level = levels.get(key)
            score[key] = (
                -self.settings.silent_db if level is None else level.level_db - self._none_db(key)
            )
        return score

    def _evidence(
        self,
        score: dict[str | None, float],
        current: str | None,
        usual: dict[str | None, float] | None = None,
    ) -> dict[str | None, float]:
        """Log-likelihood rate (nats/s) of each state relative to the current one (which gets 0).

        A state's *score* is how far its room's level lies above the level at which "no room"
        explains the beacons as well (``none_margin_db`` beyond the radius); "no room" scores 0, a
        room whose beacons are all silent ``-silent_db``. Another state gains
        ``(its score - the current's score - evidence_margin_db) / evidence_db`` nats per second
        (at most ``evidence_cap`` either way): a lead smaller than the margin *loses* evidence, so
        a permanent few dB of shadowing, or the remains of a past blockage, never pile up.
        While the appliance stands still, a rival in ``usual`` is measured against that score of
        the current room instead (its usual level, :meth:`_usual_scores`) when it is higher.
        """
        s = self.settings
        mine = score[current]
        usual = usual or {}
        rates: dict[str | None, float] = {}
        for key, value in score.items():
            margin = self._margin(key, current, score)
            base = max(mine, usual.get(key, -math.inf))
            rates[key] = 0.0 if key == current else (value - base - margin) / s.evidence_db
        # Cap the fastest rival at evidence_cap, shifting the others with it so they keep their
        # order (two rooms both far better than "no room" must not tie at the cap).
        excess = max(0.0, max(rates.values()) - s.evidence_cap)
        return {
            key: 0.0 if key == current else max(-s.evidence_cap, rate - excess)
            for key, rate in rates.items()
        }

    def _usual_scores(
        self, levels: dict[str, _RoomLevel], current: str | None, now: float
    ) -> dict[str | None, float]:
        """Rivals to measure against the current room's usual level, with that score.

        Standing still, a room's *usual level* is the high end (``rise_quantile``) of its levels
        since the standstill began (within the motion window): what its beacons read here when
        nobody stands in front of them. A person only takes signal away, for seconds, so while
        a rival reads no more than ``standstill_rise_db`` over its own median since then the
        current room counts at its usual level against it: a body, or two one after the other, in front of
        its beacon hands no rival a lead. A rival that rose over its median changed by itself
        (the appliance was carried towards it, unseen by the move signs): then the current room
        counts as it reads. A fall that lasts most of the window becomes the usual level and counts.
        Standing for less than half the motion window (as for a beacon's rise), nothing is usual
        yet: the rule waits. In "no room" there is no current level to count at its usual one;
        :meth:`_usual_from_no_room` holds the rooms that did not rise instead.
        """
        s = self.settings
        if self._still_since is None or now - self._still_since < s.motion_window_s / 2:
            return {}  # standing for too short a time to know what is usual here
        if current is None:
            return self._usual_from_no_room(levels) if s.standstill_no_room else {}
        if not s.standstill_usual_level or current not in levels:
            return {}
        high = self._usual_level(current)
        if high is None:
            return {}
        score = high - self._none_db(current)
        usual: dict[str | None, float] = {None: score}
        for key, level in levels.items():
            if key == current:
                continue
            typical = self._usual_level(key, 0.5)
            if typical is not None and level.level_db - typical <= s.standstill_rise_db:
                usual[key] = score
        return usual

    def _usual_from_no_room(self, levels: dict[str, _RoomLevel]) -> dict[str | None, float]:
        """Standing still in "no room": the rooms that did not rise, with their own score.

        Measured against its own score, such a room gains no evidence (it still loses it while
        it reads under the entry margin). Nothing about the spot changes while the appliance
        stands still, and "no room" has no level of its own that could change: a room is
        entered only once it reads more than ``standstill_rise_db`` over its median since the
        standstill began (it was neared: a walk into a room always shows a rise) or on a sign
        of a move. Otherwise small upward excursions (drift, fading) just over the entry margin
        add up over many minutes into a held lead, though the readings say what they said when
        "no room" was decided.
        """
        usual: dict[str | None, float] = {}
        for key, level in levels.items():
            typical = self._usual_level(key, 0.5)
            if typical is not None and level.level_db - typical <= self.settings.standstill_rise_db:
                usual[key] = level.level_db - self._none_db(key) - self.settings.enter_margin_db
        return usual

    def _usual_level(self, room: str, quantile: float | None = None) -> float | None:
        """A quantile (default ``rise_quantile``) of a room's levels since the standstill began."""
        trail = self._trail.get(room)
        since = self._still_since
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

    def _margin(
        self, key: str | None, current: str | None, score: dict[str | None, float]
    ) -> float:
        """dB by which ``key`` must out-score the current state before it gains evidence.

        Hysteresis: a room is entered from "no room" only ``enter_margin_db`` nearer than where
        it is left for "no room" (``none_margin_db`` beyond its radius); between rooms the margin
        is ``evidence_margin_db``, or ``moving_margin_db`` towards a room the beacons show a move
        to. "No room" must also out-score every other heard room: with a room near, a weak
        current beacon is a reason to go there, not nowhere.
        """
        s = self.settings
        if current is None:
            return s.enter_margin_db
        if key is None:
            others = [v for k, v in score.items() if k is not None and k != current]
            return max(0.0, *others)
        if key not in self.state.moving:
            return s.evidence_margin_db
        if key in self.state.arrival:
            return s.evidence_margin_db  # the walk into the current room, not a move since
        return s.moving_margin_db

    def _hazards(
        self, levels: dict[str, _RoomLevel], current: str | None, now: float
    ) -> dict[str | None, float]:
        """Rate (1/s) of arriving in each state: raised where the beacons show a move."""
        s = self.settings
        for key in levels:
            rise = self._rise(key, now)
            if rise >= s.rise_db:
                self._rose[key] = now + s.move_memory_s
            if rise >= s.surge_db:
                self._surged[key] = now + s.move_memory_s
            if self._fall(key) >= s.fall_db:
                self._fell[key] = now + s.move_memory_s
        # The appliance moved towards a room when that room rose while the current one fell
        # (or went silent, or there is no current room), or when it rose a lot on its own (the
        # old room's beacon may read no weaker next door, shadowing being what it is). Each is
        # remembered for a while: the new room rises at once, the old one's smoothed value falls
        # at a limited rate.
        left = current is None or current not in levels or self._fell.get(current, -1.0) >= now
        for key in levels:
            if key == current:
                continue
            rose = self._rose.get(key, -1.0)
            if left and rose >= now:
                self._moved[key] = max(self._moved.get(key, -1.0), rose)
            surged = self._surged.get(key, -1.0)
            if surged >= now:
                self._moved[key] = max(self._moved.get(key, -1.0), surged)
        # A fall deeper than any person can cause is the appliance leaving, at once: towards
        # every room that now reads stronger than the old one.
        if (
            s.deep_fall_db > 0.0
            and current is not None
            and current in levels
            and self._fall(current) >= s.deep_fall_db
        ):
            # No body costs that much: the appliance is not standing still, even when no room
            # reads stronger (carried out of every room).
            self._deep_fall_until = now + s.move_memory_s
            for key, level in levels.items():
                if key != current and level.level_db > levels[current].level_db:
                    self._moved[key] = max(self._moved.get(key, -1.0), now + s.move_memory_s)
        for key in self._startup_moves(levels, current, now):
            self._moved[key] = max(self._moved.get(key, -1.0), now + s.move_memory_s)
        self._lasting = self._lasting_fall(levels, current, now)
        for key in self._lasting:
            self._moved[key] = max(self._moved.get(key, -1.0), now)
        for key in self._joint_fall(levels, current) | self._beacon_rise_moves(
            levels, current, now
        ):
            self._moved[key] = max(self._moved.get(key, -1.0), now)
        # A move goes through doors: not straight into a room the rooms file says the current
        # one does not open into (a room behind the next one can read strong through a wall).
        moving: list[str | None] = [
            k
            for k, until in self._moved.items()
            if until >= now and k != current and self._reachable(current, k, levels, now)
        ]
        self.state.moving = moving
        hazard: dict[str | None, float] = dict.fromkeys(self.plan.rooms, s.hazard_still_per_s)
        for target in moving:
            hazard[target] = s.hazard_moving_per_s
        # "No room" comes quickly only when the current room went silent; a weak but heard
        # beacon is more often a body in the way than the appliance carried off, and leaves
        # only through a lead held for long.
        away = current is not None and current not in levels
        hazard[None] = s.hazard_moving_per_s if away else s.hazard_still_per_s
        if away:
            moving.append(None)
        return hazard

    def _startup_moves(
        self, levels: dict[str, _RoomLevel], current: str | None, now: float
    ) -> set[str]:
        """Rooms moved to during start-up, before a room's rise can be measured (revision 8).

        While ``startup_rise_s`` holds the rise back, a room that now reads ``startup_move_db``
        over the high end (``rise_quantile``) of its levels since the start, while the current
        room fell ``fall_db`` under its median, is a move all the same: two links changed at
        once, one by far more than the ordinary rise asks, and a body only takes signal away.
        The move is towards that room and, for ``move_memory_s``, every room leading the
        current one (as after a beacon's rise). Such a move also ends start-up
        (:meth:`_starting`): the appliance is being carried, so the new room needs neither the
        start-up dwell nor a settled first decision.
        """
        s = self.settings
        if (
            s.startup_move_db <= 0.0
            or current is None
            or self._started is None
            or not self._starting(now)
            or self._fell.get(current, -1.0) < now
        ):
            return set()
        earliest = self._started + s.motion_lag_s
        q = s.rise_quantile
        moved: set[str] = set()
        for key, level in levels.items():
            trail = self._trail.get(key)
            if key == current or not trail or trail[0][0] > earliest:
                continue  # newly heard rooms are moves already (:meth:`_rise`)
            before = sorted(p for t, p in trail if earliest <= t <= now - s.motion_lag_s)
            if before and level.level_db - sorted_quantile(before, q) >= s.startup_move_db:
                moved.add(key)
        if moved:
            # Carried: the room that rose may lie behind the one entered (through a wall), so,
            # as after a beacon's rise, every room leading the current one over the next
            # ``move_memory_s`` may be the room moved to, and the evidence picks.
            self._startup_over = True
            self._motion_until = max(self._motion_until, now + s.move_memory_s)
            self._startup_move_until = now + s.move_memory_s
        return moved

    def _leading(self, levels: dict[str, _RoomLevel], current: str | None) -> set[str]:
        """Rooms whose level now exceeds the current room's (none without a heard current)."""
        if current is None or current not in levels:
            return set()
        mine = levels[current].level_db
        return {k for k, v in levels.items() if k != current and v.level_db > mine}

    def _joint_fall(self, levels: dict[str, _RoomLevel], current: str | None) -> set[str]:
        """Rooms moved to by the sign "the current room and another fell together" (if enabled).

        One person does not stand in two lines of sight at once; a move changes every link. Off
        by default: in the simulator it also fires on two independent blockages at once (figures
        in decision 0006).
        """
        s = self.settings
        leading = self._leading(levels, current)
        if s.joint_fall_db <= 0.0 or not leading or self._fall(current or "") < s.lasting_fall_db:
            return set()
        fell = {k for k in levels if k != current and self._fall(k) >= s.joint_fall_db}
        return {k for k in leading if k not in fell and fell - {k}}

    def _beacon_rise_moves(
        self, levels: dict[str, _RoomLevel], current: str | None, now: float
    ) -> set[str]:
        """Rooms moved to because some beacon rose beyond anything it read lately.

        A body only takes signal away; a beacon reading ``beacon_rise_db`` over the high end of
        its own last two minutes means the appliance is being carried, wherever that beacon
        stands (often a third room's). While that is remembered, every room leading the current
        one may be the room moved to; the evidence picks which.
        """
        s = self.settings
        if s.beacon_rise_db <= 0.0:
            return set()
        risen = sum(
            1 for beacon in self._beacon_trail if self._beacon_rise(beacon, now) >= s.beacon_rise_db
        )
        if risen >= s.beacon_rise_count:
            self._motion_until = now + s.move_memory_s
        return self._leading(levels, current) if self._motion_until >= now else set()

    def _reachable(
        self, current: str | None, key: str, levels: dict[str, _RoomLevel], now: float
    ) -> bool:
        """Whether a move from ``current`` straight into ``key`` can be believed.

        Always, unless the rooms file says the two do not open into each other (``next_to``); then
        only once the beacons show the appliance passed through a room between them: that room's
        level fell ``passed_fall_db`` from its peak in the last ``move_memory_s`` (carried through
        a room, its beacons rise and fall again), or it was heard then and is silent now.
        """
        if current is None or self.plan.adjacent(current, key):
            return True
        s = self.settings
        for between in self.plan.rooms:
            if between in (current, key):
                continue
            if not (self.plan.adjacent(current, between) and self.plan.adjacent(between, key)):
                continue
            trail = self._trail.get(between)
            if trail is None or between not in levels:
                return True  # heard on the way, silent now: passed
            recent = [p for t, p in trail if t >= now - s.move_memory_s]
            if recent and max(recent) - levels[between].level_db >= s.passed_fall_db:
                return True
        return False

    def _lasting_fall(
        self, levels: dict[str, _RoomLevel], current: str | None, now: float
    ) -> set[str]:
        """Rooms the appliance moved to slowly: the current room fell for good, and they rose.

        Shadowing can leave a room's beacons reading barely stronger inside it than they did from
        next door, so the rise never reaches ``rise_db``; what does show is the old room falling
        away. A fall alone is also what a person in front of the beacon looks like, so it counts
        only once every level of the current room in the last ``lasting_fall_s`` (longer than
        such a blockage) lay ``lasting_fall_db`` under its median before, and only towards a room
        that now leads it and whose median over that time rose ``lasting_rise_db`` over the upper
        quartile of its earlier levels (a blocked beacon alone moves no other room's level).
        """
        s = self.settings
        if current is None or current not in levels or s.lasting_fall_s <= 0.0:
            return set()
        split = now - s.lasting_fall_s
        trail = self._trail.get(current)
        if not trail or trail[0][0] > split - _LASTING_REFERENCE_S:
            return set()
        before = [p for t, p in trail if t < split]
        recent = [p for t, p in trail if t >= split]
        if not before or not recent:
            return set()
        if max(recent) > statistics.median(before) - s.lasting_fall_db:
            return set()
        rooms: set[str] = set()
        for key, level in levels.items():
            if key == current or level.level_db <= levels[current].level_db:
                continue
            rival = self._trail.get(key, ())
            earlier = sorted(p for t, p in rival if t < split)
            later = [p for t, p in rival if t >= split]
            if not earlier or not later:
                continue
            upper = sorted_quantile(earlier, 0.75)
            usual = self._spot.reference(key, 0.75, now)
            if usual is not None:
                upper = max(upper, usual)
            if statistics.median(later) - upper >= s.lasting_rise_db:
                rooms.add(key)
        return rooms

    def _remember(self, levels: dict[str, _RoomLevel], now: float) -> None:
        horizon = now - self.settings.motion_window_s
        for key, level in levels.items():
            trail = self._trail.get(key)
            if trail is None:
                trail = self._trail[key] = LevelTrail()
            trail.append(now, level.level_db)
        for key, trail in list(self._trail.items()):
            trail.prune(horizon)
            if not trail:
                del self._trail[key]

    def _remember_beacons(self, readings: list[BeaconReading], now: float) -> None:
        if self.settings.beacon_rise_db <= 0.0:
            return
        horizon = now - self.settings.motion_window_s
        for reading in readings:
            if reading.silent or reading.proximity_db is None or reading.room is None:
                continue
            trail = self._beacon_trail.get(reading.beacon_id)
            if trail is None:
                trail = self._beacon_trail[reading.beacon_id] = LevelTrail()
            trail.append(now, reading.proximity_db)
        for key, trail in list(self._beacon_trail.items()):
            trail.prune(horizon)
            if not trail:
                del self._beacon_trail[key]

    def _beacon_rise(self, beacon: str, now: float) -> float:
        """dB one beacon now exceeds the high end of its earlier readings (-inf if too new)."""
        s = self.settings
        trail = self._beacon_trail[beacon]
        if trail[0][0] > now - s.motion_window_s / 2 or trail[-1][0] < now - s.tick_s:
            return -math.inf
        values = trail.sorted_until(now - s.motion_lag_s)
        if not values:
            return -math.inf
        reference = sorted_quantile(values, s.rise_quantile)
        usual = self._spot.reference(beacon, s.rise_quantile, now, beacon=True)
        if usual is not None:
            reference = max(reference, usual)
        return trail[-1][1] - reference

    def _rise(self, room: str, now: float) -> float:
        """dB the room's level now exceeds the high end of its earlier levels (inf if new).

        The high end, not the median: a beacon recovering from a blockage returns to a level it
        already had before it, which is no move. "Earlier" leaves out the last ``motion_lag_s``,
        which hold the rise itself when the appliance is carried in at walking pace.
        """
        s = self.settings
        trail = self._trail.get(room)
        if not trail:
            return math.inf
        started = self._started if self._started is not None else now
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
        usual = self._spot.reference(room, s.rise_quantile, now)
        if usual is not None:
            reference = max(reference, usual)
        return trail[-1][1] - reference

    def _fall(self, room: str) -> float:
        """dB the room's level now lies under its median over the motion window."""
        trail = self._trail.get(room)
        if not trail:
            return math.inf
        return trail.median() - trail[-1][1]

    # -- helpers ------------------------------------------------------------------------------

    def _auto_switch(
        self,
        previous: str | None,
        target: str | None,
        levels: dict[str, _RoomLevel],
        held: float,
        probability: float,
        moving: bool,
        now: float,
    ) -> RoomSwitch | None:
        why = "lasting fall" if target in self._lasting else "moving" if moving else "held lead"
        if self._starting(now):
            why += ", start-up"  # little history yet: the start-up rules applied
        elif moving and self._startup_move_until >= now:
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

    def _enter_db(self, room: str) -> float:
        """Level of a beacon at the room's radius (path-loss model)."""
        radius = self.plan.rooms[room].radius_m
        return -10.0 * self.settings.path_loss_exponent * math.log10(radius)

    def _none_db(self, room: str) -> float:
        """Level at which "no room" explains the room's beacons as well as the room does."""
        return self._enter_db(room) - self.settings.none_margin_db

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
