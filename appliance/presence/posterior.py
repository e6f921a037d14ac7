"""An online forward filter (hidden Markov model) over "which room am I in".

The hidden state is one of the rooms or "no room" (``None``). Each step takes how long it lasted,
each state's evidence *rate* (log-likelihood per second, from the beacons) and the hazard of a room
change per second (tiny while the appliance stands still, large while the beacons say it moves).
Working in rates and hazards makes the filter independent of how often it is stepped: the monitor
evaluates every ``tick_s`` and after sightings, a replay flat out at other instants.

A sticky transition matrix is what removes flaps: while standing still, the posterior of a rival
room cannot sink below about ``hazard / evidence``, so a rival needs that many nats of evidence
before it can take over, and a person standing in front of a beacon for 20 s is not enough. Once
motion raises the hazard the floor rises with it and the same evidence switches in a second or two.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

State = str | None


def _logsumexp(values: Iterable[float]) -> float:
    items = list(values)
    top = max(items)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(v - top) for v in items))


class RoomPosterior:
    """Posterior probability of each room (and of no room), updated step by step."""

    def __init__(self, states: Iterable[State]) -> None:
        self.states: tuple[State, ...] = tuple(dict.fromkeys([*states, None]))
        uniform = -math.log(len(self.states))
        #: Log posterior per state (normalised).
        self.log_p: dict[State, float] = dict.fromkeys(self.states, uniform)

    def step(
        self, dt: float, evidence: Mapping[State, float], hazard: Mapping[State, float]
    ) -> None:
        """Advance by ``dt`` seconds.

        ``evidence`` maps states to log-likelihood rates (nats/s; a missing state gets 0, the same
        as "no room"); ``hazard`` maps each state to the rate (1/s) of arriving in it from any
        other state (a missing state gets 0: it cannot be entered in this step).
        """
        if dt <= 0.0:
            return
        into = {s: -math.expm1(-max(0.0, hazard.get(s, 0.0)) * dt) for s in self.states}
        total_into = sum(into.values())
        total = _logsumexp(self.log_p.values())
        predicted: dict[State, float] = {}
        for state in self.states:
            own = self.log_p[state]
            # Probability of staying: whatever is not spent moving to each other state.
            stay = max(1e-12, 1.0 - (total_into - into[state]))
            # Everyone else's mass, times the chance of moving here.
            others = _log_sub(total, own)
            move = math.log(into[state]) if into[state] > 0.0 else -math.inf
            predicted[state] = _logsumexp((own + math.log(stay), others + move))
        for state in self.states:
            predicted[state] += dt * evidence.get(state, 0.0)
        norm = _logsumexp(predicted.values())
        self.log_p = {state: value - norm for state, value in predicted.items()}

    def settle(self, state: State, floor_nats: float) -> None:
        """Make ``state`` at least ``floor_nats`` more likely than any other (log odds).

        For a decision that should be as firm as one held for a long time: every other state's
        log posterior is lowered to ``floor_nats`` under ``state``'s where it lies above that.
        """
        top = self.log_p[state]
        lowered = {s: v if s == state else min(v, top - floor_nats) for s, v in self.log_p.items()}
        norm = _logsumexp(lowered.values())
        self.log_p = {s: v - norm for s, v in lowered.items()}

    def probability(self, state: State) -> float:
        """Posterior probability of ``state``."""
        return math.exp(self.log_p.get(state, -math.inf))

    def best(self) -> tuple[State, float]:
        """The most probable state and its probability."""
        state = max(self.states, key=lambda s: self.log_p[s])
        return state, self.probability(state)

    def as_dict(self) -> dict[State, float]:
        """Every state's probability."""
        return {state: math.exp(value) for state, value in self.log_p.items()}


def _log_sub(total: float, part: float) -> float:
    """log(exp(total) - exp(part)) for total >= part; -inf when nothing is left."""
    if part == -math.inf:
        return total
    diff = part - total
    if diff >= 0.0:
        return -math.inf
    return total + math.log(-math.expm1(diff))
