"""Settings of BLE presence and rooms."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal


@dataclass(frozen=True)
class PresenceSettings:
    """Scanner backend and the rooms file."""

    #: Scanner backend: bleak on BlueZ, or a replayed trace (development).
    backend: Literal["bleak", "trace", "off"] = "off"
    #: Rooms file (TOML); relative paths are resolved against the data dir.
    rooms_file: Path = Path("rooms.toml")
