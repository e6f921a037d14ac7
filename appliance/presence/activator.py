"""Switching the active namespaces of the index when the room changes.

The room engine only decides; :class:`NamespaceActivator` does the work against the index: it
remembers which namespaces questions should search, warms the newly active ones with a first search
(the query embedding lands in the embedder's cache and the namespaces' rows, FTS pages and vector
partitions in SQLite's page cache, so the first real question does not pay for it) and releases the
ones left behind (they drop out of the active set; nothing is deleted, ``global`` is never released).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from appliance.errors import OpenClawError
from appliance.presence.rooms import GLOBAL_NAMESPACE

if TYPE_CHECKING:
    from appliance.index.store import IndexStore

log = logging.getLogger(__name__)

SearchFunction = Callable[..., Sequence[Any]]


@dataclass(frozen=True)
class Activation:
    """The outcome of one namespace switch."""

    #: Namespaces active from now on (``global`` first).
    namespaces: tuple[str, ...]
    #: Namespaces that became active with this switch.
    warmed: tuple[str, ...]
    #: Namespaces that stopped being active.
    released: tuple[str, ...]
    #: Wall time of the whole switch including the warming search (ms).
    switch_ms: float
    #: Hits the warming search returned (0 for an empty namespace).
    warm_hits: int
    #: Error of the warming search, if it failed (the switch itself still happened).
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "namespaces": list(self.namespaces),
            "warmed": list(self.warmed),
            "released": list(self.released),
            "switch_ms": round(self.switch_ms, 2),
            "warm_hits": self.warm_hits,
            "error": self.error,
        }


class NamespaceActivator:
    """Keeps the index's active namespace set in step with the room.

    ``search`` defaults to :func:`appliance.index.search.search`; it is a parameter only so the
    activator can be driven with a different retrieval function, not to fake the index in tests.
    """

    def __init__(
        self,
        store: IndexStore,
        *,
        warm_query: str = "drawing",
        search: SearchFunction | None = None,
        options: Any = None,
    ) -> None:
        if search is None:
            from appliance.index.search import search as index_search

            search = index_search
        self.store = store
        self.warm_query = warm_query
        self._search = search
        self._options = options
        self._lock = threading.Lock()
        #: Namespaces questions should search now (``global`` always included).
        self.active: tuple[str, ...] = (GLOBAL_NAMESPACE,)
        #: The most recent switch.
        self.last: Activation | None = None

    def activate(self, namespaces: Sequence[str]) -> Activation:
        """Make ``namespaces`` (plus ``global``) the active set and warm the new ones."""
        started = time.perf_counter()
        wanted = tuple(dict.fromkeys((GLOBAL_NAMESPACE, *namespaces)))
        with self._lock:
            previous = self.active
            warmed = tuple(n for n in wanted if n not in previous)
            released = tuple(n for n in previous if n not in wanted)
            # The new set is active at once: a question asked while warming already uses it.
            self.active = wanted
            hits = 0
            error = None
            if warmed:
                try:
                    kwargs = {"options": self._options} if self._options is not None else {}
                    # Only the newly active namespaces need warming; global is warm already.
                    found = self._search(
                        self.store,
                        self.warm_query,
                        namespaces=list(warmed),
                        include_global=False,
                        **kwargs,
                    )
                    hits = len(found)
                except OpenClawError as err:
                    # A broken index must not pin the appliance to the old room: switch anyway.
                    error = err.message
                    log.warning("warming %s failed: %s", ", ".join(warmed), err)
            result = Activation(
                namespaces=wanted,
                warmed=warmed,
                released=released,
                switch_ms=(time.perf_counter() - started) * 1000.0,
                warm_hits=hits,
                error=error,
            )
            self.last = result
        return result

    def prewarm(self, namespaces: Sequence[str]) -> Activation:
        """Warm ``namespaces`` (and ``global``) once, without changing the active set.

        The index loads a namespace's vectors on its first search, which makes the first switch
        into each room cost a load (~0.5 s per 10,000 slices on the bench machine); run this once
        at start-up (the rooms file names every namespace) and every later switch is only the
        warming search. One namespace at a time under the switch lock, so a room switch arriving
        meanwhile waits for at most one namespace. Errors are recorded, never raised.
        """
        started = time.perf_counter()
        wanted = tuple(dict.fromkeys((GLOBAL_NAMESPACE, *namespaces)))
        hits = 0
        errors: list[str] = []
        for namespace in wanted:
            with self._lock:
                try:
                    kwargs = {"options": self._options} if self._options is not None else {}
                    found = self._search(
                        self.store,
                        self.warm_query,
                        namespaces=[namespace],
                        include_global=namespace == GLOBAL_NAMESPACE,
                        **kwargs,
                    )
                    hits += len(found)
                except OpenClawError as err:
                    errors.append(f"{namespace}: {err.message}")
                    log.warning("pre-warming %s failed: %s", namespace, err)
        return Activation(
            namespaces=self.active,
            warmed=wanted,
            released=(),
            switch_ms=(time.perf_counter() - started) * 1000.0,
            warm_hits=hits,
            error="; ".join(errors) or None,
        )

    async def activate_async(self, namespaces: Sequence[str]) -> Activation:
        """:meth:`activate` in a worker thread, so the event loop keeps serving meanwhile."""
        return await asyncio.to_thread(self.activate, namespaces)
