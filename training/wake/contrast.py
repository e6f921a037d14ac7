"""Train the wake word's contrast stage (:mod:`appliance.audio.wake_contrast`).

    nice -n 10 .venv/bin/python -m training.wake.contrast \\
        --out models/kws-open-claw-contrast/open-claw-contrast.npz

The clips are the keyword model's own kinds (:func:`training.wake.clips.make_clip`, the
training voices, seed 0) from :data:`FIRST_INDEX` on, past every count the keyword head was
trained with: the committed head has not heard them, so where its score rises on them is where it
would rise on a new voice's audio. Each clip gives a few windows of 1.2 s, ending where the
verifier would check them: for a near-miss or a sentence, where the keyword model's score first
rose over 0.01, where it peaked, one more place of the rise and one anywhere; for a positive, the
same places within the phrase's end -0.3 / +0.8 s (or just after its end when the score never
rose). Whisper tiny.en encodes each window once; the windows are cached under
``~/.cache/openclaw/kws-contrast``. Then a numpy fit (Adam, a third of every batch positives and a
third the "open claw + sound" near-misses), and a report on the validation speakers' clips.
About 26 minutes of two cores for the windows, a minute and a half for the fit (decision 0035);
the fit from cached windows writes the same bytes again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.engines.speech_embedding import SpeechEmbedding
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.wake_contrast import BINS, STATE_DIM, ContrastHead, window_bins
from appliance.audio.wake_model import HEAD_MODEL, KeywordHead
from appliance.models.manifest import load_manifest
from training.wake.clips import RETRIEVAL, ClipSpec, load_texts, make_clip
from training.wake.fit import Adam
from training.wake.windows import step_scores

Floats = npt.NDArray[np.float32]

#: Clips per kind (training voices). The "open claw + sound" near-misses and the one-breath ones
#: are the stage's reason to exist, so they are the most numerous negatives.
COUNTS = {
    "positive": 600, "positive-babble": 400, "positive-other": 600, "positive-other-babble": 200,
    "positive-fluent": 600, "near-miss-claw": 1000, "near-miss-claw-other": 600,
    "near-miss-fluent": 800, "near-miss": 400, "near-miss-other": 400, "near-miss-extra": 200,
    "sentence": 400, "sentence-other": 400, "sentence-babble": 200,
}  # fmt: skip
#: The near-miss kinds that share the whole phrase and add a sound ("open clause", "open claws
#: what ...", ...): each batch's hard third.
HARD_KINDS = ("near-miss-claw", "near-miss-claw-other", "near-miss-fluent")
#: First clip index of every kind: past the keyword head's training counts (at most 2,000).
FIRST_INDEX = 20_000
#: Seconds of audio per window (the verifier's window), and in samples.
WINDOW_S = 1.2
WINDOW = int(WINDOW_S * SAMPLE_RATE)
#: The keyword model's score at which a rise begins (the verifier's default arm).
RISE = 0.01
#: Seed of the validation speakers' clips (the benchmarks' validation seed).
VALIDATION_SEED = 1234
CACHE = Path.home() / ".cache" / "openclaw" / "kws-contrast"

_worker: dict[str, Any] = {}


def _init(models_dir: str) -> None:
    folder = Path(models_dir)
    features = SpeechEmbedding.from_manifest(folder)
    _worker["features"] = features
    _worker["head"] = KeywordHead.from_manifest(folder)
    _worker["whisper"] = WhisperRecogniser.from_manifest("whisper-tiny-en", folder, threads=1)
    _worker["silent"] = features.silent_embedding()
    _worker["texts"] = load_texts(RETRIEVAL)


def window_ends(
    trace: list[tuple[int, float]], positive: bool, phrase_end: int, length: int, rng: Any
) -> list[int]:
    """Where a clip's windows end (see the module docstring)."""
    if positive:
        lo, hi = phrase_end - 0.3 * SAMPLE_RATE, phrase_end + 0.8 * SAMPLE_RATE
        risen = [(at, s) for at, s in trace if s >= RISE and lo <= at <= hi]
    else:
        risen = [(at, s) for at, s in trace if s >= RISE]
    ends = []
    if risen:
        ends += [risen[0][0], max(risen, key=lambda t: t[1])[0], risen[rng.integers(len(risen))][0]]
    if positive and not risen:
        ends.append(int(phrase_end + rng.uniform(0.0, 0.25) * SAMPLE_RATE))
    if not positive:
        ends.append(int(rng.integers(WINDOW // 2, max(WINDOW // 2 + 1, length))))
    return sorted({min(length, int(a)) for a in ends})


def _clip_windows(job: tuple[str, int, bool, int]) -> list[tuple[np.ndarray, int, str, int]]:
    kind, index, validation, seed = job
    audio, _, end = make_clip(ClipSpec(kind, index, validation), _worker["texts"], seed)
    trace = step_scores(_worker["head"], _worker["features"].clip(audio), _worker["silent"])
    rng = np.random.default_rng([seed, index, len(kind)])
    positive = kind.startswith("positive")
    out = []
    for at in window_ends(trace, positive, end, len(audio), rng):
        states = _worker["whisper"].encoder_states(audio[max(0, at - WINDOW) : at])
        out.append((window_bins(states).astype(np.float16), int(positive), kind, index))
    return out


def make_windows(
    jobs: list[tuple[str, int, bool, int]], models_dir: Path, workers: int, key: str
) -> dict[str, np.ndarray]:
    """Every job's windows (encoded, binned), from the cache when made before."""
    path = CACHE / f"windows-{key}.npz"
    if path.is_file():
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    t0, rows = time.time(), []
    with Pool(workers, initializer=_init, initargs=(str(models_dir),)) as pool:
        for n, result in enumerate(pool.imap(_clip_windows, jobs, chunksize=8)):
            rows.extend(result)
            if n % 500 == 0:
                print(f"  {n}/{len(jobs)} clips ({time.time() - t0:.0f} s)", flush=True)
    data = {
        "x": np.stack([r[0] for r in rows]),
        "y": np.array([r[1] for r in rows], np.int8),
        "kind": np.array([r[2] for r in rows]),
        "index": np.array([r[3] for r in rows]),
    }
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial.npz")
    np.savez(partial, **data)
    partial.replace(path)  # whole or not at all
    print(f"  {len(rows)} windows of {len(jobs)} clips in {time.time() - t0:.0f} s")
    return data


def fit(
    x: npt.NDArray[np.float16],
    y: npt.NDArray[np.int8],
    hard: npt.NDArray[np.int64],
    *,
    proj: int = 32,
    hidden: int = 32,
    epochs: int = 15,
    seed: int = 0,
    lr: float = 1e-3,
    l2: float = 1e-4,
    dropout: float = 0.1,
    batch: int = 256,
) -> ContrastHead:
    """Adam on the cross-entropy; deterministic for a seed."""
    rng = np.random.default_rng(seed)
    raw = x.astype(np.float32)
    mean, std = raw.mean(axis=0), raw.std(axis=0) + 1e-3
    xs = ((raw - mean) / std).astype(np.float16)
    del raw
    p: dict[str, Floats] = {
        "proj": rng.normal(0, np.sqrt(2 / STATE_DIM), (STATE_DIM, proj)).astype(np.float32),
        "proj_bias": np.zeros(proj, np.float32),
        "hidden": rng.normal(0, np.sqrt(2 / (BINS * proj)), (BINS * proj, hidden)).astype(
            np.float32
        ),
        "hidden_bias": np.zeros(hidden, np.float32),
        "out": rng.normal(0, np.sqrt(1 / hidden), hidden).astype(np.float32),
        "out_bias": np.zeros(1, np.float32),
    }
    adam = Adam.for_params(p)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    third = batch // 3
    for epoch in range(epochs):
        t0, total, steps = time.time(), 0.0, len(y) // batch
        for _ in range(steps):
            pick = np.concatenate(
                [
                    rng.choice(pos, third),
                    rng.choice(hard, third),
                    rng.choice(neg, batch - 2 * third),
                ]
            )
            target = y[pick].astype(np.float32)
            xb = xs[pick].astype(np.float32)
            # Dropout and a little noise: the stage must not lean on one state dimension.
            xb = xb * (rng.random(xb.shape) > dropout) + rng.normal(0, 0.1, xb.shape).astype(
                np.float32
            )
            a = xb @ p["proj"] + p["proj_bias"]
            ha = np.maximum(a, 0.0)
            flat = ha.reshape(len(xb), -1)
            b = flat @ p["hidden"] + p["hidden_bias"]
            hb = np.maximum(b, 0.0)
            z = hb @ p["out"] + p["out_bias"]
            prob = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
            total += float(
                -np.mean(target * np.log(prob + 1e-7) + (1 - target) * np.log(1 - prob + 1e-7))
            )
            dz = ((prob - target) / len(pick)).astype(np.float32)
            db = np.outer(dz, p["out"]) * (b > 0)
            dha = (db @ p["hidden"].T).reshape(a.shape) * (a > 0)
            grads = {
                "out": hb.T @ dz + l2 * p["out"],
                "out_bias": np.array([dz.sum()], np.float32),
                "hidden": flat.T @ db + l2 * p["hidden"],
                "hidden_bias": db.sum(axis=0),
                "proj": np.einsum("ntd,ntp->dp", xb, dha) + l2 * p["proj"],
                "proj_bias": dha.sum(axis=(0, 1)),
            }
            adam.update(p, grads, lr * (0.5 if epoch >= epochs * 2 // 3 else 1.0))
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / max(1, steps):.4f} ({time.time() - t0:.0f} s)"
        )
    return ContrastHead(mean=mean, std=std, meta={}, **p)


def auc(pos: Floats, neg: Floats) -> float:
    """The probability that a positive scores over a negative (ties half)."""
    values = np.concatenate([pos, neg])
    ranks = values.argsort().argsort() + 1.0
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def validation_report(head: ContrastHead, data: dict[str, np.ndarray]) -> dict[str, float]:
    """Separation on the validation speakers' windows, printed and returned for the meta."""
    s = head.scores(data["x"].astype(np.float32))
    kind = data["kind"].astype(str)
    pos = s[data["y"] == 1]
    groups = {
        "claw_near_misses": np.isin(kind, HARD_KINDS),
        "other_near_misses": np.char.startswith(kind, "near-miss") & ~np.isin(kind, HARD_KINDS),
        "sentences": np.char.startswith(kind, "sentence"),
    }
    report = {f"auc_{name}": round(auc(pos, s[mask]), 4) for name, mask in groups.items()}
    print("validation speakers, positive windows against:", report)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument(
        "--out", type=Path, default=Path("models/kws-open-claw-contrast/open-claw-contrast.npz")
    )
    parser.add_argument("--models-dir", type=Path, default=Path("var/models"))
    parser.add_argument("--scale", type=float, default=1.0, help="times COUNTS (default 1)")
    parser.add_argument("--validation", type=int, default=30, help="validation clips per kind")
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--fit-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    KeywordHead.from_manifest(args.models_dir)  # verified before twenty minutes are spent on it
    head_id = load_manifest().get(HEAD_MODEL).file("head").sha256[:12]
    counts = {k: max(1, round(n * args.scale)) for k, n in COUNTS.items()}
    jobs = [(k, FIRST_INDEX + i, False, 0) for k, n in counts.items() for i in range(n)]
    key = hashlib.sha256(json.dumps([counts, FIRST_INDEX, head_id, 1]).encode()).hexdigest()[:12]
    print(f"training windows: {len(jobs)} clips (keyword head {head_id})")
    train = make_windows(jobs, args.models_dir, args.workers, key)
    val_jobs = [(k, i, True, VALIDATION_SEED) for k in COUNTS for i in range(args.validation)]
    val_key = hashlib.sha256(json.dumps([args.validation, head_id, 1, "v"]).encode()).hexdigest()[
        :12
    ]
    print(f"validation windows: {len(val_jobs)} clips")
    val = make_windows(val_jobs, args.models_dir, args.workers, val_key)
    hard = np.flatnonzero(np.isin(train["kind"].astype(str), HARD_KINDS))
    stage = fit(train["x"], train["y"], hard, epochs=args.epochs, seed=args.fit_seed)
    meta = {
        "counts": counts,
        "first_index": FIRST_INDEX,
        "keyword_head": head_id,
        "window_s": WINDOW_S,
        "epochs": args.epochs,
        "fit_seed": args.fit_seed,
        "windows": len(train["y"]),
        **validation_report(stage, val),
    }
    stage = ContrastHead(**{**stage.__dict__, "meta": meta})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    stage.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
