"""A corpus of hostile files through the real entry points: ``openclaw index`` and the running service's
inbox. Every file ends indexed or with its own coded error; nothing crashes, the status page keeps
serving, the index stays consistent, and a failed file is not tried again at the next start."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pymupdf
import pytest
from PIL import Image

OPENCLAW = str(Path(sys.executable).with_name("openclaw"))
NOTE = b"# Fixture plate\n\nThe fixture plate bolts take 12 N m.\n"


def _noise_image(fmt: str) -> bytes:
    rng = random.Random(7)
    image = Image.frombytes("L", (240, 240), bytes(rng.randrange(256) for _ in range(240 * 240)))
    out = io.BytesIO()
    image.save(out, format=fmt)
    return out.getvalue()


def build_corpus(folder: Path, prefix: str = "") -> dict[str, str | None]:
    """Write the hostile files; returns display name -> expected error code (None: indexed)."""
    folder.mkdir(parents=True, exist_ok=True)
    raw = os.fsencode(folder)
    expected: dict[str, str | None] = {}

    def put(name: str | bytes, data: bytes, code: str | None) -> None:
        name = prefix.encode() + name if isinstance(name, bytes) else prefix + name
        path = raw + b"/" + (name if isinstance(name, bytes) else name.encode())
        with open(path, "wb") as fh:
            fh.write(data)
        shown = name.decode("utf-8", "backslashreplace") if isinstance(name, bytes) else name
        expected[shown] = code

    put(b"plate\xff.md", NOTE, None)  # Latin-1 byte in the name, fine content
    put(b"\xe9tau\xfe.md", b"\x00\x00binary\x00", "binary_as_text")  # bad name and bad content
    put("nul.md", b"# Notes\n\nline one\x00line two\n", "binary_as_text")
    put("latin1.md", "# Caf\u00e9\n\nTorque 5 N m.\n".encode("latin-1"), "text_not_utf8")
    put("empty.md", b"", "file_empty")
    put("blank.md", b"   \n\t\n", "file_empty")
    png, jpg = _noise_image("PNG"), _noise_image("JPEG")
    put("zero.png", b"", "file_empty")
    put("zero.jpg", b"", "file_empty")
    put("truncated.png", png[: len(png) // 2], "image_truncated")
    put("truncated.jpg", jpg[: len(jpg) // 3], "image_truncated")
    put("header-only.png", png[:40], "image_not_an_image")  # cut inside its header chunk
    put("not-a-png.png", b"GIF89a" + b"\x00" * 64, "image_not_an_image")
    doc = pymupdf.open()
    doc.new_page(width=5000, height=5000)
    put("huge-page.pdf", doc.tobytes(), "page_too_large")
    doc.close()
    put("corrupt.pdf", b"%PDF-1.7\n" + os.urandom(300), "pdf_corrupt")
    put("zero.pdf", b"", "file_empty")
    with open(folder / f"{prefix}sparse.pdf", "wb") as fh:  # 2 GB on paper, nothing on disk
        fh.truncate(2 * 1024**3)
    expected[f"{prefix}sparse.pdf"] = "file_too_large"
    os.symlink(f"{prefix}loop-b.md", folder / f"{prefix}loop-a.md")
    os.symlink(f"{prefix}loop-a.md", folder / f"{prefix}loop-b.md")
    expected[f"{prefix}loop-a.md"] = expected[f"{prefix}loop-b.md"] = "symlink_loop"
    return expected


def _openclaw(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [OPENCLAW, "--config", str(config), *args],
        capture_output=True,
        text=True,
        errors="backslashreplace",
        timeout=600,
        check=False,
        env={k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"},
    )


def test_the_corpus_through_openclaw_index(config_file: Path, tmp_path: Path) -> None:
    expected = build_corpus(tmp_path / "corpus")
    proc = _openclaw(config_file, "index", str(tmp_path / "corpus"), "--json")
    assert proc.returncode == 4, proc.stderr
    assert "Traceback" not in proc.stderr
    report = json.loads(proc.stdout)
    got: dict[str, str | None] = {f["file"]: f["code"] for f in report["failed"]}
    got.update({Path(r["source"]).name: None for r in report["indexed"]})
    assert got == expected
    for failure in report["failed"]:
        assert str(tmp_path) not in failure["message"]  # names only, never the folders
    stats = json.loads(_openclaw(config_file, "stats", "--json").stdout)
    assert stats["integrity"] == "ok" and stats["sources"] == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Service:
    """A real ``openclaw run`` process on a free port."""

    def __init__(self, config: Path, port: int, data: Path) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.data = data
        self.proc = subprocess.Popen(
            [OPENCLAW, "--config", str(config), "run"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"},
        )
        self.log = ""

    def state(self) -> dict[str, Any]:
        response = httpx.get(f"{self.url}/api/state", timeout=10)
        assert response.status_code == 200, response.text
        return response.json()

    def failures(self) -> dict[str, str]:
        """File name -> code from the service's record of failed files."""
        record = self.data / "index-failures.json"
        if not record.is_file():
            return {}
        failures = json.loads(record.read_text())["failures"]
        return {key.rsplit("/", 1)[-1]: entry["code"] for key, entry in failures.items()}

    def indexed(self) -> set[str]:
        sources = httpx.get(f"{self.url}/api/sources", timeout=10).json()
        return {s["source"].rsplit("/", 1)[-1] for ns in sources.values() for s in ns}

    def settled(self, expected: dict[str, str | None]) -> dict[str, str | None]:
        """Every expected file's outcome (its failure code, or None once indexed)."""
        outcome: dict[str, str | None] = {}
        for _ in range(600):  # polls of 0.5 s at most: a bound, not a timed assertion
            assert self.proc.poll() is None, "openclaw run exited"
            try:
                state = self.state()
                indexed = self.indexed()
            except httpx.HTTPError:
                time.sleep(0.5)
                continue
            outcome = {**self.failures(), **dict.fromkeys(indexed)}
            if set(expected) <= set(outcome) and not state["indexing"]:
                return {name: outcome[name] for name in expected}
            time.sleep(0.5)
        missing = sorted(set(expected) - set(outcome))
        self._end()  # its log says what the watcher saw
        raise AssertionError(f"never settled; missing: {missing}\n{self.log[-6000:]}")

    def _end(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        _out, err = self.proc.communicate(timeout=120)
        self.log = err.decode("utf-8", "backslashreplace")

    def stop(self) -> None:
        self._end()
        assert self.proc.returncode == 0, self.log[-3000:]


@pytest.fixture
def service_config(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    port = _free_port()
    config = tmp_path / "openclaw.toml"
    config.write_text(
        f'[paths]\ndata_dir = "{tmp_path / "data"}"\n[web]\nport = {port}\n'
        '[answer]\nllm_model = ""\n[ingest]\ndebounce_s = 0.3\n',
        encoding="utf-8",
    )
    yield config, port


def test_the_corpus_through_the_service_inbox(
    service_config: tuple[Path, int], tmp_path: Path
) -> None:
    config, port = service_config
    data = tmp_path / "data"
    inbox = data / "inbox"
    # One corpus waits in the inbox before the start (the start-up pass finds it) ...
    expected = build_corpus(inbox / "global")
    (inbox / "shop").mkdir()
    service = Service(config, port, data)
    try:
        assert service.settled(expected) == expected
        # ... and one is dropped in while the service watches (renamed in, as a sync tool does).
        live = build_corpus(tmp_path / "staging", prefix="live-")
        for entry in os.scandir(os.fsencode(tmp_path / "staging")):
            os.rename(entry.path, os.fsencode(inbox / "shop") + b"/" + entry.name)
        assert service.settled(live) == live
        state = service.state()
        failed = [j for j in state["jobs"] if j["state"] == "failed"]
        assert failed and all(j["code"] and j["message"] for j in failed)
        with httpx.stream("GET", f"{service.url}/api/events", timeout=30) as stream:
            assert any(line.startswith("data: ") for line in _first_lines(stream.iter_lines()))
        assert httpx.get(f"{service.url}/healthz", timeout=10).status_code == 200
        components = {c["name"]: c for c in state["components"]}
        assert components["inbox"]["restarts"] == 0 and components["web"]["restarts"] == 0
    finally:
        service.stop()
    assert "Traceback" not in service.log

    # A restart: the failed files are shown from the record, not tried again.
    service = Service(config, port, data)
    try:
        assert service.settled(expected | live) == expected | live
        failures = {n: c for n, c in (expected | live).items() if c is not None}
        for _ in range(240):  # until the start-up pass has shown them (0.5 s polls, a bound)
            state = service.state()
            shown = {j["source"].rsplit("/", 1)[-1]: j for j in state["jobs"]}
            if len(shown) >= min(len(failures), 30):  # the page keeps the last 30 jobs
                break
            time.sleep(0.5)
        assert len(shown) == min(len(failures), 30)
        for name, job in shown.items():
            assert job["recorded"] and job["code"] == failures[name], name
        assert state["counters"]["index_failed"] == 0
        assert not any(j["job"].startswith("j") for j in state["jobs"])  # nothing was queued
    finally:
        service.stop()
    assert "Traceback" not in service.log
    stats = json.loads(_openclaw(config, "stats", "--json").stdout)
    assert stats["integrity"] == "ok" and stats["sources"] == 2


def _first_lines(lines: Iterator[str]) -> Iterator[str]:
    for count, line in enumerate(lines):
        yield line
        if line.startswith("data: ") or count > 20:
            return


def test_a_log_record_naming_such_a_file_is_valid_utf8_json() -> None:
    import logging

    from appliance.logs import JsonFormatter

    name = os.fsdecode(b"plate\xff.md")
    record = logging.makeLogRecord({"msg": f"indexing {name}", "file": name, "levelname": "INFO"})
    line = JsonFormatter().format(record)
    line.encode("utf-8")  # what journald receives
    parsed = json.loads(line)
    assert parsed["msg"] == "indexing plate\udcff.md" and parsed["file"] == name
