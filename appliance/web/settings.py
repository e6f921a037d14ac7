"""Settings of the status page."""

from __future__ import annotations

from dataclasses import dataclass

from appliance.errors import ConfigError


@dataclass(frozen=True)
class WebSettings:
    """Where the status page listens and what it accepts."""

    #: Address to bind; the LAN address (or 0.0.0.0) on the Pi, loopback on a development machine.
    host: str = "127.0.0.1"
    #: TCP port (0 = any free port; the one bound is in the log and on the READY status line).
    port: int = 8080
    #: Whether the status page runs at all.
    enabled: bool = True
    #: Largest upload accepted from the status page, in megabytes (streamed to disk, never held in
    #: memory; at most 512, the largest drawing file worth indexing on the appliance's SD card).
    max_upload_mb: int = 50
    #: Largest JSON body of an admin request, in kilobytes.
    max_json_kb: int = 16
    #: Seconds between keep-alive comments on the live event stream.
    sse_keepalive_s: float = 15.0
    #: Admin token file, relative to ``paths.data_dir``; generated (mode 0600) at first start.
    token_file: str = "secrets/admin-token"
    #: Most live event streams served at once (each costs a coroutine and a socket).
    max_streams: int = 500
    #: Host names the page answers (anything else gets 400, which defeats DNS rebinding).
    #: ``@hostname`` stands for the machine's name, name.local and full name; ``@addresses`` for its
    #: own IP addresses (read again every minute); ``*`` switches the check off (behind a proxy).
    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "::1", "@hostname", "@addresses")

    def validate(self) -> None:
        """Check ranges."""
        if not 0 <= self.port < 65536:
            raise ConfigError(
                f"web.port: {self.port} is not a TCP port (1-65535, 0 = any free port)"
            )
        if not 1 <= self.max_upload_mb <= 512:
            raise ConfigError("web.max_upload_mb: must be between 1 and 512")
        if not 1 <= self.max_json_kb <= 1024:
            raise ConfigError("web.max_json_kb: must be between 1 and 1024")
        if self.sse_keepalive_s <= 0:
            raise ConfigError("web.sse_keepalive_s: must be positive")
        if self.max_streams < 1:
            raise ConfigError("web.max_streams: must be >= 1")
        if not self.allowed_hosts:
            raise ConfigError(
                "web.allowed_hosts: must name at least one host (the defaults are localhost, "
                '127.0.0.1, ::1, @hostname, @addresses; "*" allows any)'
            )
        if self.token_file.startswith("/") or ".." in self.token_file.split("/"):
            raise ConfigError("web.token_file: must be a relative path inside the data directory")
