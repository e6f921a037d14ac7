"""The engine's first minute: when it started, whether start-up still holds, the longer dwell.

In its first ``startup_s`` the engine has little history and no firm prior, so a switch needs
the posterior over the threshold for ``startup_dwell_s`` and the room decided then is settled.
A move seen during start-up (:meth:`~appliance.presence.moves.MoveSigns`'s start-up sign) ends it
early: the appliance is being carried.
"""

from __future__ import annotations

from appliance.presence.settings import PresenceSettings


class StartUp:
    """Start-up bookkeeping of one engine."""

    def __init__(self, settings: PresenceSettings) -> None:
        self.settings = settings
        #: When the first beacon was heard (None until then: start-up has not begun).
        self.started: float | None = None
        #: Whether a move seen during start-up ended it early.
        self.over = False
        #: Until when a switch counts as made on the move that ended start-up (its record says so).
        self.move_until = -1.0

    def starting(self, now: float) -> bool:
        """Whether the engine is in its first ``startup_s`` (little history, no firm prior)."""
        return (
            self.started is not None
            and not self.over
            and now - self.started < (self.settings.startup_s)
        )

    def dwell(self, now: float) -> float:
        """Seconds a new state must hold the switch threshold: longer during start-up."""
        s = self.settings
        return max(s.dwell_s, s.startup_dwell_s) if self.starting(now) else s.dwell_s
