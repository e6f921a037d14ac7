"""The status page's own addresses are read without netlink, which the systemd unit does not allow."""

from __future__ import annotations

import socket

import pytest

from appliance.web import guards


def test_own_addresses_without_netlink(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> list[tuple[int, str]]:
        # What glibc's if_nameindex() meets under RestrictAddressFamilies= without AF_NETLINK.
        raise OSError(97, "Address family not supported by protocol")

    monkeypatch.setattr(socket, "if_nameindex", refused)
    addresses = guards.local_addresses()
    assert "127.0.0.1" in addresses
    assert "lo" in guards._interface_names()
