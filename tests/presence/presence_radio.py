"""Failure-injection bleak backends and helpers for presence tests (never shipped in the product)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, ClassVar

from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.exc import (
    BleakBluetoothNotAvailableError,
    BleakBluetoothNotAvailableReason,
    BleakDBusError,
)

SHOP_IBEACON = bytes.fromhex("0215e2c56db5dffb48d2b060d0f5a71096e000010001c5")
SHOP_ID = "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:1"


def advert(
    rssi: int = -62, manufacturer: dict[int, bytes] | None = None, **extra: Any
) -> AdvertisementData:
    """An AdvertisementData as a radio would deliver it."""
    return AdvertisementData(
        local_name=extra.get("local_name"),
        manufacturer_data=manufacturer if manufacturer is not None else {0x004C: SHOP_IBEACON},
        service_data=extra.get("service_data", {}),
        service_uuids=extra.get("service_uuids", []),
        tx_power=extra.get("tx_power"),
        rssi=rssi,
        platform_data=(),
    )


class ScriptedBackend(BaseBleakScanner):
    """A bleak backend whose radio follows a script, set per test on a subclass.

    ``fail_starts``: how many start() calls raise ``start_error`` before one succeeds.
    ``bursts``: per successful start, the advertisements delivered (then the radio goes quiet,
    like an adapter pulled out without an error). ``stop_error``: raised by stop().
    """

    fail_starts: ClassVar[int] = 0
    start_error: ClassVar[Callable[[], BaseException]] = lambda: BleakBluetoothNotAvailableError(
        "No Bluetooth adapters found.", BleakBluetoothNotAvailableReason.NO_BLUETOOTH
    )
    bursts: ClassVar[list[list[tuple[str, AdvertisementData]]]] = []
    stop_error: ClassVar[Callable[[], BaseException] | None] = None
    starts: ClassVar[int] = 0
    attempts: ClassVar[int] = 0
    modes: ClassVar[list[str]] = []

    def __init__(
        self,
        detection_callback: Any,
        service_uuids: Any,
        scanning_mode: str = "active",
        **kwargs: Any,
    ) -> None:
        super().__init__(detection_callback, service_uuids)
        self.scanning_mode = scanning_mode
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        cls = type(self)
        cls.attempts += 1
        cls.modes.append(self.scanning_mode)
        if cls.fail_starts > 0:
            cls.fail_starts -= 1
            raise cls.start_error()
        burst = cls.bursts[cls.starts] if cls.starts < len(cls.bursts) else []
        cls.starts += 1
        self.seen_devices = {}
        self._task = asyncio.create_task(self._play(burst))

    async def _play(self, burst: list[tuple[str, AdvertisementData]]) -> None:
        for address, adv in burst:
            await asyncio.sleep(0)
            device = self.create_or_update_device(address, address, None, None, adv)
            self.call_detection_callbacks(device, adv)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        error = type(self).stop_error
        if error is not None:
            raise error()


def scripted(**attrs: Any) -> type[ScriptedBackend]:
    """A fresh ScriptedBackend subclass with its own script and counters."""
    attrs.setdefault("starts", 0)
    attrs.setdefault("attempts", 0)
    attrs.setdefault("modes", [])
    return type("ScriptedRadio", (ScriptedBackend,), attrs)


def dbus_not_ready() -> BaseException:
    return BleakDBusError("org.bluez.Error.NotReady", ["Resource Not Ready"])


async def wait_for(predicate: Callable[[], bool], *, limit: float = 30.0) -> None:
    """Yield to the loop until ``predicate`` holds (the limit guards against a hang, it is no
    timing assertion)."""

    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), timeout=limit)
