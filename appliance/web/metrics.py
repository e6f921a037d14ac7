"""Prometheus metrics: the latency histograms plus gauges and counters read from the live state."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from appliance.state import LiveState

_STATUS = ("starting", "running", "backoff", "stopped", "disabled")


class StateCollector(Collector):
    """Exposes the live state's counters, component states and queue length at scrape time."""

    def __init__(self, state: LiveState) -> None:
        self.state = state

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        """Yield one family per figure."""
        counters = CounterMetricFamily(
            "openclaw_events", "Things that happened since start", labels=["kind"]
        )
        for kind, value in self.state.counters.items():
            counters.add_metric([kind], value)
        yield counters
        components = GaugeMetricFamily(
            "openclaw_component_up",
            "1 when the component is in that status",
            labels=["component", "status"],
        )
        restarts = CounterMetricFamily(
            "openclaw_component_restarts", "Restarts per component", labels=["component"]
        )
        for comp in self.state.components.values():
            for status in _STATUS:
                components.add_metric(
                    [comp["name"], status], 1.0 if comp["status"] == status else 0.0
                )
            restarts.add_metric([comp["name"]], comp.get("restarts", 0))
        yield components
        yield restarts
        queue = GaugeMetricFamily("openclaw_index_jobs_pending", "Indexing jobs queued or running")
        queue.add_metric([], sum(1 for j in self.state.jobs if j["state"] in ("queued", "running")))
        yield queue
