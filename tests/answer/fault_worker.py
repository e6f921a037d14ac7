"""Test-only worker entry: boots exactly like the product worker, then misbehaves on purpose.

Run as ``python -I -B fault_worker.py <mode>``. It calls the product's
:func:`appliance.answer.worker_main.boot` (manifest check, loading sandbox, real model load, warm-up,
strict lock-down, ``ready``), so every forbidden call below meets the product sandbox, not a copy.

Modes after boot:
  socket, open-read, open-write, exec, fork, ptrace   try the forbidden call; report if it returned
  hang        read the request and never answer
  garbage     answer a request with a malformed frame
  liar        answer every request with a fixed text (argv[2]) token by token
  cpu-hog     on a request, apply the product's per-request CPU limit (1 s) and spin
  memory-hog  on a request, try to allocate 4 GiB (beyond the address-space limit) and report
Modes before boot (under the loading sandbox only):
  loading-socket, loading-exec, loading-fork, loading-ptrace, loading-open
"""

from __future__ import annotations

import ctypes
import errno
import os
import select
import socket
import sys

from appliance.answer import sandbox
from appliance.answer.worker_main import Channel, boot, serve

_PTRACE_TRACEME = 0


def attempt(action: str) -> str:
    """Try one forbidden thing; the outcome as a short string (if the process survives)."""
    try:
        if action == "socket":
            socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
        elif action == "open-read":
            with open("/etc/hostname", "rb") as fh:
                fh.read(1)
        elif action == "open-write":
            with open(os.environ.get("PROBE_FILE", "/tmp/openclaw-probe-written"), "w") as fh:
                fh.write("escaped")
        elif action == "exec":
            os.execv("/bin/true", ["/bin/true"])
        elif action == "fork":
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            os.waitpid(pid, 0)
        elif action == "ptrace":
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.ptrace(_PTRACE_TRACEME, 0, None, None) != 0:
                return "errno:" + errno.errorcode.get(ctypes.get_errno(), "?")
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
        start = channel.receive()
        assert start is not None
        sandbox.enter_loading_sandbox(sandbox.SandboxLimits(2048 * 1024 * 1024, 3600))
        action = {"loading-open": "open-read"}.get(mode, mode.removeprefix("loading-"))
        outcome = attempt(action)
        channel.send({"type": "fatal", "code": "probe_result", "message": outcome})
        os._exit(0)
    model, start = boot(channel)
    if mode in ("socket", "open-read", "open-write", "exec", "fork", "ptrace"):
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
