"""A trained keyword model for the wake phrase: speech embeddings → a small numpy MLP head.

The feature extractor (:mod:`appliance.audio.engines.speech_embedding`) turns the stream into a 96-d
embedding every 80 ms. The head looks at the last ``window`` embeddings (16: about 2 s of audio),
flattened and standardised, through one hidden ReLU layer to a sigmoid score: "the wake phrase has
just ended". The head is trained by ``python -m training.wake.train`` on synthetic speech only
(docs/decisions/0031-audio-kws-wake-model.md) and shipped as a small ``.npz`` in ``models/``, described
in the manifest with its sha256 and verified before it is loaded.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from appliance.audio.base import SAMPLE_RATE, Samples, WakeDetection
from appliance.audio.engines.speech_embedding import (
    EMBED_DIM,
    EmbeddingStream,
    SpeechEmbedding,
)
from appliance.audio.errors import SpeechModelError
from appliance.audio.head_file import load_arrays, save_arrays
from appliance.audio.vad import FRAME
from appliance.errors import ModelError
from appliance.models.manifest import REPO_MANIFEST, ModelSpec, load_manifest
from appliance.models.store import check_file, locate

#: 10 ms frames of level history kept to place the end of the phrase.
LEVEL_FRAMES = 200
#: A pause that can separate the phrase from the question: this many quiet 10 ms frames...
PAUSE_FRAMES = 4
#: ... at least this far below the loudest frame of the last two seconds.
PAUSE_DB = 15.0
#: How far back from the first estimate a pause may be looked for, in seconds.
PAUSE_LOOKBACK_S = 0.45
#: The head's score rises this long after the phrase ends at most (its positives are labelled up
#: to 360 ms after the end), so the pause that follows the phrase starts within this of the rise.
MAX_RISE_LAG_S = 0.4

#: Manifest name of the trained head for "open claw".
HEAD_MODEL = "kws-open-claw"
#: The repository's models folder: the committed head lives in ``models/<model>/<path>``.
REPO_MODELS = REPO_MANIFEST.parent

Floats = npt.NDArray[np.float32]
_ARRAYS = ("w1", "b1", "w2", "b2", "mean", "std")


def locate_head(spec: ModelSpec, models_dir: Path, trainer: str = "training.wake.train") -> Path:
    """The verified head file: ``models_dir`` or a carrier first, then the repository's ``models/``.

    The head is small and trained here, so it is committed rather than carried by a wheel; the copy
    in the repository is checked against the same manifest sha256 as any other model file.
    ``trainer`` is the module a changed file's error tells the user to retrain it with.
    """
    try:
        return locate(spec, "head", models_dir)
    except ModelError as err:
        if err.code != "model_missing":
            raise
        f = spec.file("head")
        committed = REPO_MODELS / spec.name / f.path
        if not committed.is_file():
            raise
        state = check_file(committed, f)
        if state != "ok":
            raise ModelError(
                f"model {spec.name}: file {f.path} fails its manifest check ({state}); refusing "
                f"to load it. Retrain it with python -m {trainer} or restore it",
                code="model_checksum",
            ) from None
        return committed


@dataclass(frozen=True)
class KeywordHead:
    """The trained classifier: standardise, one hidden ReLU layer, sigmoid."""

    #: Hidden layer weights ``[window * 96, hidden]``.
    w1: Floats
    #: Hidden layer bias ``[hidden]``.
    b1: Floats
    #: Output weights ``[hidden]``.
    w2: Floats
    #: Output bias (a scalar array).
    b2: Floats
    #: Feature means ``[window * 96]`` (training set).
    mean: Floats
    #: Feature standard deviations ``[window * 96]``.
    std: Floats
    #: Training facts: window, phrase, lag_s, suggested threshold, data summary.
    meta: dict[str, Any]

    @property
    def window(self) -> int:
        """Embeddings the head looks at."""
        return int(self.meta["window"])

    @property
    def lag_s(self) -> float:
        """Median time from the end of the phrase to the first score over ``lag_level`` (training)."""
        return float(self.meta.get("lag_s", 0.16))

    @property
    def lag_level(self) -> float:
        """The score level :attr:`lag_s` was measured at."""
        return float(self.meta.get("lag_level", 0.5))

    def scores(self, windows: Floats) -> Floats:
        """Scores 0..1 of windows ``[n, window, 96]`` (or already flat ``[n, window * 96]``)."""
        x = windows.reshape(len(windows), -1)
        h = np.maximum((x - self.mean) / self.std @ self.w1 + self.b1, 0.0)
        z = h @ self.w2 + self.b2
        return (1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))).astype(np.float32)

    def save(self, path: Path) -> None:
        """Write the head (float32 arrays and the meta as a JSON string; no pickles)."""
        save_arrays(path, {name: getattr(self, name) for name in _ARRAYS}, self.meta)

    @classmethod
    def load(cls, path: Path) -> KeywordHead:
        """Read a head file; a SpeechModelError when it is not one."""
        arrays, meta = load_arrays(path, _ARRAYS, "head")
        window = int(meta.get("window", 0))
        n_in = window * EMBED_DIM
        hidden = arrays["b1"].shape
        if (
            window <= 0
            or arrays["w1"].shape != (n_in, *hidden)
            or arrays["w2"].shape != hidden
            or arrays["mean"].shape != (n_in,)
            or arrays["std"].shape != (n_in,)
        ):
            raise SpeechModelError(f"wake head {path.name}: arrays do not fit together")
        return cls(meta=meta, **arrays)

    @classmethod
    def from_manifest(cls, models_dir: Path, name: str = HEAD_MODEL) -> KeywordHead:
        """The verified head named in the manifest."""
        return cls.load(locate_head(load_manifest().get(name), models_dir))


class KeywordModelWakeDetector:
    """The trained keyword model on the stream: a score every 80 ms, a detection over threshold.

    Cheap enough to run on every chunk (no VAD gate is needed: CPU real-time factor ~0.02 with one
    thread). A detection fires on the first score at or over ``threshold``; the question starts
    where the phrase ended, estimated as the detection point minus the head's typical lag, so
    "open claw what is ..." said in one breath is captured from "what". For ``refractory_s`` after a
    detection nothing fires again (the same phrase stays in view for up to two seconds).
    """

    name = "kws"

    def __init__(
        self,
        features: SpeechEmbedding,
        head: KeywordHead,
        phrase: str = "open claw",
        *,
        threshold: float = 0.5,
        refractory_s: float = 2.0,
    ) -> None:
        self.features = features
        self.head = head
        self.phrase = phrase
        self.threshold = threshold
        self._refractory = int(refractory_s * SAMPLE_RATE)
        self._stream = EmbeddingStream(features)
        self._window: deque[Floats] = deque(maxlen=head.window)
        self._quiet_until = -1
        self._rise_at = -1
        self._started = False
        #: The last score computed (diagnostics and the bench's threshold sweep).
        self.last_score = 0.0
        #: Highest score since the last reset.
        self.max_score = 0.0
        #: When a list: every (stream sample, score) computed is appended (the bench's sweep).
        self.trace: list[tuple[int, float]] | None = None
        self.reset()

    def reset(self) -> None:
        """Forget the stream: the next chunk starts from silence."""
        self._started = False
        self._window.clear()
        silent = self._silent_embedding()
        for _ in range(self.head.window):
            self._window.append(silent)
        self._quiet_until = -1
        self._rise_at = -1
        self._last_end = -1
        self._levels = _Levels()
        self.last_score = 0.0
        self.max_score = 0.0

    @property
    def refractory(self) -> bool:
        """Whether the detector cannot fire now: the last score fell in (or made) a detection's
        refractory time."""
        return 0 <= self._last_end <= self._quiet_until

    def _silent_embedding(self) -> Floats:
        if not hasattr(self, "_silent"):
            frames = np.tile(self.features.silent_frame, (76, 1))
            self._silent = self.features.embed(frames[None])[0]
        return self._silent

    def feed(self, chunk: Samples, end_sample: int) -> WakeDetection | None:
        """Feed a chunk; a detection when the score reaches the threshold."""
        if not self._started:
            self._stream.reset(end_sample - len(chunk))
            self._started = True
        self._levels.feed(chunk, end_sample)
        embeddings, ends = self._stream.feed(chunk)
        detection: WakeDetection | None = None
        for embedding, end in zip(embeddings, ends, strict=True):
            self._window.append(embedding)
            score = float(self.head.scores(np.stack(self._window)[None])[0])
            self.last_score = score
            if self.trace is not None:
                self.trace.append((end, score))
            # Where the score rose over the lag level: the phrase ended about lag_s before that,
            # whatever the threshold (a higher threshold is crossed later in the same rise).
            if score < self.head.lag_level:
                self._rise_at = -1
            elif self._rise_at < 0:
                self._rise_at = end
            self._last_end = end
            if end <= self._quiet_until:
                continue
            self.max_score = max(self.max_score, score)
            if score >= self.threshold and detection is None:
                detection = self._detection(score, end)
                self._quiet_until = end + self._refractory
        return detection

    def _detection(self, score: float, at: int) -> WakeDetection:
        rise = self._rise_at if 0 <= self._rise_at <= at else at
        estimate = max(0, rise - int(self.head.lag_s * SAMPLE_RATE))
        # The estimate is only as good as the head's lag, which varies either way. A pause that
        # began shortly before the rise is the one after the phrase ("open claw, what ..."), and
        # the question starts where it ends; without one, the pause before a late estimate.
        phrase_end = self._levels.phrase_end(estimate, rise)
        phrase_s = float(self.head.meta.get("phrase_s", 0.8))
        return WakeDetection(
            phrase=self.phrase,
            score=score,
            detector=self.name,
            start_sample=max(0, phrase_end - int(phrase_s * SAMPLE_RATE)),
            end_sample=phrase_end,
            detected_at_sample=at,
            monotonic=time.monotonic(),
            reason=f"{self.name} {score:.3f} >= {self.threshold:g}",
        )


class _Levels:
    """Levels (dB) of the last :data:`LEVEL_FRAMES` 10 ms frames of the stream."""

    def __init__(self) -> None:
        self._db: deque[float] = deque(maxlen=LEVEL_FRAMES)
        self._end = 0  # stream index just past the last whole frame
        self._rest = np.zeros(0, dtype=np.int16)

    def feed(self, chunk: Samples, end_sample: int) -> None:
        audio = np.concatenate([self._rest, chunk])
        n = len(audio) // FRAME
        if n:
            x = audio[: n * FRAME].astype(np.float64).reshape(n, FRAME)
            self._db.extend((10 * np.log10(np.mean(x * x, axis=1) + 1.0)).tolist())
        self._rest = audio[n * FRAME :]
        self._end = end_sample - len(self._rest)

    def phrase_end(self, estimate: int, rise: int) -> int:
        """Where the question starts, given the lag-based ``estimate`` and the score's ``rise``.

        ``estimate`` itself when it falls in a pause (the phrase said alone) or outside the
        history; else inside the pause that began within :data:`MAX_RISE_LAG_S` before ``rise``
        (the one nearest ``estimate``): the head often fires in that pause, before the question
        has begun, so its end may not be known yet. Without such a pause (the model decided late,
        inside the question), the end of a pause within the lookback before ``estimate``.
        """
        db = np.array(self._db)
        if len(db) == 0:
            return estimate
        first = self._end - len(db) * FRAME  # stream index of db[0]
        quiet = db < db.max() - PAUSE_DB
        at = (estimate - first) // FRAME
        if not 0 <= at < len(db) or quiet[at]:
            return estimate
        after = self._pause_after_phrase(quiet, at, (rise - first) // FRAME)
        if after >= 0:
            return first + after * FRAME
        before = self._pause_before(quiet, at)
        return first + before * FRAME if before >= 0 else estimate

    @staticmethod
    def _pause_after_phrase(quiet: np.ndarray, at: int, rise: int) -> int:
        """Frame one into the pause nearest ``at`` that began within the rise lag; -1 if none."""
        earliest = rise - int(MAX_RISE_LAG_S * SAMPLE_RATE) // FRAME
        best, best_distance = -1, len(quiet) + 1
        i = max(0, earliest)
        while i <= min(rise, len(quiet) - 1):
            if not quiet[i] or (i > 0 and quiet[i - 1]):
                i += 1
                continue
            end = i
            while end < len(quiet) and quiet[end]:
                end += 1
            if end - i >= PAUSE_FRAMES and abs(i - at) < best_distance:
                # One frame into the pause: the last of "claw" stays out of the question.
                best, best_distance = i + 1, abs(i - at)
            i = end
        return best

    @staticmethod
    def _pause_before(quiet: np.ndarray, at: int) -> int:
        """Last frame of a pause within the lookback before ``at``; -1 if none."""
        lookback = int(PAUSE_LOOKBACK_S * SAMPLE_RATE) // FRAME
        run_end = -1
        for i in range(at - 1, max(-1, at - lookback - 1), -1):
            if quiet[i] and run_end < 0:
                run_end = i
            elif not quiet[i] and run_end >= 0:
                if run_end - i >= PAUSE_FRAMES:
                    # The question starts where the pause ends; one frame of it is kept.
                    return run_end
                run_end = -1
        return -1
