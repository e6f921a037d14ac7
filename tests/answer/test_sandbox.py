"""The worker's sandbox, for real: the product boot sequence, then forbidden calls in the live process.

Each case starts ``fault_worker.py``, which runs the product's ``boot()`` (verify, loading sandbox, load
SmolLM2, warm up, strict lock-down) and then makes one forbidden call. The call must not succeed: the
kernel kills the process (SIGSYS, the strict filter's default action) or the call fails with EPERM.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from appliance.answer import protocol
from appliance.answer.worker import AnswerWorker, WorkerState, scrubbed_environment
from tests.answer.conftest import TEST_MODEL, fault_command

pytestmark = pytest.mark.slow


def run_probe(
    mode: str, models_dir: Path, env_extra: dict[str, str] | None = None
) -> tuple[list[dict[str, Any]], int]:
    """Start the probe worker, let it boot and try; every message it sent and its exit status."""
    env = {**scrubbed_environment(1), **(env_extra or {})}
    proc = subprocess.Popen(
        fault_command(mode),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd="/",
        close_fds=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    start = {
        "type": "start",
        "model": TEST_MODEL,
        "models_dir": str(models_dir),
        "context_tokens": 512,
        "threads": 1,
    }
    proc.stdin.write(protocol.encode(start))
    proc.stdin.flush()
    messages = []
    while header := proc.stdout.read(protocol.HEADER_BYTES):
        messages.append(json.loads(proc.stdout.read(protocol.frame_length(header))))
    proc.stdin.close()
    return messages, proc.wait(timeout=600)


@pytest.mark.parametrize("mode", ["socket", "open-read", "open-write", "exec", "fork", "ptrace"])
def test_forbidden_call_in_locked_worker_is_killed(
    mode: str, models_dir: Path, tmp_path: Path
) -> None:
    target = tmp_path / "escaped.txt"
    messages, status = run_probe(mode, models_dir, {"PROBE_FILE": str(target)})
    # It did boot for real: verified, loaded, warmed up and locked down before trying.
    assert messages and messages[0]["type"] == "ready", messages
    results = [m["message"] for m in messages if m.get("code") == "probe_result"]
    # Killed by seccomp before it could report anything; never "succeeded".
    assert status == -signal.SIGSYS, (status, results)
    assert results == []
    assert not target.exists()


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("loading-socket", "errno:EPERM"),
        ("loading-exec", "errno:EPERM"),
        ("loading-fork", "errno:EPERM"),
        ("loading-ptrace", "errno:EPERM"),
        # The loading sandbox still lets the loader read files (the model, the manifest).
        ("loading-open", "succeeded"),
    ],
)
def test_loading_sandbox_refuses_network_exec_fork_ptrace(
    mode: str, expected: str, models_dir: Path
) -> None:
    messages, status = run_probe(mode, models_dir)
    assert status == 0
    assert [m["message"] for m in messages if m.get("code") == "probe_result"] == [expected]


def _proc_status(pid: int) -> dict[str, str]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        out[key] = value.strip()
    return out


async def test_running_worker_is_confined(answer_settings: Any, models_dir: Path) -> None:
    async with AnswerWorker(answer_settings, models_dir=models_dir) as worker:
        assert worker.state is WorkerState.READY
        pid = worker.status.pid
        assert pid is not None
        status = _proc_status(pid)
        assert status["NoNewPrivs"] == "1"
        assert status["Seccomp"] == "2"  # filter mode
        assert int(status["Seccomp_filters"]) >= 2  # the loading filter and the strict one
        # Only its three pipes: nothing inherited from the parent (this test's files, sockets).
        assert sorted(int(fd) for fd in os.listdir(f"/proc/{pid}/fd")) == [0, 1, 2]
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        assert {e.decode() for e in environ if e} == {
            f"{k}={v}" for k, v in scrubbed_environment(1).items()
        }
        limits = Path(f"/proc/{pid}/limits").read_text()
        address = next(line for line in limits.splitlines() if line.startswith("Max address space"))
        assert worker.status.memory_limit_mb >= 256
        assert str(worker.status.memory_limit_mb * 1024 * 1024) in address
        assert Path(f"/proc/{pid}/cwd").resolve() == Path("/")
        # And it still answers under all of that.
        pieces = [
            p
            async for p in worker.generate(
                [{"role": "user", "content": "Say hello."}], max_tokens=5
            )
        ]
        assert "".join(pieces).strip()
        await asyncio.sleep(0)
