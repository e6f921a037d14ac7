"""Wake-word detectors: a Vosk grammar recogniser (the Pi) and whisper on speech windows (development).

Both are fed the stream chunk by chunk and return a :class:`WakeDetection` when the phrase was heard.
Why two, and what each costs, is in docs/decisions/0030-audio-wake-engine.md.
"""

from __future__ import annotations

import time

import numpy as np

from appliance.audio.base import SAMPLE_RATE, Samples, WakeDetection, Word
from appliance.audio.engines.vosk import VoskRecogniser, VoskStream
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.phrases import find_phrase, normalise_words, split_after_phrase
from appliance.audio.ring import PreRoll
from appliance.audio.vad import FRAME, EnergyVad


class VoskWakeDetector:
    """A grammar-limited Vosk recogniser that knows only the phrase and "[unk]".

    Partial results arrive every chunk; as soon as a partial contains the phrase the utterance is
    closed early (``FinalResult``) to get word confidences without waiting for Vosk's endpoint, so
    "open claw what is ..." said in one breath wakes at the end of "claw". Every word of the phrase
    must reach ``threshold``; "[unk]" absorbs everything else (models without "[unk]", like the Korean
    one, force all speech onto the phrase and lean on the threshold alone).
    """

    name = "vosk-grammar"

    def __init__(
        self,
        recogniser: VoskRecogniser,
        phrase: str,
        *,
        threshold: float = 0.6,
        refractory_s: float = 1.0,
    ) -> None:
        self._recogniser = recogniser
        self._refractory = int(refractory_s * SAMPLE_RATE)
        self._quiet_until = 0
        self.phrase = phrase
        self.threshold = threshold
        self._grammar = [phrase, "[unk]"]
        self._stream: VoskStream = recogniser.stream(self._grammar)
        self._origin = 0  # stream index of the first sample this recogniser saw
        #: Candidates rejected for low confidence (near-misses the grammar forced onto the phrase).
        self.rejected = 0

    def reset(self) -> None:
        """Start a fresh recogniser (its word times restart at zero) and end any refractory period."""
        self._stream = self._recogniser.stream(self._grammar)
        self._origin = -1
        self._quiet_until = 0

    def feed(self, chunk: Samples, end_sample: int) -> WakeDetection | None:
        """Feed a chunk; a detection when the phrase was heard confidently enough."""
        if end_sample <= self._quiet_until:
            return None  # the rest of the utterance that woke us must not wake us again
        if self._origin < 0:
            self._origin = end_sample - len(chunk)
        update = self._stream.accept(chunk)
        if not update.final:
            if find_phrase(normalise_words(update.text), self.phrase) is None:
                return None
            update = self._stream.finish()  # close early: confidences now, not at the endpoint
        return self._judge(update.words, end_sample)

    def _judge(self, words: tuple[Word, ...], end_sample: int) -> WakeDetection | None:
        texts = [w.text.lower() for w in words]
        match = find_phrase(texts, self.phrase)
        if match is None:
            return None
        phrase_words = words[match.start : match.end]
        score = min(w.confidence for w in phrase_words)
        if score < self.threshold:
            self.rejected += 1
            return None
        start = self._origin + int(phrase_words[0].start * SAMPLE_RATE)
        end = self._origin + int(phrase_words[-1].end * SAMPLE_RATE)
        detection = WakeDetection(
            phrase=" ".join(w.text for w in phrase_words),
            score=score,
            detector=self.name,
            start_sample=start,
            end_sample=end,
            detected_at_sample=end_sample,
            monotonic=time.monotonic(),
            reason=f"every phrase word's confidence >= {self.threshold:g} (lowest {score:.2f})",
        )
        self.reset()
        self._quiet_until = end_sample + self._refractory
        return detection


#: A pause this long (10 ms frames) before speech marks the start of a new stretch of speech.
ONSET_PAUSE_FRAMES = 30
#: Furthest back a whisper detection places the start of the capture, in seconds.
MAX_LOOKBACK_S = 6.0


class WhisperWakeDetector:
    """Whisper tiny.en on short windows of speech, with strict phrase matching.

    An energy VAD gates the work: silence costs nothing. While there is speech, the last
    ``window_s`` seconds are decoded every ``hop_s`` seconds of new audio, and once more the moment
    speech stops (that decode is the one that catches a phrase said alone, so its latency is the VAD's
    hangover plus one decode). The window is decoded with a shortened encoder context
    (:meth:`WhisperRecogniser.decode_window`). A detection needs the phrase in the text by the
    strict matcher of :mod:`appliance.audio.phrases`, and the phrase's own token posterior (forced
    decoding at the place the decode put it, without bias) of at least ``threshold``. With ``bias``
    the window is decoded with the phrase as previous text, which finds more true phrases and more
    near-misses; the posterior then has to tell them apart.
    """

    name = "whisper-window"

    def __init__(
        self,
        recogniser: WhisperRecogniser,
        phrase: str,
        *,
        threshold: float = 0.0,
        window_s: float = 2.0,
        hop_s: float = 0.3,
        vad_threshold_db: float = 9.0,
        bias: bool = False,
    ) -> None:
        self._recogniser = recogniser
        self._bias = phrase.title() if bias else ""
        self.phrase = phrase
        self.threshold = threshold
        self._window = int(window_s * SAMPLE_RATE)
        self._hop = int(hop_s * SAMPLE_RATE)
        self._vad = EnergyVad(vad_threshold_db, hangover_ms=150)
        self._history = PreRoll(self._window)
        self._speech_frames: list[bool] = []
        self._since_decode = 0
        self._was_speech = False
        self._silent_frames = 1_000  # frames of non-speech in a row
        self._onset = 0  # stream index where the current stretch of speech began
        #: Windows decoded so far.
        self.decodes = 0
        #: Seconds spent decoding.
        self.compute_s = 0.0
        #: Text of the last decoded window (for diagnostics).
        self.last_text = ""

    def reset(self) -> None:
        """Forget the window (the noise floor is kept: the room has not changed)."""
        self._history.clear()
        self._speech_frames.clear()
        self._since_decode = 0
        self._was_speech = False

    def feed(self, chunk: Samples, end_sample: int) -> WakeDetection | None:
        """Feed a chunk; decode when the schedule says so; a detection or None."""
        self._history.end = end_sample - len(chunk)
        self._history.append(chunk)
        flags = self._vad.feed(chunk)
        chunk_start = end_sample - len(chunk)
        for i, is_speech in enumerate(flags):
            if is_speech:
                if self._silent_frames >= ONSET_PAUSE_FRAMES:
                    self._onset = chunk_start + i * FRAME
                self._silent_frames = 0
            else:
                self._silent_frames += 1
        self._speech_frames.extend(flags)
        keep = self._window // FRAME
        del self._speech_frames[:-keep]
        speech_now = any(flags) if flags else self._was_speech
        self._since_decode += len(chunk)
        ended = self._was_speech and not speech_now
        self._was_speech = speech_now
        if sum(self._speech_frames) < 25:  # under a quarter second of speech in the window
            return None
        if not (ended or (speech_now and self._since_decode >= self._hop)):
            return None
        return self._decode(end_sample)

    def _decode(self, end_sample: int) -> WakeDetection | None:
        self._since_decode = 0
        window_start = self._history.start
        audio = self._history.since(window_start)
        result = self._recogniser.decode_window(audio, bias=self._bias, verify=self.phrase)
        self.decodes += 1
        self.compute_s += result.compute_s
        self.last_text = result.text
        found, rest = split_after_phrase(result.text, self.phrase)
        if not found or result.score < self.threshold:
            return None
        # The question is captured from where this stretch of speech began (the window may already
        # have slid past the start of the phrase), but never from more than MAX_LOOKBACK_S back.
        start = max(min(self._onset, window_start), end_sample - int(MAX_LOOKBACK_S * SAMPLE_RATE))
        detection = WakeDetection(
            phrase=self.phrase,
            score=result.score,
            detector=self.name,
            start_sample=start,
            end_sample=self._estimate_phrase_end(end_sample, bool(rest)),
            detected_at_sample=end_sample,
            trailing_text=rest,
            monotonic=time.monotonic(),
            reason=f"heard {result.text!r}; score {result.score:.2g} >= {self.threshold:g}",
        )
        self.reset()
        return detection

    def _estimate_phrase_end(self, end_sample: int, has_trailing: bool) -> int:
        """Where the phrase ended: the last speech frame, unless the question already follows."""
        if has_trailing:
            return end_sample  # the question runs on: it is captured from the window start
        flags = np.array(self._speech_frames, dtype=bool)
        if not flags.any():
            return end_sample
        last = int(np.nonzero(flags)[0][-1]) + 1
        return end_sample - (len(flags) - last) * FRAME
