"""The forward filter over rooms: normalised, sticky at a standstill, quick once moving."""

from __future__ import annotations

import math

import pytest

from appliance.presence.posterior import RoomPosterior

STILL = 1e-40
MOVING = 0.5


def settle(filt: RoomPosterior, seconds: float, evidence: dict[str | None, float]) -> None:
    hazard: dict[str | None, float] = dict.fromkeys(filt.states, STILL)
    for _ in range(int(seconds / 0.5)):
        filt.step(0.5, evidence, hazard)


def test_starts_uniform_and_stays_normalised() -> None:
    filt = RoomPosterior(["shop", "lab"])
    assert filt.states == ("shop", "lab", None)
    assert filt.probability("shop") == pytest.approx(1 / 3)
    settle(filt, 10.0, {"shop": 1.0, "lab": -0.5})
    assert sum(filt.as_dict().values()) == pytest.approx(1.0)
    assert filt.best()[0] == "shop" and filt.best()[1] > 0.999


def test_a_zero_step_changes_nothing() -> None:
    filt = RoomPosterior(["shop", "lab"])
    before = dict(filt.log_p)
    filt.step(0.0, {"shop": 3.0}, {"shop": MOVING})
    assert filt.log_p == before


def test_sticky_at_a_standstill_quick_when_moving() -> None:
    filt = RoomPosterior(["shop", "lab"])
    settle(filt, 120.0, {"shop": 0.0, "lab": -3.0, None: -3.0})
    floor = filt.log_p["lab"]
    assert floor < -80  # the rival sank to the floor set by the tiny hazard
    # 20 s of the strongest evidence for the lab at a standstill: not enough to switch.
    settle(filt, 20.0, {"shop": 0.0, "lab": 3.0, None: -3.0})
    assert filt.best()[0] == "shop"
    # The same evidence with the hazard raised by a move: the lab wins within seconds.
    filt2 = RoomPosterior(["shop", "lab"])
    settle(filt2, 120.0, {"shop": 0.0, "lab": -3.0, None: -3.0})
    hazard: dict[str | None, float] = {"shop": STILL, "lab": MOVING, None: STILL}
    seconds = 0.0
    while filt2.probability("lab") < 0.9:
        filt2.step(0.5, {"shop": 0.0, "lab": 3.0, None: -3.0}, hazard)
        seconds += 0.5
        assert seconds < 10.0
    assert seconds <= 3.0


def test_step_length_does_not_change_the_outcome_much() -> None:
    # Rates and hazards are per second: stepping at 0.1 s or 0.5 s reaches the same place.
    results = []
    for dt in (0.1, 0.5):
        filt = RoomPosterior(["shop", "lab"])
        for _ in range(int(30 / dt)):
            filt.step(dt, {"shop": 0.0, "lab": 0.4, None: -1.0}, {"lab": 0.01, "shop": 0.01})
        results.append(filt.log_p["lab"] - filt.log_p["shop"])
    assert results[0] == pytest.approx(results[1], abs=1.0)
    assert all(math.isfinite(r) for r in results)


def test_settle_makes_a_young_decision_as_firm_as_an_old_one() -> None:
    young = RoomPosterior(["shop", "lab"])
    settle(young, 2.0, {"shop": 3.0, "lab": 1.0, None: -3.0})  # two seconds of evidence
    assert young.best()[0] == "shop" and young.log_p["lab"] > -10.0
    young.settle("shop", -math.log(STILL))
    assert sum(young.as_dict().values()) == pytest.approx(1.0)
    assert young.best()[0] == "shop"
    assert young.log_p["lab"] <= young.log_p["shop"] + math.log(STILL) + 1e-9
    # Now 20 s of the strongest evidence for the lab at a standstill no longer switches (it did
    # from the young posterior).
    fresh = RoomPosterior(["shop", "lab"])
    settle(fresh, 2.0, {"shop": 3.0, "lab": 1.0, None: -3.0})
    for filt, expected in ((young, "shop"), (fresh, "lab")):
        settle(filt, 20.0, {"shop": 0.0, "lab": 3.0, None: -3.0})
        assert filt.best()[0] == expected


def test_settle_never_raises_a_state() -> None:
    filt = RoomPosterior(["shop", "lab"])
    settle(filt, 120.0, {"shop": 0.0, "lab": -3.0, None: -3.0})
    before = filt.log_p["lab"] - filt.log_p["shop"]
    filt.settle("shop", 5.0)  # already far more than 5 nats down: unchanged
    assert filt.log_p["lab"] - filt.log_p["shop"] == pytest.approx(before)
