"""The embedder's batching: vectors do not depend on which texts share a batch."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from appliance.index.embedder import Embedder

TEXTS = [
    "⌀12 H7",
    "R0.5",
    "Drawing A-1024 revision C, mounting bracket, material 6061-T6, scale 1:2, sheet 1 of 1, "
    "drawn 2024-03-02, tolerances unless stated ISO 2768-m, break all sharp edges 0.2 x 45°. " * 3,
    "M8 bolts: 25 N·m",
    "",
    "A long note. " * 200,  # past the model's max length: truncated, alone in its batch
]


def test_batched_vectors_equal_one_text_at_a_time(embedder: Embedder) -> None:
    batched = embedder.embed_passages(TEXTS)
    prefix = embedder.options.passage_prefix
    alone = np.stack([embedder._run([prefix + t])[0] for t in TEXTS])
    assert batched.shape == (len(TEXTS), embedder.dimensions)
    np.testing.assert_allclose(batched, alone, atol=1e-4)
    assert np.allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-4)


def test_a_small_token_budget_splits_batches_without_changing_vectors(embedder: Embedder) -> None:
    reference = embedder.embed_passages(TEXTS)
    calls: list[int] = []
    original = embedder._forward

    def counting(ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        calls.append(len(ids))
        return original(ids, mask)

    embedder._forward = counting  # type: ignore[method-assign]
    budget, embedder.batch_tokens = embedder.batch_tokens, 16
    try:
        split = embedder.embed_passages(TEXTS)
    finally:
        embedder.batch_tokens = budget
        del embedder._forward
    assert len(calls) > 1 and sum(calls) == len(TEXTS)
    np.testing.assert_allclose(split, reference, atol=1e-4)


def test_no_texts_no_vectors(embedder: Embedder) -> None:
    assert embedder.embed_passages([]).shape == (0, embedder.dimensions)


def test_a_query_session_of_its_own_gives_the_same_vectors(embedder: Embedder) -> None:
    own = Embedder.from_manifest(
        "all-minilm-l6-v2-int8", Path("/nonexistent-models-dir"), threads=2, query_threads=1
    )
    assert own._query_session is not own._session
    for text in TEXTS[:4]:
        np.testing.assert_allclose(own.embed_query(text), embedder.embed_query(text), atol=1e-5)
