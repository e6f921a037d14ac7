"""LEDs and buttons on gpiozero's MockFactory: the real gpiozero devices, only the pins are fake."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from appliance.config import load_config
from appliance.errors import ConfigError
from appliance.events import Event, EventBus, EventType
from appliance.gpio.controller import GpioComponent
from appliance.gpio.devices import Buttons, StatusLight
from appliance.gpio.settings import GpioSettings


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def _rgb(factory: MockFactory, s: GpioSettings) -> tuple[bool, bool, bool]:
    return tuple(bool(factory.pin(p).state) for p in (s.led_red, s.led_green, s.led_blue))  # type: ignore[return-value]


def test_light_colours_per_state_and_off_on_close(factory: MockFactory) -> None:
    s = GpioSettings()
    light = StatusLight(s, pin_factory=factory)
    light.show("idle")
    assert _rgb(factory, s) == (False, True, False)
    light.show("listening")
    assert _rgb(factory, s) == (False, False, True)
    light.show("speaking")
    assert _rgb(factory, s) == (True, True, True)
    light.close()
    assert _rgb(factory, s) == (False, False, False)


def test_blinking_states_toggle_the_pins(factory: MockFactory) -> None:
    s = GpioSettings()
    light = StatusLight(s, pin_factory=factory)
    light.show("error")
    red = factory.pin(s.led_red)
    # gpiozero's blink thread records every transition on the mock pin.
    deadline = threading.Event()
    for _ in range(100):
        if sum(1 for st in red.states if st.state) >= 2:
            break
        deadline.wait(0.05)
    assert sum(1 for st in red.states if st.state) >= 2
    assert not factory.pin(s.led_green).state
    light.close()


async def test_button_press_from_a_foreign_thread_reaches_the_loop(factory: MockFactory) -> None:
    bus = EventBus()
    bus.bind(asyncio.get_running_loop())
    queue = bus.subscribe_queue()
    s = GpioSettings(bounce_s=0)
    buttons = Buttons(s, bus, pin_factory=factory)
    seen_thread: list[str] = []

    def press() -> None:
        seen_thread.append(threading.current_thread().name)
        # MockPin fires when_pressed synchronously, inside this foreign thread.
        factory.pin(s.button_not_for_you).drive_low()
        factory.pin(s.button_not_for_you).drive_high()
        factory.pin(s.button_talk).drive_low()

    thread = threading.Thread(target=press, name="gpio-test-thread")
    thread.start()
    thread.join()
    first = await asyncio.wait_for(queue.get(), 10)
    second = await asyncio.wait_for(queue.get(), 10)
    assert seen_thread == ["gpio-test-thread"]
    assert (first.type, first.data) == (EventType.BUTTON, {"button": "not_for_you"})
    assert second.data == {"button": "talk"}
    buttons.close()


def test_publishing_from_a_thread_needs_a_bound_loop(factory: MockFactory) -> None:
    bus = EventBus()
    buttons = Buttons(GpioSettings(bounce_s=0), bus, pin_factory=factory)
    with pytest.raises(RuntimeError, match="bind"):
        factory.pin(GpioSettings().button_capture).drive_low()
    buttons.close()


async def test_component_follows_the_bus_and_switches_off_when_cancelled(
    factory: MockFactory,
) -> None:
    s = GpioSettings()
    bus = EventBus()
    comp = GpioComponent(s, bus, pin_factory=factory)
    task = asyncio.create_task(comp.run())
    while comp.light is None or comp.light.state != "idle":
        await asyncio.sleep(0.01)
    bus.publish(Event(EventType.WAKE_DETECTED, {"score": 0.9}))
    while comp.light.state != "listening":
        await asyncio.sleep(0.01)
    assert _rgb(factory, s) == (False, False, True)
    bus.publish(Event(EventType.INDEX_QUEUED, {"job": "j1"}))
    bus.publish(Event(EventType.IDLE, {}))
    while comp.light.state != "indexing":
        await asyncio.sleep(0.01)
    bus.publish(Event(EventType.INDEX_DONE, {"job": "j1"}))
    while comp.light.state != "idle":
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert comp.light is None and comp.buttons is None
    assert _rgb(factory, s) == (False, False, False)


def test_pin_map_is_validated(tmp_path: Path) -> None:
    bad = tmp_path / "c.toml"
    bad.write_text("[gpio]\nbutton_talk = 17\n", encoding="utf-8")
    with pytest.raises(
        ConfigError, match=r"gpio.button_talk: pin 17 is already used by gpio.led_red"
    ):
        load_config(bad, environ={})
    bad.write_text("[gpio]\nled_red = 40\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not a BCM GPIO pin"):
        load_config(bad, environ={})
    bad.write_text('[gpio]\npin_factory = "wiringpi"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"gpio\.pin_factory"):
        load_config(bad, environ={})
