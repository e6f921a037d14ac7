"""Transcribing a question at the speaker's first pause, before the endpointer is sure it ended.

A question ends after ``trailing_silence_s`` (0.8 s) of silence, and only then would whisper start:
the listener waits for the silence and then for the whole transcription (0.4-0.8 s with whisper
base on two x86 cores). Yet the audio whisper is given when the question ends in a pause is
already known a few frames into that pause: everything up to the last speech frame plus the
trailing silence the recogniser keeps. So the transcription starts as soon as a pause holds that
much silence, in a worker thread, while the endpointer goes on listening. If the pause ends the
question, the text is ready or nearly so; if the speaker goes on, the early text is dropped and the
question is transcribed again when it does end (or at its next pause).

The early run is given exactly the samples the question would be transcribed from, so a greedy
decode gives the same text: no answer changes, only its time. The price is CPU spent on pauses
that did not end the question; at most one early run is in flight, so it never stacks up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

import numpy as np

from appliance.audio.base import Samples

#: What hearing one capture gives (the front end's transcript, text and command choice).
Result = TypeVar("Result")


class EarlyTranscriber(Generic[Result]):
    """Starts the transcription at a pause and hands it over if the question ended there."""

    def __init__(self, transcribe: Callable[[Samples], Result], keep_samples: int) -> None:
        #: Hears one capture (runs in a worker thread).
        self._transcribe = transcribe
        #: Samples of trailing silence the recogniser is given after the last speech.
        self.keep_samples = keep_samples
        self._end: int | None = None
        self._task: asyncio.Future[Result] | None = None
        #: Early runs started (for the tests and the latency log).
        self.started = 0
        #: Early runs whose text was used.
        self.used = 0

    def offer(self, parts: list[Samples], end: int) -> None:
        """Called after every chunk during a pause: ``parts`` is the capture so far and ``end``
        where the question's audio would end if the pause ends it (the last speech and the kept
        silence). Starts an early run once that much has been heard, unless one for this same
        audio is running or done, or an earlier one is still busy."""
        total = sum(len(p) for p in parts)
        if end > total or end <= self.keep_samples or end == self._end:
            return
        if self._task is not None and not self._task.done():
            return  # one run at a time: a stale one finishes before the next starts
        audio = np.concatenate(parts)[:end]
        self._end = end
        self._task = asyncio.ensure_future(asyncio.to_thread(self._transcribe, audio))
        self.started += 1

    async def result(self, audio: Samples) -> Result:
        """What ``audio`` (the capture as the question ended) is heard as: the early run's result
        when it was given these very samples, else a fresh run after any early run finished."""
        task, self._task = self._task, None
        if task is not None:
            try:
                early = await task
            except Exception:  # the fresh run below reports its own failure
                early = None
            if early is not None and self._end == len(audio):
                self.used += 1
                return early
        return await asyncio.to_thread(self._transcribe, audio)
