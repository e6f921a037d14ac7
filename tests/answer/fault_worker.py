"""Test-only worker entry: boots exactly like the product worker, then misbehaves on purpose.

Run as ``python -I -B fault_worker.py <mode>``. It calls the product's
:func:`appliance.answer.worker_main.boot` (manifest check, loading sandbox, real model load, warm-up,
strict lock-down, ``ready``), so every forbidden call below meets the product sandbox, not a copy.

Modes after boot (under the strict filter):
  <probe>     try the forbidden call; report if it returned (it normally ends in SIGSYS)
  hang        read the request and never answer
  garbage     answer a request with a malformed frame
  liar        answer every request with a fixed text (argv[2]) token by token
  cpu-hog     on a request, apply the product's per-request CPU limit (1 s) and spin
  memory-hog  on a request, try to allocate 4 GiB (beyond the address-space limit) and report
Modes in the loading phase:
  loading-<probe>  run the product's own steps up to a loaded model (``enter_loading`` with the real
                   start message, then ``load_model``: the loading sandbox with its real read list),
                   then try the call and report its outcome

Probes (:data:`PROBES`): socket, open-read, open-write, write-file, chmod-file, read-passwd, exec,
fork, clone3, ptrace, kill-parent, memfd-exec, mmap-exec. ``PROBE_FILE`` names the file to create,
``PROBE_EXISTING`` one to chmod.
"""

from __future__ import annotations

import ctypes
import errno
import mmap
import os
import select
import signal
import socket
import sys

from appliance.answer import sandbox
from appliance.answer.worker_main import Channel, boot, enter_loading, load_model, serve

_PTRACE_TRACEME = 0
_SYS_CLONE3 = 435  # the same number on x86_64 and aarch64
_PAGE = mmap.PAGESIZE

#: Every forbidden action a probe can try.
PROBES = (
    "socket",
    "open-read",
    "open-write",
    "write-file",
    "chmod-file",
    "read-passwd",
    "exec",
    "fork",
    "clone3",
    "ptrace",
    "kill-parent",
    "memfd-exec",
    "mmap-exec",
)


class _CloneArgs(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_uint64)
        for name in (
            "flags",
            "pidfd",
            "child_tid",
            "parent_tid",
            "exit_signal",
            "stack",
            "stack_size",
            "tls",
        )
    ]


def _errno_outcome() -> str:
    return "errno:" + errno.errorcode.get(ctypes.get_errno(), "?")


def _clone3() -> str:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    args = _CloneArgs(exit_signal=signal.SIGCHLD)
    pid = libc.syscall(_SYS_CLONE3, ctypes.byref(args), ctypes.sizeof(args))
    if pid == 0:  # the child, had the call worked
        os._exit(0)
    if pid < 0:
        return _errno_outcome()
    os.waitpid(pid, 0)
    return "succeeded"


def _memfd_exec() -> str:
    fd = os.memfd_create("probe")
    os.ftruncate(fd, _PAGE)
    prot = mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC
    mmap.mmap(fd, _PAGE, flags=mmap.MAP_SHARED, prot=prot).close()
    return "succeeded"


def attempt(action: str) -> str:
    """Try one forbidden thing; the outcome as a short string (if the process survives)."""
    try:
        if action == "socket":
            socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
        elif action == "open-read":
            with open("/etc/hostname", "rb") as fh:
                fh.read(1)
        elif action in ("open-write", "write-file"):
            with open(os.environ.get("PROBE_FILE", "/tmp/openclaw-probe-written"), "w") as fh:
                fh.write("escaped")
        elif action == "chmod-file":
            os.chmod(os.environ.get("PROBE_EXISTING", "/tmp/openclaw-probe-existing"), 0o777)
        elif action == "read-passwd":
            with open("/etc/passwd", "rb") as fh:
                fh.read(1)
        elif action == "exec":
            os.execv("/bin/true", ["/bin/true"])
        elif action == "fork":
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            os.waitpid(pid, 0)
        elif action == "clone3":
            return _clone3()
        elif action == "ptrace":
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.ptrace(_PTRACE_TRACEME, 0, None, None) != 0:
                return _errno_outcome()
        elif action == "kill-parent":
            # Signal 0 asks only whether the signal would be delivered: the test runner survives a
            # sandbox that fails, and the answer is the same as for SIGKILL.
            os.kill(os.getppid(), 0)
        elif action == "memfd-exec":
            return _memfd_exec()
        elif action == "mmap-exec":
            prot = mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC
            mmap.mmap(-1, _PAGE, prot=prot).close()
        else:
            return "unknown-action"
    except OSError as err:
        return "errno:" + errno.errorcode.get(err.errno or 0, str(err.errno))
    return "succeeded"


def _read_request(channel: Channel) -> dict[str, object]:
    message = channel.receive()
    if message is None:
        os._exit(0)
    return message


def main() -> None:
    mode = sys.argv[1]
    channel = Channel()
    if mode.startswith("loading-"):
        load_model(channel, enter_loading(channel))
        outcome = attempt(mode.removeprefix("loading-"))
        channel.send({"type": "fatal", "code": "probe_result", "message": outcome})
        os._exit(0)
    model, _start = boot(channel)
    if mode in PROBES:
        outcome = attempt(mode)
        channel.send({"type": "error", "id": None, "code": "probe_result", "message": outcome})
        os._exit(0)
    if mode == "hang":
        _read_request(channel)
        while True:
            select.select([], [], [], 3600)
    if mode == "cpu-hog":
        _read_request(channel)
        sandbox.set_request_cpu_limit(1)
        while True:
            pass
    if mode == "memory-hog":
        request = _read_request(channel)
        try:
            block = bytearray(4 * 1024**3)
            outcome = f"allocated {len(block)}"
        except MemoryError:
            outcome = "MemoryError"
        channel.send(
            {"type": "error", "id": request.get("id"), "code": "probe_result", "message": outcome}
        )
        select.select([], [], [], 3600)
    if mode == "garbage":
        _read_request(channel)
        os.write(1, b"\x00\x00\x00\x07not-json")
        select.select([], [], [], 3600)
    if mode == "liar":
        text = sys.argv[2]
        while True:
            request = _read_request(channel)
            if request.get("type") == "shutdown":
                os._exit(0)
            if request.get("type") != "generate":
                continue
            words = text.split(" ")
            for i, word in enumerate(words):
                piece = word if i == 0 else " " + word
                channel.send({"type": "token", "id": request["id"], "text": piece})
            channel.send(
                {
                    "type": "done",
                    "id": request["id"],
                    "tokens": len(words),
                    "prompt_tokens": 0,
                    "finish": "stop",
                }
            )
    os._exit(serve(channel, model, 60))


if __name__ == "__main__":
    main()
