"""A real appliance (real index, vision OCR, extractive answers, uvicorn) running in a background thread.

The status page tests talk to it over real HTTP on 127.0.0.1; the browser tests drive a real headless
Chromium against it. Questions are put through the real pipeline with ``ask`` (the voice front end is
covered by the end-to-end test in tests/service).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from appliance.config import load_config
from appliance.events import EventBus
from appliance.service.appliance import Appliance
from appliance.service.parts import build_parts
from appliance.service.samples import write_samples
from tests.utterances import heard

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


@dataclass
class RunningAppliance:
    """Handle on the appliance thread."""

    data_dir: Path
    appliance: Appliance | None = None
    loop: asyncio.AbstractEventLoop | None = None
    ready: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    @property
    def url(self) -> str:
        assert self.appliance is not None
        return f"http://127.0.0.1:{self.appliance.web.bound_port}"

    @property
    def token(self) -> str:
        assert self.appliance is not None
        return self.appliance.token

    def call(self, coro: Any, timeout: float = 120) -> Any:
        """Run a coroutine on the appliance's loop and wait for its result."""
        assert self.loop is not None
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return future.result(timeout)

    def ask(self, question: str) -> dict[str, Any]:
        """Put a transcribed question through the real pipeline; returns its status-page record."""
        assert self.appliance is not None
        return self.call(self.appliance.pipeline.handle(heard(question)))  # type: ignore[no-any-return]


def _run(handle: RunningAppliance, config_path: Path) -> None:
    async def main() -> None:
        config = load_config(config_path, environ={})
        bus = EventBus(queue_size=1024)
        appliance = Appliance(config, build_parts(config, bus), bus=bus)
        handle.loop = asyncio.get_running_loop()
        bus.bind(handle.loop)
        handle.appliance = appliance
        runner = asyncio.create_task(appliance.run())
        await appliance.started()
        await appliance.inbox.reconciled.wait()
        await appliance.queue.drained()
        handle.ready.set()
        await runner

    try:
        asyncio.run(main())
    except BaseException as err:  # reported to the test that waits for readiness
        handle.error = err
        handle.ready.set()


@pytest.fixture(scope="session")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningAppliance]:
    """One appliance for the whole web test session, with one sample drawing indexed."""
    root = tmp_path_factory.mktemp("web")
    data = root / "data"
    write_samples(data / "inbox" / "global")
    for extra in ("B-2040_revA.png", "C-3310_revB.png"):
        (data / "inbox" / "global" / extra).unlink()  # one drawing keeps start-up short
    config_path = root / "openclaw.toml"
    config_path.write_text(
        f'[paths]\ndata_dir = "{data}"\n'
        "[web]\nport = 0\nmax_upload_mb = 1\nmax_json_kb = 4\nsse_keepalive_s = 1.0\n"
        '[answer]\nllm_model = ""\n'
        "[ingest]\ndebounce_s = 0.3\n",
        encoding="utf-8",
    )
    handle = RunningAppliance(data)
    thread = threading.Thread(
        target=_run, args=(handle, config_path), name="appliance", daemon=True
    )
    thread.start()
    assert handle.ready.wait(300), "the appliance did not start"
    if handle.error is not None:
        raise handle.error
    yield handle
    assert handle.appliance is not None and handle.loop is not None
    handle.loop.call_soon_threadsafe(handle.appliance.request_stop)
    thread.join(60)
    assert not thread.is_alive()
    assert handle.appliance.stopped_cleanly


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """tests/artifacts (gitignored): screenshots of the test run."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
