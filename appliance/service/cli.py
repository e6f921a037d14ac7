"""``openclaw run``: the appliance service."""

from __future__ import annotations

import asyncio
import logging
import signal

import click

from appliance.cli import AppContext, pass_app


async def _serve(app_ctx: AppContext) -> bool:
    from appliance.events import EventBus
    from appliance.service.appliance import Appliance
    from appliance.service.parts import build_parts

    config = app_ctx.config
    bus = EventBus(queue_size=512)
    appliance = Appliance(config, build_parts(config, bus), bus=bus)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, appliance.request_stop)
    appliance.bus.bind(loop)
    try:
        await appliance.run()
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    return appliance.stopped_cleanly


@click.command("run")
@click.option(
    "--log-level",
    default="info",
    type=click.Choice(["debug", "info", "warning"]),
    help="Least severe log records written (JSON lines on stderr).",
)
@pass_app
def run_command(app: AppContext, log_level: str) -> None:
    """Run the appliance: listen, answer, watch the inbox and serve the status page.

    Runs until SIGTERM or Ctrl-C, then shuts down cleanly (LEDs off, answer worker reaped, index
    closed). Under systemd (Type=notify) it reports READY, STATUS and watchdog pings.
    """
    from appliance.logs import setup_logging

    setup_logging(getattr(logging, log_level.upper()))
    clean = asyncio.run(_serve(app))
    if not clean:
        raise SystemExit(1)
