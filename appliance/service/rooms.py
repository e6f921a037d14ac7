"""The active room and its namespaces: from presence, or held manually."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from appliance.errors import InputError
from appliance.events import Event, EventBus, EventType


class RoomControl:
    """Keeps the active room, publishes every switch, and applies manual overrides."""

    def __init__(self, bus: EventBus, rooms: dict[str, list[str]] | None = None) -> None:
        self.bus = bus
        #: Room name -> namespaces, as the rooms file defines them.
        self.rooms: dict[str, list[str]] = dict(rooms or {})
        #: The active room ("" when none) and how it was chosen.
        self.current: dict[str, Any] = {"room": "", "namespaces": ["global"], "reason": "start-up"}
        #: Called on a manual override so presence holds it (set by the presence adapter).
        self.override_hook: Callable[[str | None], None] | None = None

    @property
    def room(self) -> str:
        """Name of the active room, "" when none."""
        return str(self.current.get("room") or "")

    @property
    def namespaces(self) -> list[str]:
        """Namespaces searched now (global is always searched by the index too)."""
        return list(self.current.get("namespaces") or ["global"])

    def memory_namespace(self) -> str:
        """Where "remember that ..." notes go: the room's first namespace, else global."""
        return self.namespaces[0] if self.room else "global"

    def apply(self, decision: dict[str, Any]) -> None:
        """Adopt a decision from presence (or an override) and announce it."""
        room = str(decision.get("room") or "")
        namespaces = list(decision.get("namespaces") or self.rooms.get(room) or ["global"])
        self.current = {
            "room": room,
            "namespaces": namespaces,
            "reason": str(decision.get("reason", "")),
            "manual": bool(decision.get("manual", False)),
        }
        self.bus.publish(Event(EventType.ROOM_CHANGED, dict(self.current)))

    def find(self, spoken: str) -> str:
        """The room a spoken or typed name refers to, or InputError listing the rooms."""
        wanted = " ".join(spoken.lower().replace("-", " ").replace("_", " ").split())
        for room in self.rooms:
            if " ".join(room.lower().replace("-", " ").replace("_", " ").split()) == wanted:
                return room
        known = ", ".join(sorted(self.rooms)) or "none are configured"
        raise InputError(f"no room called {spoken[:40]!r}; rooms: {known}", code="room_unknown")

    def set_manual(self, room: str | None) -> dict[str, Any]:
        """Hold a room (None clears the hold and returns to presence)."""
        if room is None:
            if self.override_hook is not None:
                self.override_hook(None)
            self.apply({"room": "", "namespaces": ["global"], "reason": "override cleared"})
            return self.current
        name = self.find(room)
        if self.override_hook is not None:
            self.override_hook(name)
        self.apply(
            {"room": name, "namespaces": self.rooms[name], "reason": "manual", "manual": True}
        )
        return self.current
