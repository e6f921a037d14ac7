"""Keyword heads merged into one: the mean of their logits, an ordinary head file."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from appliance.audio.engines.speech_embedding import SpeechEmbedding
from appliance.audio.wake_model import KeywordHead, KeywordModelWakeDetector
from training.wake.head_ensemble import merge_heads

from .conftest import SynthFn, samples_of

NO_MODELS_DIR = Path("/nonexistent-models-dir")


@pytest.fixture(scope="module")
def committed() -> KeywordHead:
    return KeywordHead.from_manifest(NO_MODELS_DIR)


def logit(head: KeywordHead, x: np.ndarray) -> np.ndarray:
    """The head's pre-sigmoid output, computed in float64 from its own standardisation."""
    z = (x - head.mean.astype(np.float64)) / head.std.astype(np.float64)
    h = np.maximum(z @ head.w1.astype(np.float64) + head.b1, 0.0)
    return np.asarray(h @ head.w2.astype(np.float64) + float(head.b2.reshape(-1)[0]))


def other_member(head: KeywordHead, seed: int) -> KeywordHead:
    """A head of the same shape with other weights and its own mean and spread of the features."""
    rng = np.random.default_rng(seed)
    return dataclasses.replace(
        head,
        w1=(head.w1 * rng.uniform(0.5, 1.5, head.w1.shape)).astype(np.float32),
        b1=(head.b1 + rng.normal(0, 0.1, head.b1.shape)).astype(np.float32),
        w2=(head.w2[rng.permutation(len(head.w2))]).astype(np.float32),
        b2=(head.b2 + 0.5).astype(np.float32),
        mean=(head.mean + rng.normal(0, 0.2, head.mean.shape) * head.std).astype(np.float32),
        std=(head.std * rng.uniform(0.7, 1.4, head.std.shape)).astype(np.float32),
    )


def random_head(like: KeywordHead, hidden: int, seed: int) -> KeywordHead:
    """A head with ``like``'s window and feature statistics and random weights scaled so that
    its logits on typical windows spread over a few units (a trained head is nearly sure of
    almost every random window, so its members would all agree on them)."""
    rng = np.random.default_rng(seed)
    dims = like.w1.shape[0]
    return dataclasses.replace(
        like,
        w1=rng.normal(0, 1 / np.sqrt(dims), (dims, hidden)).astype(np.float32),
        b1=np.zeros(hidden, np.float32),
        w2=rng.normal(0, 2 / np.sqrt(hidden), hidden).astype(np.float32),
        b2=np.zeros(1, np.float32),
    )


def test_the_merged_head_scores_the_mean_logit_of_its_members(committed: KeywordHead) -> None:
    base = random_head(committed, 64, seed=0)
    members = [base, other_member(base, 1), other_member(base, 2)]
    merged = merge_heads(members, {"window": committed.window})
    rng = np.random.default_rng(0)
    x = base.mean + base.std * rng.normal(0, 1.5, (200, len(base.mean)))
    mean_logit = np.mean([logit(m, x) for m in members], axis=0)
    expected = 1 / (1 + np.exp(-np.clip(mean_logit, -30, 30)))
    assert merged.w1.shape == (base.w1.shape[0], 3 * base.w1.shape[1])
    np.testing.assert_allclose(merged.scores(x.astype(np.float32)), expected, atol=2e-4)
    # And it is not just one member's score: the members disagree on these windows.
    spread = np.ptp([1 / (1 + np.exp(-logit(m, x))) for m in members], axis=0)
    assert spread.max() > 0.1


def test_a_merged_head_is_an_ordinary_head_file_and_wakes_like_its_member(
    committed: KeywordHead, synth: SynthFn, tmp_path: Path
) -> None:
    """Two copies of the committed head, merged, saved and loaded: the same detection."""
    merged = merge_heads([committed, committed], dict(committed.meta))
    merged.save(tmp_path / "merged.npz")
    loaded = KeywordHead.load(tmp_path / "merged.npz")
    assert loaded.w1.shape[1] == 2 * committed.w1.shape[1]
    features = SpeechEmbedding.from_manifest(NO_MODELS_DIR)
    audio = samples_of(synth("open claw", voice="en-us+m3"))
    found = []
    for head in (committed, loaded):
        detector = KeywordModelWakeDetector(features, head, threshold=0.5)
        detector.trace = []
        for i in range(0, len(audio), 480):
            detector.feed(audio[i : i + 480], i + len(audio[i : i + 480]))
        found.append(np.array([score for _, score in detector.trace]))
    assert found[0].max() > 0.5
    np.testing.assert_allclose(found[1], found[0], atol=1e-4)


def test_heads_of_other_windows_or_none_at_all_are_refused(committed: KeywordHead) -> None:
    short = dataclasses.replace(
        committed,
        w1=committed.w1[: 8 * 96],
        mean=committed.mean[: 8 * 96],
        std=committed.std[: 8 * 96],
        meta={**committed.meta, "window": 8},
    )
    with pytest.raises(ValueError, match="different windows"):
        merge_heads([committed, short], {"window": committed.window})
    with pytest.raises(ValueError, match="at least one"):
        merge_heads([], {"window": committed.window})
