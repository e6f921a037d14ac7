"""Several keyword heads folded into one: the mean of their logits, as one wider head.

Heads fitted on the same clips with different seeds (initial weights, batch order, dropout) differ
by as much on held-out speakers as the candidate changes to the training do. Their mean logit is
a geometric mean of their odds. The members differ mostly in where a fixed threshold falls on one
shared trade-off curve, and the merge sits on that curve too, at its strict end: fewer near-misses
accepted, as many phrases heard as a single head (figures in decision 0031).

Each member standardises with its own mean and spread. Written in the first member's
standardisation, member ``i``'s hidden layer is ``x0 @ (s0 / si) w1_i + b1_i + ((m0 - mi) / si)
@ w1_i`` for ``x0 = (x - m0) / s0``, so the members' hidden layers sit side by side in one layer,
and the output weights, divided by the number of members, give the mean logit. The result is an
ordinary :class:`KeywordHead`: the same file format, loader and detector, ``k`` times the hidden
units (about 0.2 M multiply-adds per member every 80 ms).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from appliance.audio.wake_model import KeywordHead


def merge_heads(members: Sequence[KeywordHead], meta: dict[str, Any]) -> KeywordHead:
    """One head whose logit is the mean of the members' logits; ``meta`` becomes its meta."""
    if not members:
        raise ValueError("merge_heads needs at least one head")
    first = members[0]
    if any(m.w1.shape[0] != first.w1.shape[0] or m.window != first.window for m in members):
        raise ValueError("merge_heads: the heads look at different windows")
    mean0 = first.mean.astype(np.float64)
    std0 = first.std.astype(np.float64)
    w1, b1, w2 = [], [], []
    for m in members:
        member_w1 = m.w1.astype(np.float64)
        member_std = m.std.astype(np.float64)
        w1.append((std0 / member_std)[:, None] * member_w1)
        b1.append(m.b1.astype(np.float64) + ((mean0 - m.mean) / member_std) @ member_w1)
        w2.append(m.w2.astype(np.float64) / len(members))
    b2 = np.mean([float(np.asarray(m.b2).reshape(-1)[0]) for m in members])
    return KeywordHead(
        np.concatenate(w1, axis=1).astype(np.float32),
        np.concatenate(b1).astype(np.float32),
        np.concatenate(w2).astype(np.float32),
        np.array([b2], np.float32),
        first.mean.astype(np.float32),
        first.std.astype(np.float32),
        meta,
    )
