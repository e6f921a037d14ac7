"""Speech out with a Piper voice: espeak-ng phonemes into a VITS network run by onnxruntime.

A Piper voice is an ONNX graph plus a JSON file whose ``phoneme_id_map`` says which integer each
IPA symbol is. The symbols come from espeak-ng (the phonemiser the voices were trained with, called
here as the same program the espeak-ng engine uses, text on stdin); this module adds back the
clause punctuation espeak-ng's ``--ipa`` output leaves out, maps each symbol to its id with the pad
id between symbols (how the voices were trained), runs the graph and returns int16 samples.

Only the voice's files are used (``models/manifest.toml``, model ``piper-en-us-joe-medium``):
neither Piper's program nor its Python package is needed, so nothing GPL is linked in.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from appliance.audio.base import Samples
from appliance.audio.errors import SpeechModelError, TtsError
from appliance.audio.tts import ESPEAK
from appliance.models.manifest import load_manifest
from appliance.models.store import locate

#: The manifest's voice for ``audio.tts_engine = "piper"``.
MODEL_NAME = "piper-en-us-joe-medium"
#: Punctuation kept as a symbol of its own (Piper voices have ids for these).
CLAUSE_MARKS = ",.;:!?"
#: A clause ends at one of the marks followed by whitespace or the end of the text ("3.5" does not).
_CLAUSE = re.compile(r"(.+?)([,.;:!?]+)(?=\s|$)|(.+?)$", re.DOTALL)
#: Peak level of the returned audio (Piper's own program normalises to full scale; a little
#: headroom keeps a small speaker's amplifier out of clipping).
PEAK = 0.9


@dataclass(frozen=True)
class PiperConfig:
    """What the voice's JSON file says that synthesis needs."""

    #: Output sample rate in Hz.
    sample_rate: int
    #: espeak-ng voice used to phonemise (e.g. ``en-us``).
    espeak_voice: str
    #: IPA symbol (one code point) -> id.
    phoneme_ids: dict[str, int]
    #: Default noise scale (variation of the sound).
    noise_scale: float
    #: Default length scale (over 1 is slower).
    length_scale: float
    #: Default phoneme-duration noise.
    noise_w: float

    @classmethod
    def read(cls, path: Path) -> PiperConfig:
        """Parse a voice's ``.onnx.json``; SpeechModelError naming what is wrong."""
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            ids = {str(k): int(v[0]) for k, v in data["phoneme_id_map"].items()}
            inference = data.get("inference", {})
            config = cls(
                sample_rate=int(data["audio"]["sample_rate"]),
                espeak_voice=str(data["espeak"]["voice"]),
                phoneme_ids=ids,
                noise_scale=float(inference.get("noise_scale", 0.667)),
                length_scale=float(inference.get("length_scale", 1.0)),
                noise_w=float(inference.get("noise_w", 0.8)),
            )
        except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
            raise SpeechModelError(
                f"{path.name} is not a Piper voice configuration ({error})"
            ) from None
        missing = [s for s in ("_", "^", "$", " ") if s not in ids]
        if missing:
            raise SpeechModelError(f"{path.name}: phoneme_id_map lacks {missing}")
        return config


def clauses(text: str) -> list[tuple[str, str]]:
    """``text`` as (words, closing punctuation) pairs; the punctuation may be empty."""
    pieces = []
    for match in _CLAUSE.finditer(text.strip()):
        words = (match.group(1) or match.group(3) or "").strip()
        mark = (match.group(2) or "")[-1:]
        if words:
            pieces.append((words, mark))
    return pieces


def espeak_ipa(text: str, voice: str, *, binary: str = ESPEAK, timeout_s: float = 10.0) -> str:
    """espeak-ng's IPA for one clause, on one line with single spaces between words."""
    try:
        done = subprocess.run(
            [binary, "-q", "--ipa", "-v", voice, "--stdin"],
            input=text.encode("utf-8"),
            capture_output=True,
            timeout=timeout_s,
            check=False,
        )
    except FileNotFoundError:
        raise TtsError(f"{binary} is not installed (Piper voices phonemise with it)") from None
    except subprocess.TimeoutExpired:
        raise TtsError(f"{binary} took longer than {timeout_s:g} s", code="tts_timeout") from None
    if done.returncode != 0:
        raise TtsError(f"{binary} --ipa exited with {done.returncode}")
    return " ".join(done.stdout.decode("utf-8", "replace").split())


class PiperPhonemiser:
    """A voice's text side: espeak-ng IPA per clause and the voice's symbol ids (no graph loaded)."""

    def __init__(self, config_path: Path, *, binary: str = ESPEAK) -> None:
        self.config = PiperConfig.read(config_path)
        self.binary = binary
        #: Symbols espeak-ng gave that the voice has no id for (counted, then left out).
        self.unknown_symbols = 0

    @classmethod
    def from_manifest(cls, models_dir: Path) -> PiperPhonemiser:
        """The manifest voice's configuration, verified (ModelError when missing or changed)."""
        return cls(locate(load_manifest().get(MODEL_NAME), "config", models_dir))

    @property
    def sample_rate(self) -> int:
        """Hz of the voice's audio."""
        return self.config.sample_rate

    def phonemes(self, text: str) -> str:
        """The symbol string the voice is fed: each clause's IPA, its punctuation, a space."""
        parts = []
        for words, mark in clauses(text):
            ipa = espeak_ipa(words, self.config.espeak_voice, binary=self.binary)
            if ipa:
                parts.append(ipa + mark)
        # The voices were trained on decomposed symbols (a stress mark or a length mark is its own id).
        return unicodedata.normalize("NFD", " ".join(parts))

    def ids(self, phonemes: str) -> list[int]:
        """Begin, pad, then each symbol followed by pad, then end."""
        table = self.config.phoneme_ids
        pad = table["_"]
        out = [table["^"], pad]
        for symbol in phonemes:
            if symbol not in table:
                self.unknown_symbols += 1
                continue
            out += [table[symbol], pad]
        out.append(table["$"])
        return out


class PiperVoice:
    """One Piper voice: ``synthesize(text)`` gives int16 samples at ``sample_rate``.

    Thread-safe: one onnxruntime session, runs serialised by a lock (the graph is the cost, and two
    at once on the Pi's cores would only slow each other).
    """

    def __init__(
        self, onnx_path: Path, config_path: Path, *, threads: int = 2, binary: str = ESPEAK
    ) -> None:
        import onnxruntime as ort

        #: The voice's file name without ``.onnx`` (``en_US-joe-medium``).
        self.name = onnx_path.name.removesuffix(".onnx")
        #: Text to symbol ids.
        self.phonemiser = PiperPhonemiser(config_path, binary=binary)
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        try:
            self._session = ort.InferenceSession(
                str(onnx_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as error:  # onnxruntime raises its own untyped errors for a bad file
            raise SpeechModelError(f"{onnx_path.name}: onnxruntime refused it ({error})") from None
        self._inputs = {i.name for i in self._session.get_inputs()}
        needed = {"input", "input_lengths", "scales"}
        if not needed <= self._inputs:
            raise SpeechModelError(
                f"{onnx_path.name} is not a Piper voice (inputs {sorted(self._inputs)})"
            )
        self._lock = threading.Lock()

    @classmethod
    def from_manifest(cls, models_dir: Path, *, threads: int = 2) -> PiperVoice:
        """The manifest's voice, both files verified (ModelError when missing or changed)."""
        spec = load_manifest().get(MODEL_NAME)
        return cls(
            locate(spec, "onnx", models_dir), locate(spec, "config", models_dir), threads=threads
        )

    @property
    def config(self) -> PiperConfig:
        """The voice's configuration."""
        return self.phonemiser.config

    @property
    def sample_rate(self) -> int:
        """Hz of the audio :meth:`synthesize` returns."""
        return self.config.sample_rate

    @property
    def unknown_symbols(self) -> int:
        """Symbols espeak-ng gave that the voice has no id for (left out)."""
        return self.phonemiser.unknown_symbols

    def phonemes(self, text: str) -> str:
        """See :meth:`PiperPhonemiser.phonemes`."""
        return self.phonemiser.phonemes(text)

    def ids(self, phonemes: str) -> list[int]:
        """See :meth:`PiperPhonemiser.ids`."""
        return self.phonemiser.ids(phonemes)

    def synthesize(
        self,
        text: str,
        *,
        length_scale: float | None = None,
        noise_scale: float | None = None,
        noise_w: float | None = None,
    ) -> Samples:
        """Speak ``text``; empty samples when it has nothing to say."""
        phonemes = self.phonemes(text)
        if not phonemes.strip():
            return np.zeros(0, dtype=np.int16)
        ids = np.asarray([self.ids(phonemes)], dtype=np.int64)
        c = self.config
        scales = np.asarray(
            [
                c.noise_scale if noise_scale is None else noise_scale,
                c.length_scale if length_scale is None else length_scale,
                c.noise_w if noise_w is None else noise_w,
            ],
            dtype=np.float32,
        )
        feed: dict[str, Any] = {
            "input": ids,
            "input_lengths": np.asarray([ids.shape[1]], dtype=np.int64),
            "scales": scales,
        }
        if "sid" in self._inputs:  # a multi-speaker voice: its first speaker
            feed["sid"] = np.asarray([0], dtype=np.int64)
        with self._lock:
            audio = np.asarray(self._session.run(None, feed)[0], dtype=np.float32).reshape(-1)
        peak = float(np.max(np.abs(audio))) if audio.size else 0.0
        if peak > 1e-4:
            audio = audio * (PEAK / peak)
        return np.clip(audio * 32767.0, -32768, 32767).astype(np.int16)


class PiperTts:
    """A Piper voice behind the same asynchronous interface as :class:`~appliance.audio.tts.EspeakTts`."""

    def __init__(self, voice: PiperVoice) -> None:
        self.voice = voice

    @property
    def name(self) -> str:
        """``piper (<voice>)``."""
        return f"piper ({self.voice.name})"

    @property
    def quick_start(self) -> bool:
        """Yes: the graph takes a few hundred milliseconds per sentence here, more on a Pi."""
        return True

    @property
    def language(self) -> str:
        """The espeak-ng voice the voice was trained to be phonemised with."""
        return self.voice.config.espeak_voice

    async def synthesize(self, text: str) -> tuple[Samples, int]:
        """Speak ``text`` in a worker thread (the graph holds the GIL only briefly)."""
        audio = await asyncio.to_thread(self.voice.synthesize, text)
        return audio, self.voice.sample_rate
