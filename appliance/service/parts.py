"""Building the appliance's parts from the configuration (the real packages behind the ports)."""

from __future__ import annotations

import logging

from appliance.config import Config
from appliance.service.appliance import Parts
from appliance.service.library import IndexLibrary

log = logging.getLogger(__name__)


def build_parts(config: Config) -> Parts:
    """Every part the configuration asks for; parts that cannot be built are disabled with a reason."""
    parts = Parts(library_factory=lambda: IndexLibrary(config))
    return parts
