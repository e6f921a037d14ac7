"""The systemd unit: Type=notify with a watchdog, hardened, and accepted by systemd-analyze."""

from __future__ import annotations

import re
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
        "ProcSubset": "pid",
        "SystemCallErrorNumber": "EPERM",
        "IPAddressDeny": "any",
    }.items():
        assert s[key] == [value], key
    # bleak scans through BlueZ over D-Bus (a unix socket): no netlink, no raw Bluetooth sockets.
    families = set(s["RestrictAddressFamilies"][0].split())
    assert families == {"AF_UNIX", "AF_INET", "AF_INET6"}
    # The answer worker installs its own seccomp filters and Landlock rules.
    calls = s["SystemCallFilter"][0].split()
    assert (
        calls[0] == "@system-service" and "seccomp" in calls and "landlock_restrict_self" in calls
    )
    assert "localhost" in s["IPAddressAllow"][0] and "192.168.0.0/16" in s["IPAddressAllow"][0]
    allowed = s["DeviceAllow"]
    for device in ("char-alsa", "char-video4linux", "char-media", "char-dma_heap", "char-gpiochip"):
        assert f"{device} rw" in allowed, device
    # DeviceAllow= takes device nodes or classes; a folder such as /dev/dma_heap matches nothing.
    assert not [d for d in allowed if d.startswith("/dev/")]
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


@pytest.mark.parametrize("name", ["openclaw.service", "openclaw-console.service"])
def test_systemd_analyze_security_rates_it_2_or_better(tmp_path: Path, name: str) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed on this machine")
    unit = tmp_path / name
    unit.write_text((UNIT.parent / name).read_text(encoding="utf-8"), encoding="utf-8")
    proc = subprocess.run(
        [analyze, "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(rf"Overall exposure level for {name}: (\d+\.\d)", proc.stdout)
    assert found, proc.stdout + proc.stderr
    assert float(found.group(1)) <= 2.0, proc.stdout
