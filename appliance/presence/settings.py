"""Settings of BLE presence and rooms."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from appliance.errors import ConfigError


@dataclass(frozen=True)
class PresenceSettings:
    """Scanner backend, the rooms file and the tuning of the room decision."""

    #: Scanner backend: bleak on BlueZ, or a replayed trace (development).
    backend: Literal["bleak", "trace", "off"] = "off"
    #: Rooms file (TOML); relative paths are resolved against the data dir.
    rooms_file: Path = Path("rooms.toml")
    #: Trace (JSONL) for the ``trace`` backend; unset = the development trace in the package.
    trace_file: Path | None = None
    #: Replay speed of the trace backend (1.0 = real time, 0 = as fast as possible).
    trace_speed: float = 1.0
    #: Start the trace again from the top when it ends (a development appliance keeps "moving").
    trace_loop: bool = True
    #: Active scanning asks beacons for scan responses; passive only listens (BlueZ needs
    #: advertisement monitor support for it, else the scanner falls back to active).
    scanning_mode: Literal["active", "passive"] = "active"
    #: BlueZ adapter name such as ``hci0``; empty = the default adapter.
    adapter: str = ""
    #: Seconds of RSSI history per beacon used for smoothing and the IQR outlier fence.
    window_s: float = 15.0
    #: Time constant (s) of the recency weighting inside the window; shorter reacts faster.
    smoothing_tau_s: float = 3.0
    #: A reading this many dB away from the smoothed value is an implausible jump...
    max_jump_db: float = 18.0
    #: ...unless this many consecutive readings agree on it (then the beacon really moved).
    jump_confirm: int = 4
    #: Fastest fall (dB/s) of a smoothed RSSI; rises are immediate (a drop is usually a body).
    max_fall_db_s: float = 3.0
    #: Path-loss exponent used to turn RSSI into metres (2 = free space, 2.5-3.5 indoors).
    path_loss_exponent: float = 2.5
    #: RSSI at 1 m for beacons that neither advertise it nor are calibrated in the rooms file.
    default_rssi_at_1m: int = -59
    #: Radius (m) of rooms that do not set their own.
    default_radius_m: float = 3.0
    #: Soft-maximum temperature (dB) combining the beacons of one room: the strongest counts, a
    #: second one that agrees adds up to ``combine_db * ln 2``.
    combine_db: float = 3.0
    #: "No room" explains a room's beacons as well as the room itself once they read this many dB
    #: weaker than at the room's radius.
    none_margin_db: float = 8.0
    #: A room is entered from "no room" once it reads this many dB stronger than that level.
    enter_margin_db: float = 4.0
    #: Hysteresis between rooms: a rival gains evidence only for the part of its lead over the
    #: current room beyond this many dB (a smaller lead loses evidence).
    evidence_margin_db: float = 6.0
    #: The same margin for a room the beacons show a move towards.
    moving_margin_db: float = 0.0
    #: dB of lead (beyond the margin) per nat/s of evidence.
    evidence_db: float = 2.0
    #: Most evidence (nats/s) a rival gains or loses per second.
    evidence_cap: float = 3.0
    #: Score (dB under "no room") of a room whose beacons are all silent (a single missing beacon
    #: of a room whose other beacon is heard costs nothing).
    silent_db: float = 8.0
    #: Rate (1/s) of entering a room while the beacons show no move towards it: so small that only
    #: a lead held for long switches (~138 nats, 46 s of the strongest evidence: two people in
    #: front of a beacon one after the other, 40 s, do not).
    hazard_still_per_s: float = 1e-60
    #: Rate (1/s) of entering a room the beacons show a move towards (and "no room" once the
    #: current room's beacons went silent).
    hazard_moving_per_s: float = 0.5
    #: A move towards a room: its level rose this many dB over the high end of its recent levels...
    rise_db: float = 6.0
    #: ...the high end being this quantile of its levels in ``motion_window_s``...
    rise_quantile: float = 0.9
    #: ...while the current room fell this many dB under its own median (or went silent); a room
    #: that rose ``surge_db`` needs no fall.
    fall_db: float = 4.0
    #: Rise (dB over the high end of its recent levels) that is a move on its own (with the
    #: default equal to ``rise_db``, a rise alone decides and ``fall_db`` matters only when this
    #: is set higher).
    surge_db: float = 6.0
    #: Seconds of level history that rise and fall are measured against (longer than two
    #: blockages back to back, so a beacon coming back from them is not a rise)...
    motion_window_s: float = 120.0
    #: ...leaving out the last seconds for the rise (they hold the rise itself).
    motion_lag_s: float = 5.0
    #: A fall of the current room (under its median over ``motion_window_s``) deeper than a
    #: person's body causes is a move towards every room now stronger (0 = off). A body costs
    #: 8-14 dB, but a blocked beacon read up to ~20 dB under its median (fading on top), so 24.
    deep_fall_db: float = 24.0
    #: A slow move: the current room's level stayed this many seconds (longer than a person
    #: stands in front of a beacon; 0 = off)...
    lasting_fall_s: float = 24.0
    #: ...at least this many dB under its median before...
    lasting_fall_db: float = 8.0
    #: ...while a room now leading it rose this many dB (its median since then over the upper
    #: quartile of its levels before); then the hazard into that room is raised as for a move.
    lasting_rise_db: float = 5.0
    #: A move seen on one beacon: it rose this many dB over the high end (``rise_quantile``) of its
    #: own readings in ``motion_window_s`` (0 = off); then every room leading the current one is
    #: a room being moved to, for ``move_memory_s``...
    beacon_rise_db: float = 8.0
    #: ...once this many beacons rose so at once.
    beacon_rise_count: int = 1
    #: A room whose level is two or more beacons: every heard one of them this many dB under its
    #: own median over ``motion_window_s`` is a fall deeper than a body, as ``deep_fall_db`` is
    #: for the room's level — but not towards a room being passed (0 = off). One
    #: person stands in one line of sight and costs 8-14 dB; beacons placed apart in a room all
    #: fall further together only when the appliance leaves it (16 = 14 + what fading leaves).
    beacons_fall_db: float = 16.0
    #: The same fall seen shallower, with a rise beside it (0 = off, the default):
    #: every heard beacon of a room of two or more this many dB under its own median while a
    #: beacon of another room rose ``carried_rise_db`` over the high end of its own readings. Two
    #: people can block a room's two beacons at once, but a body only takes signal away. At 8 dB
    #: it brings about 1 % more entries under 10 s and costs a switch at equal distance and a few
    #: with a person at the bench in some 400 standing hours (figures in decision 0006): off,
    #: because a wrong room while standing still is worse at a bench than a late one on a walk.
    carried_fall_db: float = 0.0
    #: How far that other room's beacon must rise for ``carried_fall_db`` (dB over the
    #: ``rise_quantile`` of its readings in ``motion_window_s``, as the beacon rise measures).
    carried_rise_db: float = 4.0
    #: Between rooms the rooms file says do not open into each other (``next_to``), a move counts
    #: only once a room between them fell this many dB from its peak over ``move_memory_s`` (the
    #: appliance was carried through it), or went silent.
    passed_fall_db: float = 5.0
    #: While no sign of a move towards any room is seen (standing still), a rival's lead is
    #: measured against the current room's *usual* level when it now reads weaker: the
    #: ``rise_quantile`` of its levels over ``motion_window_s``. A person in front of a beacon
    #: only takes signal away, and for seconds, so a fall that has not outlasted most of the
    #: motion window is no evidence that the appliance moved (False = the current level).
    standstill_usual_level: bool = True
    #: ...unless the rival itself reads this many dB over its own usual level (a person only
    #: takes signal away: a rival that rose was neared, a move the move signs missed).
    standstill_rise_db: float = 4.0
    #: Standing still in "no room": a room that reads no more than
    #: ``standstill_rise_db`` over its median since the standstill began gains no evidence, so
    #: "no room" is left only for a room that rose (was neared) or on a sign of a move, not by
    #: small upward excursions (drift, fading) just over ``enter_margin_db`` added up over many
    #: minutes (False = every small excursion counts).
    standstill_no_room: bool = True
    #: Standing still for longer than ``motion_window_s``, a room's rise and the
    #: rival's rise in a lasting fall are measured against what that room read at this spot since
    #: the standstill began, when that is higher than the motion window's reference. Nothing
    #: about the spot changes while the appliance stands still, and a body only takes signal
    #: away: a beacon blocked again and again for most of two minutes drags that window's high
    #: end down, and its return to a level it had before (plus drift) is no move (False = the
    #: motion window's reference alone).
    standstill_reference: bool = True
    #: Quantile of those levels taken as the reference (at most the window's own quantile): the
    #: upper quartile is over the levels a body leaves (bodies hide a link a tenth of the time)
    #: without climbing to the top of minutes of drift as the 90th percentile does, which the
    #: longer the standstill, the higher it climbs over the window's.
    standstill_reference_quantile: float = 0.75
    #: The premise of ``standstill_reference`` (the same spot) is checked on each room's high
    #: end over this many seconds (longer than a passing person, so one does not count)...
    standstill_reference_check_s: float = 30.0
    #: ...against its usual level since the count began: when the current room and another
    #: room both read more than this many dB away from theirs (a body changes one link, a
    #: carried appliance every link; after a missed move the old room fell far, the new one
    #: rose), the count starts again from now.
    standstill_reference_db: float = 6.0
    #: Start-up: a room heard since the engine started shows no *rise* until this many seconds
    #: of its levels lie before the rise's last ``motion_lag_s`` (0 = from the first seconds;
    #: 50 s: from the first minute on, as a beacon's rise). A reference of a few seconds holds whatever a body or
    #: a fade did to them, so the first ordinary reading after it looks like a move; a beacon's
    #: own rise and a newly heard room already wait for half the motion window.
    startup_rise_s: float = 50.0
    #: Start-up: during the first ``startup_s`` after the engine started, a new
    #: room (or "no room") must hold ``switch_posterior`` for this many seconds instead of
    #: ``dwell_s`` (0 = ``dwell_s``). From the uniform prior a room's posterior
    #: passes 0.9 after a second or two of readings; a decision taken on so little is changed
    #: again later, where the appliance stands still...
    startup_dwell_s: float = 10.0
    #: ...and this is how long start-up lasts (s).
    startup_s: float = 60.0
    #: Start-up: a room decided during start-up is made as firm as one the
    #: appliance stood in for long (every rival's posterior at the standstill floor, the log of
    #: ``hazard_still_per_s``). From the uniform prior a rival is only as unlikely as the few
    #: seconds of evidence made it, so a blockage of the decided room's beacon soon after the
    #: decision hands it the room back in seconds, where it would need ~46 s of lead later on
    #: (False = the posterior as the evidence left it).
    startup_settle: bool = True
    #: Start-up: while ``startup_rise_s`` holds a room's rise back, a room reading
    #: this many dB over the high end (``rise_quantile``) of its levels since the start, while
    #: the current room fell ``fall_db``, is a move (two links changed, one far beyond fading),
    #: and it ends start-up (0 = off: a move in the first minute is believed once start-up is
    #: over, ~30 s late).
    startup_move_db: float = 12.0
    #: Arrival: after an automatic switch into a room (start-up decisions aside), a
    #: rival that read more than ``evidence_margin_db`` under the room entered at the switch,
    #: and is shown a move only by signs from the walk in (it has not risen ``rise_db`` over
    #: its level at the switch since), needs the between-rooms margin, not the moving margin,
    #: while those signs can last (the top of the motion window, the lag and the move's
    #: memory: 32 s with the defaults) — unless the room entered fell ``passed_fall_db`` in the
    #: first ``motion_lag_s`` after the switch (carried through it, not into it). A room beyond
    #: the one entered rose with it on the walk in; a blockage of the entered room's beacon at
    #: its bench then handed it the room (False = the moving margin throughout).
    arrival_margin: bool = True
    #: Seconds such a move keeps the hazard raised while the new room's evidence builds up.
    move_memory_s: float = 15.0
    #: Posterior probability a new room (or "no room") must reach to become active...
    switch_posterior: float = 0.9
    #: ...and hold for this many seconds.
    dwell_s: float = 0.5
    #: Longest step (s) the posterior is advanced by at once (after a stall, a late tick).
    max_step_s: float = 2.0
    #: A beacon unheard for this many seconds counts as gone.
    silence_timeout_s: float = 10.0
    #: Most beacons tracked at once (known ones always are; unknown ones are evicted LRU).
    max_tracked: int = 256
    #: Seconds between BEACONS_SEEN events.
    beacons_seen_interval_s: float = 5.0
    #: Seconds between room decisions.
    tick_s: float = 0.5
    #: First retry delay (s) when the Bluetooth adapter is missing or failed; doubles each time.
    retry_initial_s: float = 2.0
    #: Longest retry delay (s).
    retry_max_s: float = 60.0
    #: Restart the scan when nothing at all was heard for this many seconds (0 = never).
    stall_timeout_s: float = 60.0
    #: Query used to warm a room's namespaces when the appliance enters it.
    warm_query: str = "drawing"

    def validate(self) -> None:
        """Check ranges that the types alone cannot express."""
        positive = {
            "window_s": self.window_s,
            "smoothing_tau_s": self.smoothing_tau_s,
            "max_jump_db": self.max_jump_db,
            "max_fall_db_s": self.max_fall_db_s,
            "path_loss_exponent": self.path_loss_exponent,
            "default_radius_m": self.default_radius_m,
            "silence_timeout_s": self.silence_timeout_s,
            "beacons_seen_interval_s": self.beacons_seen_interval_s,
            "tick_s": self.tick_s,
            "retry_initial_s": self.retry_initial_s,
            "combine_db": self.combine_db,
            "evidence_db": self.evidence_db,
            "evidence_cap": self.evidence_cap,
            "hazard_still_per_s": self.hazard_still_per_s,
            "hazard_moving_per_s": self.hazard_moving_per_s,
            "motion_window_s": self.motion_window_s,
            "max_step_s": self.max_step_s,
            "standstill_reference_check_s": self.standstill_reference_check_s,
        }
        for key, value in positive.items():
            if not value > 0:
                raise ConfigError(f"presence.{key}: must be > 0, got {value}")
        non_negative = {
            "trace_speed": self.trace_speed,
            "none_margin_db": self.none_margin_db,
            "enter_margin_db": self.enter_margin_db,
            "silent_db": self.silent_db,
            "evidence_margin_db": self.evidence_margin_db,
            "rise_db": self.rise_db,
            "fall_db": self.fall_db,
            "surge_db": self.surge_db,
            "moving_margin_db": self.moving_margin_db,
            "move_memory_s": self.move_memory_s,
            "deep_fall_db": self.deep_fall_db,
            "lasting_fall_s": self.lasting_fall_s,
            "lasting_fall_db": self.lasting_fall_db,
            "lasting_rise_db": self.lasting_rise_db,
            "beacon_rise_db": self.beacon_rise_db,
            "passed_fall_db": self.passed_fall_db,
            "beacons_fall_db": self.beacons_fall_db,
            "carried_fall_db": self.carried_fall_db,
            "carried_rise_db": self.carried_rise_db,
            "standstill_rise_db": self.standstill_rise_db,
            "standstill_reference_db": self.standstill_reference_db,
            "startup_rise_s": self.startup_rise_s,
            "startup_dwell_s": self.startup_dwell_s,
            "startup_s": self.startup_s,
            "startup_move_db": self.startup_move_db,
            "motion_lag_s": self.motion_lag_s,
            "dwell_s": self.dwell_s,
            "stall_timeout_s": self.stall_timeout_s,
        }
        for key, value in non_negative.items():
            if value < 0:
                raise ConfigError(f"presence.{key}: must be >= 0, got {value}")
        if not 0.5 < self.switch_posterior < 1.0:
            raise ConfigError("presence.switch_posterior: must be between 0.5 and 1 (exclusive)")
        if not 0.0 <= self.rise_quantile <= 1.0:
            raise ConfigError("presence.rise_quantile: must be between 0 and 1")
        if not 0.0 <= self.standstill_reference_quantile <= 1.0:
            raise ConfigError("presence.standstill_reference_quantile: must be between 0 and 1")
        if not -127 <= self.default_rssi_at_1m <= 20:
            raise ConfigError("presence.default_rssi_at_1m: must be between -127 and 20 dBm")
        if self.beacon_rise_count < 1:
            raise ConfigError("presence.beacon_rise_count: must be >= 1")
        if self.jump_confirm < 1:
            raise ConfigError("presence.jump_confirm: must be >= 1")
        if self.max_tracked < 8:
            raise ConfigError("presence.max_tracked: must be >= 8")
        if self.retry_max_s < self.retry_initial_s:
            raise ConfigError("presence.retry_max_s: must be >= presence.retry_initial_s")
