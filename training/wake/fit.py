"""Fitting the keyword head: one hidden ReLU layer by Adam, two rounds with hard-negative mining.

The windows are :mod:`training.wake.windows`'s; this module only fits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from appliance.audio.engines.speech_embedding import EMBED_DIM
from appliance.audio.wake_model import KeywordHead
from training.wake.windows import WindowSource


@dataclass
class Adam:
    """Adam's moment estimates for a dict of float32 parameters (betas 0.9 / 0.999, eps 1e-8)."""

    #: First moments, one array per parameter.
    m: dict[str, npt.NDArray[np.float32]]
    #: Second moments.
    v: dict[str, npt.NDArray[np.float32]]
    #: Updates made so far (the bias correction's exponent).
    step: int = 0

    @classmethod
    def for_params(cls, params: dict[str, npt.NDArray[np.float32]]) -> Adam:
        """Zero moments shaped like ``params``."""
        return cls(
            {k: np.zeros_like(p) for k, p in params.items()},
            {k: np.zeros_like(p) for k, p in params.items()},
        )

    def update(
        self,
        params: dict[str, npt.NDArray[np.float32]],
        grads: dict[str, npt.NDArray[np.float32]],
        rate: float,
    ) -> None:
        """One step on every parameter that has a gradient (in place, kept float32)."""
        self.step += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g**2
            m_hat = self.m[k] / (1 - 0.9**self.step)
            v_hat = self.v[k] / (1 - 0.999**self.step)
            params[k] = (params[k] - rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


def train_head(
    source: WindowSource,
    rows: npt.NDArray[np.int64],
    labels: npt.NDArray[np.int8],
    *,
    hidden: int,
    epochs: int,
    seed: int,
    hard_pool: npt.NDArray[np.int64] | None = None,
    pos_fraction: float = 0.25,
    hard_fraction: float = 0.25,
    batch: int = 512,
    lr: float = 1e-3,
    l2: float = 1e-4,
    dropout: float = 0.1,
) -> KeywordHead:
    """Adam on the cross-entropy, batches with a fixed share of positives; deterministic.

    ``hard_pool`` (negative windows, e.g. near-misses and what a first model scored high) gets a
    fixed share ``hard_fraction`` of every batch besides the uniformly drawn negatives.
    """
    rng = np.random.default_rng(seed)
    sample = source.gather(rng.choice(rows, size=min(len(rows), 20_000), replace=False))
    mean = sample.mean(axis=0)
    std = sample.std(axis=0) + 1e-3
    n_in = source.window * EMBED_DIM
    params = {
        "w1": rng.normal(0, np.sqrt(2 / n_in), (n_in, hidden)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": rng.normal(0, np.sqrt(1 / hidden), hidden).astype(np.float32),
        "b2": np.zeros(1, np.float32),
    }
    adam = Adam.for_params(params)
    pos, neg = rows[labels == 1], rows[labels == 0]
    steps_per_epoch = len(rows) // batch
    n_pos = int(batch * pos_fraction)
    n_hard = int(batch * hard_fraction) if hard_pool is not None and len(hard_pool) else 0
    for epoch in range(epochs):
        t0, total = time.time(), 0.0
        for _ in range(steps_per_epoch):
            hard = rng.choice(hard_pool, n_hard) if n_hard and hard_pool is not None else pos[:0]
            pick = np.concatenate(
                [rng.choice(pos, n_pos), hard, rng.choice(neg, batch - n_pos - n_hard)]
            )
            y = np.concatenate([np.ones(n_pos), np.zeros(batch - n_pos)]).astype(np.float32)
            x = (source.gather(pick) - mean) / std
            # Input dropout and a little noise: the head must not lean on one embedding dimension.
            x = x * (rng.random(x.shape) > dropout) + rng.normal(0, 0.1, x.shape).astype(np.float32)
            h_pre = x @ params["w1"] + params["b1"]
            h = np.maximum(h_pre, 0.0)
            z = h @ params["w2"] + params["b2"]
            p = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
            total += float(-np.mean(y * np.log(p + 1e-7) + (1 - y) * np.log(1 - p + 1e-7)))
            dz = (p - y) / batch
            grads = {
                "w2": h.T @ dz + l2 * params["w2"],
                "b2": np.array([dz.sum()], np.float32),
            }
            dh = np.outer(dz, params["w2"]) * (h_pre > 0)
            grads["w1"] = x.T @ dh + l2 * params["w1"]
            grads["b1"] = dh.sum(axis=0)
            adam.update(params, grads, lr * (0.5 if epoch >= epochs * 2 // 3 else 1.0))
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / max(1, steps_per_epoch):.4f} "
            f"({time.time() - t0:.0f} s)"
        )
    return KeywordHead(
        params["w1"], params["b1"], params["w2"], params["b2"], mean, std, {"window": source.window}
    )


def fit_two_rounds(
    source: WindowSource,
    rows: npt.NDArray[np.int64],
    labels: npt.NDArray[np.int8],
    near: npt.NDArray[np.int64],
    fit_options: dict[str, Any],
    rounds: int,
    hard_fraction: float,
) -> KeywordHead:
    """Round 1 with the near-misses as the hard pool; round 2 (from scratch, same seed) adds the
    negative windows round 1 scored highest (hard-negative mining)."""
    head = train_head(source, rows, labels, hard_pool=near, **fit_options)
    negatives = rows[labels == 0]
    neg_scores = np.concatenate(
        [
            head.scores(source.gather(negatives[i : i + 4096]))
            for i in range(0, len(negatives), 4096)
        ]
    )
    mined = negatives[neg_scores > 0.2]
    print(f"hard-negative mining: {len(mined)} of {len(negatives)} negative windows score > 0.2")
    if rounds == 2:
        head = train_head(
            source,
            rows,
            labels,
            hard_pool=np.concatenate([near, mined, mined]),
            hard_fraction=hard_fraction,
            **fit_options,
        )
    return head
