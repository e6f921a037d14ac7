"""The keyword head's training windows: which embedding rows a window ends on and its label.

The clips' embeddings are one table (:class:`Dataset`); a window is the ``window`` embeddings ending
at a row, with silence before the clip's start. The fitting (:mod:`training.wake.fit`), the head's
validation (:mod:`training.wake.train`), the contrast stage's training and the wake benchmarks all
read windows the same way through this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.wake_model import KeywordHead

Floats = npt.NDArray[np.float32]


@dataclass
class Dataset:
    """Embeddings of every clip, concatenated, with what each clip is."""

    #: All embeddings ``[N, 96]``.
    embeddings: Floats
    #: Per clip: first row in ``embeddings``.
    offsets: npt.NDArray[np.int64]
    #: Per clip: number of rows.
    lengths: npt.NDArray[np.int64]
    #: Per clip: phrase start/end sample (-1 for negatives).
    phrase: npt.NDArray[np.int64]
    #: Per clip: index in :data:`training.wake.clips.KINDS`.
    kinds: npt.NDArray[np.int64]
    #: Per clip: validation clip or not.
    validation: npt.NDArray[np.bool_]
    #: Seconds of audio per clip.
    seconds: Floats


#: A window is positive when the phrase ended between these many seconds before its end: not
#: earlier, because "open claw" must have been followed by something that is not the "s" of
#: "open clause" or "open claws" before the model may say so (windows closer to the end are
#: ambiguous and left out)...
POSITIVE_FROM_S, POSITIVE_TO_S = 0.10, 0.36
#: ... and it is negative when it ends this long before the phrase ends (the phrase unfinished).
NEGATIVE_BEFORE_S = 0.2
#: After this long past the phrase end the phrase is out of view: negative again.
NEGATIVE_AFTER_S = 2.0


def embedding_end(j: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Clip sample just past the audio the ``j``-th embedding saw (as EmbeddingStream reports)."""
    return 1280 * j + 1632


def step_scores(head: KeywordHead, embeddings: Floats, silent: Floats) -> list[tuple[int, float]]:
    """(end sample, score) of every 80 ms step of a clip's embeddings, silence before its start."""
    padded = np.concatenate([np.tile(silent, (head.window - 1, 1)), embeddings])
    idx = np.arange(len(embeddings))[:, None] + np.arange(head.window)[None, :]
    values = head.scores(padded[idx])
    ends = embedding_end(np.arange(len(embeddings)))
    return [(int(e), float(s)) for e, s in zip(ends, values, strict=True)]


def windows(
    data: Dataset,
    clips: npt.NDArray[np.int64],
    positive: tuple[float, float] = (POSITIVE_FROM_S, POSITIVE_TO_S),
) -> tuple[Any, Any, Any]:
    """(row index of each window's last embedding, label 0/1, clip) for the given clips.

    ``positive``: seconds after the phrase end between which a window ending is positive.
    """
    rows, labels, owner = [], [], []
    for c in clips:
        j = np.arange(data.lengths[c])
        label = np.zeros(len(j), dtype=np.int8)
        start, end = data.phrase[c]
        if start >= 0:
            since = (embedding_end(j) - end) / SAMPLE_RATE
            label[:] = -1
            label[since < -NEGATIVE_BEFORE_S] = 0
            label[(since >= positive[0]) & (since <= positive[1])] = 1
            label[since > NEGATIVE_AFTER_S] = 0
        keep = label >= 0
        rows.append(data.offsets[c] + j[keep])
        labels.append(label[keep])
        owner.append(np.full(int(keep.sum()), c))
    return np.concatenate(rows), np.concatenate(labels), np.concatenate(owner)


class WindowSource:
    """Gathers ``[n, window * 96]`` inputs from the embedding table (silence before a clip's start)."""

    def __init__(self, data: Dataset, silent: Floats, window: int) -> None:
        self.window = window
        self.table = np.concatenate([data.embeddings, silent[None]]).astype(np.float32)
        self.silent_row = len(self.table) - 1
        self.clip_start = np.zeros(len(data.embeddings), dtype=np.int64)
        for off, n in zip(data.offsets, data.lengths, strict=True):
            self.clip_start[off : off + n] = off

    def gather(self, rows: npt.NDArray[np.int64]) -> Floats:
        """Flattened windows ending at ``rows``."""
        idx = rows[:, None] - np.arange(self.window - 1, -1, -1)[None, :]
        idx = np.where(idx >= self.clip_start[rows][:, None], idx, self.silent_row)
        return self.table[idx].reshape(len(rows), -1)


def clip_scores(
    head: KeywordHead, source: WindowSource, data: Dataset, c: int
) -> tuple[Floats, npt.NDArray[np.int64]]:
    """The score of every embedding step of one clip, and each step's end sample."""
    j = np.arange(data.lengths[c])
    scores = head.scores(source.gather(data.offsets[c] + j))
    return scores, embedding_end(j)


def evaluate(
    head: KeywordHead, source: WindowSource, data: Dataset, clips: npt.NDArray[np.int64]
) -> tuple[list[float], list[float], list[float], float]:
    """Per positive: best score near the phrase end and the lag of each threshold crossing;
    per negative: the best score; and the hours of negative audio."""
    pos_best, neg_best, lags, hours = [], [], [], 0.0
    for c in clips:
        scores, ends = clip_scores(head, source, data, c)
        start, end = data.phrase[c]
        if start >= 0:
            since = (ends - end) / SAMPLE_RATE
            near = (since >= -0.3) & (since <= 1.0)
            pos_best.append(float(scores[near].max()) if near.any() else 0.0)
            over = np.nonzero(near & (scores >= 0.5))[0]
            if len(over):
                lags.append(float(since[over[0]]))
            early = since < -NEGATIVE_BEFORE_S - 0.3
            neg_best.append(float(scores[early].max()) if early.any() else 0.0)
        else:
            neg_best.append(float(scores.max()) if len(scores) else 0.0)
            hours += float(data.seconds[c]) / 3600
    return pos_best, neg_best, lags, hours
