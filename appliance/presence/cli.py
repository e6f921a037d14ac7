"""``openclaw presence`` (live beacons and room decision), ``presence record``, ``openclaw rooms``."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from pathlib import Path
from typing import Any

import click

from appliance.cli import AppContext, echo_json, pass_app
from appliance.config import Config
from appliance.presence.errors import BluetoothUnavailableError, RoomsFileError
from appliance.presence.monitor import (
    PresenceMonitor,
    indexed_namespaces,
    load_configured_rooms,
    resolve_path,
)
from appliance.presence.rooms import RoomsPlan
from appliance.presence.scanner import BeaconScanner, ScannerStatus
from appliance.presence.trace import DEV_TRACE_NAME, TraceWriter, package_data


def _load_plan(config: Config, rooms: Path | None, *, required: bool) -> RoomsPlan:
    path = rooms if rooms is not None else resolve_path(config, config.presence.rooms_file)
    if rooms is None and not path.is_file() and not required:
        return RoomsPlan({}, {}, source="<no rooms file>")
    return load_configured_rooms(config, path=path, known_namespaces=indexed_namespaces(config))


def render(snapshot: dict[str, Any]) -> str:
    """The live table: decision, beacons with smoothed RSSI, scanner state."""
    lines = []
    room = snapshot.get("room_name") or "no room"
    how = " (held by hand)" if snapshot.get("override_active") else ""
    lines.append(f"room: {room}{how}   namespaces: {', '.join(snapshot['namespaces'])}")
    if snapshot.get("candidate") is not None or snapshot.get("candidate_for_s") is not None:
        lines.append(
            f"  candidate: {snapshot.get('candidate') or 'no room'} "
            f"for {snapshot.get('candidate_for_s')} s"
        )
    last = snapshot.get("last_switch")
    if last:
        lines.append(f"  last switch ({last['reason']}): {last['detail']}")
    scanner = snapshot["scanner"]
    parse = scanner["parse"]
    state = f"scanner: {scanner['status']} ({scanner['mode']})"
    if scanner.get("last_error") and scanner["status"] != "scanning":
        state += f" - {scanner['last_error']}"
    if scanner.get("retry_in_s"):
        state += f", retry in {scanner['retry_in_s']:.0f} s"
    lines.append(
        f"{state}; adverts {parse['adverts']}, beacon frames {parse['frames']}, "
        f"malformed {parse['malformed_total']}, absurd RSSI {parse['absurd_rssi']}"
    )
    lines.append(f"{'beacon':<58} {'room':<16} {'rssi':>6} {'raw':>5} {'~m':>6} {'age':>5}")
    for beacon in snapshot["beacons"] + snapshot["strangers"]:
        rssi = "-" if beacon["rssi"] is None else f"{beacon['rssi']:.1f}"
        dist = "-" if beacon["distance_m"] is None else f"{beacon['distance_m']:.1f}"
        age = "silent" if beacon["silent"] else f"{beacon['age_s']:.0f}s"
        lines.append(
            f"{beacon['id'][:58]:<58} {(beacon['room'] or '?')[:16]:<16} {rssi:>6} "
            f"{beacon['raw_rssi']:>5} {dist:>6} {age:>5}"
        )
    hidden = snapshot["strangers_tracked"] - len(snapshot["strangers"])
    if hidden > 0 or snapshot["strangers_evicted"]:
        lines.append(
            f"  (+{max(hidden, 0)} more unknown beacons; {snapshot['strangers_evicted']} forgotten)"
        )
    return "\n".join(lines)


async def _watch(
    monitor: PresenceMonitor, duration: float | None, live: bool, refresh_s: float = 1.0
) -> None:
    task = asyncio.create_task(monitor.run())
    started_wall = time.monotonic()
    started_clock = monitor.clock()
    try:
        while not task.done():
            await asyncio.sleep(0.05 if not live else refresh_s)
            status = monitor.scanner.state.status
            if live:
                if sys.stdout.isatty():
                    click.echo("\x1b[2J\x1b[H", nl=False)
                click.echo(render(monitor.snapshot()) + "\n")
            if status == ScannerStatus.FINISHED:
                break
            elapsed = max(monitor.clock() - started_clock, time.monotonic() - started_wall)
            if duration is not None and elapsed >= duration:
                break
    finally:
        monitor.tick()
        await monitor.stop()
        await task


@click.group("presence", invoke_without_command=True)
@click.option(
    "--trace",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Replay this JSONL trace instead of the radio ('dev' = the trace shipped in the package).",
)
@click.option(
    "--rooms",
    "rooms_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Rooms file (default: presence.rooms_file under the data directory; without one, only "
    "the beacons are shown).",
)
@click.option(
    "--speed", type=float, default=None, help="Trace replay speed: 1 = real time, 0 = flat out."
)
@click.option(
    "--duration", type=float, default=None, help="Stop after this many seconds (trace seconds)."
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON snapshot at the end, no live table."
)
@pass_app
@click.pass_context
def presence_group(
    ctx: click.Context,
    app: AppContext,
    trace: Path | None,
    rooms_path: Path | None,
    speed: float | None,
    duration: float | None,
    as_json: bool,
) -> None:
    """Show the beacons heard, their smoothed RSSI and the room decision, live.

    Without --trace the configured backend is used (the Bluetooth radio when presence.backend is
    "bleak"). A missing adapter is shown and retried, not fatal.
    """
    if ctx.invoked_subcommand is not None:
        return
    config = app.config
    if trace is not None and str(trace) == "dev":
        trace = package_data(DEV_TRACE_NAME)
    plan = _load_plan(config, rooms_path, required=False)
    monitor = PresenceMonitor.from_config(config, plan, trace=trace, speed=speed)
    if trace is not None:
        # A CLI replay plays once; the service loops the development trace.
        monitor.scanner.backend_args["loop"] = False
    flat_out = trace is not None and (speed if speed is not None else 1.0) == 0
    asyncio.run(_watch(monitor, duration, live=not as_json and not flat_out))
    snapshot = monitor.snapshot()
    snapshot["switch_history"] = [s.to_json() for s in monitor.engine.history]
    if as_json:
        echo_json(snapshot)
    else:
        click.echo(render(snapshot))
        for switch in monitor.engine.history:
            click.echo(f"  switch at {switch.at:.1f}: {switch.reason}: {switch.detail}")


@presence_group.command("record")
@click.argument("file", type=click.Path(dir_okay=False, writable=True, path_type=Path))
@click.option("--duration", type=float, default=60.0, show_default=True, help="Seconds to record.")
@pass_app
def record_command(app: AppContext, file: Path, duration: float) -> None:
    """Record every advertisement the Bluetooth radio hears into FILE (a JSONL trace).

    The trace replays with `openclaw presence --trace FILE` or as presence.trace_file.
    """
    settings = app.config.presence

    async def run() -> int:
        with file.open("w", encoding="utf-8") as handle:
            writer = TraceWriter(handle, source="openclaw presence record")
            scanner = BeaconScanner(
                lambda sighting: None,
                scanning_mode=settings.scanning_mode,
                adapter=settings.adapter,
                retry_initial_s=settings.retry_initial_s,
                retry_max_s=settings.retry_max_s,
                stall_timeout_s=0,
                on_advertisement=writer,
            )
            task = asyncio.create_task(scanner.run())
            deadline = time.monotonic() + duration
            try:
                while time.monotonic() < deadline and not task.done():
                    await asyncio.sleep(0.1)
                    if scanner.state.status in (ScannerStatus.NO_ADAPTER, ScannerStatus.FAILED):
                        raise BluetoothUnavailableError(
                            f"cannot record: {scanner.state.last_error}"
                        )
            finally:
                await scanner.stop()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            return writer.written

    try:
        written = asyncio.run(run())
    except BluetoothUnavailableError:
        with contextlib.suppress(OSError):
            if file.stat().st_size < 200:
                file.unlink()  # only the header: nothing was recorded
        raise
    click.echo(f"recorded {written} advertisements to {file.name}")


@click.command("rooms")
@click.option(
    "--rooms",
    "rooms_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Rooms file to check (default: presence.rooms_file under the data directory).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def rooms_command(app: AppContext, rooms_path: Path | None, as_json: bool) -> None:
    """List the rooms, their beacons and namespaces (and check the rooms file)."""
    config = app.config
    try:
        plan = _load_plan(config, rooms_path, required=True)
    except RoomsFileError as err:
        if "not found" in err.message and rooms_path is None:
            sample = package_data("rooms.sample.toml")
            raise RoomsFileError(
                f"{err.message}; start from the sample: cp {sample} "
                f"{config.data_path(str(config.presence.rooms_file))}"
            ) from None
        raise
    namespaces = indexed_namespaces(config)
    if as_json:
        data = plan.to_json()
        data["namespaces_checked"] = namespaces is not None
        echo_json(data)
        return
    advice = plan.placement_advice()
    for room in plan.rooms.values():
        doors = f"; next to {', '.join(sorted(room.next_to))}" if room.next_to else ""
        click.echo(
            f"{room.key}: {room.name} -> {', '.join(room.namespaces)} "
            f"(radius {room.radius_m:g} m{doors})"
        )
        for beacon in room.beacons:
            calibration = (
                f", {beacon.rssi_at_1m} dBm at 1 m" if beacon.rssi_at_1m is not None else ""
            )
            label = f" ({beacon.label})" if beacon.label else ""
            click.echo(f"    {beacon.beacon_id}{label}{calibration}")
        if not room.beacons:
            click.echo("    (no beacons: reachable only by a manual switch)")
        if room.key in advice:
            click.echo(f"    advice: {advice[room.key]}")
    if namespaces is None:
        click.echo("namespaces not checked: there is no index yet")
