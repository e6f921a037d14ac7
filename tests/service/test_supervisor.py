"""The supervisor restarts failing components with backoff and reports every state."""

from __future__ import annotations

import asyncio

from appliance.errors import HardwareError
from appliance.events import EventBus, EventType
from appliance.service.supervisor import Backoff, ComponentStatus, FunctionComponent, Supervisor


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
