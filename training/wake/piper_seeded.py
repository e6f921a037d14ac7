"""The Piper voice with its noise drawn by the caller: the same seed gives the same samples.

For the wake word's training clips and benchmarks (decision 0031), which must be the
same on every run; speech out uses :class:`appliance.audio.piper.PiperVoice`.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import numpy.typing as npt

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.piper import MODEL_NAME, PEAK, PiperPhonemiser
from appliance.audio.wavio import resample, speech_bounds, to_int16
from appliance.models.manifest import load_manifest
from appliance.models.store import locate

#: Samples of the Piper voice's output per frame of its phoneme durations (medium voices).
PIPER_HOP = 256
#: Frames of latent noise drawn per utterance: 47 s at 22,050 Hz, past any clip's sentence.
PIPER_MAX_FRAMES = 4096
#: Channels of the voice's latent noise (the VITS prior of en_US-joe-medium).
PIPER_LATENT = 192


class SeededPiper:
    """The Piper voice (:mod:`appliance.audio.piper`) with its noise drawn by the caller.

    The VITS graph draws two noises itself with unseeded ``RandomNormalLike`` nodes (the phoneme
    durations' noise, scaled by ``noise_w``, and the latent noise, scaled by ``noise_scale``), so
    the same text comes out different on every call. Here each of those nodes is replaced by a
    slice of a graph input of the same shape, drawn from the caller's generator: the same seed
    gives the same samples (onnxruntime on one thread), and the training clips stay
    reproducible. The graph also returns each phoneme id's frame count (``/Ceil``), which places a
    phrase inside a longer utterance (:meth:`say_with_phrase`).
    """

    def __init__(self, models_dir: Path) -> None:
        import onnx
        import onnxruntime as ort

        #: The voice's phonemiser and id table.
        self.voice = PiperPhonemiser.from_manifest(models_dir)
        graph = onnx.load(str(locate(load_manifest().get(MODEL_NAME), "onnx", models_dir)))
        g = graph.graph
        g.initializer.append(
            onnx.numpy_helper.from_array(np.zeros(3, dtype=np.int64), "seeded_starts")
        )
        randoms = [n for n in g.node if n.op_type == "RandomNormalLike"]
        if len(randoms) != 2:
            raise ValueError(f"{MODEL_NAME}: expected 2 random nodes, found {len(randoms)}")
        for node, name in zip(randoms, ("noise_durations", "noise_latent"), strict=True):
            # ("/dp/..." is the duration predictor's: the first in the graph.)
            g.input.append(
                onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, [1, None, None])
            )
            shape = onnx.helper.make_node("Shape", [node.input[0]], [f"{name}_shape"])
            cut = onnx.helper.make_node(
                "Slice", [name, "seeded_starts", f"{name}_shape"], [node.output[0]]
            )
            at = list(g.node).index(node)
            g.node.remove(node)
            g.node.insert(at, cut)
            g.node.insert(at, shape)
        g.output.append(
            onnx.helper.make_tensor_value_info("durations", onnx.TensorProto.FLOAT, None)
        )
        g.node.append(onnx.helper.make_node("Identity", ["/Ceil_output_0"], ["durations"]))
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(
            graph.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )

    def _run(
        self, ids: list[int], scales: tuple[float, float, float], rng: np.random.Generator
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        """Raw output and frames per id; ``scales`` = (length_scale, noise_scale, noise_w)."""
        length, noise, noise_w = scales
        feed = {
            "input": np.asarray([ids], dtype=np.int64),
            "input_lengths": np.asarray([len(ids)], dtype=np.int64),
            "scales": np.asarray([noise, length, noise_w], dtype=np.float32),
            "noise_durations": rng.standard_normal((1, 2, len(ids)), dtype=np.float32),
            "noise_latent": rng.standard_normal(
                (1, PIPER_LATENT, PIPER_MAX_FRAMES), dtype=np.float32
            ),
        }
        audio, frames = self._session.run(["output", "durations"], feed)
        return np.asarray(audio, np.float32).reshape(-1), np.asarray(frames).reshape(-1).astype(
            np.int64
        )

    def _to_16k(self, audio: npt.NDArray[np.float32]) -> Samples:
        # Peak-normalised as PiperVoice.synthesize does (the clips' levels are set afterwards).
        audio = audio / max(float(np.max(np.abs(audio))) if audio.size else 0.0, 1e-4)
        return to_int16(PEAK * resample(audio, self.voice.sample_rate, SAMPLE_RATE))

    @property
    def default_scales(self) -> tuple[float, float, float]:
        """The voice's own (length_scale, noise_scale, noise_w), from its configuration."""
        config = self.voice.config
        return (config.length_scale, config.noise_scale, config.noise_w)

    def say(
        self, text: str, scales: tuple[float, float, float], rng: np.random.Generator
    ) -> Samples:
        """``text`` as 16 kHz int16; ``scales`` = (length_scale, noise_scale, noise_w)."""
        phonemes = self.voice.phonemes(text)
        if not phonemes.strip():
            return np.zeros(0, dtype=np.int16)
        return self._to_16k(self._run(self.voice.ids(phonemes), scales, rng)[0])

    def say_with_phrase(
        self, text: str, words: int, scales: tuple[float, float, float], rng: np.random.Generator
    ) -> tuple[Samples, int]:
        """``text`` as one utterance, and the 16 kHz sample where its first ``words`` words end.

        The end is where the ids of those words' phonemes end in the voice's own durations (the
        start of the space before the next word), or the end of their sound before a pause. The
        words must be the first clause's, and espeak-ng must phonemise them as as many words (it
        merges some short function words: "on the" is "ɔnðə"; "open claw" is two).
        """
        phonemes = self.voice.phonemes(text)
        prefix = " ".join(phonemes.split(" ")[:words])
        # ids(prefix) is ^ _ (symbol _)* $: all but the end mark are the phrase's ids.
        n_ids = len(self.voice.ids(prefix)) - 1
        audio, frames = self._run(self.voice.ids(phonemes), scales, rng)
        if int(frames.sum()) * PIPER_HOP != len(audio):
            raise ValueError(f"frames {int(frames.sum())} x {PIPER_HOP} != {len(audio)} samples")
        speech = self._to_16k(audio)
        end = round(int(frames[:n_ids].sum()) * PIPER_HOP * SAMPLE_RATE / self.voice.sample_rate)
        # Where the sound stops before a pause (a comma's), as espeak_words.phrase_span does.
        _, sound_end = speech_bounds(speech[:end])
        return speech, sound_end if sound_end > 0 else end


@functools.cache
def seeded_piper(models_dir: Path = Path("var/models")) -> SeededPiper:
    """One :class:`SeededPiper` per process (made on first use, so each forked worker has its own)."""
    return SeededPiper(models_dir)
