"""Presence settings from the configuration file and the environment, validated at start-up."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from appliance.config import load_config
from appliance.errors import ConfigError
from appliance.presence.monitor import PresenceMonitor
from appliance.presence.rooms import RoomsPlan
from appliance.presence.scanner import ScannerStatus
from appliance.presence.trace import TraceClock, TraceScannerBackend
from tests.presence.presence_radio import wait_for


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("WINDOW_S", "0", "presence.window_s: must be > 0"),
        ("DWELL_S", "-1", "presence.dwell_s: must be >= 0"),
        ("DEFAULT_RSSI_AT_1M", "40", "presence.default_rssi_at_1m"),
        ("MAX_TRACKED", "2", "presence.max_tracked: must be >= 8"),
        ("BEACON_RISE_COUNT", "0", "presence.beacon_rise_count: must be >= 1"),
        ("PASSED_FALL_DB", "-1", "presence.passed_fall_db: must be >= 0"),
        ("STANDSTILL_RISE_DB", "-2", "presence.standstill_rise_db: must be >= 0"),
        ("STANDSTILL_USUAL_LEVEL", "maybe", "presence.standstill_usual_level"),
        ("STANDSTILL_NO_ROOM", "maybe", "presence.standstill_no_room"),
        ("STANDSTILL_REFERENCE", "maybe", "presence.standstill_reference"),
        ("STANDSTILL_REFERENCE_CHECK_S", "0", "presence.standstill_reference_check_s: must be > 0"),
        ("STANDSTILL_REFERENCE_DB", "-1", "presence.standstill_reference_db: must be >= 0"),
        ("STANDSTILL_REFERENCE_QUANTILE", "1.5", "presence.standstill_reference_quantile"),
        ("STARTUP_RISE_S", "-1", "presence.startup_rise_s: must be >= 0"),
        ("STARTUP_DWELL_S", "-0.5", "presence.startup_dwell_s: must be >= 0"),
        ("STARTUP_S", "-10", "presence.startup_s: must be >= 0"),
        ("STARTUP_SETTLE", "maybe", "presence.startup_settle"),
        ("RETRY_MAX_S", "0.5", "presence.retry_max_s: must be >= presence.retry_initial_s"),
        ("SCANNING_MODE", "sniff", "presence.scanning_mode: 'sniff' is not allowed"),
        ("BACKEND", "usb", "presence.backend: 'usb' is not allowed"),
    ],
)
def test_bad_presence_settings_name_the_key(key: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(environ={f"OPENCLAW_PRESENCE__{key}": value})
    assert message in caught.value.message


async def test_trace_backend_from_the_configuration(tmp_path: Path, sample_plan: RoomsPlan) -> None:
    config = load_config(
        environ={
            "OPENCLAW_PATHS__DATA_DIR": str(tmp_path),
            "OPENCLAW_PRESENCE__BACKEND": "trace",
            "OPENCLAW_PRESENCE__TRACE_SPEED": "0",
            "OPENCLAW_PRESENCE__TRACE_LOOP": "false",
        }
    )
    monitor = PresenceMonitor.from_config(config, sample_plan)
    assert monitor.scanner.backend is TraceScannerBackend
    assert isinstance(monitor.clock, TraceClock)  # flat-out replay runs on trace time
    task = asyncio.create_task(monitor.run())
    await wait_for(lambda: monitor.scanner.state.status == ScannerStatus.FINISHED)
    await monitor.stop()
    await task
    assert monitor.engine.state.room == "machine-shop"
    assert monitor.engine.state.switches == 4


async def test_a_relative_trace_file_lives_under_the_data_dir(
    tmp_path: Path, sample_plan: RoomsPlan
) -> None:
    config = load_config(
        environ={
            "OPENCLAW_PATHS__DATA_DIR": str(tmp_path),
            "OPENCLAW_PRESENCE__BACKEND": "trace",
            "OPENCLAW_PRESENCE__TRACE_FILE": "traces/walk.jsonl",
            "OPENCLAW_PRESENCE__RETRY_INITIAL_S": "0.01",
        }
    )
    monitor = PresenceMonitor.from_config(config, sample_plan)
    assert monitor.scanner.backend_args["trace"] == tmp_path / "traces" / "walk.jsonl"
    task = asyncio.create_task(monitor.run())
    await wait_for(lambda: monitor.scanner.state.failures >= 1)
    assert (
        monitor.scanner.state.last_error == "trace walk.jsonl: cannot be opened (FileNotFoundError)"
    )
    await monitor.stop()
    await task


def test_standing_still_in_no_room_can_be_switched_off_from_the_configuration() -> None:
    config = load_config(environ={"OPENCLAW_PRESENCE__STANDSTILL_NO_ROOM": "false"})
    assert config.presence.standstill_no_room is False
    assert load_config(environ={}).presence.standstill_no_room is True


def test_the_start_up_rules_can_be_switched_off_from_the_configuration() -> None:
    config = load_config(
        environ={
            "OPENCLAW_PRESENCE__STARTUP_SETTLE": "false",
            "OPENCLAW_PRESENCE__STARTUP_RISE_S": "0",
            "OPENCLAW_PRESENCE__STARTUP_DWELL_S": "0",
        }
    )
    presence = config.presence
    assert (presence.startup_settle, presence.startup_rise_s, presence.startup_dwell_s) == (
        False,
        0.0,
        0.0,
    )
    defaults = load_config(environ={}).presence
    assert defaults.startup_settle is True
    assert defaults.startup_rise_s > 0 and defaults.startup_dwell_s > defaults.dwell_s
