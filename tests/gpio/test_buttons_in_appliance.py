"""Buttons in the running appliance: MockPin presses from a foreign thread become pipeline actions, and
the status light is off and released after shutdown."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from appliance.config import load_config
from appliance.events import EventBus, EventType
from appliance.service.appliance import Appliance
from appliance.service.parts import build_parts


async def test_buttons_drive_the_pipeline(tmp_path: Path) -> None:
    base = load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data")})
    config = dataclasses.replace(
        base,
        answer=dataclasses.replace(base.answer, llm_model=""),
        web=dataclasses.replace(base.web, port=0),
    )
    factory = MockFactory()
    bus = EventBus(queue_size=1024)
    appliance = Appliance(config, build_parts(config, bus), bus=bus, pin_factory=factory)
    bus.bind(asyncio.get_running_loop())
    events = bus.subscribe_queue()
    runner = asyncio.create_task(appliance.run())
    gpio = config.gpio
    try:
        await appliance.started()
        while appliance.gpio.buttons is None:
            await asyncio.sleep(0.01)

        def press(pin: int) -> None:
            factory.pin(pin).drive_low()
            factory.pin(pin).drive_high()

        for pin in (gpio.button_not_for_you, gpio.button_capture):
            thread = threading.Thread(target=press, args=(pin,))
            thread.start()
            thread.join()
        seen: set[EventType] = set()
        while not {EventType.FALSE_WAKE, EventType.CAPTURE_REJECTED} <= seen:
            event = await asyncio.wait_for(events.get(), 60)
            seen.add(event.type)
            if event.type == EventType.CAPTURE_REJECTED:
                # The development folder camera has no pictures in a fresh data directory.
                assert event.data["code"].startswith("camera")
        assert EventType.CAPTURE_REQUESTED in seen
    finally:
        appliance.request_stop()
        await runner
    for pin in (gpio.led_red, gpio.led_green, gpio.led_blue):
        assert not factory.pin(pin).state
    assert appliance.gpio.light is None and appliance.gpio.buttons is None
