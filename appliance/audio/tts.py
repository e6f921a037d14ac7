"""Speech out: the espeak-ng wrapper, sentence splitting of a streamed answer, and the speaker.

Piper voices are in ``piper.py``; both are :class:`Synthesizer` s to the speaker.

espeak-ng is called with an explicit argv (the text goes through stdin, never the command line, so a
sentence starting with "-" is not an option), a timeout, and its WAV read from stdout. Sentences are
synthesised one ahead of playback, so the first one is heard while the answer is still streaming, and
the whole thing stops within one chunk when interrupted (wake word or the stop button).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import shutil
import subprocess
import time
from collections.abc import AsyncIterable, AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import soundfile as sf

from appliance.audio.base import AudioSink, Samples
from appliance.audio.errors import TtsError

#: The program.
ESPEAK = "espeak-ng"
#: Oldest version tested (Debian bookworm ships 1.51).
MIN_VERSION = (1, 49)
_FIX = "install it with: apt-get install espeak-ng"


def _version(text: str) -> tuple[int, ...] | None:
    match = re.search(r"(\d+)\.(\d+)", text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def check_espeak(binary: str = ESPEAK) -> tuple[bool, str, str]:
    """For ``doctor``: (ok, what was found, how to fix it)."""
    path = shutil.which(binary)
    if path is None:
        return False, f"{binary} not found on PATH", _FIX
    try:
        out = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as err:
        return False, f"{binary} --version failed ({err})", _FIX
    version = _version(out)
    if version is None:
        return False, f"{binary}: unrecognised version output", _FIX
    shown = ".".join(map(str, version))
    if version < MIN_VERSION:
        return False, f"{binary} {shown} is older than {'.'.join(map(str, MIN_VERSION))}", _FIX
    return True, f"{binary} {shown}", ""


class Synthesizer(Protocol):
    """What :class:`Speaker` needs of a voice: one sentence in, int16 samples and their rate out."""

    @property
    def name(self) -> str:
        """Engine and voice, as ``openclaw say`` and the logs show them."""
        ...

    @property
    def quick_start(self) -> bool:
        """Whether the first sentence is worth cutting at its first clause (a slow voice: the
        listener hears the first clause while the rest of the sentence is synthesised)."""
        ...

    @property
    def language(self) -> str:
        """The voice's espeak-ng language (``en-us``): which text it can say as written."""
        ...

    async def synthesize(self, text: str) -> tuple[Samples, int]:
        """Speak ``text``; TtsError (or a ModelError) when the voice cannot."""
        ...


class EspeakTts:
    """espeak-ng as an asynchronous synthesiser returning int16 samples and their rate."""

    def __init__(
        self,
        *,
        voice: str = "en-us",
        rate_wpm: int = 165,
        pitch: int = 50,
        timeout_s: float = 20.0,
        binary: str = ESPEAK,
    ) -> None:
        self.voice = voice
        self.rate_wpm = rate_wpm
        self.pitch = pitch
        self.timeout_s = timeout_s
        self.binary = binary

    @property
    def name(self) -> str:
        """``espeak-ng (<voice>)``."""
        return f"espeak-ng ({self.voice})"

    @property
    def quick_start(self) -> bool:
        """No: a sentence takes espeak-ng a few tens of milliseconds."""
        return False

    @property
    def language(self) -> str:
        """The espeak-ng voice's language."""
        return self.voice

    def argv(self) -> list[str]:
        """The exact command line (text comes on stdin)."""
        return [
            self.binary,
            "--stdout",
            "-b",
            "1",
            "-v",
            self.voice,
            "-s",
            str(self.rate_wpm),
            "-p",
            str(self.pitch),
        ]

    async def synthesize(self, text: str) -> tuple[Samples, int]:
        """Speak ``text`` into samples; TtsError if espeak-ng is missing, fails or times out."""
        try:
            proc = await asyncio.create_subprocess_exec(
                *self.argv(),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
        except FileNotFoundError:
            raise TtsError(f"{self.binary} is not installed; {_FIX}", code="tts_missing") from None
        try:
            out, err = await asyncio.wait_for(
                proc.communicate(text.encode("utf-8")), self.timeout_s
            )
        except TimeoutError:
            proc.kill()
            await proc.wait()
            raise TtsError(
                f"{self.binary} took longer than {self.timeout_s:g} s", code="tts_timeout"
            ) from None
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            raise
        if proc.returncode != 0:
            detail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise TtsError(f"{self.binary} exited with {proc.returncode}: {detail[0][:200]}")
        try:
            audio, rate = sf.read(io.BytesIO(out), dtype="int16")
        except (sf.LibsndfileError, RuntimeError) as error:
            raise TtsError(f"{self.binary} produced unreadable audio ({error})") from None
        return np.asarray(audio, dtype=np.int16).reshape(-1), int(rate)


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
#: Shorter pieces are joined to the next sentence (a lone "Yes." sounds clipped).
MIN_SENTENCE_CHARS = 12
#: Words whose full stop does not end a sentence ("rev. C", "fig. 3").
ABBREVIATIONS = {
    "rev",
    "no",
    "fig",
    "approx",
    "dr",
    "mr",
    "mrs",
    "ms",
    "vs",
    "etc",
    "eg",
    "ie",
    "max",
    "min",
    "nr",
}


def _ends_sentence(text_before: str) -> bool:
    words = text_before.rstrip().split()
    if not words:
        return False
    last = words[-1].rstrip(".").lower().replace(".", "")
    return last not in ABBREVIATIONS and len(text_before.strip()) >= MIN_SENTENCE_CHARS


async def sentences(text_stream: AsyncIterable[str]) -> AsyncIterator[str]:
    """Cut streamed text into sentences as soon as each one is complete."""
    buffer = ""
    async for piece in text_stream:
        buffer += piece
        while True:
            found = None
            for match in _SENTENCE_END.finditer(buffer):
                if _ends_sentence(buffer[: match.start()]):
                    found = match
                    break
            if found is None:
                break
            sentence, buffer = buffer[: found.start()].strip(), buffer[found.end() :]
            if sentence:
                yield sentence
    if buffer.strip():
        yield buffer.strip()


_CLAUSE_END = re.compile(r"(?<=[,;:])\s+")


def first_clause(sentence: str) -> tuple[str, str]:
    """``sentence`` cut after its first clause (comma, semicolon, colon), when both parts hold at
    least :data:`MIN_SENTENCE_CHARS` characters; else the whole sentence and ``""``."""
    for match in _CLAUSE_END.finditer(sentence):
        head, rest = sentence[: match.start()], sentence[match.end() :]
        if len(head) >= MIN_SENTENCE_CHARS:
            return (head, rest) if len(rest) >= MIN_SENTENCE_CHARS else (sentence, "")
    return sentence, ""


async def single(text: str) -> AsyncIterator[str]:
    """An async iterator over one string (for :meth:`Speaker.speak` with a finished answer)."""
    yield text


@dataclass
class SpeechReport:
    """What :meth:`Speaker.speak` did."""

    #: Sentences spoken to the end (a quick-start voice's first sentence as two pieces: its first
    #: clause, then the rest).
    spoken: list[str] = field(default_factory=list)
    #: Whether it was cut short.
    interrupted: bool = False
    #: ``time.monotonic()`` when the first audio was handed to the sink (None if none was).
    first_audio: float | None = None
    #: ``time.monotonic()`` when speaking began.
    started: float = 0.0
    #: Seconds of audio played.
    audio_s: float = 0.0


#: Sample rate of the cue tone.
CUE_RATE = 22050


def _cue_tone(seconds: float = 0.12, rate: int = CUE_RATE) -> Samples:
    """Two rising notes (660 then 990 Hz) at a quarter of full scale, faded in and out so that
    they do not click."""
    n = int(seconds * rate)
    t = np.arange(n) / rate
    pitch = np.where(t < seconds / 2, 660.0, 990.0)
    wave = np.sin(2 * np.pi * np.cumsum(pitch) / rate)
    fade = np.minimum(1.0, np.minimum(t, seconds - t) / 0.01)
    return (0.25 * 32767 * wave * fade).astype(np.int16)


#: The "heard you" tone played when a question ends (see :meth:`Speaker.cue`).
CUE_TONE = _cue_tone()


class Speaker:
    """Speaks a stream of text through a sink, a sentence ahead, interruptibly."""

    #: Texts up to this long are synthesised once and replayed ("Checking the drawings.", "Yes?").
    PHRASE_MAX_CHARS = 40
    #: How many such phrases are kept.
    PHRASES_KEPT = 16

    def __init__(
        self,
        tts: Synthesizer,
        sink: AudioSink,
        *,
        wording: Callable[[str], str] | None = None,
    ) -> None:
        self.tts = tts
        self.sink = sink
        #: What a sentence becomes before it is synthesised (:func:`sayable` for an English
        #: voice); None says the text as written.
        self.wording = wording
        self._stop = asyncio.Event()
        self._phrases: dict[str, tuple[Samples, int]] = {}

    async def prepare(self, text: str) -> None:
        """Synthesise a short fixed phrase now, so that saying it later sounds at once."""
        await self._synthesize(text)

    async def _synthesize(self, text: str) -> tuple[Samples, int]:
        """Synthesis, with the appliance's few fixed phrases kept so they sound at once."""
        if self.wording is not None:
            text = self.wording(text)
        if len(text) > self.PHRASE_MAX_CHARS:
            return await self.tts.synthesize(text)
        kept = self._phrases.get(text)
        if kept is None:
            kept = await self.tts.synthesize(text)
            if len(self._phrases) >= self.PHRASES_KEPT:
                self._phrases.pop(next(iter(self._phrases)))
            self._phrases[text] = kept
        return kept

    def cue(self) -> float:
        """Play the short rising tone that says "heard you" the moment a question ends, without
        waiting for it; returns ``time.monotonic()`` when it was handed to the sink.

        The answer comes after the transcription (0.4-0.8 s of whisper on two cores) and the
        search; the tone tells the listener at once that the question was taken, and is over long
        before the answer's first word."""
        self.sink.play(CUE_TONE, CUE_RATE)
        return time.monotonic()

    def interrupt(self) -> None:
        """Stop speaking now (safe to call when nothing is being spoken)."""
        self._stop.set()
        self.sink.stop()

    async def speak(self, text_stream: AsyncIterable[str]) -> SpeechReport:
        """Synthesise and play sentence by sentence until the stream ends or :meth:`interrupt`."""
        self._stop.clear()
        report = SpeechReport(started=time.monotonic())
        queue: asyncio.Queue[tuple[str, Samples, int] | None] = asyncio.Queue(maxsize=1)

        async def produce() -> None:
            try:
                first = True
                async for sentence in sentences(text_stream):
                    pieces = [sentence]
                    if first and self.tts.quick_start:
                        pieces = [p for p in first_clause(sentence) if p]
                    first = False
                    for piece in pieces:
                        if self._stop.is_set():
                            return
                        audio, rate = await self._synthesize(piece)
                        await queue.put((piece, audio, rate))
            finally:
                await queue.put(None)

        producer = asyncio.create_task(produce())
        stopper = asyncio.create_task(self._stop.wait())
        try:
            while True:
                getter = asyncio.create_task(queue.get())
                done, _ = await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    report.interrupted = True
                    break
                item = getter.result()
                if item is None:
                    break
                sentence, audio, rate = item
                if report.first_audio is None:
                    report.first_audio = time.monotonic()
                self.sink.play(audio, rate)
                player = asyncio.create_task(asyncio.to_thread(self.sink.wait))
                done, _ = await asyncio.wait({player, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if player not in done:
                    self.sink.stop()
                    await player
                    report.interrupted = True
                    break
                report.spoken.append(sentence)
                report.audio_s += len(audio) / rate
        finally:
            stopper.cancel()
            if not producer.done():
                producer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await producer  # re-raises a TtsError from synthesis
        return report
