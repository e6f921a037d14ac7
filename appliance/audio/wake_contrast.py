"""The contrast stage: a small classifier over whisper's encoder that tells "open claw" from its rivals.

Whisper's phrase posterior (:mod:`appliance.audio.verify`) removes ordinary speech but not the
near-misses: tiny.en gives "open clause" and a true "open claw" in noise the same probability
(decision 0032). The keyword model tells them apart only on voices it was fitted on. This stage is
a third opinion, trained here (``python -m training.wake.contrast``) on the same
synthetic clips as the keyword model, but over whisper tiny.en's encoder states of the window the
verifier checks: an encoder trained on 680,000 hours of people, whose states are about sounds more
than about voices (decision 0035).

The input is the last :data:`WINDOW_FRAMES` encoder frames (20 ms each; 1.2 s), averaged in pairs
(:data:`BINS` bins of 40 ms) and standardised. One projection of 384 → ``proj`` is shared by every
bin (a sound is a sound wherever it falls in the window), then a hidden ReLU layer over the bins in
order, then a sigmoid. numpy only, shipped as a small ``.npz`` verified against the manifest like the
keyword head.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from appliance.audio.errors import SpeechModelError
from appliance.audio.head_file import load_arrays, save_arrays
from appliance.audio.wake_model import locate_head
from appliance.models.manifest import load_manifest

if TYPE_CHECKING:
    from appliance.audio.base import Samples
    from appliance.audio.engines.whisper import WhisperRecogniser

#: Manifest name of the contrast stage for "open claw".
CONTRAST_MODEL = "kws-open-claw-contrast"
#: Whisper's encoder frames the stage looks at (20 ms each: 1.2 s, the verifier's window).
WINDOW_FRAMES = 60
#: Frames averaged into one bin.
FRAMES_PER_BIN = 2
#: Bins of the input.
BINS = WINDOW_FRAMES // FRAMES_PER_BIN
#: Width of whisper tiny's encoder states.
STATE_DIM = 384

Floats = npt.NDArray[np.float32]
_ARRAYS = ("proj", "proj_bias", "hidden", "hidden_bias", "out", "out_bias", "mean", "std")


def window_bins(frames: Floats) -> Floats:
    """The stage's input ``[BINS, 384]`` from the encoder states of a window ``[n, 384]``.

    The last :data:`WINDOW_FRAMES` frames count (the window ends where the check is made); a
    shorter window is padded with zeros in front, as the stream's first second is.
    """
    frames = np.asarray(frames, dtype=np.float32)[-WINDOW_FRAMES:]
    if len(frames) < WINDOW_FRAMES:
        pad = np.zeros((WINDOW_FRAMES - len(frames), frames.shape[1]), np.float32)
        frames = np.concatenate([pad, frames])
    return frames.reshape(BINS, FRAMES_PER_BIN, -1).mean(axis=1)


@dataclass(frozen=True)
class ContrastHead:
    """The trained contrast classifier: shared bin projection, one hidden layer, sigmoid."""

    #: Projection of each bin's encoder state ``[384, proj]``.
    proj: Floats
    #: Projection bias ``[proj]``.
    proj_bias: Floats
    #: Hidden layer over the projected bins in order ``[BINS * proj, hidden]``.
    hidden: Floats
    #: Hidden bias ``[hidden]``.
    hidden_bias: Floats
    #: Output weights ``[hidden]``.
    out: Floats
    #: Output bias (one number).
    out_bias: Floats
    #: Input means ``[BINS, 384]`` (training windows).
    mean: Floats
    #: Input standard deviations ``[BINS, 384]``.
    std: Floats
    #: Training facts: clip counts, the keyword head whose rises placed the windows, fit options,
    #: validation figures.
    meta: dict[str, Any]

    def logits(self, bins: Floats) -> Floats:
        """Logits of inputs ``[n, BINS, 384]`` (already standardised)."""
        projected = np.maximum(bins @ self.proj + self.proj_bias, 0.0)
        flat = projected.reshape(len(bins), -1)
        hidden = np.maximum(flat @ self.hidden + self.hidden_bias, 0.0)
        return (hidden @ self.out + self.out_bias).astype(np.float32)

    def scores(self, bins: Floats) -> Floats:
        """Scores 0..1 of raw inputs ``[n, BINS, 384]`` (:func:`window_bins`)."""
        z = self.logits((np.asarray(bins, np.float32) - self.mean) / self.std)
        return (1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))).astype(np.float32)

    def score_window(self, recogniser: WhisperRecogniser, window: Samples) -> float:
        """The score of one window of audio: its encoder states (``recogniser``), binned."""
        return float(self.scores(window_bins(recogniser.encoder_states(window))[None])[0])

    def save(self, path: Path) -> None:
        """Write the stage (float32 arrays and the meta as a JSON string; no pickles)."""
        save_arrays(path, {name: getattr(self, name) for name in _ARRAYS}, self.meta)

    @classmethod
    def load(cls, path: Path) -> ContrastHead:
        """Read a contrast file; a SpeechModelError when it is not one."""
        arrays, meta = load_arrays(path, _ARRAYS, "contrast")
        width = arrays["proj_bias"].shape
        hidden = arrays["hidden_bias"].shape
        if (
            arrays["proj"].shape != (STATE_DIM, *width)
            or arrays["hidden"].shape != (BINS * width[0], *hidden)
            or arrays["out"].shape != hidden
            or arrays["out_bias"].shape != (1,)
            or arrays["mean"].shape != (BINS, STATE_DIM)
            or arrays["std"].shape != (BINS, STATE_DIM)
        ):
            raise SpeechModelError(f"wake contrast {path.name}: arrays do not fit together")
        return cls(meta=meta, **arrays)

    @classmethod
    def from_manifest(cls, models_dir: Path, name: str = CONTRAST_MODEL) -> ContrastHead:
        """The verified contrast stage named in the manifest."""
        spec = load_manifest().get(name)
        return cls.load(locate_head(spec, models_dir, "training.wake.contrast"))
