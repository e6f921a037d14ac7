"""What each room and beacon reads at the spot where the appliance stands still.

Standing still for longer than the motion window, a rise is measured against what the room (or
beacon) read here since the standstill began, when that is higher than its last two minutes: a
beacon coming back from blockages that covered most of the window is no move. The spot counts as
the same until the current room and another room both read far from their usual levels — a person
in front of a beacon changes one link and only takes signal away; a carried appliance changes
every link (decision 0006).
"""

from __future__ import annotations

import math
from collections.abc import Collection

from appliance.presence.settings import PresenceSettings
from appliance.presence.trail import LevelHistogram, LevelTrail, sorted_quantile


class SpotReference:
    """The levels each room and beacon read at this spot, in bounded histograms."""

    def __init__(self, settings: PresenceSettings) -> None:
        self.settings = settings
        self._rooms: dict[str, LevelHistogram] = {}
        self._beacons: dict[str, LevelHistogram] = {}
        self._counted = -math.inf
        #: Since when levels are counted: the standstill's start, or the last moment the spot
        #: could not be taken for the same (None while moving).
        self.since: float | None = None

    def update(
        self,
        rooms: dict[str, LevelTrail],
        beacons: dict[str, LevelTrail],
        still_since: float | None,
        current: str | None,
        heard: Collection[str],
        now: float,
    ) -> None:
        """Count each room's and beacon's levels since the spot was last known (if enabled).

        ``rooms`` and ``beacons`` are the engine's level trails, ``heard`` the rooms with a level
        now. Levels enter once they are older than the rise's lag and the lasting fall's span, so
        the reference never holds the change it is compared with. The count starts when the
        standstill begins and starts again whenever :meth:`same_spot` finds the appliance moved,
        and while in "no room" (no level to check).
        """
        s = self.settings
        if not s.standstill_reference:
            return
        if still_since is None or current is None or not self.same_spot(rooms, current, heard, now):
            self._rooms.clear()
            self._beacons.clear()
            self._counted = -math.inf
            self.since = None if still_since is None else now
            return
        if self.since is None:
            self.since = still_since
        cutoff = now - max(s.motion_lag_s, s.lasting_fall_s)
        for trails, counts in ((rooms, self._rooms), (beacons, self._beacons)):
            for key, trail in trails.items():
                histogram = counts.get(key)
                if histogram is None:
                    histogram = counts[key] = LevelHistogram()
                index = len(trail) - 1
                # Newest first, and only the few pairs that passed the cutoff since the last call.
                while index >= 0 and trail[index][0] > cutoff:
                    index -= 1
                while index >= 0 and trail[index][0] > self._counted:
                    t, level = trail[index]
                    if t >= self.since:
                        histogram.add(level)
                    index -= 1
        self._counted = max(self._counted, cutoff)

    def same_spot(
        self, rooms: dict[str, LevelTrail], current: str, heard: Collection[str], now: float
    ) -> bool:
        """Whether the appliance still stands where the counted levels were read.

        The spot counts as changed only when the current room reads away from its usual level
        and another room does too (:meth:`drift`): after a missed entry the old room fell far
        under its usual level and the new one rose far over its own. The current room alone away
        is a person sitting in front of its beacon (for any length of time): the reference stays.
        Its beacons all silent, nothing says the spot is the same: the count restarts.
        """
        s = self.settings
        if current not in heard:
            return False
        limit = s.standstill_reference_db
        if abs(self.drift(rooms, current, s.rise_quantile, now)) <= limit:
            return True
        for key in heard:
            if key == current:
                continue
            # Another room rose over what it usually read here (its median: its own high end
            # may hold the first seconds of an approach), or fell under its high end.
            if (
                self.drift(rooms, key, 0.5, now) > limit
                or self.drift(rooms, key, s.rise_quantile, now) < -limit
            ):
                return False
        return True

    def drift(self, rooms: dict[str, LevelTrail], room: str, quantile: float, now: float) -> float:
        """dB the high end (``rise_quantile``) of the room's levels over the last
        ``standstill_reference_check_s`` lies over the ``quantile`` of its counted levels (0
        while nothing is counted or heard lately).

        The high end over half a minute is where a passing person (seconds) leaves it.
        """
        s = self.settings
        histogram = self._rooms.get(room)
        usual = histogram.quantile(quantile) if histogram else None
        trail = rooms.get(room)
        if usual is None or not trail:
            return 0.0
        recent = sorted(p for t, p in trail if t >= now - s.standstill_reference_check_s)
        if not recent:
            return 0.0
        return sorted_quantile(recent, s.rise_quantile) - usual

    def reference(
        self, key: str, quantile: float, now: float, *, beacon: bool = False
    ) -> float | None:
        """A quantile of the room's (or ``beacon``'s) levels since the spot was last known, once
        that outlasts the motion window (``standstill_reference``); None otherwise.

        Standing still at the same spot, what a room read here before is what it reads without a
        body in the way, however long blockages hid it within the motion window.
        """
        s = self.settings
        if (
            not s.standstill_reference
            or self.since is None
            or now - self.since <= s.motion_window_s
        ):
            return None
        histogram = (self._beacons if beacon else self._rooms).get(key)
        # What the link usually reads here, not the top of minutes of drift (the longer the
        # standstill, the higher its upper quantiles climb over the window's).
        q = min(quantile, s.standstill_reference_quantile)
        return histogram.quantile(q) if histogram else None
