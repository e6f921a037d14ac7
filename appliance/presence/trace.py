"""Beacon traces: JSONL files of timestamped advertisements, and a bleak backend that replays them.

One line per advertisement, as bleak delivered it::

    {"t": 12.5, "address": "C3:11:22:33:44:55", "rssi": -63, "name": null,
     "manufacturer_data": {"76": "0215e2c5..."}, "service_data": {}, "service_uuids": [],
     "tx_power": null}

``t`` is seconds from the start of the recording; byte payloads are hex; manufacturer data is keyed
by the decimal company identifier. An optional first line ``{"openclaw_trace": 1, ...}`` describes the
recording. Bad lines are counted and skipped; a file with no usable line is an error.

:class:`TraceScannerBackend` is a ``bleak.backends.scanner.BaseBleakScanner``: pass it as
``BleakScanner(callback, backend=TraceScannerBackend, trace=path)`` and bleak's own machinery
(``BleakScanner``, ``BLEDevice``, ``AdvertisementData``, detection callbacks) runs on a machine
without a radio. Its :class:`TraceClock` advances with the trace's timestamps, so a fast replay
(``speed=0``) still looks like the recorded minutes to the room engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO, Any

from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, AdvertisementDataCallback, BaseBleakScanner

from appliance.errors import public_name
from appliance.presence.errors import TraceError

#: Version written in the header line.
TRACE_VERSION = 1
#: The development trace shipped in the package (``appliance/presence/data``).
DEV_TRACE_NAME = "dev-trace.jsonl"
#: The sample rooms file shipped beside it; it matches the development trace.
SAMPLE_ROOMS_NAME = "rooms.sample.toml"
#: Longest line read from a trace; longer lines are garbage, not advertisements.
MAX_LINE = 4096
#: Most distinct addresses the replaying backend remembers in ``seen_devices``.
MAX_SEEN_DEVICES = 1024


def package_data(name: str) -> Path:
    """Path of a file shipped in ``appliance/presence/data``."""
    return Path(str(resources.files("appliance.presence").joinpath("data", name)))


@dataclass(frozen=True)
class TraceRecord:
    """One recorded advertisement."""

    #: Seconds since the start of the recording.
    t: float
    #: Bluetooth address.
    address: str
    #: RSSI (dBm) as reported by the radio.
    rssi: int
    #: Local name, if advertised.
    name: str | None = None
    #: Manufacturer data by company identifier.
    manufacturer_data: dict[int, bytes] = field(default_factory=dict)
    #: Service data by service UUID.
    service_data: dict[str, bytes] = field(default_factory=dict)
    #: Advertised service UUIDs.
    service_uuids: tuple[str, ...] = ()
    #: Advertised TX power level, if any.
    tx_power: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSONL form (empty fields left out to keep traces small)."""
        out: dict[str, Any] = {"t": round(self.t, 3), "address": self.address, "rssi": self.rssi}
        if self.name is not None:
            out["name"] = self.name
        if self.manufacturer_data:
            out["manufacturer_data"] = {str(k): v.hex() for k, v in self.manufacturer_data.items()}
        if self.service_data:
            out["service_data"] = {k: v.hex() for k, v in self.service_data.items()}
        if self.service_uuids:
            out["service_uuids"] = list(self.service_uuids)
        if self.tx_power is not None:
            out["tx_power"] = self.tx_power
        return out

    @classmethod
    def from_json(cls, data: Any) -> TraceRecord:
        """Parse one line's object; raises ValueError/TypeError/KeyError on anything wrong."""
        if not isinstance(data, dict):
            raise TypeError("not an object")
        t = float(data["t"])
        if not math.isfinite(t) or t < 0:
            raise ValueError("t must be a finite number >= 0")
        address = data["address"]
        if not isinstance(address, str) or not 0 < len(address) <= 64:
            raise ValueError("address must be a string of 1..64 characters")
        rssi = data["rssi"]
        if isinstance(rssi, bool) or not isinstance(rssi, int):
            raise TypeError("rssi must be an integer")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise TypeError("name must be a string")
        manufacturer = {
            int(k): bytes.fromhex(v) for k, v in dict(data.get("manufacturer_data") or {}).items()
        }
        service = {
            str(k): bytes.fromhex(v) for k, v in dict(data.get("service_data") or {}).items()
        }
        uuids = tuple(str(u) for u in data.get("service_uuids") or ())
        tx_power = data.get("tx_power")
        if tx_power is not None and (isinstance(tx_power, bool) or not isinstance(tx_power, int)):
            raise TypeError("tx_power must be an integer")
        return cls(t, address, rssi, name, manufacturer, service, uuids, tx_power)

    @classmethod
    def from_bleak(cls, t: float, device: BLEDevice, adv: AdvertisementData) -> TraceRecord:
        """A record of what bleak delivered."""
        return cls(
            t=t,
            address=device.address,
            rssi=adv.rssi,
            name=adv.local_name,
            manufacturer_data=dict(adv.manufacturer_data),
            service_data=dict(adv.service_data),
            service_uuids=tuple(adv.service_uuids),
            tx_power=adv.tx_power,
        )

    def advertisement(self) -> AdvertisementData:
        """The bleak form; ``platform_data`` carries the trace time."""
        return AdvertisementData(
            local_name=self.name,
            manufacturer_data=dict(self.manufacturer_data),
            service_data=dict(self.service_data),
            service_uuids=list(self.service_uuids),
            tx_power=self.tx_power,
            rssi=self.rssi,
            platform_data=("trace", self.t),
        )


@dataclass
class TraceStats:
    """What reading a trace found."""

    #: Lines read.
    lines: int = 0
    #: Advertisements delivered.
    records: int = 0
    #: Lines skipped as unreadable (bad JSON, missing fields, bad hex, overlong).
    bad_lines: int = 0
    #: Times the trace started over (loop mode).
    loops: int = 0


def read_trace(path: Path, stats: TraceStats | None = None) -> Iterator[TraceRecord]:
    """Records of a trace file, lazily; bad lines are counted in ``stats`` and skipped.

    Raises :class:`TraceError` if the file cannot be opened or holds no usable record at all.
    """
    stats = stats if stats is not None else TraceStats()
    try:
        handle = path.open("rb")
    except OSError as err:
        raise TraceError(
            f"trace {public_name(path)}: cannot be opened ({type(err).__name__})"
        ) from None
    delivered = 0
    with handle:
        for raw in handle:
            stats.lines += 1
            if len(raw) > MAX_LINE:
                stats.bad_lines += 1
                continue
            line = raw.strip()
            if not line:
                continue
            try:
                data = json.loads(line)
                if isinstance(data, dict) and "openclaw_trace" in data:
                    continue  # header line
                record = TraceRecord.from_json(data)
            except (ValueError, TypeError, KeyError, UnicodeDecodeError):
                stats.bad_lines += 1
                continue
            stats.records += 1
            delivered += 1
            yield record
    if delivered == 0:
        raise TraceError(f"trace {public_name(path)}: no readable advertisement in it")


class TraceWriter:
    """Writes what a real scanner hears as a trace (``openclaw presence record FILE``)."""

    def __init__(self, handle: IO[str], *, clock: Any = time.monotonic, source: str = "") -> None:
        self._handle = handle
        self._clock = clock
        self._t0: float | None = None
        #: Advertisements written.
        self.written = 0
        header = {"openclaw_trace": TRACE_VERSION, "recorded": time.time(), "source": source}
        handle.write(json.dumps(header) + "\n")

    def __call__(self, device: BLEDevice, adv: AdvertisementData) -> None:
        """A bleak detection callback."""
        now = self._clock()
        if self._t0 is None:
            self._t0 = now
        record = TraceRecord.from_bleak(now - self._t0, device, adv)
        self._handle.write(json.dumps(record.to_json()) + "\n")
        self.written += 1


def write_trace(path: Path, records: Iterable[TraceRecord], *, source: str = "") -> int:
    """Write records to a trace file; returns how many."""
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        header = {"openclaw_trace": TRACE_VERSION, "source": source}
        handle.write(json.dumps(header) + "\n")
        for record in records:
            handle.write(json.dumps(record.to_json()) + "\n")
            count += 1
    return count


class TraceClock:
    """A clock that reads the time of the advertisement being replayed (plus loop offsets)."""

    def __init__(self, start: float = 0.0) -> None:
        #: Current trace time (s).
        self.now = start

    def __call__(self) -> float:
        return self.now


class TraceScannerBackend(BaseBleakScanner):
    """A bleak scanner backend that replays a trace instead of listening to a radio.

    Keyword arguments (passed through ``BleakScanner(..., trace=..., speed=...)``):
    ``trace`` (a path or an iterable of :class:`TraceRecord`), ``speed`` (1.0 = real time, 0 = as fast
    as possible), ``loop`` (start over at the end), ``clock`` (a :class:`TraceClock` to advance).
    """

    def __init__(
        self,
        detection_callback: AdvertisementDataCallback | None,
        service_uuids: list[str] | None,
        scanning_mode: str = "active",
        *,
        trace: Path | str | Iterable[TraceRecord] | None = None,
        speed: float = 1.0,
        loop: bool = False,
        clock: TraceClock | None = None,
        **_platform_args: Any,
    ) -> None:
        super().__init__(detection_callback, service_uuids)
        if trace is None:
            trace = package_data(DEV_TRACE_NAME)
        self._trace = Path(trace) if isinstance(trace, str | Path) else list(trace)
        self.speed = speed
        self.loop = loop
        self.clock = clock or TraceClock()
        self.stats = TraceStats()
        self.scanning_mode = scanning_mode
        self._task: asyncio.Task[None] | None = None
        #: Set when the replay has delivered everything (never in loop mode).
        self.finished = asyncio.Event()
        #: Error that ended the replay early (an unreadable trace), if any.
        self.error: BaseException | None = None

    async def start(self) -> None:
        """Begin replaying (the trace is opened here, so a missing file fails ``start``)."""
        self.seen_devices = {}
        self.finished.clear()
        records = self._records()
        first = next(records, None)  # raises TraceError now, not in the background
        self._task = asyncio.create_task(self._replay(first, records), name="trace-replay")

    async def stop(self) -> None:
        """Stop replaying."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _records(self) -> Iterator[TraceRecord]:
        if isinstance(self._trace, Path):
            return read_trace(self._trace, self.stats)
        return iter(self._trace)

    async def _replay(self, first: TraceRecord | None, records: Iterator[TraceRecord]) -> None:
        offset = self.clock.now
        try:
            while first is not None:
                wall0 = time.monotonic()
                t0 = first.t
                record: TraceRecord | None = first
                while record is not None:
                    if self.speed > 0:
                        due = wall0 + (record.t - t0) / self.speed
                        delay = due - time.monotonic()
                        if delay > 0:
                            await asyncio.sleep(delay)
                    else:
                        await asyncio.sleep(0)  # let the loop breathe during a fast replay
                    self.clock.now = max(self.clock.now, offset + record.t - t0)
                    self._deliver(record)
                    record = next(records, None)
                if not self.loop:
                    break
                self.stats.loops += 1
                offset = self.clock.now + 1.0  # a second of silence between passes
                records = self._records()
                first = next(records, None)
        except TraceError as err:
            self.error = err
        finally:
            self.finished.set()

    def _deliver(self, record: TraceRecord) -> None:
        if record.address not in self.seen_devices and len(self.seen_devices) >= MAX_SEEN_DEVICES:
            # Bound memory under a flood of random addresses: forget the oldest device.
            self.seen_devices.pop(next(iter(self.seen_devices)))
        adv = record.advertisement()
        device = self.create_or_update_device(
            record.address, record.address, record.name, ("trace",), adv
        )
        self.call_detection_callbacks(device, adv)
