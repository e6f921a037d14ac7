"""sd_notify READY / STATUS / WATCHDOG / STOPPING over a real unix datagram socket."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.service.notify import SystemdNotifier


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(20)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_without_socket_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = SystemdNotifier()
    assert not notifier.enabled
    notifier.ready("x")  # must not raise


def test_ready_status_and_stopping_arrive(notify_socket: socket.socket) -> None:
    notifier = SystemdNotifier()
    notifier.ready("serving")
    assert notify_socket.recv(4096) == b"READY=1\nSTATUS=serving"
    notifier.status("indexing 3 files")
    assert notify_socket.recv(4096) == b"STATUS=indexing 3 files"
    notifier.stopping()
    assert notify_socket.recv(4096).startswith(b"STOPPING=1")


async def test_watchdog_pings_only_while_alive(
    notify_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    notifier = SystemdNotifier()
    assert notifier.watchdog_s == pytest.approx(0.1)
    alive = True
    task = asyncio.create_task(notifier.watchdog_loop(lambda: alive, lambda: "3/3 running"))
    loop = asyncio.get_running_loop()
    assert await loop.run_in_executor(None, notify_socket.recv, 4096) == b"WATCHDOG=1"
    assert await loop.run_in_executor(None, notify_socket.recv, 4096) == b"STATUS=3/3 running"
    alive = False
    await asyncio.sleep(0.12)  # let a ping that was already on its way drain
    notify_socket.setblocking(False)
    while True:
        try:
            notify_socket.recv(4096)
        except BlockingIOError:
            break
    await asyncio.sleep(0.3)  # three intervals with the appliance unhealthy
    with pytest.raises(BlockingIOError):
        notify_socket.recv(4096)
    task.cancel()
