"""Arriving in a room (``arrival_margin``): the walk in is no move to the room beyond.

Carried into a room, every link changed on the way in: the room entered rose, and so did the room
beyond it, whose beacons read through the far wall. The signs of that walk are remembered for a
while after the switch, so a room beyond would still have the moving margin (0 dB) and a person in
front of the entered room's beacon at its bench would hand it the room. :class:`Arrival` notes the
levels at the switch and tells which rivals are shown a move only by that walk: those need the
between-rooms margin while its signs can last.
"""

from __future__ import annotations

import itertools
import math

from appliance.presence.records import RoomLevel
from appliance.presence.settings import PresenceSettings
from appliance.presence.trail import LevelTrail


class Arrival:
    """The last automatic switch into a room and what the weaker rooms read then."""

    def __init__(self, settings: PresenceSettings) -> None:
        self.settings = settings
        #: When the last automatic switch into a room was made (None: none yet).
        self.at: float | None = None
        #: Level then of each room reading more than ``evidence_margin_db`` under the room entered.
        self.levels: dict[str, float] = {}

    def note(self, room: str, levels: dict[str, RoomLevel], now: float) -> None:
        """Note what the rooms read when the appliance was switched into ``room``.

        Only rooms reading well under the room entered (by more than ``evidence_margin_db``) are
        noted: one reading about as strong, or stronger, may be where the walk is going (a room
        passed on the way, or a wrong first choice), and keeps the moving margin.
        """
        entered = levels[room].level_db if room in levels else math.inf
        margin = self.settings.evidence_margin_db
        self.at = now
        self.levels = {
            k: v.level_db for k, v in levels.items() if k != room and v.level_db < entered - margin
        }

    def holds(
        self, key: str, levels: dict[str, RoomLevel], now: float, entered: LevelTrail | None
    ) -> bool:
        """Whether ``key``'s move is only the walk into the current room.

        It is while the signs seen before the switch can last — the previous bench's readings
        hold the top (1 - ``rise_quantile``) of the motion window for that share of it after the
        switch, plus the lag, and a sign is remembered ``move_memory_s`` more — and ``key`` has
        not risen ``rise_db`` over its level at the switch since (a new move towards it), and
        the room entered (its level trail ``entered``) did not fall ``passed_fall_db`` within
        ``motion_lag_s`` of the switch (carried through it at walking pace; a person stepping in
        front of its beacon later is no walk).
        """
        s = self.settings
        arrived = self.levels.get(key)
        if not s.arrival_margin or self.at is None or arrived is None:
            return False
        lasting = (1.0 - s.rise_quantile) * s.motion_window_s + s.motion_lag_s + s.move_memory_s
        if now - self.at >= lasting:
            return False
        if key not in levels or levels[key].level_db - arrived >= s.rise_db:
            return False
        span = self.at + s.motion_lag_s
        first = [p for t, p in entered or () if self.at <= t <= span]
        # Passed through: a fall of passed_fall_db under the highest level so far in that span.
        peaks = itertools.accumulate(first, max)
        return not any(peak - p >= s.passed_fall_db for peak, p in zip(peaks, first, strict=True))
