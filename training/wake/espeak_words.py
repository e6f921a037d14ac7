"""espeak-ng through its C library: speech together with where each word starts.

The ``espeak-ng`` program (:func:`training.wake.clips.synth`) gives audio only. A
phrase said in one breath with what follows ("open claw what torque ...") is not the phrase
said alone with the rest appended: the last word is shorter, not lengthened or lowered as at the
end of an utterance, and runs into the next one. To train on such speech and to measure it, the
phrase's end must be found inside one synthesised utterance; the library reports a WORD event
with the audio position of every word it speaks, which the program does not print.

espeak-ng keeps state from one utterance to the next inside a process (its pitch flutter runs on),
so the same text comes out a few milliseconds different on a second call. Training clips must be
the same on every run, so each utterance is made in a new process that has never used the
library (``espeak_child.py``, standard library only): the same audio as the ``espeak-ng``
program's first (and only) utterance.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.errors import TtsError
from appliance.audio.wavio import speech_bounds, to_16k


@dataclass(frozen=True)
class SpokenWord:
    """One word of a synthesised utterance and where its sound starts."""

    #: The word as written in the text.
    text: str
    #: Offset of the word's first character in the text (0-based).
    offset: int
    #: Sample (16 kHz) of the utterance where espeak-ng starts the word.
    start: int


def _words_of(text: str, events: list[tuple[int, int]], rate: int) -> list[SpokenWord]:
    """Word events (1-based character positions in the text) as words of ``text``."""
    out = []
    for position, sample in events:
        offset = max(0, position - 1)
        while offset < len(text) - 1 and text[offset].isspace():
            offset += 1  # (a position at the space before the word)
        end = offset
        while end < len(text) and not text[end].isspace():
            end += 1
        out.append(SpokenWord(text[offset:end], offset, round(sample * SAMPLE_RATE / rate)))
    return out


#: Seconds a child may take to send its utterance before it is taken for hung and made again.
CHILD_DEADLINE_S = 30.0


def _child_command() -> list[str]:
    """The child: ``espeak_child.py`` in an isolated interpreter without site-packages."""
    return [sys.executable, "-I", "-S", str(Path(__file__).with_name("espeak_child.py"))]


def _speak_in_child(
    text: str, voice: str, rate: int, pitch: int
) -> tuple[np.ndarray, list[tuple[int, int]], int]:
    """One utterance made in a new process with a fresh library (see the module's docstring).

    A new interpreter, not a fork: a fork copies only the calling thread, so a lock another thread
    of this process held at that moment (a thread pool of onnxruntime or ctranslate2, in a process
    that also runs models) would stay locked in the child forever — a test process that had loaded
    the Piper voice once hung that way. A child that still sends nothing within
    :data:`CHILD_DEADLINE_S` is killed and the utterance made again in another.
    """
    request = pickle.dumps((text, voice, rate, pitch))
    for _ in range(2):
        answer = _child_answer(request)
        if answer is not None:
            break
    else:
        raise TtsError(f"espeak-ng hung twice saying {text!r}", code="espeak_failed")
    payload, status = answer
    if status != 0 or not payload:
        raise TtsError(
            f"espeak-ng died saying {text!r} (exit status {status})", code="espeak_failed"
        )
    raw, words, rate_hz, error = pickle.loads(payload)
    if error is not None:
        raise TtsError(error[0], code=error[1])
    return np.frombuffer(raw, dtype=np.int16), words, rate_hz


def _child_answer(request: bytes) -> tuple[bytes, int] | None:
    """What one child wrote and its exit status, or None if it did not finish in time."""
    child = subprocess.Popen(
        _child_command(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        out, _ = child.communicate(request, timeout=CHILD_DEADLINE_S)
    except subprocess.TimeoutExpired:  # hung: nothing more will come
        child.kill()
        child.communicate()
        return None
    return out, child.returncode


def speak_with_words(
    text: str, voice: str = "en-us", rate: int = 160, pitch: int = 50
) -> tuple[Samples, list[SpokenWord]]:
    """``text`` as one utterance (16 kHz mono int16) and where each of its words starts.

    The same arguments give the same audio, sample for sample, in any process.
    """
    native, events, rate_hz = _speak_in_child(text, voice, rate, pitch)
    audio = to_16k(native, rate_hz)
    return audio, _words_of(text, events, rate_hz)


def phrase_span(audio: Samples, words: list[SpokenWord], text: str, phrase: str) -> tuple[int, int]:
    """First and last sample of ``phrase`` (as written in ``text``) in its utterance.

    It runs from the start of the first word at the phrase's place in the text to where its sound
    ends: the next word's start when that follows without a pause, else the end of the sound
    before the pause (or before the end of the audio when nothing follows). Words are found by
    their place in the text, not by their spelling (espeak-ng sometimes reports a word twice,
    or at the space before it).
    """
    at = text.lower().find(phrase.lower())
    if at < 0:
        raise ValueError(f"{phrase!r} is not in {text!r}")
    after_at = at + len(phrase)
    inside = [w for w in words if at - 1 <= w.offset < after_at]
    if not inside:
        raise ValueError(f"espeak-ng reported no word of {phrase!r} in {text!r}")
    start = inside[0].start
    following = [w.start for w in words if w.offset >= after_at and w.start > start]
    end = following[0] if following else len(audio)
    _, sound_end = speech_bounds(audio[start:end])
    return start, start + sound_end if sound_end > 0 else end
