"""Tries what a compromised appliance process would try, under the unit's own sandbox.

Run by ``openclaw-probe.service``: the real ``systemd/openclaw.service`` file under another name, with
only its ExecStart and Type replaced (tests/service/test_hardened_unit.py), so systemd applies every
hardening setting of the real unit to it. Each attempt is recorded with its outcome ("ok" or the errno
name) in ``probe.json`` in the state directory; the test decides what each outcome must be.
"""

from __future__ import annotations

import ctypes
import errno
import json
import mmap
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path

STATE = Path(os.environ.get("STATE_DIRECTORY", "/var/lib/openclaw"))
libc = ctypes.CDLL(None, use_errno=True)


def outcome(action: Callable[[], object]) -> str:
    """ "ok", or the errno name (or exception name) the action failed with."""
    try:
        action()
    except OSError as err:
        return errno.errorcode.get(err.errno or 0, type(err).__name__)
    except Exception as err:
        return type(err).__name__
    return "ok"


def libc_call(result: int) -> None:
    if result == -1:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def udp_to(host: str) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(b"probe", (host, 53))


def tcp_to(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(3)
        s.connect((host, port))


def loopback_round_trip() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        tcp_to("127.0.0.1", server.getsockname()[1])


def new_socket(family: int, kind: int = socket.SOCK_RAW) -> None:
    socket.socket(family, kind).close()


def write(path: Path) -> None:
    path.write_text("probe\n", encoding="ascii")
    path.unlink()


def read_clock_state() -> None:
    """adjtimex() that changes nothing: any user may ask, but @clock is outside the filter."""
    buf = ctypes.create_string_buffer(512)  # struct timex with modes = 0: a read-only query
    libc_call(libc.adjtimex(buf))


def writable_executable_memory() -> None:
    prot = mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC
    mmap.mmap(-1, mmap.PAGESIZE, prot=prot).close()


def seccomp_filter_of_our_own() -> None:
    """What the answer worker does first: no new privileges, then a filter (allow-all here)."""
    sys.path.extend(p for p in ("/usr/lib/python3/dist-packages",) if p not in sys.path)
    try:
        import seccomp
    except ImportError:
        import pyseccomp as seccomp
    libc_call(libc.prctl(38, 1, 0, 0, 0))  # PR_SET_NO_NEW_PRIVS
    filt = seccomp.SyscallFilter(seccomp.ALLOW)
    filt.load()


def landlock_abi() -> None:
    libc.syscall.restype = ctypes.c_long
    libc_call(int(libc.syscall(444, None, 0, 1)))  # landlock_create_ruleset(NULL, 0, VERSION)


def mount_tmpfs() -> None:
    libc_call(libc.mount(b"none", str(STATE).encode(), b"tmpfs", 0, None))


def status_fields() -> dict[str, str]:
    fields = {}
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        key, _, value = line.partition(":")
        if key in ("NoNewPrivs", "Seccomp", "CapEff", "CapBnd"):
            fields[key] = value.strip()
    return fields


def main() -> int:
    repo = Path(sys.argv[1])
    results = {
        "udp_public": outcome(lambda: udp_to("1.1.1.1")),
        "tcp_public": outcome(lambda: tcp_to("1.1.1.1", 80)),
        "tcp_loopback": outcome(loopback_round_trip),
        "netlink_socket": outcome(lambda: new_socket(socket.AF_NETLINK)),
        "packet_socket": outcome(lambda: new_socket(socket.AF_PACKET)),
        "bluetooth_socket": outcome(lambda: new_socket(socket.AF_BLUETOOTH)),
        "write_state_dir": outcome(lambda: write(STATE / "probe-write.txt")),
        "write_etc": outcome(lambda: write(Path("/etc/openclaw/probe-write.txt"))),
        # A folder anyone may write to, outside the state directory: only the sandbox stops it.
        "write_shared_folder": outcome(lambda: write(Path(sys.argv[2]) / "probe-write.txt")),
        "write_repository": outcome(lambda: write(repo / "probe-write.txt")),
        "write_var_tmp": outcome(lambda: write(Path("/var/tmp/probe-write.txt"))),
        "clock_state": outcome(read_clock_state),
        "mount": outcome(mount_tmpfs),
        "wx_memory": outcome(writable_executable_memory),
        "proc_meminfo": outcome(lambda: Path("/proc/meminfo").read_bytes()),
        "proc_pid1": outcome(lambda: Path("/proc/1/cmdline").read_bytes()),
        "landlock": outcome(landlock_abi),
        "seccomp_filter": outcome(seccomp_filter_of_our_own),
    }
    results["status"] = status_fields()  # type: ignore[assignment]
    (STATE / "probe.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
