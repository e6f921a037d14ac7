"""Vosk (Kaldi) as a recogniser: the appliance's engine on the Pi.

A model is a verified folder from the manifest, loaded once per process (the small English model takes
about a second and ~100 MB; the Korean one on this development machine ~1.6 s). Recognisers are cheap
and made per use: free ones for questions, grammar-limited ones for the wake word. Vosk cannot bias a
free recogniser softly; the only vocabulary control it has is a grammar (a phrase list), which
:meth:`VoskRecogniser.stream` takes.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance.audio.base import SAMPLE_RATE, Samples, Transcript, Word
from appliance.audio.errors import SpeechModelError
from appliance.models.manifest import load_manifest
from appliance.models.store import model_dir

_models: dict[str, Any] = {}
_lock = threading.Lock()


def load_vosk_model(folder: Path) -> Any:
    """The vosk.Model for a folder, loaded once per process."""
    import vosk

    with _lock:
        if str(folder) in _models:
            return _models[str(folder)]
        vosk.SetLogLevel(-1)
        try:
            model = vosk.Model(str(folder))
        except Exception as err:  # vosk raises a bare Exception("Failed to create a model")
            raise SpeechModelError(f"vosk model {folder.name} failed to load ({err})") from None
        _models[str(folder)] = model
        return model


def words_of(result: dict[str, Any]) -> tuple[Word, ...]:
    """Words with timings and confidences from a Vosk result (``SetWords(True)``)."""
    return tuple(
        Word(str(w["word"]), float(w["start"]), float(w["end"]), float(w.get("conf", 1.0)))
        for w in result.get("result", [])
    )


@dataclass
class StreamUpdate:
    """One step of a streaming recognition."""

    #: Text so far of the current utterance (partial) or the finished utterance (final).
    text: str
    #: True when Vosk closed an utterance (an endpoint); then ``words`` carry timings.
    final: bool
    #: Words of a final result.
    words: tuple[Word, ...] = ()


class VoskStream:
    """A streaming recogniser: feed chunks, get partial and final results."""

    def __init__(self, model: Any, grammar: Sequence[str] | None = None) -> None:
        import vosk

        if grammar:
            self._rec = vosk.KaldiRecognizer(
                model, SAMPLE_RATE, json.dumps(list(grammar), ensure_ascii=False)
            )
        else:
            self._rec = vosk.KaldiRecognizer(model, SAMPLE_RATE)
        self._rec.SetWords(True)
        #: Samples fed so far (word times are relative to the first of them).
        self.samples = 0

    def accept(self, chunk: Samples) -> StreamUpdate:
        """Feed audio; a final update at an endpoint, otherwise the current partial."""
        self.samples += len(chunk)
        if self._rec.AcceptWaveform(chunk.tobytes()):
            result = json.loads(self._rec.Result())
            return StreamUpdate(str(result.get("text", "")), True, words_of(result))
        partial = json.loads(self._rec.PartialResult())
        return StreamUpdate(str(partial.get("partial", "")), False)

    def finish(self) -> StreamUpdate:
        """Close the current utterance now and return its final result."""
        result = json.loads(self._rec.FinalResult())
        return StreamUpdate(str(result.get("text", "")), True, words_of(result))


class VoskRecogniser:
    """Vosk with one model; free recognition of whole utterances, or streams."""

    name = "vosk"

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.model = load_vosk_model(folder)

    @classmethod
    def from_manifest(cls, name: str, models_dir: Path) -> VoskRecogniser:
        """Load the manifest's model ``name`` after verifying every file of it."""
        spec = load_manifest().get(name)
        return cls(model_dir(spec, models_dir))

    def stream(self, grammar: Sequence[str] | None = None) -> VoskStream:
        """A new streaming recogniser, grammar-limited when ``grammar`` is given."""
        return VoskStream(self.model, grammar)

    def transcribe(self, audio: Samples, *, vocabulary: Sequence[str] = ()) -> Transcript:
        """Transcribe one utterance with a free recogniser.

        ``vocabulary`` is not used: a Vosk grammar would forbid every other word, which is wrong for
        a free question (see docs/decisions/0030-audio-wake-engine.md).
        """
        started = time.perf_counter()
        stream = self.stream()
        texts: list[str] = []
        words: list[Word] = []
        step = SAMPLE_RATE // 5
        for i in range(0, len(audio), step):
            update = stream.accept(audio[i : i + step])
            if update.final and update.text:
                texts.append(update.text)
                words.extend(update.words)
        last = stream.finish()
        if last.text:
            texts.append(last.text)
            words.extend(last.words)
        return Transcript(
            text=" ".join(texts),
            words=tuple(words),
            engine=self.name,
            audio_s=len(audio) / SAMPLE_RATE,
            compute_s=time.perf_counter() - started,
        )
