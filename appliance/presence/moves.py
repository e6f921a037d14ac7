"""Signs that the appliance is being carried, and the hazards of entering each state they set.

Standing still, a state is entered with the tiny hazard ``hazard_still_per_s``: only a lead held for
a long time switches. Once the beacons show a *move* towards a room, the hazard into it is
``hazard_moving_per_s`` and the evidence decides within seconds. The signs (decision 0006):

* *rise*: that room rose ``rise_db`` over the high end of its levels in the motion window while
  the current room fell ``fall_db`` (or went silent, or there is none), or ``surge_db`` on its
  own; remembered for ``move_memory_s``;
* *deep fall*: the current room fell ``deep_fall_db``, more than a body costs — towards every room
  now stronger; or every heard beacon of a room with two or more fell ``beacons_fall_db``
  under its own median (one person stands in one line of sight), or ``carried_fall_db`` while another room's beacon rose ``carried_rise_db`` (nobody adds
  signal) — then not towards a room just passed on the way (:meth:`MoveSigns.beacons_fell`);
* *lasting fall*: the current room stayed ``lasting_fall_db`` down for ``lasting_fall_s`` while
  that room rose ``lasting_rise_db`` (:meth:`MoveSigns.lasting_fall`);
* *beacon rise*: any one beacon rose ``beacon_rise_db`` over the high end of its own readings (a
  body only takes signal away), towards every room now leading the current one;
* *start-up move*: a room rose ``startup_move_db`` over its levels since the start
  while the current room fell, before the ordinary rise can be measured; it ends start-up.

A move is not believed straight into a room the rooms file says the current one does not open into
(``next_to``) until a room between them was passed (:meth:`MoveSigns.reachable`). "No room" is
entered quickly only when the current room's beacons all went silent.
"""

from __future__ import annotations

import statistics

from appliance.presence.levels import LevelMemory
from appliance.presence.records import RoomLevel
from appliance.presence.rooms import RoomsPlan
from appliance.presence.settings import PresenceSettings
from appliance.presence.startup import StartUp
from appliance.presence.trail import sorted_quantile

#: Seconds of the current room's levels before a lasting fall needed to call it a fall (the
#: median "before" must rest on more than the first moments of a stay).
_LASTING_REFERENCE_S = 20.0


class MoveSigns:
    """The move signs seen so far, each remembered until a time, and the hazards they raise."""

    def __init__(
        self,
        plan: RoomsPlan,
        settings: PresenceSettings,
        memory: LevelMemory,
        startup: StartUp,
    ) -> None:
        self.plan = plan
        self.settings = settings
        self.memory = memory
        self.startup = startup
        #: Room -> until when the evidence "the appliance moved towards it" holds.
        self.moved: dict[str, float] = {}
        #: Room -> until when "its level rose" / "its level fell" / "it surged" counts.
        self.rose: dict[str, float] = {}
        self.fell: dict[str, float] = {}
        self.surged: dict[str, float] = {}
        #: Rooms the current room's lasting fall points to at the last evaluation.
        self.lasting: set[str] = set()
        #: Until when "some beacon rose beyond anything it read lately" counts as a move.
        self.motion_until = -1.0
        #: Until when the current room's fall deeper than a body counts as the appliance moving.
        self.deep_fall_until = -1.0

    def still(self, now: float) -> bool:
        """Whether no sign of a move towards any room holds at ``now`` (standing still)."""
        return max(self.motion_until, self.deep_fall_until) < now and all(
            u < now for u in self.moved.values()
        )

    def hazards(
        self, levels: dict[str, RoomLevel], current: str | None, now: float
    ) -> tuple[dict[str | None, float], list[str | None]]:
        """Rate (1/s) of arriving in each state, and the states the beacons show a move to."""
        s = self.settings
        memory = self.memory
        for key in levels:
            rise = memory.rise(key, now, self.startup.started)
            if rise >= s.rise_db:
                self.rose[key] = now + s.move_memory_s
            if rise >= s.surge_db:
                self.surged[key] = now + s.move_memory_s
            if memory.fall(key) >= s.fall_db:
                self.fell[key] = now + s.move_memory_s
        # The appliance moved towards a room when that room rose while the current one fell
        # (or went silent, or there is no current room), or when it rose a lot on its own (the
        # old room's beacon may read no weaker next door, shadowing being what it is). Each is
        # remembered for a while: the new room rises at once, the old one's smoothed value falls
        # at a limited rate.
        left = current is None or current not in levels or self.fell.get(current, -1.0) >= now
        for key in levels:
            if key == current:
                continue
            rose = self.rose.get(key, -1.0)
            if left and rose >= now:
                self.moved[key] = max(self.moved.get(key, -1.0), rose)
            surged = self.surged.get(key, -1.0)
            if surged >= now:
                self.moved[key] = max(self.moved.get(key, -1.0), surged)
        # A fall deeper than any person can cause is the appliance leaving, at once: towards
        # every room that now reads stronger than the old one.
        if (
            s.deep_fall_db > 0.0
            and current is not None
            and current in levels
            and (memory.fall(current) >= s.deep_fall_db or self.beacons_fell(current, now))
        ):
            # No body costs that much: the appliance is not standing still, even when no room
            # reads stronger (carried out of every room).
            self.deep_fall_until = now + s.move_memory_s
            # Seen only on the beacons, the fall comes early on a walk, often while the room
            # passed on the way still reads strongest: it is not the room moved to.
            by_beacons = memory.fall(current) < s.deep_fall_db
            for key, level in levels.items():
                if key == current or level.level_db <= levels[current].level_db:
                    continue
                if by_beacons and self.passed(key, levels, now):
                    continue
                self.moved[key] = max(self.moved.get(key, -1.0), now + s.move_memory_s)
        for key in self.startup_moves(levels, current, now):
            self.moved[key] = max(self.moved.get(key, -1.0), now + s.move_memory_s)
        self.lasting = self.lasting_fall(levels, current, now)
        for key in self.lasting:
            self.moved[key] = max(self.moved.get(key, -1.0), now)
        for key in self.beacon_rise_moves(levels, current, now):
            self.moved[key] = max(self.moved.get(key, -1.0), now)
        # A move goes through doors: not straight into a room the rooms file says the current
        # one does not open into (a room behind the next one can read strong through a wall).
        moving: list[str | None] = [
            k
            for k, until in self.moved.items()
            if until >= now and k != current and self.reachable(current, k, levels, now)
        ]
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
        return hazard, moving

    def startup_moves(
        self, levels: dict[str, RoomLevel], current: str | None, now: float
    ) -> set[str]:
        """Rooms moved to during start-up, before a room's rise can be measured.

        While ``startup_rise_s`` holds the rise back, a room that now reads ``startup_move_db``
        over the high end (``rise_quantile``) of its levels since the start, while the current
        room fell ``fall_db`` under its median, is a move all the same: two links changed at
        once, one by far more than the ordinary rise asks, and a body only takes signal away.
        The move is towards that room and, for ``move_memory_s``, every room leading the
        current one (as after a beacon's rise). Such a move also ends start-up
        (:meth:`StartUp.starting`): the appliance is being carried, so the new room needs neither
        the start-up dwell nor a settled first decision.
        """
        s = self.settings
        started = self.startup.started
        if (
            s.startup_move_db <= 0.0
            or current is None
            or started is None
            or not self.startup.starting(now)
            or self.fell.get(current, -1.0) < now
        ):
            return set()
        earliest = started + s.motion_lag_s
        q = s.rise_quantile
        moved: set[str] = set()
        for key, level in levels.items():
            trail = self.memory.rooms.get(key)
            if key == current or not trail or trail[0][0] > earliest:
                continue  # newly heard rooms are moves already (LevelMemory.rise)
            before = sorted(p for t, p in trail if earliest <= t <= now - s.motion_lag_s)
            if before and level.level_db - sorted_quantile(before, q) >= s.startup_move_db:
                moved.add(key)
        if moved:
            # Carried: the room that rose may lie behind the one entered (through a wall), so,
            # as after a beacon's rise, every room leading the current one over the next
            # ``move_memory_s`` may be the room moved to, and the evidence picks.
            self.startup.over = True
            self.motion_until = max(self.motion_until, now + s.move_memory_s)
            self.startup.move_until = now + s.move_memory_s
        return moved

    @staticmethod
    def leading(levels: dict[str, RoomLevel], current: str | None) -> set[str]:
        """Rooms whose level now exceeds the current room's (none without a heard current)."""
        if current is None or current not in levels:
            return set()
        mine = levels[current].level_db
        return {k for k, v in levels.items() if k != current and v.level_db > mine}

    def beacons_fell(self, room: str, now: float) -> bool:
        """Whether every heard beacon (two or more) of ``room`` fell further than bodies explain.

        Each is measured under the median of its own readings over the motion window. A body
        takes one line of sight (8-14 dB); a room's level, the soft maximum of its beacons, then
        falls only to its other beacon's, so the room's deep fall rarely fires for a body — nor
        for the appliance leaving, when its beacons are far apart in level. Every beacon down
        ``beacons_fall_db``, more than a body costs, is the appliance carried away. Every beacon
        down ``carried_fall_db`` is that too when some beacon of another room rose at the same
        time: two people may stand in front of the room's two beacons, but nobody
        makes a third beacon read stronger. A silent beacon is not counted: a dying battery is
        no move.
        """
        s = self.settings
        if s.beacons_fall_db <= 0.0 and s.carried_fall_db <= 0.0:
            return False  # both off: nothing to measure, every evaluation
        fall = self.beacons_fall(room, now)
        if fall is None:
            return False
        if s.beacons_fall_db > 0.0 and fall >= s.beacons_fall_db:
            return True
        return 0.0 < s.carried_fall_db <= fall and self.other_beacon_rose(room, now)

    def beacons_fall(self, room: str, now: float) -> float | None:
        """The least fall (dB under its own median) of ``room``'s heard beacons, or None.

        None: the room has fewer than two beacons heard now, or one of them is too new here to
        know its usual level.
        """
        s = self.settings
        plan_room = self.plan.rooms.get(room)
        if plan_room is None or len(plan_room.beacons) < 2:
            return None
        falls: list[float] = []
        for spec in plan_room.beacons:
            trail = self.memory.beacons.get(spec.beacon_id)
            if not trail or trail[-1][0] < now - s.tick_s:
                continue  # silent now (or never heard): neither for nor against
            if trail[0][0] > now - s.motion_window_s / 2:
                return None  # too new to know its usual level here
            falls.append(trail.median() - trail[-1][1])
        return min(falls) if len(falls) >= 2 else None

    def other_beacon_rose(self, room: str, now: float) -> bool:
        """Whether a beacon of a room other than ``room`` rose ``carried_rise_db`` (beacon rise)."""
        memory = self.memory
        for beacon_id in memory.beacons:
            spec = self.plan.beacons.get(beacon_id)
            if spec is None or spec.room == room:
                continue
            if memory.beacon_rise(beacon_id, now) >= self.settings.carried_rise_db:
                return True
        return False

    def beacon_rise_moves(
        self, levels: dict[str, RoomLevel], current: str | None, now: float
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
        memory = self.memory
        risen = sum(
            1 for beacon in memory.beacons if memory.beacon_rise(beacon, now) >= s.beacon_rise_db
        )
        if risen >= s.beacon_rise_count:
            self.motion_until = now + s.move_memory_s
        return self.leading(levels, current) if self.motion_until >= now else set()

    def reachable(
        self, current: str | None, key: str, levels: dict[str, RoomLevel], now: float
    ) -> bool:
        """Whether a move from ``current`` straight into ``key`` can be believed.

        Always, unless the rooms file says the two do not open into each other (``next_to``); then
        only once the beacons show the appliance passed through a room between them: that room's
        level fell ``passed_fall_db`` from its peak in the last ``move_memory_s`` (carried through
        a room, its beacons rise and fall again), or it was heard then and is silent now.
        """
        if current is None or self.plan.adjacent(current, key):
            return True
        for between in self.plan.rooms:
            if between in (current, key):
                continue
            if not (self.plan.adjacent(current, between) and self.plan.adjacent(between, key)):
                continue
            if self.passed(between, levels, now):
                return True
        return False

    def passed(self, room: str, levels: dict[str, RoomLevel], now: float) -> bool:
        """Whether the appliance was carried through ``room`` lately and is leaving it.

        Its level fell ``passed_fall_db`` from its peak over the last ``move_memory_s`` (carried
        through a room, its beacons rise and fall again), or it was heard then and is silent now.
        """
        trail = self.memory.rooms.get(room)
        if trail is None or room not in levels:
            return True  # heard on the way, silent now: passed
        s = self.settings
        recent = [p for t, p in trail if t >= now - s.move_memory_s]
        return bool(recent) and max(recent) - levels[room].level_db >= s.passed_fall_db

    def lasting_fall(
        self, levels: dict[str, RoomLevel], current: str | None, now: float
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
        trail = self.memory.rooms.get(current)
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
            rival = self.memory.rooms.get(key, ())
            earlier = sorted(p for t, p in rival if t < split)
            later = [p for t, p in rival if t >= split]
            if not earlier or not later:
                continue
            upper = sorted_quantile(earlier, 0.75)
            usual = self.memory.spot.reference(key, 0.75, now)
            if usual is not None:
                upper = max(upper, usual)
            if statistics.median(later) - upper >= s.lasting_rise_db:
                rooms.add(key)
        return rooms
