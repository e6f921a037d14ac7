"""The wake window heard again: the audio around a keyword detection's phrase, without a prompt.

The question is transcribed with a prompt that leads with the wake phrase, and whisper imitates
its prompt: "reopen claw", "open clawed" and "oven claw" come out as "Open Claw", and the
glued-phrase check (``phrases.phrase_glued``) cannot see them. This
window is heard by the same recogniser without any prompt, as soon as its audio has arrived —
while the question is still being said, so that its verdict is ready when the question's is —
and the utterance is refused when it shows a near-miss there (``phrases.window_near_miss``,
``audio.wake_window_check``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Literal

from appliance.audio.base import SAMPLE_RATE, Recogniser, Samples, WakeDetection
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.phrases import window_near_miss
from appliance.audio.ring import PreRoll

#: Seconds before the detection's estimated phrase start (the capture's margin: a slow "open",
#: and the "re" of "reopen").
WINDOW_MARGIN_S = 0.4
#: Seconds after the detection's estimated phrase end: the estimate may fall inside "claw", and
#: a suffix ("clawed", "clawing") follows it; a longer tail lets more near-misses through.
WINDOW_TAIL_S = 0.4
#: How whisper hears the window: "short", an encoder context of the window itself (the wake
#: check's decode), or "full", the question's transcription (30 s of context, mostly padding).
#: The short one is several times faster and ready before the question ends.
WINDOW_CONTEXT: Literal["short", "full"] = "short"


def hear_window(
    recogniser: Recogniser,
    audio: Samples,
    context: Literal["short", "full"] = WINDOW_CONTEXT,
    beam_size: int = 1,
) -> str:
    """The window's words, heard without a prompt (a prompt that names the phrase is what made
    whisper write it). An engine without a short-context decode transcribes it whole.
    ``beam_size``: the short decode's beam (greedy by default, as the wake check decodes)."""
    if context == "short" and isinstance(recogniser, WhisperRecogniser):
        tokens = max(24, int(len(audio) / SAMPLE_RATE * 6) + 16)  # ~3 words/s, 2 tokens/word
        return recogniser.decode_window(audio, max_tokens=tokens, beam_size=beam_size).text
    return recogniser.transcribe(audio).text


class WakeWindow:
    """One detection's window and its unprompted transcription, started when the audio is in."""

    def __init__(self, start: int, end: int, phrase: str) -> None:
        #: Stream index of the window's first sample.
        self.start = start
        #: Stream index just past its last sample.
        self.end = end
        #: The wake phrase the window should show.
        self.phrase = phrase
        #: Seconds the recogniser took over the window (0 until it has).
        self.compute_s = 0.0
        self._task: asyncio.Task[str] | None = None

    @classmethod
    def around(cls, wake: WakeDetection) -> WakeWindow:
        """The window around a keyword detection's estimated phrase."""
        start = max(0, wake.start_sample - int(WINDOW_MARGIN_S * SAMPLE_RATE))
        return cls(start, wake.end_sample + int(WINDOW_TAIL_S * SAMPLE_RATE), wake.phrase)

    def offer(self, preroll: PreRoll, recogniser: Recogniser, *, now: bool = False) -> None:
        """Start hearing the window once the stream has reached its end (``now``: with the audio
        there is, when the stream ended first)."""
        if self._task is not None or (preroll.end < self.end and not now):
            return
        audio = preroll.since(self.start)[: self.end - self.start]

        def hear() -> str:
            t0 = time.perf_counter()
            text = hear_window(recogniser, audio)
            self.compute_s = time.perf_counter() - t0
            return text

        self._task = asyncio.create_task(asyncio.to_thread(hear), name="wake-window")
        # A capture that fails before the verdict is read must not leave an unread error behind.
        self._task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def heard(self, preroll: PreRoll, recogniser: Recogniser) -> str | None:
        """What the window was heard as when it shows a near-miss there, else None."""
        self.offer(preroll, recogniser, now=True)
        assert self._task is not None
        text = await self._task
        return text if window_near_miss(text, self.phrase) else None
