"""The beacon scanner: bleak's ``BleakScanner`` in a supervised loop.

The radio is a hardware edge that fails: no adapter at boot, BlueZ not running, the USB dongle pulled
mid-scan, passive scanning unsupported. The appliance must start anyway, so :class:`BeaconScanner`
never raises out of :meth:`run`; it reports a :class:`ScannerState` (shown on the status page) and
retries with exponential backoff. A scan that hears nothing at all for ``stall_timeout_s`` is
restarted, which is how an adapter that vanished without an error is noticed.

Every advertisement passes a sanity gate (absurd RSSI dropped and counted), the frame parsers
(malformed frames counted and dropped), and becomes one :class:`~appliance.presence.smoothing.Sighting`
per beacon frame for the room engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bleak import BleakScanner
from bleak.assigned_numbers import AdvertisementDataType
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.exc import BleakBluetoothNotAvailableError, BleakError

from appliance.errors import OpenClawError
from appliance.presence.parsers import ParseStats, parse_advertisement
from appliance.presence.smoothing import Sighting

log = logging.getLogger(__name__)

#: Weakest and strongest RSSI a BLE receiver can report; anything else is a driver artefact
#: (BlueZ uses 127 for "unknown"; some stacks report 0).
RSSI_RANGE = (-120, -1)
#: Longest address string accepted (MAC: 17; macOS UUID: 36).
MAX_ADDRESS = 64

#: BlueZ passive scanning needs advertisement-monitor patterns: iBeacon (Apple 02 15),
#: AltBeacon (BE AC after the company id) and Eddystone (service FEAA).
PASSIVE_PATTERNS: list[tuple[int, AdvertisementDataType, bytes]] = [
    (0, AdvertisementDataType.MANUFACTURER_SPECIFIC_DATA, b"\x4c\x00\x02\x15"),
    (2, AdvertisementDataType.MANUFACTURER_SPECIFIC_DATA, b"\xbe\xac"),
    (0, AdvertisementDataType.SERVICE_DATA_UUID16, b"\xaa\xfe"),
]


class ScannerStatus(enum.StrEnum):
    """Life cycle of the scanner as the status page shows it."""

    STARTING = "starting"
    SCANNING = "scanning"
    NO_ADAPTER = "no-adapter"
    FAILED = "failed"
    FINISHED = "finished"
    STOPPED = "stopped"


@dataclass
class ScannerState:
    """What the scanner is doing and what went wrong."""

    #: Current status.
    status: ScannerStatus = ScannerStatus.STARTING
    #: Scanning mode actually in use ("active" after a passive fallback).
    mode: str = "active"
    #: Why passive scanning was given up, if it was.
    passive_fallback: str | None = None
    #: Last error, as a short public message (no paths, no secrets).
    last_error: str | None = None
    #: Failed start attempts since the last good one.
    failures: int = 0
    #: Scans started (the first plus every restart).
    starts: int = 0
    #: Restarts because nothing was heard for ``stall_timeout_s``.
    stall_restarts: int = 0
    #: Seconds until the next retry while failing.
    retry_in_s: float | None = None
    #: Parser counters.
    parse: ParseStats = field(default_factory=ParseStats)

    def to_json(self) -> dict[str, Any]:
        """JSON form (COMPONENT_STATE events, ``openclaw presence --json``)."""
        return {
            "status": str(self.status),
            "mode": self.mode,
            "passive_fallback": self.passive_fallback,
            "last_error": self.last_error,
            "failures": self.failures,
            "starts": self.starts,
            "stall_restarts": self.stall_restarts,
            "retry_in_s": self.retry_in_s,
            "parse": self.parse.to_json(),
        }


def describe_error(err: BaseException) -> tuple[ScannerStatus, str]:
    """Classify a failure to scan into a status and a short public message."""
    if isinstance(err, BleakBluetoothNotAvailableError):
        reason = getattr(err.reason, "name", "UNKNOWN").lower().replace("_", " ")
        return ScannerStatus.NO_ADAPTER, f"Bluetooth not available ({reason})"
    if isinstance(err, FileNotFoundError | ConnectionError | EOFError):
        # No D-Bus system bus socket, or BlueZ went away: there is no usable adapter.
        return ScannerStatus.NO_ADAPTER, f"Bluetooth service unreachable ({type(err).__name__})"
    if isinstance(err, OpenClawError):
        return ScannerStatus.FAILED, err.message
    if isinstance(err, BleakError):
        return ScannerStatus.FAILED, f"Bluetooth error: {str(err)[:120] or type(err).__name__}"
    return ScannerStatus.FAILED, f"scanner failed ({type(err).__name__})"


class BeaconScanner:
    """Supervised BLE scanning that turns advertisements into sightings.

    ``backend`` is a bleak scanner backend class (None = the platform's, i.e. BlueZ on the Pi; the
    package's :class:`~appliance.presence.trace.TraceScannerBackend` on a development machine);
    ``backend_args`` are passed through ``BleakScanner`` to it.
    """

    def __init__(
        self,
        on_sighting: Callable[[Sighting], None],
        *,
        backend: type[BaseBleakScanner] | None = None,
        backend_args: dict[str, Any] | None = None,
        scanning_mode: str = "active",
        adapter: str = "",
        retry_initial_s: float = 2.0,
        retry_max_s: float = 60.0,
        stall_timeout_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        on_state: Callable[[ScannerState], None] | None = None,
        on_advertisement: Callable[[BLEDevice, AdvertisementData], None] | None = None,
    ) -> None:
        self.on_sighting = on_sighting
        self.backend = backend
        self.backend_args = dict(backend_args or {})
        self.requested_mode = scanning_mode
        self.adapter = adapter
        self.retry_initial_s = retry_initial_s
        self.retry_max_s = retry_max_s
        self.stall_timeout_s = stall_timeout_s
        self.clock = clock
        self.on_state = on_state
        self.on_advertisement = on_advertisement
        self.state = ScannerState(mode=scanning_mode)
        self.scanner: BleakScanner | None = None
        self._last_heard = time.monotonic()
        self._stopping = asyncio.Event()

    # -- advertisements -----------------------------------------------------------------------

    def handle(self, device: BLEDevice, adv: AdvertisementData) -> None:
        """bleak's detection callback: sanity gate, parse, emit sightings. Never raises."""
        self._last_heard = time.monotonic()
        stats = self.state.parse
        stats.adverts += 1
        try:
            if self.on_advertisement is not None:
                self.on_advertisement(device, adv)
            rssi = adv.rssi
            if isinstance(rssi, bool) or not isinstance(rssi, int):
                stats.absurd_rssi += 1
                return
            if not RSSI_RANGE[0] <= rssi <= RSSI_RANGE[1]:
                stats.absurd_rssi += 1
                return
            frames = parse_advertisement(adv.manufacturer_data, adv.service_data, stats)
            if not frames:
                stats.not_beacons += 1
                return
            now = self.clock()
            address = str(device.address)[:MAX_ADDRESS]
            for frame in frames:
                self.on_sighting(Sighting(now, frame.beacon_id, rssi, frame.rssi_at_1m, address))
        except Exception:  # a consumer bug must not kill bleak's dispatch loop
            log.exception("beacon sighting handler failed")
            stats.malformed["handler-error"] += 1

    # -- life cycle ---------------------------------------------------------------------------

    def _set(self, status: ScannerStatus, error: str | None = None) -> None:
        self.state.status = status
        if error is not None:
            self.state.last_error = error
        if self.on_state is not None:
            self.on_state(self.state)

    def _make_scanner(self, mode: str) -> BleakScanner:
        bluez: dict[str, Any] = {}
        if self.adapter:
            bluez["adapter"] = self.adapter
        if mode == "passive":
            bluez["or_patterns"] = PASSIVE_PATTERNS
        return BleakScanner(
            self.handle,
            scanning_mode=mode,  # type: ignore[arg-type]
            bluez=bluez,  # type: ignore[arg-type]
            backend=self.backend,
            **self.backend_args,
        )

    async def _start_once(self) -> BleakScanner:
        mode = self.state.mode
        try:
            scanner = self._make_scanner(mode)
            await scanner.start()
        except BleakBluetoothNotAvailableError:
            raise
        except BleakError as err:
            if mode != "passive":
                raise
            # BlueZ without advertisement-monitor support: listen actively instead.
            self.state.mode = "active"
            self.state.passive_fallback = str(err)[:120] or type(err).__name__
            log.warning("passive scanning unavailable (%s); scanning actively", err)
            scanner = self._make_scanner("active")
            await scanner.start()
        return scanner

    async def _stop_scanner(self) -> None:
        scanner, self.scanner = self.scanner, None
        if scanner is None:
            return
        try:
            await scanner.stop()
        except Exception as err:  # the adapter may already be gone; stopping must not fail
            log.info("stopping the scanner failed: %s", type(err).__name__)

    async def run(self) -> None:
        """Scan until :meth:`stop`; never raises for hardware trouble."""
        delay = self.retry_initial_s
        self.state.mode = self.requested_mode
        while not self._stopping.is_set():
            self._set(ScannerStatus.STARTING)
            try:
                self.scanner = await self._start_once()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                status, message = describe_error(err)
                self.state.failures += 1
                self.state.retry_in_s = delay
                self._set(status, message)
                log.warning("%s; retrying in %.0f s", message, delay)
                await self._wait(delay)
                delay = min(delay * 2, self.retry_max_s)
                continue
            self.state.starts += 1
            self.state.failures = 0
            self.state.retry_in_s = None
            delay = self.retry_initial_s
            self._last_heard = time.monotonic()
            self._set(ScannerStatus.SCANNING)
            reason = await self._watch()
            await self._stop_scanner()
            if reason == "finished":
                self._set(ScannerStatus.FINISHED)
                await self._stopping.wait()
            elif reason == "stalled":
                self.state.stall_restarts += 1
                self._set(ScannerStatus.STARTING, "nothing heard; restarting the scan")
        await self._stop_scanner()
        self.state.retry_in_s = None
        self._set(ScannerStatus.STOPPED)

    async def _watch(self) -> str:
        """Wait while scanning; returns "stopped", "stalled" or "finished"."""
        check = min(1.0, self.stall_timeout_s / 4) if self.stall_timeout_s > 0 else 1.0
        while not self._stopping.is_set():
            backend = self._backend()
            finished = getattr(backend, "finished", None)
            if isinstance(finished, asyncio.Event) and finished.is_set():
                error = getattr(backend, "error", None)
                if error is not None:
                    raise_status, message = describe_error(error)
                    self._set(raise_status, message)
                return "finished"
            if (
                self.stall_timeout_s > 0
                and time.monotonic() - self._last_heard > self.stall_timeout_s
            ):
                return "stalled"
            await self._wait(check)
        return "stopped"

    def _backend(self) -> BaseBleakScanner | None:
        # bleak keeps the backend instance private; the trace backend's "finished" flag is read
        # through it only to tell a replay that ended from a radio that stalled.
        return getattr(self.scanner, "_backend", None)

    async def _wait(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), timeout=seconds)

    async def stop(self) -> None:
        """Ask :meth:`run` to finish; it stops the scanner on the way out."""
        self._stopping.set()
