"""The supervisor restarts failing components with backoff, leaves a permanent fault failed, and
reports every state."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from appliance.answer.settings import AnswerSettings
from appliance.answer.worker import AnswerWorker, WorkerState, WorkerStatus
from appliance.errors import HardwareError
from appliance.events import EventBus, EventType
from appliance.models.manifest import load_manifest
from appliance.models.store import locate
from appliance.service.parts import AnswerWorkerComponent
from appliance.service.supervisor import (
    Backoff,
    ComponentStatus,
    FunctionComponent,
    PermanentFault,
    Supervisor,
)
from appliance.state import LiveState


async def _until(predicate, bus_queue) -> None:  # type: ignore[no-untyped-def]
    while not predicate():
        await asyncio.wait_for(bus_queue.get(), 10)


async def test_failing_component_is_restarted_with_backoff_and_its_error_shown() -> None:
    bus = EventBus()
    events = bus.subscribe_queue()
    attempts = 0
    running = asyncio.Event()

    async def flaky() -> None:
        nonlocal attempts
        attempts += 1
        if attempts <= 2:
            raise HardwareError("microphone missing", code="mic_missing")
        running.set()
        await asyncio.Event().wait()

    sup = Supervisor(bus, Backoff(initial_s=0.01, max_s=0.02))
    sup.add(FunctionComponent("audio", flaky), critical=True)
    sup.start()
    await asyncio.wait_for(running.wait(), 10)
    health = sup.get_health("audio")
    assert attempts == 3
    assert health.status == ComponentStatus.RUNNING
    assert health.restarts == 2
    assert health.last_error_code == "mic_missing"
    assert health.last_error == "microphone missing"
    assert sup.healthy()
    seen = []
    while not events.empty():
        event = events.get_nowait()
        if event.type == EventType.COMPONENT_STATE:
            seen.append(event.data["status"])
    assert seen.count("backoff") == 2 and seen[-1] == "running"
    await sup.stop()
    assert sup.get_health("audio").status == ComponentStatus.STOPPED


async def test_foreign_exception_text_is_not_shown() -> None:
    bus = EventBus()
    failed = asyncio.Event()

    async def leaky() -> None:
        failed.set()
        raise FileNotFoundError("/home/secret/customer-drawings/x.pdf")

    sup = Supervisor(bus, Backoff(initial_s=5, max_s=5))
    sup.add(FunctionComponent("leaky", leaky))
    sup.start()
    await asyncio.wait_for(failed.wait(), 10)
    await asyncio.sleep(0)
    health = sup.get_health("leaky")
    assert health.status == ComponentStatus.BACKOFF
    assert "/home" not in health.last_error and "FileNotFoundError" in health.last_error
    await sup.stop()


async def test_backoff_grows_and_is_capped() -> None:
    backoff = Backoff(initial_s=0.5, max_s=4, factor=2)
    assert [backoff.delay(n) for n in range(1, 6)] == [0.5, 1.0, 2.0, 4.0, 4.0]


async def test_restart_on_request_skips_backoff_and_critical_health() -> None:
    bus = EventBus()
    starts = 0
    started = asyncio.Event()

    async def worker() -> None:
        nonlocal starts
        starts += 1
        started.set()
        await asyncio.Event().wait()

    sup = Supervisor(bus)
    sup.add(FunctionComponent("answer", worker), critical=True)
    sup.disable("camera", "vision.camera = off")
    sup.start()
    await asyncio.wait_for(started.wait(), 10)
    started.clear()
    sup.restart("answer")
    await asyncio.wait_for(started.wait(), 10)
    assert starts == 2
    assert sup.get_health("answer").restarts == 1
    assert sup.get_health("camera").status == ComponentStatus.DISABLED
    assert sup.healthy()
    await sup.stop()
    assert not sup.healthy()


async def test_permanent_fault_leaves_component_failed_until_an_admin_restarts_it() -> None:
    bus = EventBus()
    events = bus.subscribe_queue()
    attempts = 0
    running = asyncio.Event()

    async def needs_a_file() -> None:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise PermanentFault("model file is not installed", code="model_missing")
        running.set()
        await asyncio.Event().wait()

    sup = Supervisor(bus, Backoff(initial_s=0.01, max_s=0.01))
    sup.add(FunctionComponent("answer", needs_a_file), critical=True)
    sup.start()
    health = sup.get_health("answer")
    await _until(lambda: health.status == ComponentStatus.FAILED, events)
    await asyncio.sleep(0.2)  # twenty backoff periods: no restart
    assert attempts == 1 and health.restarts == 0
    assert (health.last_error_code, health.last_error) == (
        "model_missing",
        "model file is not installed",
    )
    assert not sup.healthy()
    # The file mended, an admin restarts it from the status page.
    sup.restart("answer")
    await asyncio.wait_for(running.wait(), 10)
    assert health.status == ComponentStatus.RUNNING and attempts == 2
    await sup.stop()


# -- the answer component with the real worker and a model file that is wrong -----------------------

_DEV_MODEL = "smollm2-135m-instruct-q4_1"


def _manifest_for(tmp_path: Path, size: int, sha256: str) -> Path:
    """A manifest naming the development model's file in the models folder only (no PyPI carrier),
    so the models folder holds the only copy the worker can find."""
    spec = load_manifest().get(_DEV_MODEL)
    gguf = spec.file("gguf")
    path = tmp_path / "manifest.toml"
    path.write_text(
        "[[model]]\n"
        f'name = "{_DEV_MODEL}"\n'
        'kind = "llm"\n'
        'licence = "Apache-2.0"\n'
        "[model.options]\n"
        "context_length = 2048\n"
        'chat_format = "chatml"\n'
        "[[model.files]]\n"
        'role = "gguf"\n'
        f'path = "{gguf.path}"\n'
        f"size = {size}\n"
        f'sha256 = "{sha256}"\n',
        encoding="utf-8",
    )
    return path


def _missing(tmp_path: Path, models_dir: Path) -> Path:
    gguf = load_manifest().get(_DEV_MODEL).file("gguf")
    return _manifest_for(tmp_path, gguf.size, gguf.sha256)


def _corrupted(tmp_path: Path, models_dir: Path) -> Path:
    """A real copy of the model with one byte changed inside its weights (same size)."""
    spec = load_manifest().get(_DEV_MODEL)
    real = locate(spec, "gguf", models_dir)
    copy = models_dir / _DEV_MODEL / spec.file("gguf").path
    copy.parent.mkdir(parents=True)
    shutil.copyfile(real, copy)
    with copy.open("r+b") as fh:
        fh.seek(spec.file("gguf").size // 2)
        byte = fh.read(1)
        fh.seek(-1, 1)
        fh.write(bytes([byte[0] ^ 0xFF]))
    return _manifest_for(tmp_path, spec.file("gguf").size, spec.file("gguf").sha256)


def _unloadable(tmp_path: Path, models_dir: Path) -> Path:
    """A file that matches its manifest entry but is no GGUF: it passes the check, llama.cpp refuses it."""
    junk = b"GGUF" + bytes(range(256)) * 64
    path = models_dir / _DEV_MODEL / load_manifest().get(_DEV_MODEL).file("gguf").path
    path.parent.mkdir(parents=True)
    path.write_bytes(junk)
    return _manifest_for(tmp_path, len(junk), hashlib.sha256(junk).hexdigest())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("make", "code"),
    [
        (_missing, "model_missing"),
        (_corrupted, "model_checksum"),
        (_unloadable, "model_load_failed"),
    ],
)
async def test_answer_component_with_a_bad_model_file_fails_once_and_is_not_restarted(
    make: Callable[[Path, Path], Path], code: str, tmp_path: Path
) -> None:
    models_dir = tmp_path / "models"
    models_dir.mkdir()
    manifest = make(tmp_path, models_dir)
    launches: list[WorkerStatus] = []

    def on_state(status: WorkerStatus) -> None:
        if status.state is WorkerState.STARTING:
            launches.append(status)

    settings = replace(
        AnswerSettings(),
        llm_model=_DEV_MODEL,
        threads=1,
        context_tokens=512,
        start_timeout_s=600.0,
        restart_backoff_s=0.05,
        restart_backoff_max_s=0.1,
    )
    worker = AnswerWorker(
        settings, models_dir=models_dir, manifest_path=manifest, on_state=on_state
    )
    bus = EventBus()
    bus.bind(asyncio.get_running_loop())
    events = bus.subscribe_queue()
    page = LiveState()
    # The service's backoff would restart within 0.05 s: the failure must stop that, not a long delay.
    sup = Supervisor(bus, Backoff(initial_s=0.05, max_s=0.1))
    sup.add(AnswerWorkerComponent(worker))
    sup.start()
    health = sup.get_health("answer")
    deadline = time.monotonic() + 600
    while health.status is not ComponentStatus.FAILED:
        assert health.status is not ComponentStatus.BACKOFF, health.to_json()
        assert time.monotonic() < deadline, health.to_json()
        page.apply(await asyncio.wait_for(events.get(), 600))
    # Time for several restarts at this backoff, had there been any.
    await asyncio.sleep(1.5)
    while not events.empty():
        page.apply(events.get_nowait())
    assert health.status is ComponentStatus.FAILED
    assert health.last_error_code == code and health.last_error
    assert health.restarts == 0
    assert len(launches) == 1
    # No process is left behind, and the worker remembers why.
    assert worker.status.pid is None and worker.status.last_error_code == code
    # The status page shows it failed, with its code.
    shown = page.components["answer"]
    assert shown["status"] == "failed" and shown["last_error_code"] == code
    assert str(tmp_path) not in shown["last_error"]
    assert page.last_error["code"] == code
    await sup.stop()
