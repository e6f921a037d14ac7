"""The status page's uvicorn server as a supervised component.

uvicorn normally installs its own SIGINT/SIGTERM handlers; here the service owns the signals, so the
server runs with signal capture disabled and is stopped by cancellation (streams are told to end, then
uvicorn shuts down with a short grace period).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Generator

import uvicorn

from appliance.errors import HardwareError
from appliance.web.app import StatusPage


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        # The appliance handles signals itself and cancels this component.
        yield


class WebServer:
    """Serves the status page on the configured address until cancelled."""

    name = "web"

    def __init__(self, page: StatusPage, host: str, port: int) -> None:
        self.page = page
        self.host = host
        self.port = port
        #: The port actually bound (differs from ``port`` when 0 was asked for).
        self.bound_port: int | None = None
        #: Set once the server accepts connections.
        self.started = asyncio.Event()

    async def run(self) -> None:
        """Bind, serve, and shut down cleanly when cancelled."""
        config = uvicorn.Config(
            self.page.build(),
            log_config=None,
            access_log=False,
            # No "server: uvicorn" banner: nothing tells a scanner which software answers.
            server_header=False,
            lifespan="off",
            timeout_graceful_shutdown=3,
            backlog=1024,
            limit_concurrency=1000,
            h11_max_incomplete_event_size=16 * 1024,
        )
        server = _Server(config)
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as err:
            sock.close()
            raise HardwareError(
                f"cannot listen on {self.host}:{self.port} ({err.strerror})", code="web_bind_failed"
            ) from err
        self.bound_port = sock.getsockname()[1]
        self.page.closing.clear()
        serve = asyncio.create_task(server.serve(sockets=[sock]))
        try:
            while not server.started and not serve.done():
                await asyncio.sleep(0.02)
            self.started.set()
            await asyncio.shield(serve)
        finally:
            self.started.clear()
            self.page.closing.set()
            server.should_exit = True
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(serve, 6)
            sock.close()
