"""``openclaw doctor`` checks what is really installed for zip-published models and whether the configured
listener engines start; ``openclaw run`` says loudly when the listener cannot start."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import wave
from pathlib import Path

import httpx

OPENCLAW = str(Path(sys.executable).with_name("openclaw"))
VOSK = "vosk-model-small-en-us"  # published only as a zip; not installed on this machine


def _vosk_config(tmp_path: Path, models: Path, extra: str = "") -> Path:
    config = tmp_path / "openclaw.toml"
    config.write_text(
        f'[paths]\ndata_dir = "{tmp_path / "data"}"\nmodels_dir = "{models}"\n'
        f'[audio]\nstt_engine = "vosk"\nwake_engine = "vosk"\n{extra}',
        encoding="utf-8",
    )
    return config


def _doctor(config: Path) -> tuple[int, dict[str, dict[str, object]]]:
    proc = subprocess.run(
        [OPENCLAW, "--config", str(config), "doctor", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=dict(os.environ),
    )
    return proc.returncode, {str(c["name"]): c for c in json.loads(proc.stdout)}


def test_an_absent_zip_published_model_fails(tmp_path: Path) -> None:
    code, checks = _doctor(_vosk_config(tmp_path, tmp_path / "models"))
    assert code == 7
    speech = checks[f"speech model (vosk): {VOSK}"]
    assert not speech["ok"] and "not installed" in str(speech["found"])
    assert "0 file(s)" not in str(speech["found"])
    assert f"openclaw models fetch {VOSK}" in str(speech["fix"])
    listener = checks["listener engines"]
    assert not listener["ok"] and listener["required"]
    assert "model_missing" in str(listener["found"]) and "will not listen" in str(listener["found"])


def test_extracted_files_are_verified_and_the_engine_must_really_load(tmp_path: Path) -> None:
    models = tmp_path / "models"
    folder = models / VOSK / "am"
    folder.mkdir(parents=True)
    (folder / "final.mdl").write_bytes(b"not a vosk model")
    digest = hashlib.sha256(b"not a vosk model").hexdigest()
    record = models / VOSK / ".openclaw-files.sha256"
    record.write_text(f"{digest}  am/final.mdl\n", encoding="utf-8")
    code, checks = _doctor(_vosk_config(tmp_path, models))
    speech = checks[f"speech model (vosk): {VOSK}"]
    assert speech["ok"] and "1 extracted file(s) verified" in str(speech["found"])
    # The files match their record, but they are not a model vosk can load.
    listener = checks["listener engines"]
    assert code == 7 and not listener["ok"] and "cannot start" in str(listener["found"])

    (folder / "final.mdl").write_bytes(b"tampered")
    code, checks = _doctor(_vosk_config(tmp_path, models))
    speech = checks[f"speech model (vosk): {VOSK}"]
    assert code == 7 and not speech["ok"] and "checksum" in str(speech["found"])


def test_this_machines_listener_starts(config_file: Path) -> None:
    _code, checks = _doctor(config_file)
    assert checks["listener engines"]["ok"], checks["listener engines"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_run_says_loudly_when_the_listener_cannot_start(tmp_path: Path) -> None:
    wav = tmp_path / "silence.wav"
    with wave.open(str(wav), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16000)
        out.writeframes(b"\x00\x00" * 16000)
    port = _free_port()
    config = _vosk_config(
        tmp_path,
        tmp_path / "models",
        f'source = "wav"\nwav_files = ["{wav}"]\n[web]\nport = {port}\n[answer]\nllm_model = ""\n',
    )
    proc = subprocess.Popen(
        [OPENCLAW, "--config", str(config), "run"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"},
    )
    try:
        listener: dict[str, object] = {}
        for _ in range(240):  # polls of at most 0.5 s: a bound, not a timed assertion
            if proc.poll() is not None:
                break
            try:
                state = httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=5).json()
            except httpx.HTTPError:
                time.sleep(0.5)
                continue
            listener = next((c for c in state["components"] if c["name"] == "listener"), {})
            if listener:
                break
            time.sleep(0.5)
        assert listener, "the listener never appeared on the status page"
        assert listener["status"] == "disabled"
        assert listener["last_error_code"] == "model_missing"
        assert VOSK in str(listener["last_error"])
        assert state["last_error"]["code"] == "model_missing"
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=120)
    records = [json.loads(line) for line in err.decode().splitlines() if line.startswith("{")]
    loud = [r for r in records if r["level"] == "error" and r.get("component") == "listener"]
    assert loud and loud[0]["code"] == "model_missing", err.decode()[-2000:]
