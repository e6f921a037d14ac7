"""Beacon frames from raw advertisement payloads: iBeacon, AltBeacon, Eddystone-UID and -URL.

Input is what bleak hands over: manufacturer data keyed by company identifier (the two company
bytes already stripped) and service data keyed by 128-bit service UUID string. Every parser returns
a :class:`BeaconFrame`, or None when the payload is simply some other kind of advertisement, or
raises :class:`MalformedFrame` when it claims to be a beacon frame but is truncated or inconsistent.
The caller (:func:`parse_advertisement`) counts and drops malformed frames, so hostile payloads
never reach the decision engine and never stop the scanner.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

#: Apple's company identifier (iBeacon lives in Apple manufacturer data).
APPLE_COMPANY_ID = 0x004C
#: 16-bit service UUID of Eddystone, as bleak spells the 128-bit form.
EDDYSTONE_SERVICE_UUID = "0000feaa-0000-1000-8000-00805f9b34fb"
#: The two bytes that open every AltBeacon payload.
ALTBEACON_CODE = b"\xbe\xac"
#: Eddystone measures its transmit power at 0 m; the usual correction to 1 m is -41 dB.
EDDYSTONE_0M_TO_1M_DB = 41

#: Eddystone-URL scheme prefixes (first byte).
_URL_SCHEMES = ("http://www.", "https://www.", "http://", "https://")
#: Eddystone-URL expansion codes 0x00..0x0d.
_URL_EXPANSIONS = (
    ".com/",
    ".org/",
    ".edu/",
    ".net/",
    ".info/",
    ".biz/",
    ".gov/",
    ".com",
    ".org",
    ".edu",
    ".net",
    ".info",
    ".biz",
    ".gov",
)

BeaconKind = Literal["ibeacon", "altbeacon", "eddystone-uid", "eddystone-url"]

_UUID_RE = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_ID_PATTERNS: dict[str, re.Pattern[str]] = {
    "ibeacon": re.compile(rf"^ibeacon:{_UUID_RE}:\d{{1,5}}:\d{{1,5}}$"),
    "altbeacon": re.compile(rf"^altbeacon:{_UUID_RE}:\d{{1,5}}:\d{{1,5}}$"),
    "eddystone-uid": re.compile(r"^eddystone-uid:[0-9a-f]{20}:[0-9a-f]{12}$"),
    "eddystone-url": re.compile(r"^eddystone-url:\S{1,64}$"),
}


class MalformedFrame(ValueError):
    """A payload that announces a beacon frame but cannot be one (truncated, bad length/bytes)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind = kind
        self.reason = reason


@dataclass(frozen=True)
class BeaconFrame:
    """One decoded beacon identity from one advertisement."""

    #: Frame format.
    kind: BeaconKind
    #: Canonical identifier, the same string the rooms file uses (see :func:`canonical_id`).
    beacon_id: str
    #: RSSI the beacon says it has at 1 m (dBm), or None when the frame carries none.
    rssi_at_1m: int | None = None


@dataclass
class ParseStats:
    """Running counts of what the parsers saw (``openclaw presence`` shows them)."""

    #: Advertisements looked at.
    adverts: int = 0
    #: Beacon frames decoded.
    frames: int = 0
    #: Advertisements that gave no usable frame (phones, headphones, only malformed frames).
    not_beacons: int = 0
    #: Malformed frames dropped, by frame kind.
    malformed: Counter[str] = field(default_factory=Counter)
    #: Advertisements dropped because their RSSI was outside what a radio can report.
    absurd_rssi: int = 0

    def to_json(self) -> dict[str, object]:
        """JSON form."""
        return {
            "adverts": self.adverts,
            "frames": self.frames,
            "not_beacons": self.not_beacons,
            "malformed": dict(self.malformed),
            "malformed_total": sum(self.malformed.values()),
            "absurd_rssi": self.absurd_rssi,
        }


def _int8(value: int) -> int:
    return value - 256 if value > 127 else value


def parse_ibeacon(company_id: int, data: bytes) -> BeaconFrame | None:
    """iBeacon: Apple data ``02 15`` + UUID(16) + major(2) + minor(2) + measured power(1)."""
    if company_id != APPLE_COMPANY_ID or len(data) < 1 or data[0] != 0x02:
        return None  # other Apple advertisements (Find My, Nearby, AirPods) are not beacons
    if len(data) < 2:
        raise MalformedFrame("ibeacon", "truncated before the length byte")
    if data[1] != 0x15:
        raise MalformedFrame("ibeacon", f"length byte {data[1]:#04x}, expected 0x15")
    if len(data) != 23:
        raise MalformedFrame("ibeacon", f"{len(data)} bytes, expected 23")
    beacon_uuid = uuid.UUID(bytes=bytes(data[2:18]))
    major = int.from_bytes(data[18:20], "big")
    minor = int.from_bytes(data[20:22], "big")
    power = _int8(data[22])
    if not -127 <= power <= 20:
        raise MalformedFrame("ibeacon", f"measured power {power} dBm is impossible")
    return BeaconFrame("ibeacon", f"ibeacon:{beacon_uuid}:{major}:{minor}", power)


def parse_altbeacon(company_id: int, data: bytes) -> BeaconFrame | None:
    """AltBeacon: ``BE AC`` + id1(16) + id2(2) + id3(2) + reference RSSI(1) + reserved(1)."""
    if not data.startswith(ALTBEACON_CODE):
        return None
    if len(data) != 24:
        raise MalformedFrame("altbeacon", f"{len(data)} bytes, expected 24")
    id1 = uuid.UUID(bytes=bytes(data[2:18]))
    id2 = int.from_bytes(data[18:20], "big")
    id3 = int.from_bytes(data[20:22], "big")
    power = _int8(data[22])
    if not -127 <= power <= 20:
        raise MalformedFrame("altbeacon", f"reference RSSI {power} dBm is impossible")
    return BeaconFrame("altbeacon", f"altbeacon:{id1}:{id2}:{id3}", power)


def _decode_eddystone_url(encoded: bytes) -> str:
    if not encoded:
        raise MalformedFrame("eddystone-url", "no URL bytes")
    if encoded[0] >= len(_URL_SCHEMES):
        raise MalformedFrame("eddystone-url", f"unknown scheme prefix {encoded[0]:#04x}")
    parts = [_URL_SCHEMES[encoded[0]]]
    for byte in encoded[1:]:
        if byte < len(_URL_EXPANSIONS):
            parts.append(_URL_EXPANSIONS[byte])
        elif 0x21 <= byte <= 0x7E:
            parts.append(chr(byte))
        else:
            raise MalformedFrame("eddystone-url", f"byte {byte:#04x} is not allowed in a URL")
    return "".join(parts)


def parse_eddystone(service_data: bytes) -> BeaconFrame | None:
    """Eddystone UID (0x00) and URL (0x10) frames; TLM/EID and unknown frame types return None."""
    if not service_data:
        raise MalformedFrame("eddystone", "empty service data")
    frame_type = service_data[0]
    if frame_type == 0x00:
        # 18 bytes, or 20 with the two reserved bytes most beacons send.
        if len(service_data) not in (18, 20):
            raise MalformedFrame("eddystone-uid", f"{len(service_data)} bytes, expected 18 or 20")
        power = _int8(service_data[1]) - EDDYSTONE_0M_TO_1M_DB
        namespace = service_data[2:12].hex()
        instance = service_data[12:18].hex()
        return BeaconFrame("eddystone-uid", f"eddystone-uid:{namespace}:{instance}", power)
    if frame_type == 0x10:
        if not 4 <= len(service_data) <= 20:
            raise MalformedFrame("eddystone-url", f"{len(service_data)} bytes, expected 4..20")
        power = _int8(service_data[1]) - EDDYSTONE_0M_TO_1M_DB
        url = _decode_eddystone_url(bytes(service_data[2:]))
        return BeaconFrame("eddystone-url", f"eddystone-url:{url}", power)
    return None


def _parse_one(
    kind: str,
    parse: Callable[..., BeaconFrame | None],
    args: tuple[Any, ...],
    stats: ParseStats | None,
) -> BeaconFrame | None:
    try:
        return parse(*args)
    except MalformedFrame as err:
        if stats is not None:
            stats.malformed[err.kind] += 1
    except (TypeError, ValueError):
        # Not even bytes (a hand-edited trace, a backend bug): the same as malformed.
        if stats is not None:
            stats.malformed[kind] += 1
    return None


def _as_bytes(value: Any) -> bytes:
    if isinstance(value, str):
        raise TypeError("payload is text, not bytes")  # bytes("...") would raise anyway
    return bytes(value)


def parse_advertisement(
    manufacturer_data: Mapping[int, bytes],
    service_data: Mapping[str, bytes],
    stats: ParseStats | None = None,
) -> list[BeaconFrame]:
    """Every beacon frame in one advertisement; malformed ones are counted in ``stats``, dropped."""
    found: list[BeaconFrame | None] = []
    for company_id, data in manufacturer_data.items():
        try:
            args = (int(company_id), _as_bytes(data))
        except (TypeError, ValueError):
            if stats is not None:
                stats.malformed["manufacturer-data"] += 1
            continue
        found.append(_parse_one("ibeacon", parse_ibeacon, args, stats))
        found.append(_parse_one("altbeacon", parse_altbeacon, args, stats))
    for service_uuid, data in service_data.items():
        if str(service_uuid).lower() == EDDYSTONE_SERVICE_UUID:
            found.append(
                _parse_one("eddystone", lambda d: parse_eddystone(_as_bytes(d)), (data,), stats)
            )
    frames = [frame for frame in found if frame is not None]
    if stats is not None:
        stats.frames += len(frames)
    return frames


def canonical_id(text: str) -> str:
    """Normalise a beacon identifier from a rooms file, or raise ValueError saying what is wrong.

    Forms: ``ibeacon:<uuid>:<major>:<minor>``, ``altbeacon:<uuid>:<id2>:<id3>``,
    ``eddystone-uid:<namespace 20 hex>:<instance 12 hex>``, ``eddystone-url:<url>``.
    """
    kind, sep, _rest = text.strip().partition(":")
    kind = kind.lower()
    if not sep or kind not in _ID_PATTERNS:
        allowed = ", ".join(sorted(_ID_PATTERNS))
        raise ValueError(f"{text!r} does not start with one of {allowed} followed by ':'")
    # URLs keep their case; every other form is hexadecimal/decimal and compares lowercase.
    rest = text.strip().partition(":")[2]
    normal = f"{kind}:{rest}" if kind == "eddystone-url" else text.strip().lower()
    if not _ID_PATTERNS[kind].match(normal):
        raise ValueError(f"{text!r} is not a valid {kind} identifier")
    if kind in ("ibeacon", "altbeacon"):
        _, ident, first, second = normal.split(":")
        if int(first) > 0xFFFF or int(second) > 0xFFFF:
            raise ValueError(f"{text!r}: the two numbers must be 0..65535")
        # Strip leading zeros so "01" and "1" name the same beacon.
        normal = f"{kind}:{ident}:{int(first)}:{int(second)}"
    return normal
