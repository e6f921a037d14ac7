"""Booting systemd in a container, so a unit file runs under a real service manager.

The machines the tests run on do not always run systemd as PID 1 (a CI virtual machine may have its
own init), so ``systemd-run`` and ``systemctl`` cannot be used there. ``systemd-nspawn --boot`` starts
the host's own systemd as PID 1 of a container instead, and that systemd applies a unit's sandboxing
(seccomp filter, mount namespace, BPF IP filter, device policy) exactly as it does on the Pi.

The container shares the host's network (the test reaches the status page on 127.0.0.1) and gets
CAP_BPF and CAP_NET_ADMIN, which its systemd needs to attach the unit's IP and device filters, and the
``bpf()`` and Landlock system calls, which nspawn's own filter would refuse.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

NSPAWN = shutil.which("systemd-nspawn")


def cannot_boot() -> str | None:
    """Why a container cannot be booted here, or None when it can."""
    if NSPAWN is None:
        return "systemd-nspawn is not installed (Debian package systemd-container)"
    if os.geteuid() != 0:
        return "booting systemd in a container needs root"
    if not Path("/lib/systemd/systemd").is_file():
        return "systemd is not installed on this machine"
    return None


def pid1_is_systemd() -> bool:
    """Whether this machine's init is systemd (then systemd-run would do as well)."""
    return Path("/run/systemd/system").is_dir() and Path("/proc/1/comm").read_text().strip() == (
        "systemd"
    )


@contextlib.contextmanager
def booted(
    root: Path,
    *,
    unit: str,
    log: Path,
    binds: Sequence[tuple[Path, str]] = (),
    binds_ro: Sequence[tuple[Path, str]] = (),
    volatile: str | None = None,
    journal: Path | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """Boot ``root`` with systemd as PID 1 into ``unit``; halt it (and wait) when the block ends.

    ``binds`` and ``binds_ro`` pair host paths with paths in the container; ``volatile`` is nspawn's
    ``--volatile=`` mode (``yes``: a fresh tmpfs root with the host's /usr, for booting the host
    itself); ``journal`` is a host folder that receives the container's persistent journal
    (read it with ``journalctl -D``).
    """
    argv = [
        str(NSPAWN),
        "--quiet",
        "--register=no",
        "--keep-unit",
        "--capability=CAP_BPF,CAP_NET_ADMIN",
        # nspawn's own filter lacks these; the unit allows them for the answer worker's Landlock rules.
        "--system-call-filter=bpf landlock_create_ruleset landlock_add_rule landlock_restrict_self",
        f"--directory={root}",
        "--boot",
    ]
    if volatile:
        argv.append(f"--volatile={volatile}")
    for host, inside in binds:
        argv.append(f"--bind={host}:{inside}")
    for host, inside in binds_ro:
        argv.append(f"--bind-ro={host}:{inside}")
    if journal is not None:
        journal.mkdir(parents=True, exist_ok=True)
        argv.append(f"--bind={journal}:/var/log/journal")
    # Boot straight into the unit under test (its dependencies come with it); no first-boot questions.
    argv += ["--", f"systemd.unit={unit}", "systemd.firstboot=off"]
    # A unified cgroup hierarchy in the container, where systemd attaches BPF programs to a unit.
    env = {**os.environ, "SYSTEMD_NSPAWN_UNIFIED_HIERARCHY": "1", "SYSTEMD_COLORS": "0"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env
        )
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)  # nspawn asks the container's systemd to halt
                try:
                    proc.wait(timeout=120)
                except subprocess.TimeoutExpired:
                    proc.send_signal(signal.SIGTERM)  # the second SIGTERM terminates at once
                    proc.wait(timeout=30)


def journal_text(journal: Path, unit: str | None = None) -> str:
    """The container's journal (for one unit), as text, for failure messages."""
    argv = ["journalctl", "-D", str(journal), "--no-pager", "-o", "short-monotonic"]
    if unit:
        argv += ["-u", unit]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    return proc.stdout + proc.stderr
