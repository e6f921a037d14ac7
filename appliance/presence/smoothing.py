"""Per-beacon RSSI smoothing with outlier rejection, and a bounded table of the beacons heard.

Raw RSSI jumps by 10 dB from one advertisement to the next (multipath, a hand over the beacon, a
person walking through the line of sight). Two defences, after ESPresense and Bermuda:

* an **implausible-jump** gate: a reading further than ``max_jump_db`` from the current smoothed value
  is held back; only when ``jump_confirm`` consecutive readings agree is it believed (the beacon or
  the appliance really moved), and then the window restarts from them;
* an **IQR fence** over the window (``window_s``, ~15 s): readings outside
  ``[Q1 - 1.5 IQR, Q3 + 1.5 IQR]`` are ignored; the rest are averaged with weights that decay with age
  (``smoothing_tau_s``), so a real change shows through within a few seconds;
* a **fall-rate limit** (``max_fall_db_s``, after Bermuda): the smoothed value may rise at once but
  falls at most this fast, because a sudden drop is far more often a body or a fade between beacon
  and appliance than the appliance moving away (a move shows up as another beacon rising).

Memory is bounded twice: each window keeps at most ``MAX_SAMPLES`` readings, and the table keeps the
beacons of the rooms file plus at most ``max_tracked`` strangers (least recently heard evicted first,
and counted), so a flood of thousands of random addresses costs a fixed amount.
"""

from __future__ import annotations

import math
import statistics
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass

#: Most readings one window keeps (a beacon at 10 Hz for 15 s is 150).
MAX_SAMPLES = 256
#: Narrowest half-width of the IQR fence (dB): RSSI comes in whole dB, and a steady beacon has an
#: IQR of 0, which would otherwise fence out every change, however small.
MIN_FENCE_DB = 6.0


@dataclass(frozen=True)
class Sighting:
    """One beacon frame heard once."""

    #: Clock time (seconds, the engine's clock) when it was heard.
    t: float
    #: Canonical beacon id.
    beacon_id: str
    #: Received signal strength (dBm).
    rssi: int
    #: RSSI at 1 m the frame advertises, if any.
    advertised_rssi_at_1m: int | None = None
    #: Bluetooth address it came from (beacons may rotate it; the id is what counts).
    address: str = ""


class RssiFilter:
    """Smoothed RSSI of one beacon over a time window."""

    def __init__(
        self,
        *,
        window_s: float = 15.0,
        tau_s: float = 3.0,
        max_jump_db: float = 18.0,
        jump_confirm: int = 4,
        max_fall_db_s: float = 1.0,
    ) -> None:
        self.window_s = window_s
        self.max_fall_db_s = max_fall_db_s
        self.tau_s = tau_s
        self.max_jump_db = max_jump_db
        self.jump_confirm = jump_confirm
        self._samples: deque[tuple[float, float]] = deque(maxlen=MAX_SAMPLES)
        self._pending: list[tuple[float, float]] = []
        self._smoothed: float | None = None
        self._smoothed_t = 0.0
        #: Readings held back as implausible jumps and never confirmed.
        self.rejected_jumps = 0
        #: Readings outside the IQR fence at the last smoothing.
        self.fenced = 0
        #: Times a confirmed jump restarted the window.
        self.confirmed_jumps = 0

    def add(self, t: float, rssi: float) -> bool:
        """Offer one reading; returns whether it entered the window."""
        self._prune(t)
        if not self._samples:
            self._smoothed = None
        current = self._smoothed
        if current is not None and abs(rssi - current) > self.max_jump_db:
            self._pending.append((t, rssi))
            values = [r for _, r in self._pending]
            agree = max(values) - min(values) <= self.max_jump_db / 2
            if not agree:
                # Disagreeing outliers: keep only the newest as the start of a possible jump.
                self.rejected_jumps += len(self._pending) - 1
                self._pending = self._pending[-1:]
            elif len(self._pending) >= self.jump_confirm:
                self._samples.clear()
                self._samples.extend(self._pending)
                self._pending = []
                self.confirmed_jumps += 1
                self._smoothed = None  # a confirmed move: no rate limit from the old value
                self._update(t)
                return True
            return False
        self.rejected_jumps += len(self._pending)
        self._pending = []
        self._samples.append((t, rssi))
        self._update(t)
        return True

    def value(self, now: float) -> float | None:
        """Smoothed RSSI at ``now`` (None when the window is empty)."""
        self._prune(now)
        if not self._samples:
            self._smoothed = None
        else:
            self._update(now)
        return self._smoothed

    @property
    def last(self) -> float | None:
        """The smoothed value as of the last reading or query."""
        return self._smoothed

    def __len__(self) -> int:
        return len(self._samples)

    def _prune(self, now: float) -> None:
        horizon = now - self.window_s
        while self._samples and self._samples[0][0] < horizon:
            self._samples.popleft()
        self._pending = [(t, r) for t, r in self._pending if t >= horizon]

    def _update(self, now: float) -> None:
        raw = self._compute(now)
        previous = self._smoothed
        if previous is not None and raw < previous and now > self._smoothed_t:
            raw = max(raw, previous - self.max_fall_db_s * (now - self._smoothed_t))
        elif previous is not None and raw < previous:
            raw = previous  # same instant: no time to fall
        self._smoothed = raw
        self._smoothed_t = max(now, self._smoothed_t)

    def _compute(self, now: float) -> float:
        values = [r for _, r in self._samples]
        low, high = -math.inf, math.inf
        if len(values) >= 4:
            q1, _, q3 = statistics.quantiles(values, n=4)
            iqr = q3 - q1
            reach = max(1.5 * iqr, MIN_FENCE_DB)
            low, high = q1 - reach, q3 + reach
        total = weight_sum = 0.0
        fenced = 0
        for t, rssi in self._samples:
            if not low <= rssi <= high:
                fenced += 1
                continue
            weight = math.exp(-max(0.0, now - t) / self.tau_s)
            total += weight * rssi
            weight_sum += weight
        self.fenced = fenced
        if weight_sum <= 0.0:
            return statistics.median(values)
        return total / weight_sum


@dataclass
class BeaconTrack:
    """What is known about one beacon heard recently."""

    #: Canonical beacon id.
    beacon_id: str
    #: Its smoothing window.
    filter: RssiFilter
    #: Clock time of the last reading.
    last_heard: float
    #: Last raw RSSI.
    last_rssi: int
    #: RSSI at 1 m the beacon advertises (None if it does not).
    advertised_rssi_at_1m: int | None
    #: Last address it used.
    address: str
    #: Readings received.
    count: int = 0


class BeaconTable:
    """Every beacon heard recently; known beacons always, strangers up to a cap (LRU)."""

    def __init__(
        self,
        known: Iterable[str],
        *,
        max_tracked: int = 256,
        window_s: float = 15.0,
        tau_s: float = 3.0,
        max_jump_db: float = 18.0,
        jump_confirm: int = 4,
        max_fall_db_s: float = 1.0,
    ) -> None:
        self._known = frozenset(known)
        self._filter_args = {
            "window_s": window_s,
            "tau_s": tau_s,
            "max_jump_db": max_jump_db,
            "jump_confirm": jump_confirm,
            "max_fall_db_s": max_fall_db_s,
        }
        self.max_tracked = max_tracked
        self.known: dict[str, BeaconTrack] = {}
        self.strangers: OrderedDict[str, BeaconTrack] = OrderedDict()
        #: Strangers forgotten to stay under the cap.
        self.evicted = 0

    def observe(self, sighting: Sighting) -> BeaconTrack:
        """Record one reading."""
        is_known = sighting.beacon_id in self._known
        tracks = self.known if is_known else self.strangers
        track = tracks.get(sighting.beacon_id)
        if track is None:
            track = BeaconTrack(
                beacon_id=sighting.beacon_id,
                filter=RssiFilter(**self._filter_args),  # type: ignore[arg-type]
                last_heard=sighting.t,
                last_rssi=sighting.rssi,
                advertised_rssi_at_1m=sighting.advertised_rssi_at_1m,
                address=sighting.address,
            )
            tracks[sighting.beacon_id] = track
            if not is_known:
                while len(self.strangers) > self.max_tracked:
                    self.strangers.popitem(last=False)
                    self.evicted += 1
        elif not is_known:
            self.strangers.move_to_end(sighting.beacon_id)
        track.filter.add(sighting.t, sighting.rssi)
        track.last_heard = max(track.last_heard, sighting.t)
        track.last_rssi = sighting.rssi
        track.count += 1
        track.address = sighting.address
        if sighting.advertised_rssi_at_1m is not None:
            track.advertised_rssi_at_1m = sighting.advertised_rssi_at_1m
        return track

    def forget_silent(self, now: float, older_than_s: float) -> int:
        """Drop strangers unheard for ``older_than_s``; returns how many."""
        stale = [k for k, t in self.strangers.items() if now - t.last_heard > older_than_s]
        for key in stale:
            del self.strangers[key]
        return len(stale)

    def __len__(self) -> int:
        return len(self.known) + len(self.strangers)
