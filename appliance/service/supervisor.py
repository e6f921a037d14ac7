"""Supervised components: each runs as one asyncio task, restarted with backoff when it fails.

A component is anything with a ``name`` and an ``async run()`` that runs until cancelled. When ``run``
raises, the supervisor records the error, publishes a ``component-state`` event, waits (exponential
backoff, capped) and starts it again. A component that raises :class:`PermanentFault` (its model file
is missing or corrupt: no restart can mend that) is left ``failed`` with the error's code, until an
admin restarts it. A component that returns normally is finished and stays ``stopped``. Every state
change is visible through :meth:`Supervisor.health` and on the bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from appliance.errors import OpenClawError
from appliance.events import Event, EventBus, EventType

log = logging.getLogger(__name__)


class Component(Protocol):
    """A long-running part of the appliance."""

    #: Short stable name shown on the status page ("audio", "web", ...).
    name: str

    async def run(self) -> None:
        """Run until cancelled; raise on failure (the supervisor restarts it)."""


class ComponentStatus(enum.StrEnum):
    """Where a supervised component is in its life."""

    STARTING = "starting"
    RUNNING = "running"
    BACKOFF = "backoff"
    STOPPED = "stopped"
    DISABLED = "disabled"
    FAILED = "failed"


class PermanentFault(OpenClawError):
    """A component cannot run until something outside it is mended (a missing or corrupt model file):
    the supervisor leaves it ``failed`` with this error's code instead of restarting it."""

    code = "component_failed"


@dataclass
class ComponentHealth:
    """What the status page shows about one component."""

    #: Component name.
    name: str
    #: Current status.
    status: ComponentStatus = ComponentStatus.STARTING
    #: How many times it was restarted after a failure or on request.
    restarts: int = 0
    #: Stable code of the last error ("" when none).
    last_error_code: str = ""
    #: Human message of the last error, safe for the LAN ("" when none).
    last_error: str = ""
    #: Wall-clock time of the last status change.
    since: float = field(default_factory=time.time)
    #: Seconds until the next restart attempt while in backoff.
    retry_in_s: float = 0.0
    #: Whether the appliance is unhealthy (``/healthz`` 503) while this component is not running.
    critical: bool = False
    #: Free-form detail the component reports itself ("microphone missing", "worker pid 1234").
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        """The JSON form for the status page."""
        return {
            "name": self.name,
            "status": str(self.status),
            "restarts": self.restarts,
            "last_error_code": self.last_error_code,
            "last_error": self.last_error,
            "since": self.since,
            "retry_in_s": round(self.retry_in_s, 2),
            "critical": self.critical,
            "detail": self.detail,
        }


class FunctionComponent:
    """A component made from a coroutine function (handy for small loops)."""

    def __init__(self, name: str, run: Callable[[], Awaitable[None]]) -> None:
        self.name = name
        self._run = run

    async def run(self) -> None:
        """Run the wrapped coroutine function."""
        await self._run()


def public_error(err: BaseException) -> tuple[str, str]:
    """(code, message) of an error, safe to show on the LAN."""
    if isinstance(err, OpenClawError):
        return err.code, err.message
    # Foreign exceptions may carry paths or internals in their text: show only the type.
    return "internal_error", f"{type(err).__name__} (details in the service log)"


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff between restarts."""

    #: First delay in seconds.
    initial_s: float = 0.5
    #: Largest delay in seconds.
    max_s: float = 30.0
    #: Multiplier per consecutive failure.
    factor: float = 2.0
    #: A run longer than this resets the delay to ``initial_s``.
    reset_after_s: float = 60.0

    def delay(self, failures: int) -> float:
        """Delay before the restart after ``failures`` consecutive failures (>= 1)."""
        return min(self.max_s, self.initial_s * self.factor ** max(0, failures - 1))


class Supervisor:
    """Runs components as tasks, restarts failed ones with backoff, and reports their health."""

    def __init__(self, bus: EventBus, backoff: Backoff | None = None) -> None:
        self.bus = bus
        self.backoff = backoff or Backoff()
        self._components: dict[str, Component] = {}
        self._health: dict[str, ComponentHealth] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._restart_now: dict[str, asyncio.Event] = {}
        self._stopping = False

    def add(self, component: Component, *, critical: bool = False) -> None:
        """Register a component; it starts with :meth:`start` (or at once if already started)."""
        if component.name in self._components:
            raise ValueError(f"component {component.name!r} added twice")
        self._components[component.name] = component
        self._health[component.name] = ComponentHealth(component.name, critical=critical)
        self._restart_now[component.name] = asyncio.Event()
        if self._tasks:
            self._spawn(component.name)

    def disable(self, name: str, reason: str) -> None:
        """Show a component that is configured off (it is never started)."""
        self._health[name] = ComponentHealth(name, status=ComponentStatus.DISABLED, detail=reason)

    def start(self) -> None:
        """Start every registered component."""
        for name in self._components:
            self._spawn(name)

    def _spawn(self, name: str) -> None:
        self._tasks[name] = asyncio.create_task(self._keep_running(name), name=f"component:{name}")

    def health(self) -> list[ComponentHealth]:
        """Health of every component, in registration order."""
        return list(self._health.values())

    def get_health(self, name: str) -> ComponentHealth:
        """Health of one component."""
        return self._health[name]

    def report(self, name: str, detail: str) -> None:
        """Let a component describe itself ("microphone missing, retrying")."""
        health = self._health.get(name)
        if health is not None and health.detail != detail:
            health.detail = detail
            self._publish(health)

    def healthy(self) -> bool:
        """True when every critical component is running."""
        return all(h.status == ComponentStatus.RUNNING for h in self._health.values() if h.critical)

    def names(self) -> list[str]:
        """Names of the supervised (not disabled) components."""
        return list(self._components)

    def restart(self, name: str) -> None:
        """Restart a component now (an admin action); its backoff is skipped."""
        if name not in self._components:
            raise KeyError(name)
        task = self._tasks.get(name)
        self._health[name].restarts += 1
        self._restart_now[name].set()
        if task is not None and not task.done():
            task.cancel()
        self._spawn(name)

    def _set(self, health: ComponentHealth, status: ComponentStatus, **changes: Any) -> None:
        health.status = status
        health.since = time.time()
        for key, value in changes.items():
            setattr(health, key, value)
        self._publish(health)

    def _publish(self, health: ComponentHealth) -> None:
        self.bus.publish(Event(EventType.COMPONENT_STATE, health.to_json()))

    async def _keep_running(self, name: str) -> None:
        component = self._components[name]
        health = self._health[name]
        failures = 0
        while not self._stopping:
            self._restart_now[name].clear()
            self._set(health, ComponentStatus.RUNNING, retry_in_s=0.0)
            started = time.monotonic()
            try:
                await component.run()
            except asyncio.CancelledError:
                if not self._stopping:
                    self._set(health, ComponentStatus.STOPPED)
                raise
            except PermanentFault as err:
                log.error(
                    f"{name} failed and is not restarted: {err.message}",
                    extra={"component": name, "code": err.code},
                )
                self._set(
                    health,
                    ComponentStatus.FAILED,
                    last_error_code=err.code,
                    last_error=err.message,
                    retry_in_s=0.0,
                )
                return
            except Exception as err:
                code, message = public_error(err)
                log.warning(
                    "component failed",
                    extra={"component": name, "code": code, "error": type(err).__name__},
                    exc_info=not isinstance(err, OpenClawError),
                )
                if time.monotonic() - started > self.backoff.reset_after_s:
                    failures = 0
                failures += 1
                delay = self.backoff.delay(failures)
                health.restarts += 1
                self._set(
                    health,
                    ComponentStatus.BACKOFF,
                    last_error_code=code,
                    last_error=message,
                    retry_in_s=delay,
                )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._restart_now[name].wait(), delay)
                continue
            self._set(health, ComponentStatus.STOPPED)
            return

    async def stop(self) -> None:
        """Cancel every component and wait for all of them to unwind."""
        self._stopping = True
        pending = {name: t for name, t in self._tasks.items() if not t.done()}
        for task in pending.values():
            task.cancel()
        results = await asyncio.gather(*pending.values(), return_exceptions=True)
        for name, result in zip(pending, results, strict=True):
            if isinstance(result, Exception):
                log.warning("component raised while stopping", extra={"component": name})
        for health in self._health.values():
            if health.status != ComponentStatus.DISABLED:
                health.status = ComponentStatus.STOPPED
