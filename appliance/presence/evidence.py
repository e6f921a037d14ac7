"""The evidence each state gains per second: scores, margins, and the usual level standing still.

A state's *score* is how far its room's level lies above the level at which "no room" explains its
beacons as well (``none_margin_db`` beyond its radius); "no room" scores 0, a room whose beacons are
all silent ``-silent_db``. A rival gains ``(its score - the current's - margin) / evidence_db``
nats/s (at most ``evidence_cap``), so a lead under the margin *loses* evidence and permanent
shadowing never piles up (:meth:`Evidence.margin`: hysteresis between rooms, towards a room being
moved to, into and out of "no room"). Standing still, a rival is measured against the
current room's *usual* level when it reads weaker now, unless the rival itself rose
``standstill_rise_db``; in "no room" a room that did not rise over its median gains no evidence
(:meth:`Evidence.usual_scores`).
"""

from __future__ import annotations

import math

from appliance.presence.levels import LevelMemory
from appliance.presence.records import RoomLevel
from appliance.presence.rooms import RoomsPlan
from appliance.presence.settings import PresenceSettings


class Evidence:
    """Turns room levels into each state's log-likelihood rate relative to the current state."""

    def __init__(self, plan: RoomsPlan, settings: PresenceSettings, memory: LevelMemory) -> None:
        self.plan = plan
        self.settings = settings
        self.memory = memory

    def enter_db(self, room: str) -> float:
        """Level of a beacon at the room's radius (path-loss model)."""
        radius = self.plan.rooms[room].radius_m
        return -10.0 * self.settings.path_loss_exponent * math.log10(radius)

    def none_db(self, room: str) -> float:
        """Level at which "no room" explains the room's beacons as well as the room does."""
        return self.enter_db(room) - self.settings.none_margin_db

    def scores(self, levels: dict[str, RoomLevel]) -> dict[str | None, float]:
        """Each state's score (dB): how far its room's level lies above its "no room" level."""
        score: dict[str | None, float] = {None: 0.0}
        for key in self.plan.rooms:
            level = levels.get(key)
            score[key] = (
                -self.settings.silent_db if level is None else level.level_db - self.none_db(key)
            )
        return score

    def rates(
        self,
        score: dict[str | None, float],
        current: str | None,
        moving: list[str | None],
        arrival: list[str],
        usual: dict[str | None, float] | None = None,
    ) -> dict[str | None, float]:
        """Log-likelihood rate (nats/s) of each state relative to the current one (which gets 0).

        Another state gains ``(its score - the current's score - margin) / evidence_db`` nats per
        second (at most ``evidence_cap`` either way): a lead smaller than the margin *loses*
        evidence, so a permanent few dB of shadowing, or the remains of a past blockage, never
        pile up. ``moving`` and ``arrival`` are the states the beacons show a move to and those
        held back on arrival (:meth:`margin`). While the appliance stands still, a rival in
        ``usual`` is measured against that score of the current room instead (its usual level,
        :meth:`usual_scores`) when it is higher.
        """
        s = self.settings
        mine = score[current]
        usual = usual or {}
        rates: dict[str | None, float] = {}
        for key, value in score.items():
            margin = self.margin(key, current, score, moving, arrival)
            base = max(mine, usual.get(key, -math.inf))
            rates[key] = 0.0 if key == current else (value - base - margin) / s.evidence_db
        # Cap the fastest rival at evidence_cap, shifting the others with it so they keep their
        # order (two rooms both far better than "no room" must not tie at the cap).
        excess = max(0.0, max(rates.values()) - s.evidence_cap)
        return {
            key: 0.0 if key == current else max(-s.evidence_cap, rate - excess)
            for key, rate in rates.items()
        }

    def margin(
        self,
        key: str | None,
        current: str | None,
        score: dict[str | None, float],
        moving: list[str | None],
        arrival: list[str],
    ) -> float:
        """dB by which ``key`` must out-score the current state before it gains evidence.

        Hysteresis: a room is entered from "no room" only ``enter_margin_db`` nearer than where
        it is left for "no room" (``none_margin_db`` beyond its radius); between rooms the margin
        is ``evidence_margin_db``, or ``moving_margin_db`` towards a room the beacons show a move
        to (``moving``) — unless it is held back on arrival (``arrival``). "No room" must also
        out-score every other heard room: with a room near, a weak current beacon is a reason to
        go there, not nowhere.
        """
        s = self.settings
        if current is None:
            return s.enter_margin_db
        if key is None:
            others = [v for k, v in score.items() if k is not None and k != current]
            return max(0.0, *others)
        if key not in moving:
            return s.evidence_margin_db
        if key in arrival:
            return s.evidence_margin_db  # the walk into the current room, not a move since
        return s.moving_margin_db

    def usual_scores(
        self,
        levels: dict[str, RoomLevel],
        current: str | None,
        still_since: float | None,
        now: float,
    ) -> dict[str | None, float]:
        """Rivals to measure against the current room's usual level, with that score.

        Standing still (since ``still_since``), a room's *usual level* is the high end
        (``rise_quantile``) of its levels since the standstill began (within the motion window):
        what its beacons read here when nobody stands in front of them. A person only takes
        signal away, for seconds, so while a rival reads no more than ``standstill_rise_db`` over
        its own median since then the current room counts at its usual level against it: a body,
        or two one after the other, in front of its beacon hands no rival a lead. A rival that
        rose over its median changed by itself (the appliance was carried towards it, unseen by
        the move signs): then the current room counts as it reads. A fall that lasts most of the
        window becomes the usual level and counts. Standing for less than half the motion window
        (as for a beacon's rise), nothing is usual yet: the rule waits. In "no room" there is no
        current level to count at its usual one; :meth:`usual_from_no_room` holds the rooms that
        did not rise instead.
        """
        s = self.settings
        if still_since is None or now - still_since < s.motion_window_s / 2:
            return {}  # standing for too short a time to know what is usual here
        if current is None:
            return self.usual_from_no_room(levels, still_since) if s.standstill_no_room else {}
        if not s.standstill_usual_level or current not in levels:
            return {}
        high = self.memory.usual_level(current, still_since)
        if high is None:
            return {}
        score = high - self.none_db(current)
        usual: dict[str | None, float] = {None: score}
        for key, level in levels.items():
            if key == current:
                continue
            typical = self.memory.usual_level(key, still_since, 0.5)
            if typical is not None and level.level_db - typical <= s.standstill_rise_db:
                usual[key] = score
        return usual

    def usual_from_no_room(
        self, levels: dict[str, RoomLevel], still_since: float
    ) -> dict[str | None, float]:
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
        s = self.settings
        usual: dict[str | None, float] = {}
        for key, level in levels.items():
            typical = self.memory.usual_level(key, still_since, 0.5)
            if typical is not None and level.level_db - typical <= s.standstill_rise_db:
                usual[key] = level.level_db - self.none_db(key) - s.enter_margin_db
        return usual
