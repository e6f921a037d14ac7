"""A late correction of a room decided on a few seconds, once minutes at the spot say otherwise.

The first room after switching on is decided on ~10 s of readings (revision 7's start-up) and then
held as firmly as any decision: where shadowing and fading make the wrong room lead for those
seconds, it is kept for as long as the appliance stands there. Standing still for minutes gives
far more evidence about which room is strongest *on average*: fades and passing people come and
go, the spot stays. So while the appliance stands still, each state's score (its level over the
"no room" level, as the evidence uses it) is counted once per tick since the current state was
decided; once a rival room's median score has led the current state's by ``late_correction_db``
for ``late_correction_s`` on end, the engine switches to it once ("correction"). It fires at most
once per decision: a room entered by a correction is not corrected again until another switch
(decision 0006, revision 8).
"""

from __future__ import annotations

from appliance.presence.settings import PresenceSettings
from appliance.presence.trail import LevelHistogram


class LateCorrection:
    """Scores counted since the current decision while standing still; the rival they favour."""

    def __init__(self, settings: PresenceSettings) -> None:
        self.settings = settings
        self._scores: dict[str | None, LevelHistogram] = {}
        #: Rival -> since when its median score has led the current state's by the margin.
        self._lead_since: dict[str, float] = {}
        self._counted_at = -float("inf")
        self._since: float | None = None
        #: Whether the current decision was itself a correction (no second one on top of it).
        self._corrected = False

    def restart(self, *, corrected: bool = False) -> None:
        """Forget everything counted: the state changed (``corrected``: by a correction)."""
        self._scores.clear()
        self._lead_since.clear()
        self._counted_at = -float("inf")
        self._since = None
        self._corrected = corrected

    def update(
        self, scores: dict[str | None, float], current: str | None, still: bool, now: float
    ) -> str | None:
        """Count this moment's scores; the room to correct to, if one has led long enough.

        ``scores`` holds every state's score (rooms not heard at ``-silent_db``, "no room" at 0);
        counting stops and starts again whenever the appliance is not standing still (a move
        seen: the spot may have changed, so what was read before says nothing about it now).
        """
        s = self.settings
        if s.late_correction_s <= 0.0 or self._corrected or current is None:
            # Only a room is corrected: "no room" is left by the posterior's own rules, which
            # already refuse small excursions added up over minutes (revision 5).
            return None
        if not still:
            self._scores.clear()
            self._lead_since.clear()
            self._since = None
            return None
        if self._since is None:
            self._since = now
        # One count per tick, however often the engine is asked (the monitor also decides after
        # sightings): the medians weigh time, not calls.
        if now - self._counted_at >= s.tick_s:
            self._counted_at = now
            for key, value in scores.items():
                histogram = self._scores.get(key)
                if histogram is None:
                    histogram = self._scores[key] = LevelHistogram()
                histogram.add(value)
        mine = self._median(current)
        if mine is None or now - self._since < s.motion_window_s / 2:
            return None  # too little counted yet to call anything usual here
        best: tuple[float, str] | None = None
        for key in scores:
            if key is None or key == current:
                continue  # into "no room" only the ways the posterior already has
            theirs = self._median(key)
            if theirs is None or theirs - mine < s.late_correction_db:
                self._lead_since.pop(key, None)
                continue
            since = self._lead_since.setdefault(key, now)
            if now - since >= s.late_correction_s and (best is None or theirs > best[0]):
                best = (theirs, key)
        return None if best is None else best[1]

    def led_for(self, key: str, now: float) -> float:
        """Seconds the rival ``key`` has led by the margin (0 if it does not)."""
        since = self._lead_since.get(key)
        return 0.0 if since is None else now - since

    def _median(self, key: str | None) -> float | None:
        """The state's typical score since counting began (``late_correction_quantile``)."""
        histogram = self._scores.get(key)
        return histogram.quantile(self.settings.late_correction_quantile) if histogram else None
