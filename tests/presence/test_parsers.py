"""Beacon frame parsers on real byte layouts, and on garbage."""

from __future__ import annotations

import random

import pytest

from appliance.presence.parsers import (
    EDDYSTONE_SERVICE_UUID,
    MalformedFrame,
    ParseStats,
    canonical_id,
    parse_advertisement,
    parse_altbeacon,
    parse_eddystone,
    parse_ibeacon,
)

# Hand-written from the published layouts (not produced by our own encoder).
# iBeacon, Estimote's default UUID, major 1000, minor 2000, measured power -59 dBm (0xc5).
IBEACON = bytes.fromhex("0215b9407f30f5f8466eaff925556b57fe6d03e807d0c5")
# AltBeacon: BEAC, id1, id2 = 1, id3 = 2, reference RSSI -60 (0xc4), reserved 0.
ALTBEACON = bytes.fromhex("beac2f234454cf6d4a0fadf2f4911ba9ffa600010002c400")
# Eddystone-UID: frame 0x00, tx at 0 m -24 dBm (0xe8), namespace, instance, two reserved bytes.
EDDY_UID = bytes.fromhex("00e8edd1ebeac04e5defa0170badc0ffee010000")
# Eddystone-URL: frame 0x10, tx -24, "https://" (0x03), "google", ".com" (0x07).
EDDY_URL = bytes.fromhex("10e803676f6f676c6507")


def test_ibeacon_fields() -> None:
    frame = parse_ibeacon(0x004C, IBEACON)
    assert frame is not None
    assert frame.kind == "ibeacon"
    assert frame.beacon_id == "ibeacon:b9407f30-f5f8-466e-aff9-25556b57fe6d:1000:2000"
    assert frame.rssi_at_1m == -59


def test_altbeacon_fields_any_company() -> None:
    frame = parse_altbeacon(0x0118, ALTBEACON)
    assert frame is not None
    assert frame.beacon_id == "altbeacon:2f234454-cf6d-4a0f-adf2-f4911ba9ffa6:1:2"
    assert frame.rssi_at_1m == -60


def test_eddystone_uid_fields_and_1m_correction() -> None:
    frame = parse_eddystone(EDDY_UID)
    assert frame is not None
    assert frame.beacon_id == "eddystone-uid:edd1ebeac04e5defa017:0badc0ffee01"
    assert frame.rssi_at_1m == -24 - 41
    # Beacons that leave out the two reserved bytes are just as valid.
    short = parse_eddystone(EDDY_UID[:-2])
    assert short is not None and short.beacon_id == frame.beacon_id


def test_eddystone_url_expansions() -> None:
    frame = parse_eddystone(EDDY_URL)
    assert frame is not None and frame.beacon_id == "eddystone-url:https://google.com"
    www = bytes.fromhex("10f0016578616d706c65007061676573")
    frame = parse_eddystone(www)
    assert frame is not None and frame.beacon_id == "eddystone-url:https://www.example.com/pages"


def test_other_advertisements_are_not_beacons() -> None:
    assert parse_ibeacon(0x004C, bytes.fromhex("1005031c1a2b3c")) is None  # Apple Nearby
    assert parse_ibeacon(0x0006, IBEACON) is None  # iBeacon bytes under Microsoft's id
    assert parse_altbeacon(0x0006, bytes.fromhex("0109200276")) is None
    tlm = bytes.fromhex("20000bb81a000000001000000020")
    assert parse_eddystone(tlm) is None


@pytest.mark.parametrize(
    ("parser", "payload", "reason"),
    [
        (lambda d: parse_ibeacon(0x004C, d), IBEACON[:10], "expected 23"),
        (lambda d: parse_ibeacon(0x004C, d), IBEACON + b"\x00", "expected 23"),
        (lambda d: parse_ibeacon(0x004C, d), b"\x02", "truncated"),
        (lambda d: parse_ibeacon(0x004C, d), b"\x02\x16" + IBEACON[2:], "length byte"),
        (lambda d: parse_ibeacon(0x004C, d), IBEACON[:-1] + b"\x7f", "impossible"),
        (lambda d: parse_altbeacon(0x0118, d), ALTBEACON[:-3], "expected 24"),
        (parse_eddystone, EDDY_UID[:9], "expected 18 or 20"),
        (parse_eddystone, b"", "empty"),
        (parse_eddystone, bytes.fromhex("10e8"), "expected 4..20"),
        (parse_eddystone, bytes.fromhex("10e809676f6f"), "scheme"),
        (parse_eddystone, bytes.fromhex("10e803676f0e6f"), "not allowed"),
        (parse_eddystone, bytes.fromhex("10e80367") + b"\x80" * 5, "not allowed"),
    ],
)
def test_malformed_frames_say_why(parser, payload: bytes, reason: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MalformedFrame, match=reason):
        parser(payload)


def test_parse_advertisement_counts_and_drops_malformed() -> None:
    stats = ParseStats()
    frames = parse_advertisement(
        {0x004C: IBEACON[:12], 0x0118: ALTBEACON},
        {EDDYSTONE_SERVICE_UUID: EDDY_UID[:5], "0000180f-0000-1000-8000-00805f9b34fb": b"\x64"},
        stats,
    )
    assert [f.kind for f in frames] == ["altbeacon"]
    assert stats.malformed["ibeacon"] == 1
    assert stats.malformed["eddystone-uid"] == 1
    assert stats.frames == 1


def test_parse_advertisement_survives_wrong_types() -> None:
    stats = ParseStats()
    frames = parse_advertisement(
        {"not-a-number": IBEACON, 0x004C: "0215 text not bytes"},  # type: ignore[dict-item]
        {EDDYSTONE_SERVICE_UUID: 12345},  # type: ignore[dict-item]
        stats,
    )
    assert frames == []
    assert sum(stats.malformed.values()) == 3


def test_fuzzed_payloads_never_raise() -> None:
    rng = random.Random(20261130)
    stats = ParseStats()
    seen = 0
    for _ in range(5000):
        length = rng.choice([0, 1, 2, 5, 18, 20, 22, 23, 24, 25, 31, 255, 1000])
        body = bytes(rng.getrandbits(8) for _ in range(length))
        # Half the time start with a real prefix so the deep paths run.
        prefix = rng.choice([b"", b"\x02\x15", b"\xbe\xac", b"\x00", b"\x10"])
        data = (prefix + body)[: max(length, len(prefix))]
        seen += len(
            parse_advertisement({0x004C: data, 0x0118: data}, {EDDYSTONE_SERVICE_UUID: data}, stats)
        )
    assert sum(stats.malformed.values()) > 1000  # most random frames are rejected, by count
    assert stats.frames == seen


def test_canonical_ids() -> None:
    assert (
        canonical_id("iBeacon:B9407F30-F5F8-466E-AFF9-25556B57FE6D:01000:2000")
        == "ibeacon:b9407f30-f5f8-466e-aff9-25556b57fe6d:1000:2000"
    )
    assert (
        canonical_id("eddystone-url:https://Example.com/A") == "eddystone-url:https://Example.com/A"
    )
    with pytest.raises(ValueError, match="does not start with"):
        canonical_id("bluetooth:aa:bb")
    with pytest.raises(ValueError, match="not a valid eddystone-uid"):
        canonical_id("eddystone-uid:1234:5678")
    with pytest.raises(ValueError, match=r"0\.\.65535"):
        canonical_id("ibeacon:b9407f30-f5f8-466e-aff9-25556b57fe6d:70000:1")
