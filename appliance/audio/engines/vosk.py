"""Vosk (Kaldi) as a recogniser: the appliance's engine on the Pi.

A model is a verified folder from the manifest, loaded once per process (the small English model takes
about a second and ~100 MB; the Korean one on this development machine ~1.6 s). Recognisers are cheap
and made per use: free ones for questions, grammar-limited ones for the wake word. Vosk cannot bias a
free recogniser softly; the only vocabulary control it has is a grammar (a phrase list), which
:meth:`VoskRecogniser.stream` takes. A question is heard by a free stream and, beside it, a stream
limited to the index's names, whose names are spliced into the free words (``vosk_bias.py``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance.audio.base import SAMPLE_RATE, Samples, Transcript, Word
from appliance.audio.bias import QUESTION_WORDS
from appliance.audio.engines.vosk_bias import GARBAGE, heard_names, name_grammar, splice
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


class BiasedVoskStream:
    """A free stream and a stream limited to names, fed the same audio: updates are the free
    stream's, and :meth:`spliced` puts the names the second one heard into the free words."""

    def __init__(self, free: VoskStream, names: VoskStream, spelled: Mapping[tuple[str, ...], str]):
        self._free = free
        self._names = names
        self._spelled = spelled
        #: Words the name stream has heard so far (its final results).
        self.heard: list[Word] = []

    @property
    def samples(self) -> int:
        """Samples fed so far."""
        return self._free.samples

    def accept(self, chunk: Samples) -> StreamUpdate:
        """Feed both streams; the free stream's update."""
        update = self._names.accept(chunk)
        if update.final:
            self.heard.extend(update.words)
        return self._free.accept(chunk)

    def finish(self) -> StreamUpdate:
        """Close both streams' utterances; the free stream's final result."""
        self.heard.extend(self._names.finish().words)
        return self._free.finish()

    def spliced(self, words: Sequence[Word]) -> tuple[Word, ...]:
        """The free stream's ``words`` with the names heard surely in their place."""
        return splice(words, heard_names(self.heard, self._spelled))


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

    def knows(self, word: str) -> bool:
        """Whether the model's vocabulary holds ``word`` (a grammar may use only such words)."""
        return bool(self.model.vosk_model_find_word(word) >= 0)

    def question_stream(
        self, names: Sequence[str], competitors: Sequence[str] = QUESTION_WORDS
    ) -> VoskStream | BiasedVoskStream:
        """A free stream for a question, biased toward ``names`` by a second stream limited to
        them, ``competitors`` and ``[unk]``. Free alone when no name can be said with the model's
        words, or when the model has no ``[unk]``: a grammar without it forces all speech onto
        its phrases, so it would hear a name in every question."""
        grammar = name_grammar(names, competitors, self.knows)
        if not grammar.names or GARBAGE not in grammar.phrases:
            return self.stream()
        return BiasedVoskStream(self.stream(), self.stream(grammar.phrases), grammar.names)

    def transcribe(self, audio: Samples, *, vocabulary: Sequence[str] = ()) -> Transcript:
        """Transcribe one utterance with a free recogniser, biased toward the names in
        ``vocabulary`` by :meth:`question_stream` (a second decode of the same audio)."""
        started = time.perf_counter()
        stream = self.question_stream(vocabulary) if vocabulary else self.stream()
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
        text = " ".join(texts)
        if isinstance(stream, BiasedVoskStream):
            words = list(stream.spliced(words))
            text = " ".join(w.text for w in words)
        return Transcript(
            text=text,
            words=tuple(words),
            engine=self.name,
            audio_s=len(audio) / SAMPLE_RATE,
            compute_s=time.perf_counter() - started,
        )
