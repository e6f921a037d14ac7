"""The voice front end the service drives: wake → listen → transcribe, and speak.

One pump task reads the audio source into a bounded queue (a live microphone drops its oldest chunks
when nobody reads; a fast WAV replay waits instead, so nothing is skipped). :meth:`next_utterance`
waits for the wake phrase or push-to-talk, captures the question until trailing silence or the time
limit, transcribes it and parses it into a command. :meth:`speak` speaks a stream of text while the
wake detector keeps listening: the wake phrase (or :meth:`interrupt`, the button) cuts it short, and a
wake heard during speech starts the next utterance without being heard twice.

Events (with monotonic timestamps): WAKE_DETECTED, WAKE_REJECTED, LISTENING, TRANSCRIPT_PARTIAL,
TRANSCRIPT_FINAL, SPEAKING, IDLE, ERROR.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections.abc import AsyncIterable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from appliance.audio.base import (
    SAMPLE_RATE,
    AudioSource,
    Recogniser,
    Samples,
    Timings,
    Transcript,
    WakeDetection,
    WakeDetector,
    Word,
)
from appliance.audio.bias import QUESTION_WORDS, question_prompt
from appliance.audio.commands import parse_command
from appliance.audio.early import EarlyTranscriber
from appliance.audio.engines.vosk import BiasedVoskStream, VoskRecogniser, VoskStream
from appliance.audio.grammar import GrammarChoice, SentenceScorer, choose_command
from appliance.audio.heard_names import EvidenceScorer, NameChoice, choose_name_in_question
from appliance.audio.phrases import phrase_glued, split_after_phrase
from appliance.audio.ring import PreRoll
from appliance.audio.settings import AudioSettings
from appliance.audio.tts import Speaker, SpeechReport
from appliance.audio.utterance import Utterance
from appliance.audio.vad import FRAME, Endpointer, EndReason, EnergyVad
from appliance.audio.wake_window import WakeWindow
from appliance.errors import OpenClawError
from appliance.events import Event, EventBus, EventType

log = logging.getLogger(__name__)

#: Phrases every question recogniser is biased toward (where the engine allows): the commands.
COMMAND_HINTS = ("scan this", "remember that", "which room", "switch to", "repeat", "stop")
#: Seconds of trailing silence kept at the end of a question (recognisers like a little).
KEEP_TRAILING_S = 0.2
#: Wake detectors that place the phrase from a score (the keyword model, alone or checked by
#: whisper): where the phrase ended is an estimate, so their capture holds the whole phrase.
KEYWORD_DETECTORS = ("kws", "kws+whisper")
#: Seconds of audio kept before a keyword detection's estimated phrase start (a slow "open").
PHRASE_MARGIN_S = 0.4


def _rejected(wake: WakeDetector) -> int:
    """Candidates the detector has turned down so far (0 for detectors that do not count them)."""
    count = getattr(wake, "rejected", 0)
    return count if isinstance(count, int) else 0


@dataclass(frozen=True)
class Heard:
    """What one capture was heard as."""

    #: The recogniser's transcript of the whole capture.
    transcript: Transcript
    #: The words after the wake phrase, as the command parser reads them (the grammar's sentence
    #: when it chose one).
    text: str
    #: The command grammar's choice (None: not scored).
    grammar: GrammarChoice | None
    #: ``time.monotonic()`` when the transcript was final.
    transcribed_at: float
    #: The transcript shows the wake phrase inside other words: the utterance is dropped.
    glued: bool = False
    #: What the audio said of the index's names put forward (None: none put forward).
    names: NameChoice | None = None


@dataclass
class _Chunk:
    samples: Samples
    end: int  # stream index just past the chunk
    arrived: float  # time.monotonic() when the pump got it


class VoiceFrontEnd:
    """Wake word, question capture, transcription and speech for the service to drive."""

    def __init__(
        self,
        source: AudioSource,
        wake: WakeDetector,
        recogniser: Recogniser,
        speaker: Speaker,
        *,
        settings: AudioSettings | None = None,
        bus: EventBus | None = None,
        vocabulary: Callable[[], Sequence[str]] | None = None,
        rooms: Callable[[], Sequence[str]] | None = None,
    ) -> None:
        self.source = source
        self.wake = wake
        self.recogniser = recogniser
        self.speaker = speaker
        self.settings = settings or AudioSettings()
        self.bus = bus
        self._vocabulary = vocabulary
        self._rooms = rooms
        self._live = bool(getattr(source, "live", True))
        self._wake_lock = threading.Lock()
        chunk_s = self.settings.chunk_ms / 1000
        self._queue: asyncio.Queue[_Chunk | BaseException | None] = asyncio.Queue(
            maxsize=max(4, int(self.settings.preroll_s / chunk_s))
        )
        self._preroll = PreRoll(
            int((self.settings.preroll_s + self.settings.max_question_s) * SAMPLE_RATE)
        )
        self._pump: asyncio.Task[None] | None = None
        self._ptt = asyncio.Event()
        self._pending: WakeDetection | None = None
        self._ended = False
        #: Chunks a live source produced while nobody was listening (dropped, oldest first).
        self.dropped_chunks = 0
        #: Utterances completed.
        self.utterances = 0

    # -- plumbing -------------------------------------------------------------------------------
    def _publish(self, kind: EventType, **data: Any) -> None:
        if self.bus is not None:
            self.bus.publish(Event(kind, data))

    def _refuse(self, wake: WakeDetection, heard: str, **why: Any) -> None:
        """A wake the question's hearing shows was a near-miss: say why, and go back to idle."""
        self._publish(
            EventType.WAKE_REJECTED,
            detector=wake.detector,
            score=round(wake.score, 4),
            heard=heard,
            **why,
        )
        self._publish(EventType.IDLE)

    async def start(self) -> None:
        """Start reading the source (idempotent)."""
        if self._pump is None:
            self._pump = asyncio.create_task(self._run_pump(), name="audio-pump")

    async def close(self) -> None:
        """Stop reading and close the source."""
        self.source.close()
        self.speaker.interrupt()
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
            self._pump = None

    async def _run_pump(self) -> None:
        end = 0
        try:
            async for samples in self.source.chunks():
                end += len(samples)
                item = _Chunk(samples, end, time.monotonic())
                if self._live:
                    if self._queue.full():
                        self._queue.get_nowait()
                        self.dropped_chunks += 1
                    self._queue.put_nowait(item)
                else:
                    await self._queue.put(item)
        except asyncio.CancelledError:
            raise
        except BaseException as err:  # handed to the reader, which raises it in its own task
            await self._queue.put(err)
            return
        await self._queue.put(None)

    async def _next_chunk(self) -> _Chunk | None:
        if self._ended:
            return None
        item = await self._queue.get()
        if item is None:
            self._ended = True
            return None
        if isinstance(item, BaseException):
            self._ended = True
            if isinstance(item, OpenClawError):
                self._publish(
                    EventType.ERROR, code=item.code, message=item.message, stage="audio-source"
                )
            raise item
        self._preroll.append(item.samples)
        return item

    def status(self) -> dict[str, object]:
        """Health figures for the status page."""
        out: dict[str, object] = {
            "source": self.source.status(),
            "dropped_chunks": self.dropped_chunks,
            "utterances": self.utterances,
            "wake_detector": getattr(self.wake, "name", "?"),
            "recogniser": getattr(self.recogniser, "name", "?"),
            "voice": self.speaker.tts.name,
        }
        # Wakes a second stage (or Vosk's confidence threshold) turned down: the figure to watch
        # when the appliance seems deaf, or wakes too often.
        for key in ("confirmed", "rejected", "rejected_by_contrast"):
            if isinstance(getattr(self.wake, key, None), int):
                out[f"wake_{key}"] = getattr(self.wake, key)
        return out

    # -- listening ------------------------------------------------------------------------------
    def push_to_talk(self) -> None:
        """Skip the wake word: the next chunk starts a question (the button)."""
        self._ptt.set()

    async def _feed_wake(self, chunk: _Chunk) -> WakeDetection | None:
        # Recognisers are CPU-bound: run them off the loop so events and the web page stay live. The
        # lock matters when a cancelled barge-in watcher's thread is still finishing its chunk.
        def feed() -> tuple[WakeDetection | None, int]:
            with self._wake_lock:
                before = _rejected(self.wake)
                detection = self.wake.feed(chunk.samples, chunk.end)
                return detection, _rejected(self.wake) - before

        detection, rejected = await asyncio.to_thread(feed)
        if rejected > 0:
            # A first stage fired and the second turned it down (or Vosk's confidence threshold
            # did): counted on the status page, the figure to watch when the appliance seems deaf.
            last = getattr(self.wake, "last", None)
            contrast = getattr(self.wake, "last_contrast", None)
            self._publish(
                EventType.WAKE_REJECTED,
                detector=getattr(self.wake, "name", "?"),
                score=round(float(getattr(last, "score", 0.0)), 6),
                heard=str(getattr(last, "text", "")),
                # Set when whisper confirmed and the contrast stage turned the wake down.
                **({} if contrast is None else {"contrast": round(float(contrast), 4)}),
            )
        return detection

    async def _wait_for_wake(self) -> tuple[WakeDetection, _Chunk | None] | None:
        if self._pending is not None:
            wake, self._pending = self._pending, None
            return wake, None
        while True:
            chunk = await self._next_chunk()
            if chunk is None:
                return None
            if self._ptt.is_set():
                self._ptt.clear()
                with self._wake_lock:
                    self.wake.reset()
                start = chunk.end - len(chunk.samples)
                wake = WakeDetection(
                    "", 1.0, "push-to-talk", start, start, chunk.end, "", time.monotonic()
                )
                return wake, chunk
            detection = await self._feed_wake(chunk)
            if detection is not None:
                return detection, chunk

    async def next_utterance(self) -> Utterance | None:
        """Wait for the wake phrase (or push-to-talk), capture and transcribe the question.

        None when the source has ended.
        """
        await self.start()
        while True:
            timings = Timings()
            got = await self._wait_for_wake()
            if got is None:
                return None
            utterance = await self._listen(*got, timings)
            if utterance is not None:  # None: the phrase was heard inside other words
                self.utterances += 1
                return utterance

    async def _listen(
        self, wake: WakeDetection, chunk: _Chunk | None, timings: Timings
    ) -> Utterance | None:
        """Capture and hear the question after one wake (None: dropped, the phrase glued)."""
        timings.mark("wake", wake.monotonic)
        latency: dict[str, float] = {}
        if wake.detector != "push-to-talk":
            lag = (time.monotonic() - chunk.arrived) if chunk is not None else 0.0
            latency["wake_after_phrase_s"] = (
                wake.detected_at_sample - wake.end_sample
            ) / SAMPLE_RATE + lag
        self._publish(
            EventType.WAKE_DETECTED,
            phrase=wake.phrase,
            score=round(wake.score, 4),
            detector=wake.detector,
            latency_s=round(latency.get("wake_after_phrase_s", 0.0), 4),
            reason=wake.reason,
        )
        if wake.trailing_text:
            self._publish(
                EventType.TRANSCRIPT_PARTIAL, text=wake.trailing_text, engine=wake.detector
            )
        self._publish(EventType.LISTENING, push_to_talk=wake.detector == "push-to-talk")
        timings.mark("listening")
        try:
            utterance = await self._capture(wake, timings, latency)
        except OpenClawError as err:
            self._publish(EventType.ERROR, code=err.code, message=err.message, stage="transcribe")
            self._publish(EventType.IDLE)
            raise
        return utterance

    def _capture_start(self, wake: WakeDetection) -> int:
        # Whisper detections only know the window that held the phrase: capture it all and cut the
        # phrase from the text. The keyword model only estimates where the phrase ended, and may
        # fire inside "claw" or after the question has begun ("open claw what ..." in one
        # breath): a capture that started at its estimate began with a piece of "claw" ("the law,
        # scan this") or without the question's first word. So it too takes the whole phrase and
        # the text is cut after it (decision 0031). Vosk knows where the phrase ended to the frame.
        if wake.detector == "whisper-window":
            return wake.start_sample
        if wake.detector in KEYWORD_DETECTORS:
            return max(0, wake.start_sample - int(PHRASE_MARGIN_S * SAMPLE_RATE))
        return wake.end_sample

    async def _capture(
        self, wake: WakeDetection, timings: Timings, latency: dict[str, float]
    ) -> Utterance | None:
        s = self.settings
        start = self._capture_start(wake)
        vad = EnergyVad(s.vad_threshold_db)
        # Prime the noise floor on what came before the phrase.
        before = self._preroll.since(self._preroll.start)[: max(0, start - self._preroll.start)]
        vad.feed(before[-SAMPLE_RATE * 2 :])
        endpointer = Endpointer(vad, s.trailing_silence_s, s.max_question_s, s.no_speech_timeout_s)
        head = self._preroll.since(start)
        # Audio already heard after the phrase counts for the endpointer too.
        after_wake = self._preroll.since(max(start, wake.end_sample))
        parts: list[Samples] = [head]
        finals: list[str] = []
        final_words: list[Word] = []
        stream_compute = 0.0
        reason = endpointer.feed(after_wake) if len(after_wake) else None
        # The wake phrase leads the bias list when the capture holds it (whisper windows, the
        # keyword model; people say it to the button too): it must come out spelled so that it
        # can be cut from the text. A capture that starts after the phrase (Vosk) goes without it:
        # as the prompt's lead it makes whisper "continue" the phrase ("the law, let's talk ...").
        with_phrase = start < wake.end_sample or wake.detector == "push-to-talk"
        # One prompt of the terms written as they are said, within whisper's budget: the raw list
        # (upper-case titles, file-name spellings, cut at 600 characters) made whisper write
        # questions in capitals and garble them (bench/audio_questions.py).
        index_terms = self._vocabulary() if self._vocabulary else []
        prompt = question_prompt(
            COMMAND_HINTS,
            self.settings.vocabulary,
            index_terms,
            phrase=self.settings.wake_phrase.title() if with_phrase else None,
        )
        vocabulary = [prompt] if prompt else []
        stream: VoskStream | BiasedVoskStream | None = None
        if isinstance(self.recogniser, VoskRecogniser):
            # Vosk hears the index's names in a second, grammar-limited stream (vosk_bias.py),
            # made off the loop: Vosk compiles the grammar as it makes the recogniser (~80 ms on
            # two x86 cores, bench/audio_vosk_bias.py).
            names = [*self.settings.vocabulary, *index_terms] if s.vosk_question_bias else []
            stream = await asyncio.to_thread(
                self.recogniser.question_stream, names, (*COMMAND_HINTS, *QUESTION_WORDS)
            )
        if stream is not None and len(head):
            stream.accept(head)
        # The endpointer hears the capture from the phrase's end on: where its audio starts in it.
        speech_offset = len(head) - len(after_wake)
        keep = int(KEEP_TRAILING_S * SAMPLE_RATE)
        # Whisper's hearing of the capture: the transcript, the words after the phrase and the
        # command grammar's choice, in one worker-thread call that can run early (early.py).
        hear = functools.partial(
            self._hear,
            vocabulary=vocabulary,
            rooms=list(self._rooms()) if self._rooms else [],
            names=index_terms if s.heard_names else [],
            trailing_text=wake.trailing_text,
            # A button press is not a wake word, and a capture without the phrase cannot show it.
            check_glued=s.wake_glued_check and with_phrase and wake.detector != "push-to-talk",
        )
        early = EarlyTranscriber(hear, keep) if stream is None and s.early_transcription else None
        # The audio around a keyword detection's phrase, heard again without the prompt (which
        # leads with the phrase, and whisper imitates it) as soon as it has arrived: while the
        # question is still being said.
        window = (
            WakeWindow.around(wake)
            if s.wake_window_check and stream is None and wake.detector in KEYWORD_DETECTORS
            else None
        )
        if window is not None:
            window.offer(self._preroll, self.recogniser)
        while reason is None:
            chunk = await self._next_chunk()
            if chunk is None:
                reason = EndReason.STREAM_ENDED
                break
            parts.append(chunk.samples)
            if window is not None:
                window.offer(self._preroll, self.recogniser)
            if stream is not None:
                t0 = time.perf_counter()
                update = await asyncio.to_thread(stream.accept, chunk.samples)
                stream_compute += time.perf_counter() - t0
                if update.final:
                    finals.append(update.text)
                    final_words.extend(update.words)
                elif update.text:
                    self._publish(EventType.TRANSCRIPT_PARTIAL, text=update.text, engine="vosk")
            reason = endpointer.feed(chunk.samples)
            paused = endpointer.speech_started and endpointer.trailing_silence_frames > 0
            if early is not None and reason is None and paused:
                early.offer(parts, speech_offset + endpointer.speech_end + keep)
        timings.mark("capture_end")
        if self.settings.end_cue and reason != EndReason.NO_SPEECH:
            timings.mark("cue", self.speaker.cue())
        audio = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int16)
        if endpointer.speech_started and endpointer.trailing_silence_frames * FRAME >= keep:
            # Ended in a pause (the endpointer's silence, or the stream's end): the last speech
            # and a little silence (recognisers like some), to the sample, as the early run has it.
            audio = audio[: speech_offset + endpointer.speech_end + keep]
        if reason == EndReason.NO_SPEECH and not wake.trailing_text:
            hearing = Heard(
                Transcript("", engine=self.recogniser.name, audio_s=len(audio) / SAMPLE_RATE),
                "",
                None,
                time.monotonic(),
            )
        elif stream is not None:
            final = await asyncio.to_thread(stream.finish)
            texts = [t for t in (*finals, final.text) if t]
            heard_words: tuple[Word, ...] = (*final_words, *final.words)
            if isinstance(stream, BiasedVoskStream):
                heard_words = stream.spliced(heard_words)
                texts = [w.text for w in heard_words]
            transcript = Transcript(
                " ".join(texts),
                heard_words,
                "vosk",
                len(audio) / SAMPLE_RATE,
                stream_compute,
            )
            hearing = Heard(
                transcript,
                self._after_phrase(transcript.text, wake.trailing_text),
                None,
                time.monotonic(),
            )
        elif early is not None:
            hearing = await early.result(audio)
            latency["early_runs"] = float(early.started)
            latency["early_used"] = float(early.used)
        else:
            hearing = await asyncio.to_thread(hear, audio)
        if hearing.glued:
            # "reopen claw ...": a near-miss the detector could not tell; no answer, no "Yes?".
            self._refuse(wake, hearing.transcript.text, glued=True)
            return None
        if window is not None:
            waited = time.monotonic()
            near_miss = await window.heard(self._preroll, self.recogniser)
            # What the check added to the answer's wait (0 when it was done before the question).
            latency["window_wait_s"] = time.monotonic() - waited
            latency["window_check_s"] = window.compute_s
            if near_miss is not None:
                # "oven claw ...", "reopen claw": heard unprompted, no answer, no "Yes?".
                self._refuse(wake, hearing.transcript.text, window=near_miss)
                return None
        # Heard early, the text was ready before the question ended: no wait at all.
        timings.mark("transcribed", max(hearing.transcribed_at, timings.marks["capture_end"]))
        timings.mark("understood", max(time.monotonic(), timings.marks["transcribed"]))
        transcript, text, grammar = hearing.transcript, hearing.text, hearing.grammar
        command = parse_command(text)
        latency["transcribe_s"] = timings.between("capture_end", "transcribed") or 0.0
        latency["grammar_s"] = timings.between("transcribed", "understood") or 0.0
        latency["question_s"] = len(audio) / SAMPLE_RATE
        self._publish(
            EventType.TRANSCRIPT_FINAL,
            text=text,
            command=str(command.kind),
            argument=command.argument,
            engine=transcript.engine,
            end_reason=str(reason),
            audio_s=round(len(audio) / SAMPLE_RATE, 3),
            transcribe_s=round(latency["transcribe_s"], 4),
            heard=transcript.text,
            # Whisper kept its shortened-context reading (heard surely), and how surely.
            shortened=transcript.shortened,
            short_score=round(transcript.score, 3),
            grammar=None if grammar is None else round(grammar.lead, 2),
            # The name the audio was asked about, and how well it did against the free text.
            name=None
            if hearing.names is None or hearing.names.best is None
            else hearing.names.best.name,
            name_lead=None if hearing.names is None else round(hearing.names.lead, 2),
        )
        if command.kind.value == "empty":
            self._publish(EventType.IDLE)
        heard = self._preroll.since(min(wake.start_sample, start))
        return Utterance(
            wake,
            transcript,
            text,
            command,
            reason,
            len(audio) / SAMPLE_RATE,
            dict(timings.marks),
            latency,
            heard,
            grammar,
            hearing.names,
        )

    def _hear(
        self,
        audio: Samples,
        *,
        vocabulary: Sequence[str],
        rooms: Sequence[str],
        trailing_text: str,
        names: Sequence[str] = (),
        check_glued: bool = False,
    ) -> Heard:
        """Whisper's transcript of one capture, the words after the wake phrase, for a short
        utterance the command grammar's choice, and for a question the index's ``names`` heard
        again (run in a worker thread); ``check_glued``: a transcript with the phrase inside
        other words is marked and heard no further."""
        transcript = self.recogniser.transcribe(audio, vocabulary=vocabulary)
        transcribed_at = time.monotonic()
        if check_glued and phrase_glued(transcript.text, self.settings.wake_phrase):
            return Heard(transcript, "", None, transcribed_at, glued=True)
        text = self._after_phrase(transcript.text, trailing_text)
        grammar = None
        if self.settings.command_grammar:
            grammar = self._hear_as_command(audio, transcript.text, text, rooms)
            if grammar is not None:
                text = grammar.text
        heard_names = self._hear_names(audio, transcript.text, text, names)
        if heard_names is not None:
            text = heard_names.text
        return Heard(transcript, text, grammar, transcribed_at, names=heard_names)

    def _after_phrase(self, heard: str, trailing_text: str) -> str:
        """The words after the wake phrase. The phrase is cut whatever started the capture:
        people say it to the button too."""
        found, text = split_after_phrase(heard, self.settings.wake_phrase)
        if not found and not text and trailing_text:
            return trailing_text
        return text

    def _hear_as_command(
        self, audio: Samples, heard: str, after: str, rooms: Sequence[str]
    ) -> GrammarChoice | None:
        """The command grammar's choice for a short utterance (None when not scored).

        A failure of the scoring call is logged and the free text stands: the grammar only ever
        corrects a transcript, so losing it must not lose the question.
        """
        if not isinstance(self.recogniser, SentenceScorer):
            return None
        try:
            return choose_command(
                self.recogniser, audio, heard, after, rooms, phrase=self.settings.wake_phrase
            )
        except Exception:
            log.exception("command grammar failed; the transcript stands")
            return None

    def _hear_names(
        self, audio: Samples, heard: str, question: str, names: Sequence[str]
    ) -> NameChoice | None:
        """The index's names heard again in a question (None when none was put forward).

        A failure of the scoring call is logged and the free text stands, as for the grammar.
        """
        if not names or not isinstance(self.recogniser, EvidenceScorer):
            return None
        try:
            return choose_name_in_question(self.recogniser, audio, heard, question, names)
        except Exception:
            log.exception("hearing the names again failed; the transcript stands")
            return None

    # -- speaking -------------------------------------------------------------------------------
    def interrupt(self) -> None:
        """Stop speaking now (the stop button)."""
        self.speaker.interrupt()

    async def _watch_for_wake(self) -> None:
        while True:
            chunk = await self._next_chunk()
            if chunk is None:
                return
            detection = await self._feed_wake(chunk)
            if detection is not None:
                self._pending = detection
                self.speaker.interrupt()
                return

    async def speak(self, text_stream: AsyncIterable[str]) -> SpeechReport:
        """Speak streamed text sentence by sentence; the wake phrase or :meth:`interrupt` cuts it short."""
        await self.start()
        self._publish(EventType.SPEAKING)
        watcher = asyncio.create_task(self._watch_for_wake(), name="barge-in")
        try:
            report = await self.speaker.speak(text_stream)
        except OpenClawError as err:
            self._publish(EventType.ERROR, code=err.code, message=err.message, stage="speak")
            raise
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, OpenClawError):
                await watcher
        first = (
            None if report.first_audio is None else round(report.first_audio - report.started, 4)
        )
        self._publish(
            EventType.IDLE,
            spoken=len(report.spoken),
            interrupted=report.interrupted,
            barge_in=self._pending is not None,
            first_audio_s=first,
        )
        return report
