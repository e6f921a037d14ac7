"""The GPIO component: the status light follows the bus, button presses go onto it."""

from __future__ import annotations

import asyncio
import logging

from gpiozero import Factory

from appliance.events import EventBus, EventType
from appliance.gpio.devices import Buttons, StatusLight
from appliance.gpio.factory import make_pin_factory
from appliance.gpio.settings import GpioSettings
from appliance.state import ACTIVITY_BY_EVENT

log = logging.getLogger(__name__)

_INDEXING = (EventType.INDEX_QUEUED, EventType.INDEX_PROGRESS)
_INDEX_END = (EventType.INDEX_DONE, EventType.INDEX_FAILED)


class GpioComponent:
    """Owns the LED and buttons for the service's lifetime; LEDs off and pins released on exit."""

    name = "gpio"

    def __init__(
        self, settings: GpioSettings, bus: EventBus, *, pin_factory: Factory | None = None
    ) -> None:
        self.settings = settings
        self.bus = bus
        self._pin_factory = pin_factory
        #: The light, once started (None before and after).
        self.light: StatusLight | None = None
        #: The buttons, once started.
        self.buttons: Buttons | None = None
        self._activity = "idle"
        self._indexing_jobs: set[str] = set()

    def _desired(self) -> str:
        # Indexing shows only while nothing more urgent (a question) is going on.
        if self._activity == "idle" and self._indexing_jobs:
            return "indexing"
        return self._activity

    async def run(self) -> None:
        """Open the devices, follow the bus until cancelled, then switch everything off."""
        factory = self._pin_factory or make_pin_factory(self.settings.pin_factory)
        queue = self.bus.subscribe_queue()
        try:
            self.light = StatusLight(self.settings, pin_factory=factory)
            self.buttons = Buttons(self.settings, self.bus, pin_factory=factory)
            self.light.show("idle")
            while True:
                event = await queue.get()
                if event.type in ACTIVITY_BY_EVENT:
                    self._activity = ACTIVITY_BY_EVENT[event.type]
                elif event.type in _INDEXING:
                    self._indexing_jobs.add(str(event.data.get("job", "")))
                elif event.type in _INDEX_END:
                    self._indexing_jobs.discard(str(event.data.get("job", "")))
                else:
                    continue
                self.light.show(self._desired())
        finally:
            self.bus.unsubscribe(queue)
            await asyncio.to_thread(self.close)

    def close(self) -> None:
        """LEDs off, pins released (also called on shutdown)."""
        if self.light is not None:
            self.light.close()
            self.light = None
        if self.buttons is not None:
            self.buttons.close()
            self.buttons = None
