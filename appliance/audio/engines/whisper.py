"""faster-whisper (CTranslate2) as a recogniser: Whisper tiny.en from the model manifest.

Two ways in:

* :meth:`WhisperRecogniser.transcribe` — a whole question, through faster-whisper's own decoding
  (temperature fallback, vocabulary bias through ``initial_prompt``).
* :meth:`WhisperRecogniser.decode_window` — a short window for wake-word spotting. Whisper's encoder
  normally takes 30 s of (padded) audio; CTranslate2 also accepts a shorter context (whisper.cpp calls
  it ``audio_ctx``), which makes a 2-second window about ten times cheaper with little loss on short
  phrases. Greedy decoding, no timestamps, a hard token cap.

Nothing is ever downloaded: the model is a verified folder from the manifest, ``HF_HUB_OFFLINE`` is set
before faster-whisper is imported, and ``local_files_only`` is passed.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from appliance.audio.base import SAMPLE_RATE, Samples, Transcript
from appliance.audio.errors import SpeechModelError
from appliance.audio.phrases import collapse_repeats
from appliance.models.manifest import load_manifest
from appliance.models.store import model_dir

log = logging.getLogger(__name__)

#: Feature frames per second of audio (10 ms hop).
FRAMES_PER_S = 100
#: Longest question transcribed with a shortened encoder context when ``short_context`` is on
#: (the wake phrase included). On real readers (whisper base, bench/audio_wer.py clips) the
#: shortened reading of clips up to 8 s heard as well as the full one, but a longer one was cut
#: short however sure it was ("... Bible of about 145" for 8.4 s).
SHORT_CONTEXT_MAX_S = 8
#: Whisper's decoder holds at most this many tokens, prompt included.
MAX_DECODER_TOKENS = 448
#: Word boundaries, counted from the end of a window's text, where the wake verifier forces the
#: phrase (besides the start).
VERIFY_POSITIONS = 3
#: Prompt budget for vocabulary biasing, in characters (Whisper's prompt holds ~224 tokens).
PROMPT_CHARS = 600
#: A segment whose text compresses better than this (gzip ratio, Whisper's own limit) is a decoding
#: loop: greedy decoding with the bias list as prompt ("Open Claw, scan this, ...") can write "Open
#: Claw, scan this, open claw, scan this, ..." to the token limit for a short command.
LOOP_COMPRESSION_RATIO = 2.4
#: Penalty on tokens already decoded for the one re-decode of a loop. Not used otherwise: on the
#: real speech clips it raised the word error rate from 0.071 to 0.099 (bench/audio_wer.py).
LOOP_REPETITION_PENALTY = 1.1
#: Longest run of words a loop that survives the second decode repeats and is cut back to one
#: copy ("open claw, switch to" is four).
LOOP_RUN_WORDS = 6

_cache: dict[tuple[str, int, str], Any] = {}
_cache_lock = threading.Lock()


def openmp_thread_limit() -> int | None:
    """The process's OpenMP thread limit (``OMP_THREAD_LIMIT``), or None when it sets none."""
    value = os.environ.get("OMP_THREAD_LIMIT", "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else None


def granted_threads(requested: int) -> int:
    """The threads whisper may use: ``requested``, lowered to the process's OpenMP limit."""
    limit = openmp_thread_limit()
    if limit is None or limit >= requested:
        return requested
    # CTranslate2 splits its work for the threads it asked for; granted fewer by OpenMP, it reads
    # speech as "!!!!". Fewer threads are slower, never wrong.
    log.warning(
        "OMP_THREAD_LIMIT=%d in the environment: whisper runs on %d thread(s), not %d",
        limit,
        limit,
        requested,
        extra={"code": "stt_threads_limited"},
    )
    return limit


def _load(folder: Path, threads: int, compute_type: str) -> Any:
    """The CTranslate2 model in ``folder`` on ``threads`` threads, shared by every recogniser."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    key = (str(folder), threads, compute_type)
    with _cache_lock:
        if key in _cache:
            return _cache[key]
        from faster_whisper import WhisperModel

        try:
            model = WhisperModel(
                str(folder),
                device="cpu",
                compute_type=compute_type,
                cpu_threads=threads,
                local_files_only=True,
            )
        except Exception as err:  # CTranslate2 raises RuntimeError/ValueError with details
            raise SpeechModelError(f"whisper model {folder.name} failed to load ({err})") from None
        _cache[key] = model
        return model


@dataclass(frozen=True)
class WindowResult:
    """What a short-window decode heard."""

    #: The decoded text (:meth:`WhisperRecogniser.phrase_posterior`: empty when the phrase was
    #: confirmed at the window's start, before the window needed decoding).
    text: str
    #: exp(mean token log-probability) of the decoded sequence, 0..1.
    score: float
    #: Seconds the decode took.
    compute_s: float
    #: For :meth:`WhisperRecogniser.phrase_posterior`: (best score so far, seconds since the start)
    #: after each forced decode, so a benchmark can tell when any threshold was first reached.
    trail: tuple[tuple[float, float], ...] = ()
    #: The decode ran past the audio and came back to its start; the text is cut where it did
    #: (:func:`cut_restart`).
    looped: bool = False


def _looped(segments: Sequence[Any]) -> bool:
    return any(s.compression_ratio > LOOP_COMPRESSION_RATIO for s in segments)


def cut_restart(text: str) -> str:
    """Cut the text where it starts over: "Go forward ten. Go forward ten." -> "Go forward ten."

    Greedy decoding of a short context sometimes loops back to the beginning once the audio has run
    out; its first two words coming back with at least 40 % of the text after them mark the loop
    (a sentence that merely repeats two words near its end is left alone).
    """
    from appliance.audio.phrases import word_spans

    spans = word_spans(text)
    n = len(spans)

    def stem(word: str) -> str:
        # The loop comes back with small changes: "Open Claw, which room? Open Claws, which Room?"
        word = word.lower()
        return word[:-1] if len(word) > 3 and word.endswith("s") else word

    head = [stem(w) for w, _, _ in spans[:2]]
    for k in range(2, n - 1):
        if [stem(w) for w, _, _ in spans[k : k + 2]] == head and (n - k) / n >= 0.4:
            return text[: spans[k][1]].strip()
    return text


class WhisperRecogniser:
    """faster-whisper on the CPU, int8."""

    name = "whisper"

    def __init__(
        self,
        folder: Path,
        *,
        threads: int = 1,
        compute_type: str = "int8",
        short_context: bool = False,
        short_context_min_score: float = 0.0,
        short_context_s: float = 0.0,
        beam_size: int = 1,
    ) -> None:
        self.folder = folder
        #: The manifest name of the model (:meth:`from_manifest`; else the folder's name).
        self.model_name = folder.name
        #: CPU threads CTranslate2 uses for this recogniser: those asked for, or fewer when the
        #: environment's OMP_THREAD_LIMIT is lower.
        self.threads = granted_threads(threads)
        #: Transcribe questions up to SHORT_CONTEXT_MAX_S with a shortened encoder context (faster).
        self.short_context = short_context
        #: A shortened-context transcript whose mean token probability is below this is transcribed
        #: again with the full context (0: always kept).
        self.short_context_min_score = short_context_min_score
        #: Seconds of encoder context a shortened reading has at least (0: the audio and half a
        #: second); the rest is silence.
        self.short_context_s = short_context_s
        #: Hypotheses the decoder keeps while it reads a question (1: greedy). The wake check's
        #: windows are always read greedily.
        self.beam_size = beam_size
        self._model = _load(folder, self.threads, compute_type)
        from faster_whisper.tokenizer import Tokenizer

        self._tokenizer = Tokenizer(
            self._model.hf_tokenizer,
            self._model.model.is_multilingual,
            task="transcribe",
            language="en",
        )
        self._window_prompt = [*self._tokenizer.sot_sequence, self._tokenizer.no_timestamps]
        self._lock = threading.Lock()  # one CTranslate2 call at a time per model

    @classmethod
    def from_manifest(
        cls,
        name: str,
        models_dir: Path,
        *,
        threads: int = 1,
        short_context: bool = False,
        short_context_min_score: float = 0.0,
        short_context_s: float = 0.0,
        beam_size: int = 1,
    ) -> WhisperRecogniser:
        """Load the manifest's model ``name`` after verifying every file of it."""
        spec = load_manifest().get(name)
        recogniser = cls(
            model_dir(spec, models_dir),
            threads=threads,
            short_context=short_context,
            short_context_min_score=short_context_min_score,
            short_context_s=short_context_s,
            beam_size=beam_size,
        )
        recogniser.model_name = name
        return recogniser

    def transcribe(self, audio: Samples, *, vocabulary: Sequence[str] = ()) -> Transcript:
        """Transcribe one utterance; ``vocabulary`` becomes the initial prompt (a soft bias)."""
        started = time.perf_counter()
        if self.short_context and len(audio) <= SHORT_CONTEXT_MAX_S * SAMPLE_RATE:
            prompt_text = ", ".join(vocabulary)[:PROMPT_CHARS]
            tokens = max(24, int(len(audio) / SAMPLE_RATE * 6) + 16)  # ~3 words/s, 2 tokens/word
            # The decoder's length counts the prompt: a long vocabulary left no room for the
            # question (an empty transcript).
            tokens = min(MAX_DECODER_TOKENS, tokens + len(self.prompt_tokens(prompt_text)))
            window = self.decode_window(
                audio,
                max_tokens=tokens,
                bias=prompt_text,
                context_s=self.short_context_s,
                beam_size=self.beam_size,
            )
            # A reading that looped back to its start ran past the audio: which copy is the
            # question is a guess ("Open Claw, what is it made on?" kept for "… made of?").
            sure = window.score >= self.short_context_min_score and not window.looped
            if window.text and sure:
                return Transcript(
                    text=window.text,
                    engine=self.name,
                    audio_s=len(audio) / SAMPLE_RATE,
                    compute_s=time.perf_counter() - started,
                    shortened=True,
                    score=window.score,
                )
            # Heard unsurely: read again with the full context, which hears more right; a sure
            # transcript does not wait for it.
        x = audio.astype(np.float32) / 32768.0
        prompt = None
        if vocabulary:
            prompt = ", ".join(vocabulary)[:PROMPT_CHARS]
        segments = self._decode(x, prompt, repetition_penalty=1.0)
        if _looped(segments):
            # A loop: decoded again, once, with repeats penalised (and with it the cost of a
            # second pass, only here).
            segments = self._decode(x, prompt, repetition_penalty=LOOP_REPETITION_PENALTY)
        text = " ".join(t for t in (s.text.strip() for s in segments) if t).strip()
        if _looped(segments):
            # Still a loop: its repeats are cut from the text, so what was said before it
            # reaches the command parser and the search, not "open, open, open, ...".
            text = collapse_repeats(text, longest=LOOP_RUN_WORDS)
        return Transcript(
            text=text,
            engine=self.name,
            audio_s=len(audio) / SAMPLE_RATE,
            compute_s=time.perf_counter() - started,
        )

    def _decode(self, x: Any, prompt: str | None, *, repetition_penalty: float) -> list[Any]:
        with self._lock:
            segments, _ = self._model.transcribe(
                x,
                language="en",
                beam_size=self.beam_size,
                # One pass at temperature 0: the temperature fallback re-decodes garbage up to five
                # more times, which on a Pi costs seconds and rarely rescues a short question.
                temperature=0.0,
                condition_on_previous_text=False,
                repetition_penalty=repetition_penalty,
                initial_prompt=prompt,
                # No word timings: asking for them costs an alignment pass the pipeline does not
                # need.
                word_timestamps=False,
                vad_filter=False,
            )
            return list(segments)

    def prompt_tokens(self, text: str) -> list[int]:
        """A "previous text" prompt that biases decoding toward ``text`` (empty text: none)."""
        if not text:
            return []
        return [self._tokenizer.sot_prev, *self._tokenizer.encode(" " + text.strip())]

    def _encode(self, audio: Samples, context_s: float = 0.0) -> Any:
        import ctranslate2

        x = audio.astype(np.float32) / 32768.0
        feats = self._model.feature_extractor(x)
        # Context: the audio plus half a second, rounded up to 50 frames, at least ``context_s``;
        # never beyond 30 s.
        frames = max(
            ((feats.shape[1] + FRAMES_PER_S // 2 + 49) // 50) * 50, int(context_s * FRAMES_PER_S)
        )
        frames = min(3000, frames)
        feats = np.pad(feats, ((0, 0), (0, max(0, frames - feats.shape[1]))))[:, :frames]
        view = ctranslate2.StorageView.from_array(
            np.ascontiguousarray(feats[None], dtype=np.float32)
        )
        return self._model.model.encode(view, to_cpu=False)

    def encoder_states(self, audio: Samples) -> npt.NDArray[np.float32]:
        """The encoder's states ``[frames, width]`` for the audio itself (20 ms a frame), computed
        with the shortened context of :meth:`decode_window`; the wake word's contrast stage reads
        them (:mod:`appliance.audio.wake_contrast`)."""
        with self._lock:
            encoded = np.asarray(self._encode(audio))[0]
        # Two mel frames (10 ms each) per encoder state.
        frames = len(audio) * FRAMES_PER_S // SAMPLE_RATE // 2
        return np.ascontiguousarray(encoded[:frames], dtype=np.float32)

    def decode_window(
        self,
        audio: Samples,
        *,
        max_tokens: int = 24,
        bias: str = "",
        verify: str = "",
        context_s: float = 0.0,
        beam_size: int = 1,
    ) -> WindowResult:
        """Decode of a short window with a shortened encoder context (wake spotting; greedy unless
        ``beam_size`` says otherwise, as for a question read with the shortened context).

        ``bias`` is given to the decoder as previous text: it pulls ambiguous audio toward those words
        (lowering false rejects and raising false accepts). When the decoded text contains ``verify``,
        the result's score is the phrase's own posterior instead (:meth:`_phrase_posterior`), which is
        what separates "open claw" from "open clause" once the bias has done its work.
        ``context_s``: the encoder reads at least this many seconds (the audio, then silence).
        """
        started = time.perf_counter()
        with self._lock:
            encoded = self._encode(audio, context_s)
            result = self._model.model.generate(
                encoded,
                [self.prompt_tokens(bias) + self._window_prompt],
                beam_size=beam_size,
                max_length=max_tokens,
                return_scores=True,
                suppress_blank=True,
                no_repeat_ngram_size=3,
            )[0]
            tokens = [t for t in result.sequences_ids[0] if t < self._tokenizer.eot]
            decoded = self._tokenizer.decode(tokens).strip()
            text = cut_restart(decoded)
            score = float(np.exp(result.scores[0])) if result.scores else 0.0
            if verify:
                score = self._phrase_posterior(encoded, text, verify)
        return WindowResult(text, score, time.perf_counter() - started, looped=text != decoded)

    def phrase_posterior(
        self, audio: Samples, phrase: str, *, enough: float | None = None
    ) -> WindowResult:
        """How well the phrase fits anywhere in a short window (the wake verifier's score).

        The phrase's tokens are forced at the start of the window; then the window is decoded
        greedily without bias and the phrase is forced after each of the last
        :data:`VERIFY_POSITIONS` words of that text as well (the window ends where the keyword
        model fired, so the phrase is near its end). The best geometric-mean probability counts
        (:meth:`_forced_posteriors`). Unlike ``decode_window``'s ``verify``, this does not need
        the greedy text to contain the phrase: whisper tiny.en often writes "open claw" as "Open
        floor" or "Okun Claw", yet still gives the phrase a probability far above what ordinary
        speech gets.

        The start comes first because it is where the phrase fits best: on the validation clips
        it alone reached the verifier's threshold for 65 of the 66 positives any place confirmed.
        With ``enough`` the search stops once a place reaches it, so most wakes are confirmed
        after the encoder and one decoder call, without the greedy decode; a rejection pays for
        the greedy decode and one batched call for the other places.
        """
        from appliance.audio.phrases import word_spans

        started = time.perf_counter()
        text = ""
        with self._lock:
            encoded = self._encode(audio)
            best = self._forced_posteriors(encoded, [""], phrase)[0]
            trail = [(best, time.perf_counter() - started)]
            if enough is None or best < enough:
                result = self._model.model.generate(
                    encoded,
                    [self._window_prompt],
                    beam_size=1,
                    max_length=16,  # a wake window (1.2 s) holds ~4 words
                    suppress_blank=True,
                    no_repeat_ngram_size=3,
                )[0]
                tokens = [t for t in result.sequences_ids[0] if t < self._tokenizer.eot]
                text = cut_restart(self._tokenizer.decode(tokens).strip())
                ends = [end for _, _, end in word_spans(text)[-VERIFY_POSITIONS:]]
                # After n-2, n-1 and n words (n = words in the text), without repeats; one
                # batched decoder call for all of them.
                places = [text[:end].strip() for end in dict.fromkeys(ends) if end > 0]
                if places:
                    best = max(best, *self._forced_posteriors(encoded, places, phrase))
                    trail.append((best, time.perf_counter() - started))
        return WindowResult(text, best, time.perf_counter() - started, tuple(trail))

    def _phrase_posterior(self, encoded: Any, text: str, phrase: str) -> float:
        """Geometric-mean probability of the phrase's tokens where the decode put it, without bias.

        The words the decode found before the phrase are forced as a prefix
        (:meth:`_forced_posteriors`). 0.0 when the phrase is not in ``text``.
        """
        from appliance.audio.phrases import find_phrase, word_spans

        spans = word_spans(text)
        match = find_phrase([w for w, _, _ in spans], phrase)
        if match is None:
            return 0.0
        return self._forced_posteriors(encoded, [text[: spans[match.start][1]].strip()], phrase)[0]

    def phrase_logprobs(self, audio: Samples, phrases: Sequence[str]) -> list[float]:
        """Log-probability of each phrase's tokens forced at the window's start (best spelling).

        Rival phrasings compared on one window ("open claw" against "open clause" and its kind:
        ``bench/studies/audio_wake_ceiling.py``); one encoder call and one batched decoder call.
        """
        with self._lock:
            encoded = self._encode(audio)
            forced = self._forced(encoded, [("", phrase) for phrase in phrases])
        return [max(logp for logp, _ in spellings) for spellings in forced]

    def _forced_posteriors(self, encoded: Any, befores: Sequence[str], phrase: str) -> list[float]:
        """Geometric-mean probability of the phrase's tokens forced after each of ``befores``.

        The phrase is forced in two spellings ("Open Claw", "open claw"); the better one counts.
        Every (place, spelling) is one prompt of a single batched decoder call: the same
        probabilities as one call each (``tests/audio/test_verify.py`` compares them), at a
        fraction of the time.
        """
        forced = self._forced(encoded, [(before, phrase) for before in befores])
        return [
            max((float(np.exp(logp / n)) for logp, n in spellings if n), default=0.0)
            for spellings in forced
        ]

    def _forced(
        self, encoded: Any, places: Sequence[tuple[str, str]]
    ) -> list[list[tuple[float, int]]]:
        """(log-probability, token count) of each (words before, phrase) in both spellings.

        A prompt the decoder did not run far enough gives (-inf, 0).
        """
        sequences = []
        for before, phrase in places:
            prefix = self._tokenizer.encode(" " + before) if before else []
            for spelling in (" " + phrase.title(), " " + phrase):
                sequences.append((prefix, self._tokenizer.encode(spelling)))
        scored = self._forced_tokens(encoded, sequences)
        return [scored[k : k + 2] for k in range(0, len(scored), 2)]

    def texts_logprobs(self, audio: Samples, texts: Sequence[str]) -> list[float]:
        """Log-probability that ``audio`` says exactly each of ``texts``, start to end.

        Each text's tokens and the end of text are forced from the window's start: one encoder
        call and one batched decoder call. Whole utterances of different lengths compare fairly
        (a text that stops early pays for the end of text where speech goes on), which is what
        choosing among the commands a person can say needs (:mod:`appliance.audio.grammar`).
        """
        with self._lock:
            encoded = self._encode(audio)
            return [logp for logp, _ in self._forced_tokens(encoded, self._whole_texts(texts))]

    def texts_evidence(
        self, audio: Samples, texts: Sequence[str], baseline: Samples
    ) -> list[float]:
        """How much more probable each whole text is for ``audio`` than for ``baseline`` (natural
        log), e.g. the question's audio against a quiet room of the same length.

        The same figures as :meth:`texts_logprobs` on each and subtracted, in one batched decoder
        call: a fifth less time than two.
        """
        if len(baseline) != len(audio):
            raise ValueError("the baseline must be as long as the audio")
        sequences = self._whole_texts(texts)
        with self._lock:
            encoded = np.asarray(self._encode(audio))
            quiet = np.asarray(self._encode(baseline))
            both = np.concatenate(
                [np.repeat(encoded, len(texts), axis=0), np.repeat(quiet, len(texts), axis=0)]
            )
            scored = self._forced_tokens(both, [*sequences, *sequences])
        said, prior = scored[: len(texts)], scored[len(texts) :]
        return [a - b for (a, _), (b, _) in zip(said, prior, strict=True)]

    def _whole_texts(self, texts: Sequence[str]) -> list[tuple[list[int], list[int]]]:
        """Each text forced whole from the window's start, to its end of text."""
        return [
            ([], [*self._tokenizer.encode(" " + t.strip()), self._tokenizer.eot]) for t in texts
        ]

    def _forced_tokens(
        self, encoded: Any, sequences: Sequence[tuple[list[int], list[int]]]
    ) -> list[tuple[float, int]]:
        """(log-probability, count) of each sequence's forced tokens after its prefix tokens.

        ``encoded`` is one window's encoding, or one per sequence. A sequence the decoder did not
        run far enough gives (-inf, 0).
        """
        import ctranslate2

        prompts = [self._window_prompt + prefix + forced for prefix, forced in sequences]
        states = np.asarray(encoded)
        if states.shape[0] != len(prompts):
            states = np.repeat(states, len(prompts), axis=0)
        batch = ctranslate2.StorageView.from_array(np.ascontiguousarray(states))
        # CTranslate2 counts max_length in a way that includes part of the prompt: twice the
        # forced tokens is enough for their positions (checked below, never assumed), and every
        # step past them would be decoded for nothing.
        longest = max(len(prefix) + len(forced) for prefix, forced in sequences)
        outs = self._model.model.generate(
            batch, prompts, beam_size=1, max_length=2 * longest + 2, return_logits_vocab=True
        )
        results: list[tuple[float, int]] = []
        for out, (prefix, forced) in zip(outs, sequences, strict=True):
            steps = out.logits[0]
            n = len(prefix)
            if len(steps) < n + len(forced):
                results.append((float("-inf"), 0))
                continue
            logp = 0.0
            for i, token in enumerate(forced):
                logits = np.asarray(steps[n + i], dtype=np.float64)
                logits -= logits.max()
                logp += float(logits[token] - np.log(np.exp(logits).sum()))
            results.append((logp, len(forced)))
        return results
