"""The systemd unit: Type=notify with a watchdog, hardened, and accepted by systemd-analyze."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "openclaw.service"


def _service() -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    section = ""
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif "=" in line and not line.startswith("#") and section == "Service":
            key, _, value = line.partition("=")
            values.setdefault(key, []).append(value)
    return values


def test_notify_watchdog_and_hardening() -> None:
    s = _service()
    assert s["Type"] == ["notify"] and s["WatchdogSec"] and int(s["WatchdogSec"][0]) > 0
    assert s["User"] == ["openclaw"]
    for key, value in {
        "ProtectSystem": "strict",
        "PrivateTmp": "yes",
        "NoNewPrivileges": "yes",
        "ReadWritePaths": "/var/lib/openclaw",
        "DevicePolicy": "closed",
    }.items():
        assert s[key] == [value], key
    families = set(s["RestrictAddressFamilies"][0].split())
    assert families == {"AF_UNIX", "AF_INET", "AF_INET6", "AF_BLUETOOTH", "AF_NETLINK"}
    allowed = " ".join(s["DeviceAllow"])
    for device in ("/dev/snd", "char-video4linux", "gpiochip"):
        assert device in allowed
    assert s["ExecStart"][0].endswith(" run")


def test_systemd_analyze_accepts_it(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed on this machine")
    # The unit names the Pi's install path; point ExecStart at a program that exists here.
    unit = tmp_path / "openclaw.service"
    text = UNIT.read_text(encoding="utf-8")
    exec_line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    unit.write_text(text.replace(exec_line, "ExecStart=/bin/true"), encoding="utf-8")
    proc = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "Unknown key" not in proc.stderr and "Unknown section" not in proc.stderr
