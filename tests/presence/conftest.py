"""Fixtures for presence tests."""

from __future__ import annotations

import pytest

from appliance.presence.rooms import RoomsPlan, load_rooms
from appliance.presence.trace import SAMPLE_ROOMS_NAME, package_data


@pytest.fixture
def sample_plan() -> RoomsPlan:
    """The rooms file shipped with the package (matches the development trace)."""
    return load_rooms(package_data(SAMPLE_ROOMS_NAME), known_namespaces=None)
