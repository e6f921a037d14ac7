"""Settings of the status page."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WebSettings:
    """Where the status page listens."""

    #: Address to bind; the LAN address on the Pi, loopback on a development machine.
    host: str = "127.0.0.1"
    #: TCP port.
    port: int = 8080
