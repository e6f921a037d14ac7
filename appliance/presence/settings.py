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
    max_fall_db_s: float = 1.0
    #: Path-loss exponent used to turn RSSI into metres (2 = free space, 2.5-3.5 indoors).
    path_loss_exponent: float = 2.5
    #: RSSI at 1 m for beacons that neither advertise it nor are calibrated in the rooms file.
    default_rssi_at_1m: int = -59
    #: Radius (m) of rooms that do not set their own.
    default_radius_m: float = 3.0
    #: Leaving a room needs the beacon this many dB weaker than at the entry radius.
    exit_hysteresis_db: float = 4.0
    #: A nearer room must beat the current one by this many dB before it takes over...
    switch_margin_db: float = 2.0
    #: ...and must itself have risen this many dB over its median in ``rise_window_s``...
    rise_db: float = 8.0
    #: ...while the current room fell this many dB under its own median (the appliance moved)...
    fall_db: float = 4.0
    #: Seconds over which that rise and fall are measured.
    rise_window_s: float = 30.0
    #: Seconds such a rise-and-fall counts as evidence of a move while the lead builds up.
    move_memory_s: float = 15.0
    #: A room that rose like that while the current one did not fall may still take over at once
    #: when it leads by this many dB.
    rise_only_margin_db: float = 4.0
    #: ...otherwise (only the current room faded: a body, a closed door) the lead must be this big...
    ambiguous_margin_db: float = 6.0
    #: ...and last this long.
    ambiguous_dwell_s: float = 20.0
    #: Seconds a new room must stay the best candidate before the switch happens.
    dwell_s: float = 2.0
    #: Seconds the current room's beacons must stay weak (but heard) before switching to "no room"
    #: (long: a weak beacon is more often a body in the way than the appliance carried off).
    leave_dwell_s: float = 30.0
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
            "rise_window_s": self.rise_window_s,
            "retry_initial_s": self.retry_initial_s,
        }
        for key, value in positive.items():
            if not value > 0:
                raise ConfigError(f"presence.{key}: must be > 0, got {value}")
        non_negative = {
            "trace_speed": self.trace_speed,
            "exit_hysteresis_db": self.exit_hysteresis_db,
            "switch_margin_db": self.switch_margin_db,
            "rise_db": self.rise_db,
            "fall_db": self.fall_db,
            "rise_only_margin_db": self.rise_only_margin_db,
            "move_memory_s": self.move_memory_s,
            "ambiguous_margin_db": self.ambiguous_margin_db,
            "ambiguous_dwell_s": self.ambiguous_dwell_s,
            "dwell_s": self.dwell_s,
            "leave_dwell_s": self.leave_dwell_s,
            "stall_timeout_s": self.stall_timeout_s,
        }
        for key, value in non_negative.items():
            if value < 0:
                raise ConfigError(f"presence.{key}: must be >= 0, got {value}")
        if not -127 <= self.default_rssi_at_1m <= 20:
            raise ConfigError("presence.default_rssi_at_1m: must be between -127 and 20 dBm")
        if self.jump_confirm < 1:
            raise ConfigError("presence.jump_confirm: must be >= 1")
        if self.max_tracked < 8:
            raise ConfigError("presence.max_tracked: must be >= 8")
        if self.retry_max_s < self.retry_initial_s:
            raise ConfigError("presence.retry_max_s: must be >= presence.retry_initial_s")
