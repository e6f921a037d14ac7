"""Choosing the gpiozero pin factory by name; imported lazily so a dev machine needs no GPIO library."""

from __future__ import annotations

from gpiozero import Factory

from appliance.errors import HardwareError


def make_pin_factory(name: str) -> Factory:
    """The gpiozero pin factory of that name ("mock" is gpiozero's own MockFactory)."""
    try:
        if name == "mock":
            from gpiozero.pins.mock import MockFactory

            return MockFactory()
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        if name == "pigpio":
            from gpiozero.pins.pigpio import PiGPIOFactory

            return PiGPIOFactory()
        if name == "native":
            from gpiozero.pins.native import NativeFactory

            return NativeFactory()
    except (ImportError, OSError, RuntimeError) as err:
        raise HardwareError(
            f"GPIO pin factory {name!r} is not usable here ({type(err).__name__}); "
            'on a Pi 5 install python3-lgpio, elsewhere set gpio.pin_factory = "mock"',
            code="gpio_unavailable",
        ) from err
    raise HardwareError(f"unknown GPIO pin factory {name!r}", code="gpio_unavailable")
