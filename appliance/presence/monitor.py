"""The presence component: scanner -> room engine -> events and namespace activation.

:class:`PresenceMonitor` is what the service runs. It owns a supervised
:class:`~appliance.presence.scanner.BeaconScanner`, feeds its sightings to the
:class:`~appliance.presence.engine.RoomEngine`, evaluates the room every ``tick_s`` (and after
sightings, so a fast trace replay decides as often as a live one), and on a switch publishes
``ROOM_CHANGED`` and calls the injected ``activate(namespaces)`` (the service passes
:meth:`NamespaceActivator.activate_async`). ``BEACONS_SEEN`` goes out every
``beacons_seen_interval_s``; scanner trouble goes out as ``COMPONENT_STATE``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Collection
from pathlib import Path
from typing import Any

from bleak.backends.scanner import BaseBleakScanner

from appliance.config import Config
from appliance.errors import InputError, OpenClawError
from appliance.events import Event, EventBus, EventType
from appliance.presence.engine import RoomEngine, RoomSwitch
from appliance.presence.rooms import RoomsPlan, load_rooms
from appliance.presence.scanner import BeaconScanner, ScannerState
from appliance.presence.settings import PresenceSettings
from appliance.presence.smoothing import Sighting
from appliance.presence.trace import DEV_TRACE_NAME, TraceClock, TraceScannerBackend, package_data

log = logging.getLogger(__name__)

#: Seconds a pending namespace activation may still take while the monitor stops.
ACTIVATION_GRACE_S = 5.0
#: Seconds an unknown beacon stays listed after it was last heard.
STRANGER_MEMORY_S = 60.0
#: Strangers listed in a BEACONS_SEEN event (the rest are only counted).
STRANGERS_SHOWN = 10

Activate = Callable[[tuple[str, ...]], Awaitable[Any] | Any]


def resolve_path(config: Config, path: Path) -> Path:
    """A presence path from the configuration: relative ones live under the data directory."""
    return path if path.is_absolute() else config.data_path(str(path))


def indexed_namespaces(config: Config) -> list[str] | None:
    """Namespaces the index holds, or None when there is no index yet (then they are not checked)."""
    # Imported here: the index's modules (numpy, its caches) are not needed to run the rooms.
    from appliance.index.store import IndexStore

    return IndexStore.namespaces_at(config.data_path(config.index.db_file))


def load_configured_rooms(
    config: Config, *, path: Path | None = None, known_namespaces: Collection[str] | None = None
) -> RoomsPlan:
    """The rooms file (``path``, or ``presence.rooms_file``) read with the configured default
    radius; ``known_namespaces`` None leaves namespaces unchecked."""
    return load_rooms(
        path if path is not None else resolve_path(config, Path(config.presence.rooms_file)),
        known_namespaces=known_namespaces,
        default_radius_m=config.presence.default_radius_m,
    )


def configured_room_names(config: Config) -> list[str]:
    """The names of the rooms in the configured rooms file; none without a readable one.

    For what only needs the names ("switch to <room>" in ``openclaw listen``): a missing or broken
    rooms file is the presence component's to report, not theirs.
    """
    if config.presence.backend == "off":
        return []
    try:
        plan = load_configured_rooms(config)
    except OpenClawError:
        return []
    return sorted(room.name for room in plan.rooms.values())


class PresenceMonitor:
    """Runs scanning and the room decision; publishes events; switches namespaces."""

    def __init__(
        self,
        plan: RoomsPlan,
        settings: PresenceSettings | None = None,
        *,
        bus: EventBus | None = None,
        activate: Activate | None = None,
        backend: type[BaseBleakScanner] | None = None,
        backend_args: dict[str, Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings or PresenceSettings()
        s = self.settings
        self.plan = plan
        self.bus = bus
        self.activate = activate
        self.clock = clock
        self.engine = RoomEngine(plan, s, clock=clock)
        self.scanner = BeaconScanner(
            self.on_sighting,
            backend=backend,
            backend_args=backend_args,
            scanning_mode=s.scanning_mode,
            adapter=s.adapter,
            retry_initial_s=s.retry_initial_s,
            retry_max_s=s.retry_max_s,
            stall_timeout_s=s.stall_timeout_s,
            clock=clock,
            on_state=self._on_scanner_state,
        )
        #: Activation results (or errors) in order, newest last (bounded).
        self.activations: list[Any] = []
        self._last_eval = -float("inf")
        self._last_seen_event = -float("inf")
        self._last_status: str | None = None
        self._wanted: tuple[str, ...] | None = None
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()

    # -- construction from the configuration ---------------------------------------------------

    @classmethod
    def from_config(
        cls,
        config: Config,
        plan: RoomsPlan,
        *,
        bus: EventBus | None = None,
        activate: Activate | None = None,
        trace: Path | None = None,
        speed: float | None = None,
    ) -> PresenceMonitor:
        """Choose the backend by ``presence.backend`` (or ``trace`` when a trace is given)."""
        s = config.presence
        if trace is None and s.backend == "trace":
            trace = (
                resolve_path(config, s.trace_file) if s.trace_file else package_data(DEV_TRACE_NAME)
            )
        if trace is None:
            return cls(plan, s, bus=bus, activate=activate)
        speed = s.trace_speed if speed is None else speed
        clock: Callable[[], float] = time.monotonic
        args: dict[str, Any] = {"trace": trace, "speed": speed, "loop": s.trace_loop}
        if speed == 0:
            # A fast replay must look like the recorded minutes to the engine: trace time.
            trace_clock = TraceClock()
            args["clock"] = trace_clock
            clock = trace_clock
        return cls(
            plan,
            s,
            bus=bus,
            activate=activate,
            backend=TraceScannerBackend,
            backend_args=args,
            clock=clock,
        )

    # -- inputs ---------------------------------------------------------------------------------

    def on_sighting(self, sighting: Sighting) -> None:
        """One beacon reading from the scanner (runs on the event loop)."""
        self.engine.observe(sighting)
        now = self.clock()
        if now - self._last_eval >= self.settings.tick_s:
            self.tick(now)

    def set_override(self, room: str | None, *, by: str = "manual") -> RoomSwitch | None:
        """Pin a room by key or name ("electronics lab"); None pins "no room" (only ``global``)."""
        key = None
        if room is not None:
            found = self.plan.find_room(room)
            if found is None:
                known = ", ".join(r.name for r in self.plan.rooms.values())
                raise InputError(
                    f"no room called {room!r}; rooms are: {known}", code="room_unknown"
                )
            key = found.key
        switch = self.engine.set_override(key, by=by)
        if switch is not None:
            self._announce(switch)
        return switch

    def clear_override(self, *, by: str = "manual") -> RoomSwitch | None:
        """Let the beacons decide again."""
        switch = self.engine.clear_override(by=by)
        if switch is not None:
            self._announce(switch)
        return switch

    # -- the loop -------------------------------------------------------------------------------

    def tick(self, now: float | None = None) -> RoomSwitch | None:
        """Evaluate the room once; publish what changed."""
        now = self.clock() if now is None else now
        self._last_eval = now
        switch = self.engine.evaluate(now)
        if switch is not None:
            self._announce(switch)
        if now - self._last_seen_event >= self.settings.beacons_seen_interval_s:
            self._last_seen_event = now
            # Strangers that went quiet are of no use to anyone; known beacons are always kept.
            self.engine.table.forget_silent(now, STRANGER_MEMORY_S)
            self._publish(EventType.BEACONS_SEEN, self.snapshot(now))
        return switch

    async def run(self) -> None:
        """Scan, decide and activate until :meth:`stop`."""
        scan = asyncio.create_task(self.scanner.run(), name="presence-scanner")
        activation = asyncio.create_task(self._activation_worker(), name="presence-activate")
        try:
            while not self._stopping.is_set():
                self.tick()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), timeout=self.settings.tick_s)
        finally:
            self._stopping.set()
            await self.scanner.stop()
            self._wake.set()  # let the worker finish a pending activation, then return
            try:
                await asyncio.wait_for(activation, timeout=ACTIVATION_GRACE_S)
            except (TimeoutError, asyncio.CancelledError):
                activation.cancel()
            await scan

    async def stop(self) -> None:
        """Ask :meth:`run` to unwind (stops the scanner)."""
        self._stopping.set()

    # -- outputs --------------------------------------------------------------------------------

    def _announce(self, switch: RoomSwitch) -> None:
        log.info("room: %s (%s)", switch.to_room or "none", switch.detail)
        data = switch.to_json()
        room = self.plan.rooms.get(switch.to_room) if switch.to_room else None
        data["room_name"] = room.name if room else None
        self._publish(EventType.ROOM_CHANGED, data)
        self._wanted = switch.namespaces
        self._wake.set()

    async def _activation_worker(self) -> None:
        """Activate namespaces one switch at a time; a burst of switches only runs the last.

        On stop, a pending activation still runs, so the index ends up matching the last room.
        """
        while True:
            await self._wake.wait()
            self._wake.clear()
            wanted, self._wanted = self._wanted, None
            if wanted is None or self.activate is None:
                if self._stopping.is_set():
                    return
                continue
            try:
                result = self.activate(wanted)
                if inspect.isawaitable(result):
                    result = await result
            except Exception as err:  # the index may be down; the room still changed
                log.warning("activating %s failed: %s", ", ".join(wanted), err)
                result = {"namespaces": list(wanted), "error": str(err)}
            self.activations.append(result)
            del self.activations[:-20]

    def _on_scanner_state(self, state: ScannerState) -> None:
        status = str(state.status)
        if status == self._last_status:
            return
        self._last_status = status
        self._publish(EventType.COMPONENT_STATE, {"component": "presence", **state.to_json()})

    def _publish(self, kind: EventType, data: dict[str, Any]) -> None:
        if self.bus is not None:
            self.bus.publish(Event(kind, data))

    def snapshot(self, now: float | None = None) -> dict[str, Any]:
        """Everything a display needs: room, candidate, beacons, scanner state, counters."""
        now = self.clock() if now is None else now
        state = self.engine.state
        readings = self.engine.readings(now)
        known = [r.to_json() for r in readings if r.room is not None]
        strangers = [r for r in readings if r.room is None]
        room = self.plan.rooms.get(state.room) if state.room else None
        return {
            "room": state.room,
            "room_name": room.name if room else None,
            "namespaces": list(self.engine.namespaces_for(state.room)),
            "auto_room": state.auto_room,
            "override": state.override if state.override_active else None,
            "override_active": state.override_active,
            "candidate": state.candidate,
            "candidate_for_s": None
            if state.candidate_since is None
            else round(now - state.candidate_since, 1),
            "proximity_db": dict(state.proximity),
            "posterior": dict(state.posterior),
            "moving": [room or "" for room in state.moving],
            "arrival": list(state.arrival),
            "still_for_s": None
            if state.still_since is None
            else round(max(0.0, now - state.still_since), 1),
            "switches": state.switches,
            "beacons": known,
            "strangers": [r.to_json() for r in strangers[:STRANGERS_SHOWN]],
            "strangers_tracked": len(strangers),
            "strangers_evicted": self.engine.table.evicted,
            "scanner": self.scanner.state.to_json(),
            "last_switch": self.engine.history[-1].to_json() if self.engine.history else None,
        }
