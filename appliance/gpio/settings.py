"""Settings of LEDs and buttons: the pin factory and the pin map (BCM numbers)."""

from __future__ import annotations

from dataclasses import dataclass

from appliance.errors import ConfigError


@dataclass(frozen=True)
class GpioSettings:
    """Pin factory and pin map. Pins are BCM GPIO numbers; 0 disables a device."""

    #: gpiozero pin factory name ("mock" on machines without GPIO, "lgpio" on a Pi 5).
    pin_factory: str = "mock"
    #: Red leg of the RGB status LED (common cathode).
    led_red: int = 17
    #: Green leg of the RGB status LED.
    led_green: int = 27
    #: Blue leg of the RGB status LED.
    led_blue: int = 22
    #: Whether the RGB LED is common anode (legs active low).
    led_common_anode: bool = False
    #: Push-to-talk button (to ground; internal pull-up).
    button_talk: int = 5
    #: Capture ("scan this") button.
    button_capture: int = 6
    #: "That wasn't for you" button: records a false wake and stops speaking.
    button_not_for_you: int = 13
    #: Button debounce time in seconds.
    bounce_s: float = 0.05

    def pins(self) -> dict[str, int]:
        """Every configured pin by its role (disabled ones left out)."""
        roles = {
            "led_red": self.led_red,
            "led_green": self.led_green,
            "led_blue": self.led_blue,
            "button_talk": self.button_talk,
            "button_capture": self.button_capture,
            "button_not_for_you": self.button_not_for_you,
        }
        return {role: pin for role, pin in roles.items() if pin}

    def validate(self) -> None:
        """Pins must be real BCM GPIOs (2..27) and used once."""
        if self.pin_factory not in ("mock", "lgpio", "rpigpio", "pigpio", "native"):
            raise ConfigError(
                f"gpio.pin_factory: {self.pin_factory!r} is not allowed; choose one of "
                "'mock', 'lgpio', 'rpigpio', 'pigpio', 'native'"
            )
        seen: dict[int, str] = {}
        for role, pin in self.pins().items():
            if not 2 <= pin <= 27:
                raise ConfigError(f"gpio.{role}: {pin} is not a BCM GPIO pin (2-27, or 0 for none)")
            if pin in seen:
                raise ConfigError(f"gpio.{role}: pin {pin} is already used by gpio.{seen[pin]}")
            seen[pin] = role
        if not 0 <= self.bounce_s <= 1:
            raise ConfigError("gpio.bounce_s: must be between 0 and 1 second")
