"""One take of ``openclaw enrol``: listening for one utterance, judging it, trimming it.

A take is captured with the question endpointer's rules (speech start over the tracked noise
floor, trailing silence, a time limit, a no-speech timeout) and then judged by what the training
will do with it (:func:`appliance.audio.user_recordings.load_user_clips` refuses a file without
0.3 s of speech over -40 dBFS) and by what would make it a poor example of the phrase: clipping,
or more than the phrase said.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from appliance.audio.base import SAMPLE_RATE, AudioSource, Samples
from appliance.audio.errors import MicrophoneError
from appliance.audio.user_recordings import MIN_SPEECH_S
from appliance.audio.vad import ABSOLUTE_MIN_DB, FRAME, Endpointer, EndReason, EnergyVad, frame_db
from appliance.audio.wavio import speech_bounds

#: The level (dBFS) the training trims to and counts speech over (``load_user_clips``).
SPEECH_DB = -40.0
#: A full-scale sample: the converter hit its limit and the waveform was cut off.
FULL_SCALE = 32767
#: Share of the speech's samples at full scale above which a take counts as clipped. Natural
#: speech touches full scale on a few peaks at most; a gain set too high cuts off every vowel.
MAX_CLIPPED_SHARE = 0.001
#: Longest speech (s) a take of a two- or three-word phrase may hold: "open claw" takes under a
#: second at an ordinary pace; more is the phrase plus other words, which the head would learn.
MAX_PHRASE_S = 2.5
#: A noise floor (dBFS) over this is too close to :data:`SPEECH_DB`: the training would count the
#: room's noise as speech and keep all of it (a take in -40 dBFS of white noise reads as 5.7 s of
#: "speech"; in -45 dBFS its speech is still found alone).
NOISY_FLOOR_DB = -44.0
#: Silence (s) kept before and after the speech of a kept take, so no soft onset or ending is cut.
MARGIN_S = 0.25


class Refusal(enum.StrEnum):
    """Why a take was not kept (stable codes for ``--json``)."""

    NO_SPEECH = "no-speech"
    TOO_SHORT = "too-short"
    TOO_QUIET = "too-quiet"
    CLIPPED = "clipped"
    TOO_LONG = "too-long"
    TOO_NOISY = "too-noisy"


@dataclass(frozen=True)
class Verdict:
    """The judgement of one take."""

    #: None when the take is kept, else why it was refused.
    refusal: Refusal | None
    #: What to tell the person at the microphone (the reason, and what to do instead).
    message: str
    #: The audio to keep (trimmed to the speech with a margin); empty when refused.
    audio: Samples
    #: Seconds of speech over -40 dBFS in the take.
    speech_s: float


def judge_take(
    audio: Samples,
    end_reason: EndReason,
    *,
    floor_db: float,
    vad_threshold_db: float,
    max_phrase_s: float = MAX_PHRASE_S,
) -> Verdict:
    """Keep or refuse one captured take; a kept one comes back trimmed with a margin.

    ``floor_db`` and ``vad_threshold_db`` are the voice detector's noise floor and margin: sound
    over them that never reaches -40 dBFS for 0.3 s is speech too quiet for the training, as
    opposed to a click or a cough (too short).
    """
    empty = np.zeros(0, dtype=np.int16)
    if end_reason == EndReason.NO_SPEECH or len(audio) == 0:
        return Verdict(Refusal.NO_SPEECH, "no speech heard: say it after the prompt", empty, 0.0)
    if floor_db > NOISY_FLOOR_DB:
        return Verdict(
            Refusal.TOO_NOISY,
            f"too noisy (the background is at {floor_db:.0f} dBFS; speech is counted from "
            f"{SPEECH_DB:.0f} dBFS): quieten the room or come closer and turn the gain down",
            empty,
            0.0,
        )
    start, end = speech_bounds(audio, SPEECH_DB)
    speech_s = (end - start) / SAMPLE_RATE
    if end_reason == EndReason.TIME_LIMIT or speech_s > max_phrase_s:
        shown = f"{speech_s:.1f} s of speech" if speech_s > max_phrase_s else "still speaking"
        return Verdict(
            Refusal.TOO_LONG,
            f"too long for the phrase ({shown}; at most {max_phrase_s:g} s): say the phrase alone",
            empty,
            speech_s,
        )
    if speech_s < MIN_SPEECH_S:
        soft_start, soft_end = speech_bounds(
            audio, max(floor_db + vad_threshold_db, ABSOLUTE_MIN_DB)
        )
        heard_s = (soft_end - soft_start) / SAMPLE_RATE
        if heard_s >= MIN_SPEECH_S:
            peak = _peak_db(audio[soft_start:soft_end])
            return Verdict(
                Refusal.TOO_QUIET,
                f"too quiet (loudest {peak:.0f} dBFS; speech must reach {SPEECH_DB:.0f} dBFS "
                f"for {MIN_SPEECH_S:g} s): speak up or come closer to the microphone",
                empty,
                speech_s,
            )
        return Verdict(
            Refusal.TOO_SHORT,
            f"too short ({heard_s:.2f} s of sound; at least {MIN_SPEECH_S:g} s): say the whole "
            "phrase",
            empty,
            speech_s,
        )
    speech = audio[start:end].astype(np.int32)
    clipped = float(np.mean(np.abs(speech) >= FULL_SCALE))
    if clipped > MAX_CLIPPED_SHARE:
        return Verdict(
            Refusal.CLIPPED,
            f"clipped ({clipped:.1%} of the samples at full scale): speak softer, move back from "
            "the microphone or turn its gain down",
            empty,
            speech_s,
        )
    margin = int(MARGIN_S * SAMPLE_RATE)
    kept = audio[max(0, start - margin) : min(len(audio), end + margin)].copy()
    return Verdict(None, f"{speech_s:.2f} s of speech", kept, speech_s)


def _peak_db(audio: Samples) -> float:
    """Level of the loudest 10 ms frame, dBFS."""
    frames = range(0, len(audio) - FRAME + 1, FRAME)
    return max((frame_db(audio[i : i + FRAME]) for i in frames), default=-120.0)


#: A chunk as the pump received it: (``time.monotonic()`` on arrival, samples); None = the end.
Stamped = tuple[float, Samples] | None


class TakeListener:
    """Reads the source in the background and cuts one utterance out of it per :meth:`take`.

    A pump task stamps every chunk with its arrival time, so on a live microphone a take can skip
    the audio heard while the prompt played (and a short gap after it): that audio is the
    speaker, not the person. A replayed WAV file (not live) waits for its reader and is never
    skipped: it did not hear the prompt.
    """

    def __init__(
        self,
        source: AudioSource,
        *,
        vad_threshold_db: float = 9.0,
        trailing_silence_s: float = 0.8,
        no_speech_timeout_s: float = 5.0,
        max_phrase_s: float = MAX_PHRASE_S,
        is_missing: Callable[[], str | None] = lambda: None,
    ) -> None:
        self.source = source
        self.vad = EnergyVad(vad_threshold_db)
        self.trailing_silence_s = trailing_silence_s
        self.no_speech_timeout_s = no_speech_timeout_s
        self.max_phrase_s = max_phrase_s
        # A replayed file waits for its reader (bounded queue); a live microphone is read at
        # once whatever happens (unbounded: the session reads on within a prompt's seconds).
        self._queue: asyncio.Queue[Stamped] = asyncio.Queue(maxsize=0 if source.live else 64)
        self._is_missing = is_missing
        self._pump: asyncio.Task[None] | None = None
        self._error: BaseException | None = None
        self._ended = False

    async def _run_pump(self) -> None:
        try:
            async for chunk in self.source.chunks():
                await self._queue.put((time.monotonic(), chunk))
        except Exception as err:  # a broken WAV file: raised by take(), in the caller's task
            self._error = err
        await self._queue.put(None)

    def start(self) -> None:
        """Start reading the source (idempotent)."""
        if self._pump is None:
            self._pump = asyncio.create_task(self._run_pump())

    async def close(self) -> None:
        """Stop the pump and close the source."""
        self.source.close()
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
            self._pump = None

    async def _next(self) -> Stamped:
        while True:
            try:
                return await asyncio.wait_for(self._queue.get(), timeout=0.5)
            except TimeoutError:
                missing = self._is_missing()
                if missing is not None:
                    raise MicrophoneError(missing) from None

    async def take(self, *, skip_until: float = 0.0) -> tuple[Samples, EndReason] | None:
        """One utterance and why its capture ended; None when the source has ended first.

        ``skip_until`` (a ``time.monotonic()``) drops the chunks of a live source that arrived
        before it.
        """
        self.start()
        if self._ended:
            return None
        endpointer = Endpointer(
            self.vad,
            trailing_silence_s=self.trailing_silence_s,
            # From the start of the take: the wait for speech, the phrase, the trailing silence.
            max_s=self.no_speech_timeout_s + self.max_phrase_s + self.trailing_silence_s + 1.0,
            no_speech_timeout_s=self.no_speech_timeout_s,
        )
        parts: list[Samples] = []
        while True:
            item = await self._next()
            if item is None:
                self._ended = True
                if self._error is not None:
                    raise self._error
                if endpointer.speech_frames == 0:
                    return None
                return np.concatenate(parts), EndReason.STREAM_ENDED
            arrived, chunk = item
            if self.source.live and arrived < skip_until:
                continue
            parts.append(chunk)
            reason = endpointer.feed(chunk)
            if reason is not None:
                return np.concatenate(parts), reason
