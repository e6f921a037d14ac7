"""Guards in front of the status page: which Host names it answers, and JSON parsed with a depth limit.

The Host check is what stops DNS rebinding: a page on some other site whose name is made to resolve to
the appliance's address sends the browser's requests here with ``Host: attacker.example``; answering
only the appliance's own names and addresses makes those requests fail, so the page cannot read
``/api/state``.
"""

from __future__ import annotations

import fcntl
import ipaddress
import json
import os
import socket
import struct
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

#: Placeholders in ``web.allowed_hosts`` filled in from the machine itself.
HOSTNAME = "@hostname"
ADDRESSES = "@addresses"
#: Deepest nesting of arrays and objects an admin request body may have.
MAX_JSON_DEPTH = 20
# How long the machine's own addresses are trusted before they are read again (DHCP may change them).
_REFRESH_S = 60.0
_SIOCGIFADDR = 0x8915


def _interface_names() -> list[str]:
    """The network interfaces' names, from sysfs.

    Not ``socket.if_nameindex()``: glibc asks the kernel over a netlink socket, which the systemd unit
    does not allow the service to open (RestrictAddressFamilies=).
    """
    try:
        return sorted(os.listdir("/sys/class/net"))
    except OSError:
        return [name for _index, name in socket.if_nameindex()]


def _ipv4_addresses() -> set[str]:
    found: set[str] = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for name in _interface_names():
            try:
                packed = fcntl.ioctl(
                    sock.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15])
                )
            except OSError:
                continue  # an interface without an IPv4 address
            found.add(socket.inet_ntoa(packed[20:24]))
    return found


def _ipv6_addresses() -> set[str]:
    found: set[str] = set()
    try:
        # /proc/self/net: with the unit's ProcSubset=pid, /proc/net itself is hidden.
        lines = Path("/proc/self/net/if_inet6").read_text(encoding="ascii").splitlines()
    except OSError:
        return found
    for line in lines:
        fields = line.split()
        if fields and len(fields[0]) == 32:
            found.add(str(ipaddress.IPv6Address(int(fields[0], 16))))
    return found


def local_addresses() -> set[str]:
    """The machine's own IP addresses (every interface, IPv4 and IPv6).

    Read from the kernel, never through DNS: the check runs on the event loop and the appliance is
    usually offline, where a name lookup can hang for seconds.
    """
    found: set[str] = set()
    for reader in (_ipv4_addresses, _ipv6_addresses):
        try:
            found |= reader()
        except OSError:
            continue
    return found


def host_names() -> set[str]:
    """The machine's own names: its hostname and hostname.local (mDNS)."""
    name = socket.gethostname().lower().rstrip(".")
    return {name, f"{name}.local"} if name else set()


def normalise_host(header: str) -> str:
    """The host part of a Host header: lower case, no port, no brackets, no trailing dot."""
    host = header.strip().lower()
    if host.startswith("["):
        host = host[1 : host.find("]")] if "]" in host else host[1:]
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


class HostAllowList:
    """The set of Host names the status page answers, with the placeholders expanded."""

    def __init__(self, configured: Iterable[str], bind_host: str = "") -> None:
        self.configured = tuple(c.strip().lower() for c in configured if c.strip())
        #: The address the server binds, when it is one specific address.
        self.bind_host = bind_host
        self._allowed: set[str] = set()
        self._read_at = -_REFRESH_S
        self._lock = threading.Lock()

    @property
    def any_host(self) -> bool:
        """Whether the check is switched off (``"*"`` in the list)."""
        return "*" in self.configured

    def allowed(self) -> set[str]:
        """The expanded names and addresses (re-read from the machine once a minute)."""
        now = time.monotonic()
        with self._lock:
            if now - self._read_at >= _REFRESH_S:
                names: set[str] = set()
                for entry in self.configured:
                    if entry == HOSTNAME:
                        names |= host_names()
                    elif entry == ADDRESSES:
                        names |= local_addresses()
                    else:
                        names.add(normalise_host(entry))
                if self.bind_host and self.bind_host not in ("0.0.0.0", "::"):
                    names.add(normalise_host(self.bind_host))
                self._allowed = names
                self._read_at = now
            return self._allowed

    def accepts(self, header: str | None) -> bool:
        """Whether a request with this Host header is answered."""
        if self.any_host:
            return True
        if not header:
            return False
        return normalise_host(header) in self.allowed()


class TrustedHosts:
    """ASGI middleware answering 400 ``host_not_allowed`` to a Host that is not the appliance's."""

    def __init__(self, app: ASGIApp, hosts: HostAllowList) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = None
        for key, value in scope.get("headers", []):
            if key == b"host":
                header = value.decode("latin-1")
                break
        if self.hosts.accepts(header):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {"code": "host_not_allowed", "message": "this address is not the appliance's"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def json_depth(body: bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings are skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


class JsonTooDeep(ValueError):
    """A JSON text nested deeper than allowed."""


def parse_json(body: bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` before parsing.

    The parser recurses once per level; without the check a few kilobytes of ``[`` end in a
    RecursionError deep inside it. Raises JsonTooDeep or ValueError (including JSONDecodeError,
    invalid UTF-8 and over-long integers).
    """
    if json_depth(body) > max_depth:
        raise JsonTooDeep(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(body)
    except RecursionError:  # belt and braces: the depth scan should make this unreachable
        raise JsonTooDeep(f"nested deeper than {max_depth} levels") from None
