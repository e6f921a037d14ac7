"""The status light and the buttons, as gpiozero devices built from the pin map.

Every device takes ``pin_factory=`` (keyword-only) so tests and development machines pass gpiozero's
``MockFactory`` and drive the pins themselves. Button callbacks run on gpiozero's threads (or, with
``MockPin``, synchronously in whoever drove the pin): they only hand events to the loop through
:meth:`EventBus.publish_threadsafe`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from gpiozero import RGBLED, Button, Factory

from appliance.events import Event, EventBus, EventType
from appliance.gpio.settings import GpioSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LightPattern:
    """How the status light shows one state."""

    #: (red, green, blue), each 0 or 1.
    color: tuple[int, int, int]
    #: Seconds on per blink; 0 for steady.
    on_s: float = 0.0
    #: Seconds off per blink.
    off_s: float = 0.0


#: State -> light. Colours are distinct for people with red/green colour blindness too (blue, white, yellow).
PATTERNS: dict[str, LightPattern] = {
    "off": LightPattern((0, 0, 0)),
    "idle": LightPattern((0, 1, 0)),
    "listening": LightPattern((0, 0, 1)),
    "thinking": LightPattern((0, 0, 1), 0.15, 0.15),
    "speaking": LightPattern((1, 1, 1)),
    "indexing": LightPattern((1, 1, 0), 0.5, 0.5),
    "error": LightPattern((1, 0, 0), 0.25, 0.25),
}


class StatusLight:
    """One RGB LED showing idle / listening / thinking / speaking / indexing / error."""

    def __init__(self, settings: GpioSettings, *, pin_factory: Factory) -> None:
        self._led = RGBLED(
            settings.led_red,
            settings.led_green,
            settings.led_blue,
            active_high=not settings.led_common_anode,
            pwm=False,  # plain on/off works on every pin and with MockFactory's plain pins
            pin_factory=pin_factory,
        )
        #: The state shown now.
        self.state = "off"

    def show(self, state: str) -> None:
        """Show a state (unknown states show as error)."""
        if state == self.state:
            return
        pattern = PATTERNS.get(state, PATTERNS["error"])
        self.state = state
        if pattern.on_s:
            self._led.blink(
                on_time=pattern.on_s,
                off_time=pattern.off_s,
                on_color=pattern.color,
                background=True,
            )
        else:
            self._led.color = pattern.color

    @property
    def color(self) -> tuple[float, float, float]:
        """The colour the LED is showing (for tests and the status page)."""
        red, green, blue = self._led.value
        return (red, green, blue)

    def close(self) -> None:
        """Turn the light off and release its pins."""
        try:
            self._led.off()
        finally:
            self._led.close()
        self.state = "off"


class Buttons:
    """The three buttons, each publishing a ``button`` event when pressed."""

    #: Role -> settings attribute holding its pin.
    ROLES: ClassVar[dict[str, str]] = {
        "talk": "button_talk",
        "capture": "button_capture",
        "not_for_you": "button_not_for_you",
    }

    def __init__(self, settings: GpioSettings, bus: EventBus, *, pin_factory: Factory) -> None:
        self._bus = bus
        self.buttons: dict[str, Button] = {}
        for role, attr in self.ROLES.items():
            pin = getattr(settings, attr)
            if not pin:
                continue
            button = Button(
                pin, pull_up=True, bounce_time=settings.bounce_s or None, pin_factory=pin_factory
            )
            button.when_pressed = self._handler(role)
            self.buttons[role] = button

    def _handler(self, role: str) -> Callable[[], None]:
        def pressed() -> None:
            # Runs on a gpiozero thread: never touch the loop directly.
            self._bus.publish_threadsafe(Event(EventType.BUTTON, {"button": role}))

        return pressed

    def close(self) -> None:
        """Release the pins."""
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()
