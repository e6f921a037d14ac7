"""Errors of the presence subsystem (subclasses of the appliance hierarchy)."""

from __future__ import annotations

from appliance.errors import ConfigError, HardwareError, InputError


class RoomsFileError(ConfigError):
    """The rooms file is missing, not TOML, or maps beacons/rooms/namespaces inconsistently."""

    code = "rooms_invalid"


class TraceError(InputError):
    """A beacon trace file cannot be read at all (single bad lines are counted and skipped)."""

    code = "trace_invalid"


class BluetoothUnavailableError(HardwareError):
    """The Bluetooth adapter is missing, powered off or vanished (the scanner keeps retrying)."""

    code = "bluetooth_unavailable"
