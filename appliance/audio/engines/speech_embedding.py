"""Google's speech-embedding feature extractor (two ONNX graphs), run with onnxruntime.

The graphs come from the manifest model ``speech-embedding`` (carried by the ``openwakeword==0.4.0``
wheel, which is never imported: only its two ONNX files are read). What they do, found by running
them (docs/decisions/0031-audio-kws-wake-model.md):

* ``melspectrogram.onnx``: float samples at int16 scale (``[batch, samples]``) → 32 mel bands in dB
  (floor -100) every 160 samples (10 ms) over a 512-sample window, without padding: ``n`` samples
  give ``(n - 512) // 160 + 1`` frames and frame ``k`` depends only on samples
  ``[160 k, 160 k + 512)``. Its output is scaled by ``dB / 10 + 2`` before the next graph — the
  range the embedding network was trained on.
* ``embedding_model.onnx``: 76 mel frames (760 ms) → one 96-d embedding. An embedding is taken every
  8 frames (80 ms), over the last 76 frames.

:class:`EmbeddingStream` does this incrementally: each 80 ms of new audio costs one mel call on
1,632 samples and one embedding call, whatever the chunk size. :meth:`SpeechEmbedding.clip` gives the
same embeddings for a whole clip at once (training and tests rely on the two being equal). Both make
the same mel calls: the graph floors every call's frames 80 dB under that call's loudest frame (and a
batch's under the batch's loudest), so one long call differs from the stream's short ones wherever
digital silence meets loud speech.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from appliance.audio.base import Samples
from appliance.audio.errors import SpeechModelError
from appliance.models.manifest import load_manifest
from appliance.models.store import locate

#: Manifest name of the feature extractor.
MODEL_NAME = "speech-embedding"
#: Samples between mel frames (10 ms).
HOP = 160
#: Samples in one mel frame's window.
WINDOW = 512
#: Mel bands per frame.
MEL_BANDS = 32
#: Mel frames one embedding looks at (760 ms).
EMBED_FRAMES = 76
#: Mel frames between embeddings (80 ms).
EMBED_STEP = 8
#: Samples between embeddings.
STEP_SAMPLES = HOP * EMBED_STEP
#: Size of one embedding.
EMBED_DIM = 96

Floats = npt.NDArray[np.float32]

_cache: dict[tuple[str, str, int], Any] = {}
_cache_lock = threading.Lock()


def _session(path: Path, threads: int) -> Any:
    import onnxruntime as ort

    key = (str(path), path.name, threads)
    with _cache_lock:
        if key not in _cache:
            so = ort.SessionOptions()
            so.intra_op_num_threads = threads
            so.inter_op_num_threads = 1
            so.log_severity_level = 3
            try:
                _cache[key] = ort.InferenceSession(
                    str(path), so, providers=["CPUExecutionProvider"]
                )
            except Exception as err:  # onnxruntime raises its own exception types
                raise SpeechModelError(
                    f"model {MODEL_NAME}: onnxruntime could not load {path.name} ({err})"
                ) from None
        return _cache[key]


def frames_for(samples: int) -> int:
    """Mel frames the graph makes from ``samples`` samples."""
    return 0 if samples < WINDOW else (samples - WINDOW) // HOP + 1


class SpeechEmbedding:
    """The two graphs, loaded from verified files; thread-safe (onnxruntime sessions are)."""

    def __init__(self, mel_path: Path, embedding_path: Path, *, threads: int = 1) -> None:
        self._mel = _session(mel_path, threads)
        self._embed = _session(embedding_path, threads)
        self._mel_input = self._mel.get_inputs()[0].name
        self._embed_input = self._embed.get_inputs()[0].name
        #: Scaled mel frame of digital silence (what a stream starts from).
        self.silent_frame = self.mel(np.zeros(WINDOW, dtype=np.int16))[0]

    @classmethod
    def from_manifest(cls, models_dir: Path, *, threads: int = 1) -> SpeechEmbedding:
        """Both graphs, located and verified through the manifest (ModelError when not)."""
        spec = load_manifest().get(MODEL_NAME)
        return cls(
            locate(spec, "melspectrogram", models_dir),
            locate(spec, "embedding", models_dir),
            threads=threads,
        )

    def mel(self, audio: Samples) -> Floats:
        """Scaled mel frames ``[frames, 32]`` of int16 audio (empty when under 512 samples)."""
        if len(audio) < WINDOW:
            return np.zeros((0, MEL_BANDS), dtype=np.float32)
        x = audio.astype(np.float32)[None, :]
        out = self._mel.run(None, {self._mel_input: x})[0]
        return (np.asarray(out, dtype=np.float32).reshape(-1, MEL_BANDS) / 10.0 + 2.0).astype(
            np.float32
        )

    def embed(self, windows: Floats) -> Floats:
        """Embeddings ``[n, 96]`` of mel windows ``[n, 76, 32]``."""
        if len(windows) == 0:
            return np.zeros((0, EMBED_DIM), dtype=np.float32)
        x = np.ascontiguousarray(windows, dtype=np.float32)[..., None]
        out = self._embed.run(None, {self._embed_input: x})[0]
        return np.asarray(out, dtype=np.float32).reshape(-1, EMBED_DIM)

    def silent_embedding(self) -> Floats:
        """The embedding ``[96]`` of silence: what a stream's window holds before its start."""
        return self.embed(np.tile(self.silent_frame, (EMBED_FRAMES, 1))[None])[0]

    def clip(self, audio: Samples, *, lead_frames: int = EMBED_FRAMES) -> Floats:
        """Every embedding a stream would emit for ``audio``, started from silence.

        Row ``j`` covers the 76 mel frames ending at frame ``8 (j + 1)`` of the audio; it equals
        feeding ``audio`` to a fresh :class:`EmbeddingStream` in any chunking, because the mel
        frames are made by the stream's own calls: one per 80 ms, on the 1,632 samples that end
        there (one call per window, not a batch: the graph's 80-dB floor is taken over its whole
        input).
        """
        need = STEP_SAMPLES + WINDOW - HOP
        calls = 0 if len(audio) < need else (len(audio) - need) // STEP_SAMPLES + 1
        mels = [self.mel(audio[j * STEP_SAMPLES : j * STEP_SAMPLES + need]) for j in range(calls)]
        frames = np.concatenate([np.tile(self.silent_frame, (lead_frames, 1)), *mels])
        ends = np.arange(lead_frames + EMBED_STEP, len(frames) + 1, EMBED_STEP)
        if len(ends) == 0:
            return np.zeros((0, EMBED_DIM), dtype=np.float32)
        index = ends[:, None] - EMBED_FRAMES + np.arange(EMBED_FRAMES)[None, :]
        out = [self.embed(frames[index[i : i + 256]]) for i in range(0, len(index), 256)]
        return np.concatenate(out)


@dataclass
class EmbeddingStream:
    """Incremental embeddings of one stream: feed chunks, get the embeddings that became due."""

    #: The feature extractor.
    features: SpeechEmbedding
    #: Stream index of the first sample fed (set by :meth:`reset`).
    origin: int = 0

    def __post_init__(self) -> None:
        self.reset(self.origin)

    def reset(self, origin: int = 0) -> None:
        """Start over from silence at stream index ``origin``."""
        self.origin = origin
        self._pending = np.zeros(0, dtype=np.int16)
        self._consumed = 0  # samples of the stream whose frames are all computed (multiple of 1280)
        self._frames = np.tile(self.features.silent_frame, (EMBED_FRAMES, 1))

    def feed(self, chunk: Samples) -> tuple[Floats, list[int]]:
        """New embeddings ``[n, 96]`` and, for each, the stream index just past the audio it saw."""
        self._pending = np.concatenate([self._pending, chunk])
        need = STEP_SAMPLES + WINDOW - HOP  # 8 frames need 1,632 samples
        embeddings: list[Floats] = []
        ends: list[int] = []
        while len(self._pending) >= need:
            new = self.features.mel(self._pending[:need])
            self._frames = np.concatenate([self._frames[EMBED_STEP:], new])
            embeddings.append(self.features.embed(self._frames[None])[0])
            self._pending = self._pending[STEP_SAMPLES:]
            self._consumed += STEP_SAMPLES
            # The last frame's window ends 352 samples after the step boundary.
            ends.append(self.origin + self._consumed + WINDOW - HOP)
        if not embeddings:
            return np.zeros((0, EMBED_DIM), dtype=np.float32), []
        return np.stack(embeddings), ends
