"""The worker's sandbox, for real: the product boot sequence, then forbidden calls in the live process.

Each case starts ``fault_worker.py``, which runs the product's own boot steps and then makes one
forbidden call, in either phase: after ``boot()`` (verify, loading sandbox, load SmolLM2, warm up,
strict lock-down), or right after the model is loaded inside the loading sandbox. The call must not
succeed: the kernel kills the process (SIGSYS, the strict filter's default action) or the call fails
(EPERM or ENOSYS from seccomp, EACCES from Landlock).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from appliance.answer import landlock, protocol, sandbox
from appliance.answer.worker import AnswerWorker, WorkerState, scrubbed_environment
from tests.answer.conftest import TEST_MODEL, fault_command
from tests.answer.fault_worker import PROBES

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


#: How the locked worker refuses each probe: the strict filter kills it, except clone3, which gets
#: ENOSYS so that glibc falls back to the clone the filter can inspect.
LOCKED_REFUSAL = {probe: "SIGSYS" for probe in PROBES} | {"clone3": "errno:ENOSYS"}

#: How the loading sandbox refuses each probe: seccomp answers EPERM (ENOSYS for clone3) before the
#: call runs; reads outside the read list reach the file system, where Landlock answers EACCES.
LOADING_REFUSAL = {probe: "errno:EPERM" for probe in PROBES} | {
    "clone3": "errno:ENOSYS",
    "open-read": "errno:EACCES",
    "read-passwd": "errno:EACCES",
}
#: Refusals that only Landlock gives (no seccomp filter can see which file a path names).
LANDLOCK_ONLY = frozenset({"open-read", "read-passwd"})


def _probe_files(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    target = tmp_path / "escaped.txt"
    existing = tmp_path / "existing.txt"
    existing.write_text("kept")
    existing.chmod(0o600)
    env = {"PROBE_FILE": str(target), "PROBE_EXISTING": str(existing)}
    return target, existing, env


@pytest.mark.parametrize("probe", PROBES)
def test_forbidden_call_in_locked_worker_is_refused(
    probe: str, models_dir: Path, tmp_path: Path
) -> None:
    target, existing, env = _probe_files(tmp_path)
    messages, status = run_probe(probe, models_dir, env)
    # It did boot for real: verified, loaded, warmed up and locked down before trying.
    assert messages and messages[0]["type"] == "ready", messages
    results = [m["message"] for m in messages if m.get("code") == "probe_result"]
    if LOCKED_REFUSAL[probe] == "SIGSYS":
        # Killed by seccomp before it could report anything; never "succeeded".
        assert status == -signal.SIGSYS, (status, results)
        assert results == []
    else:
        assert status == 0
        assert results == [LOCKED_REFUSAL[probe]]
    assert not target.exists()
    assert existing.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("probe", PROBES)
def test_forbidden_call_while_the_model_loads_is_refused(
    probe: str, models_dir: Path, tmp_path: Path
) -> None:
    if probe in LANDLOCK_ONLY and landlock.abi_version() == 0:
        pytest.skip("this kernel has no Landlock: reads are not confined while the model loads")
    target, existing, env = _probe_files(tmp_path)
    # The product's own steps up to a loaded model (real start message, real read list), then the
    # call: the state a hostile GGUF would be in while llama.cpp parses it.
    messages, status = run_probe("loading-" + probe, models_dir, env)
    assert status == 0, messages
    assert [m["message"] for m in messages if m.get("code") == "probe_result"] == [
        LOADING_REFUSAL[probe]
    ]
    assert not target.exists()
    assert existing.stat().st_mode & 0o777 == 0o600


_BACKEND_CHILD = """
import errno, os, socket, sys
from appliance.answer import sandbox
sc = sandbox.seccomp_backend(sys.argv[1])
sandbox.enter_loading_sandbox(sandbox.SandboxLimits(1 << 31, 600), read_paths=[], backend=sc)
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    print("socket succeeded", flush=True)
except OSError as err:
    print("socket", errno.errorcode[err.errno], flush=True)
sandbox.lock_down(backend=sc)
print("locked", flush=True)
os.open("/etc/hostname", os.O_RDONLY)
print("open succeeded", flush=True)
"""


@pytest.mark.parametrize("backend", sandbox.BACKENDS)
def test_each_seccomp_binding_builds_filters_that_block(backend: str) -> None:
    """Both libseccomp bindings build the product's two filters, and each really blocks a call."""
    proc = subprocess.run(
        [sys.executable, "-I", "-B", "-c", _BACKEND_CHILD, backend],
        capture_output=True,
        text=True,
        env=scrubbed_environment(1),
        cwd="/",
        timeout=120,
    )
    assert proc.stdout.splitlines() == ["socket EPERM", "locked"], proc.stderr
    assert proc.returncode == -signal.SIGSYS


def test_worker_builds_its_filters_with_the_libseccomp_bindings_when_installed(
    models_dir: Path,
) -> None:
    messages, status = run_probe("socket", models_dir)
    ready = messages[0]
    expected = "seccomp" if importlib.util.find_spec("seccomp") is not None else "pyseccomp"
    assert ready["type"] == "ready" and ready["seccomp"] == expected
    assert ready["landlock_abi"] == landlock.abi_version()
    assert status == -signal.SIGSYS


def _limit(limits: str, name: str) -> tuple[str, str]:
    """(soft, hard) of one line of /proc/<pid>/limits."""
    line = next(line for line in limits.splitlines() if line.startswith(name))
    soft, hard = line[len(name) :].split()[:2]
    return soft, hard


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
        # No file may grow, few descriptors, and a bound on new tasks.
        assert _limit(limits, "Max file size") == ("0", "0")
        assert _limit(limits, "Max open files") == ("32", "32")
        nproc = _limit(limits, "Max processes")
        assert nproc[0] == nproc[1] != "unlimited"
        assert Path(f"/proc/{pid}/cwd").resolve() == Path("/")
        assert worker.status.landlock_abi == landlock.abi_version()
        assert worker.status.seccomp_bindings in sandbox.BACKENDS
        # And it still answers under all of that.
        pieces = [
            p
            async for p in worker.generate(
                [{"role": "user", "content": "Say hello."}], max_tokens=5
            )
        ]
        assert "".join(pieces).strip()
        await asyncio.sleep(0)
