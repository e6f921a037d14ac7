"""Settings of LEDs and buttons."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GpioSettings:
    """Pin factory and pin map."""

    #: gpiozero pin factory name ("mock" on machines without GPIO, "lgpio" on a Pi 5).
    pin_factory: str = "mock"
