"""A real ``openclaw run`` process: READY over sd_notify, serving, then a real SIGTERM shuts it down cleanly."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(tmp_path: Path, sig_sock: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    config = tmp_path / "openclaw.toml"
    config.write_text(
        f'[paths]\ndata_dir = "{tmp_path / "data"}"\nmodels_dir = "{REPO / "var" / "models"}"\n'
        f"[web]\nport = {port}\n"
        # Not the default: a worker runs, so that its reaping with the service is checked.
        '[answer]\nllm_model = "qwen2.5-coder-0.5b-instruct-q4_k_m"\n',
        encoding="utf-8",
    )
    env = {
        **os.environ,
        "NOTIFY_SOCKET": str(sig_sock),
        "WATCHDOG_USEC": "2000000",
        "OPENCLAW_CONFIG": str(config),
    }
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("openclaw")), "run"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    return proc, port


def _messages(sock: socket.socket, until: bytes, proc: subprocess.Popen[bytes]) -> list[bytes]:
    got: list[bytes] = []
    for _ in range(120):  # 2 s receive timeout each: a bound, not a timed assertion
        if any(m.startswith(until) for m in got):
            return got
        try:
            got.append(sock.recv(4096))
        except TimeoutError:
            if proc.poll() is not None:
                raise AssertionError(f"openclaw run exited early ({proc.returncode})") from None
    raise AssertionError(f"no {until!r} from openclaw run; got {got!r}")


def _run_and_stop(tmp_path: Path, sig: signal.Signals) -> None:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    proc, port = _start(tmp_path, path)
    try:
        ready = _messages(sock, b"READY=1", proc)
        assert any(b"STATUS=serving status page" in m for m in ready)
        health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30)
        assert health.status_code == 200 and health.json()["status"] == "ok"
        token_file = tmp_path / "data/secrets/admin-token"
        assert token_file.stat().st_mode & 0o777 == 0o600
        token = token_file.read_text().strip()
        worker_pid = _worker_pid(port)
        # The watchdog is pinged while the appliance runs.
        seen = _messages(sock, b"WATCHDOG=1", proc)
        if not any(m.startswith(b"STATUS=port") for m in seen):
            seen += _messages(sock, b"STATUS=port", proc)
        status = next(m for m in seen if m.startswith(b"STATUS=port"))
        assert b"running" in status and b"questions" in status
        proc.send_signal(sig)
        assert any(m.startswith(b"STOPPING=1") for m in _messages(sock, b"STOPPING=1", proc))
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()
    if proc.returncode != 0:
        log = REPO / "tests" / "artifacts" / f"run-{sig.name}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_bytes(err)
    assert proc.returncode == 0, err.decode(errors="replace")[-3000:]
    lines = [json.loads(line) for line in err.decode().splitlines() if line.startswith("{")]
    done = [line for line in lines if line["msg"] == "shutdown complete"]
    assert done and done[0]["leds"] == "off" and done[0]["index"] == "closed"
    assert done[0]["components_running"] == 0 and done[0]["worker_pids"] == 0 and done[0]["clean"]
    assert done[0]["pid"] == proc.pid
    # The admin token is never logged.
    assert token not in err.decode()
    # The sandboxed answer worker was reaped with its parent.
    assert not Path(f"/proc/{worker_pid}").exists() or _is_zombie_elsewhere(worker_pid)
    # Nothing is left bound to the port.
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))


def _worker_pid(port: int) -> int:
    """The answer worker's pid, once the status page reports it ready (bounded wait)."""
    for _ in range(600):
        state = httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=30).json()
        answer = next((c for c in state["components"] if c["name"] == "answer"), None)
        if answer and answer["detail"].startswith("ready (pid "):
            return int(answer["detail"].split("pid ")[1].rstrip(")"))
        time.sleep(0.2)
    raise AssertionError(f"the answer worker never became ready: {answer}")


def _is_zombie_elsewhere(pid: int) -> bool:
    """A reused pid that is not our worker counts as gone."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True
    return b"appliance.answer" not in cmdline


def test_sigterm_shuts_down_cleanly(tmp_path: Path) -> None:
    _run_and_stop(tmp_path, signal.SIGTERM)


def test_sigint_shuts_down_cleanly(tmp_path: Path) -> None:
    _run_and_stop(tmp_path, signal.SIGINT)


def test_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            **os.environ,
            "OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data"),
            "OPENCLAW_WEB__PORT": str(port),
            "OPENCLAW_ANSWER__LLM_MODEL": "",
        }
        env.pop("NOTIFY_SOCKET", None)
        proc = subprocess.run(
            [str(Path(sys.executable).with_name("openclaw")), "run"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert proc.returncode == 8  # ExitCode.HARDWARE
    last = proc.stderr.strip().splitlines()[-1]
    assert (
        last
        == f"openclaw: error: [web_bind_failed] cannot listen on 127.0.0.1:{port} (Address already in use)"
    )


def test_sigterm_right_after_ready_while_the_index_is_still_opening(tmp_path: Path) -> None:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    proc, _port = _start(tmp_path, path)
    try:
        _messages(sock, b"READY=1", proc)
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()
    assert proc.returncode == 0, err.decode(errors="replace")[-3000:]
    lines = [json.loads(line) for line in err.decode().splitlines() if line.startswith("{")]
    done = [line for line in lines if line["msg"] == "shutdown complete"]
    assert done and done[0]["clean"] and done[0]["index"] == "closed"
