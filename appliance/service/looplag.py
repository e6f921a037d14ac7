"""Event-loop lag: how late the loop wakes a sleeper. Everything the appliance does shares this loop,
so a blocking call anywhere shows up here first (and on the status page and in ``/metrics``)."""

from __future__ import annotations

import asyncio
import time
from collections import deque

from prometheus_client import CollectorRegistry, Histogram

_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class LoopLagMonitor:
    """Samples the loop's wake-up lateness every ``interval_s``; keeps the last minute."""

    name = "loop-monitor"

    def __init__(self, registry: CollectorRegistry, interval_s: float = 0.25) -> None:
        self.interval_s = interval_s
        self._recent: deque[tuple[float, float]] = deque()
        self._histogram = Histogram(
            "openclaw_event_loop_lag_seconds",
            "How late the event loop woke a 0.25 s sleeper",
            buckets=_BUCKETS,
            registry=registry,
        )

    def figures(self) -> dict[str, float]:
        """Last lag and the worst of the last minute, in milliseconds."""
        if not self._recent:
            return {"last_ms": 0.0, "max_1m_ms": 0.0}
        return {
            "last_ms": round(self._recent[-1][1] * 1000, 1),
            "max_1m_ms": round(max(lag for _t, lag in self._recent) * 1000, 1),
        }

    async def run(self) -> None:
        """Sample until cancelled."""
        while True:
            started = time.monotonic()
            await asyncio.sleep(self.interval_s)
            now = time.monotonic()
            lag = max(0.0, now - started - self.interval_s)
            self._histogram.observe(lag)
            self._recent.append((now, lag))
            while self._recent and self._recent[0][0] < now - 60:
                self._recent.popleft()
