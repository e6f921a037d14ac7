"""systemd readiness, status and watchdog notifications (``Type=notify``).

Uses the ``sdnotify`` package, which writes datagrams to ``$NOTIFY_SOCKET`` and does nothing when the
variable is unset (not running under systemd). The watchdog is pinged from the event loop itself at
half of ``$WATCHDOG_USEC``: a loop that is stuck stops pinging and systemd restarts the service.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping

import sdnotify

log = logging.getLogger(__name__)


class SystemdNotifier:
    """READY / STATUS / WATCHDOG / STOPPING messages to systemd."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        #: Whether a notification socket was given (we run under systemd with Type=notify).
        self.enabled = bool(env.get("NOTIFY_SOCKET"))
        usec = env.get("WATCHDOG_USEC", "")
        #: Watchdog interval in seconds, or None when systemd asked for none.
        self.watchdog_s: float | None = (
            int(usec) / 1e6 if usec.isdigit() and int(usec) > 0 else None
        )
        self._notifier = sdnotify.SystemdNotifier() if self.enabled else None

    def _send(self, message: str) -> None:
        if self._notifier is not None:
            self._notifier.notify(message)

    def ready(self, status: str) -> None:
        """Tell systemd the service is up."""
        self._send(f"READY=1\nSTATUS={status}")

    def status(self, status: str) -> None:
        """Update the one-line status ``systemctl status`` shows."""
        self._send(f"STATUS={status}")

    def stopping(self) -> None:
        """Tell systemd a clean shutdown has begun."""
        self._send("STOPPING=1\nSTATUS=stopping")

    def ping(self) -> None:
        """One watchdog keep-alive."""
        self._send("WATCHDOG=1")

    async def watchdog_loop(
        self, alive: Callable[[], bool], status: Callable[[], str] | None = None
    ) -> None:
        """Ping at half the watchdog interval while ``alive()`` holds, and keep STATUS= current.

        Runs until cancelled; without a notification socket it just sleeps.
        """
        if not self.enabled:
            await asyncio.Event().wait()  # not under systemd: nothing to do until cancelled
            return
        interval = self.watchdog_s / 2 if self.watchdog_s is not None else 5.0
        shown = ""
        while True:
            if self.watchdog_s is not None:
                if alive():
                    self.ping()
                else:
                    log.warning("watchdog ping withheld: the appliance reports itself unhealthy")
            if status is not None:
                line = status()
                if line != shown:
                    self.status(line)
                    shown = line
            await asyncio.sleep(interval)
