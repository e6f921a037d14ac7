"""The active room and its namespaces, as the pipeline and the status page use them.

The room itself is decided by the presence part (which publishes ``room-changed``) or held manually;
the live state follows those events, and :class:`RoomControl` reads the current room from it. Without a
presence part, manual switches are announced here.
"""

from __future__ import annotations

from typing import Any

from appliance.errors import InputError
from appliance.events import Event, EventBus, EventType
from appliance.service.ports import Presence
from appliance.state import LiveState


class RoomControl:
    """Reads the active room from the live state; applies manual overrides."""

    def __init__(self, bus: EventBus, state: LiveState, presence: Presence | None = None) -> None:
        self.bus = bus
        self.state = state
        self.presence = presence
        #: Room name -> namespaces, as the rooms file defines them.
        self.rooms: dict[str, list[str]] = presence.rooms() if presence is not None else {}

    @property
    def room(self) -> str:
        """Name of the active room, "" when none."""
        return str(self.state.room.get("name") or "")

    @property
    def namespaces(self) -> list[str]:
        """Namespaces searched now (global is always searched by the index too)."""
        return list(self.state.room.get("namespaces") or ["global"])

    def memory_namespace(self) -> str:
        """Where "remember that ..." notes and captures go: the room's own namespace, else global."""
        own = [n for n in self.namespaces if n != "global"]
        return own[0] if own else "global"

    def set_manual(self, room: str | None) -> dict[str, Any]:
        """Hold a room (None: back to the beacons); returns the room now active."""
        if self.presence is not None:
            switch = self.presence.set_override(room)
            if switch is not None:
                self.state.apply(Event(EventType.ROOM_CHANGED, switch))
            return self.state.room
        if room is None:
            decision: dict[str, Any] = {"room": "", "namespaces": ["global"], "reason": "cleared"}
        else:
            known = ", ".join(sorted(self.rooms)) or "none are configured"
            raise InputError(f"no room called {room[:40]!r}; rooms: {known}", code="room_unknown")
        self.bus.publish(Event(EventType.ROOM_CHANGED, decision))
        self.state.apply(Event(EventType.ROOM_CHANGED, decision))
        return self.state.room
