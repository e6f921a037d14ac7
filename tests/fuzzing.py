"""Budgets and shared strategies of the property-based fuzz tests (hypothesis).

Each fuzz target runs twice: a small, derandomised budget in the normal suite (the same inputs on every
run, so CI is reproducible), and a large random one under the ``fuzz`` marker, which the default run
deselects (``pytest -m fuzz``; ``OPENCLAW_FUZZ_EXAMPLES`` sets its budget per target, default 2000).
No example database is written: a finding is reproduced from the seed hypothesis prints.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Examples per target in the fuzz run.
FUZZ_EXAMPLES = int(os.environ.get("OPENCLAW_FUZZ_EXAMPLES", "2000"))

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def quick(examples: int) -> settings:
    """The normal suite's budget: ``examples`` fixed inputs, no deadline (a loaded machine is slow)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=_SLOW_OK,
    )


def long(share: float = 1.0) -> settings:
    """The fuzz run's budget: ``share`` of :data:`FUZZ_EXAMPLES` random inputs."""
    return settings(
        max_examples=max(1, int(FUZZ_EXAMPLES * share)),
        deadline=None,
        database=None,
        suppress_health_check=_SLOW_OK,
    )


#: Any text, lone surrogates and control characters included (what a hostile JSON body can carry).
any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)

#: JSON scalars, including the awkward ones: huge integers, NaN and infinities, odd strings.
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**4000),
    st.floats(allow_nan=True, allow_infinity=True),
    any_text,
)


def json_values(keys: list[str]) -> st.SearchStrategy[Any]:
    """Nested JSON values whose object keys are mostly the ones a route or message reads."""
    key = st.one_of(st.sampled_from(keys), any_text)
    return st.recursive(
        json_scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(key, inner, max_size=5)
        ),
        max_leaves=12,
    )


def deep_nesting() -> st.SearchStrategy[bytes]:
    """Arrays or objects nested far deeper than any parser's recursion allows."""
    return st.builds(
        lambda n, obj: (b'{"a":' * n + b"1" + b"}" * n) if obj else (b"[" * n + b"]" * n),
        st.integers(min_value=1, max_value=200_000),
        st.booleans(),
    )


def json_bytes(value: Any, ascii_only: bool) -> bytes:
    """``value`` as JSON the way a client might send it (lone surrogates passed through as bytes)."""
    return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
