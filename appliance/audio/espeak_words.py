"""espeak-ng through its C library: speech together with where each word starts.

The ``espeak-ng`` program (:func:`appliance.audio.training_clips.synth`) gives audio only. A
phrase said in one breath with what follows ("open claw what torque ...") is not the phrase
said alone with the rest appended: the last word is shorter, not lengthened or lowered as at the
end of an utterance, and runs into the next one. To train on such speech and to measure it, the
phrase's end must be found inside one synthesised utterance; the library reports a WORD event
with the audio position of every word it speaks, which the program does not print.

espeak-ng keeps state from one utterance to the next inside a process (its pitch flutter runs on),
so the same text comes out a few milliseconds different on a second call. Training clips must be
the same on every run, so each utterance is made in a forked child that has never used the
library: the same audio as the ``espeak-ng`` program's first (and only) utterance.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import pickle
import select
import signal
import time
from dataclasses import dataclass

import numpy as np

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.errors import TtsError
from appliance.audio.wavio import speech_bounds, to_16k

#: espeak-ng's synchronous output mode: synthesis calls return when the audio is delivered.
_AUDIO_OUTPUT_SYNCHRONOUS = 2
#: Event types (espeak_EVENT_TYPE) this module reads.
_EVENT_LIST_TERMINATED, _EVENT_WORD = 0, 1
#: espeak_PARAMETER values.
_RATE, _PITCH = 1, 3
#: espeak_POSITION_TYPE for a position counted in characters.
_POS_CHARACTER = 1
#: Text encoding flag: UTF-8 (espeakCHARS_UTF8).
_CHARS_UTF8 = 1


class _EventId(ctypes.Union):
    _fields_ = [("number", ctypes.c_int), ("name", ctypes.c_char_p), ("string", ctypes.c_char * 8)]


class _Event(ctypes.Structure):
    # espeak_EVENT from speak_lib.h, field for field.
    _fields_ = [
        ("type", ctypes.c_int),
        ("unique_identifier", ctypes.c_uint),
        ("text_position", ctypes.c_int),
        ("length", ctypes.c_int),
        ("audio_position", ctypes.c_int),
        ("sample", ctypes.c_int),
        ("user_data", ctypes.c_void_p),
        ("id", _EventId),
    ]


class _Voice(ctypes.Structure):
    # espeak_VOICE from speak_lib.h: a voice chosen by its properties.
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("languages", ctypes.c_char_p),
        ("identifier", ctypes.c_char_p),
        ("gender", ctypes.c_ubyte),
        ("age", ctypes.c_ubyte),
        ("variant", ctypes.c_ubyte),
        ("xx1", ctypes.c_ubyte),
        ("score", ctypes.c_int),
        ("spare", ctypes.c_void_p),
    ]


_Callback = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(_Event)
)


@dataclass(frozen=True)
class SpokenWord:
    """One word of a synthesised utterance and where its sound starts."""

    #: The word as written in the text.
    text: str
    #: Offset of the word's first character in the text (0-based).
    offset: int
    #: Sample (16 kHz) of the utterance where espeak-ng starts the word.
    start: int


class _Library:
    """libespeak-ng loaded and started (in a child process that makes one utterance)."""

    def __init__(self) -> None:
        name = ctypes.util.find_library("espeak-ng") or "libespeak-ng.so.1"
        try:
            self.lib = ctypes.CDLL(name)
        except OSError as err:
            raise TtsError(
                f"libespeak-ng is not installed ({err}); apt-get install libespeak-ng1",
                code="espeak_library_missing",
            ) from None
        self.lib.espeak_Initialize.restype = ctypes.c_int
        rate = self.lib.espeak_Initialize(_AUDIO_OUTPUT_SYNCHRONOUS, 0, None, 0)
        if rate <= 0:
            raise TtsError("libespeak-ng failed to start", code="espeak_library_failed")
        self.rate = rate
        self._chunks: list[np.ndarray] = []
        self._words: list[tuple[int, int]] = []  # (text position, audio sample at its rate)
        self._callback = _Callback(self._on_audio)  # kept alive as long as the library
        self.lib.espeak_SetSynthCallback(self._callback)

    def _on_audio(self, wav: ctypes._Pointer, count: int, events: ctypes._Pointer) -> int:
        if count > 0 and wav:
            self._chunks.append(np.ctypeslib.as_array(wav, shape=(count,)).copy())
        i = 0
        while events[i].type != _EVENT_LIST_TERMINATED:
            event = events[i]
            # (The end of synthesis may report one more WORD at position 0: no word of the text.)
            if event.type == _EVENT_WORD and event.text_position > 0:
                self._words.append((event.text_position, event.sample))
            i += 1
        return 0  # go on synthesising

    def _select(self, voice: str) -> None:
        # As the espeak-ng program does: a voice file's name ("en-us+m3"), else a language with
        # an optional variant ("en-gb+f2": British English is the voice file "en").
        if self.lib.espeak_SetVoiceByName(voice.encode()) == 0:
            return
        wanted = _Voice(languages=voice.encode())
        if self.lib.espeak_SetVoiceByProperties(ctypes.byref(wanted)) != 0:
            raise TtsError(f"espeak-ng has no voice {voice!r}", code="espeak_voice")

    def speak(
        self, text: str, voice: str, rate: int, pitch: int
    ) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """Audio at the library's rate and the (character position, sample) of each word."""
        self._select(voice)
        self.lib.espeak_SetParameter(_RATE, rate, 0)
        self.lib.espeak_SetParameter(_PITCH, pitch, 0)
        self._chunks, self._words = [], []
        data = text.encode("utf-8")
        buffer = ctypes.create_string_buffer(data)
        status = self.lib.espeak_Synth(
            buffer, len(data) + 1, 0, _POS_CHARACTER, 0, _CHARS_UTF8, None, None
        )
        if status != 0:
            raise TtsError(f"espeak-ng failed to say {text!r} ({status})", code="espeak_failed")
        self.lib.espeak_Synchronize()
        native = np.concatenate(self._chunks) if self._chunks else np.zeros(0, np.int16)
        return native, list(self._words)


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


def _speak_in_child(
    text: str, voice: str, rate: int, pitch: int
) -> tuple[np.ndarray, list[tuple[int, int]], int]:
    """One utterance made in a forked child with a fresh library (see the module's docstring).

    A fork copies only the calling thread: a lock another thread of the parent held at that moment
    (a thread pool of onnxruntime or ctranslate2, in a process that also runs models) stays locked
    in the child forever. Such a child is killed at :data:`CHILD_DEADLINE_S` and the utterance made
    again in a new one (seen once in a test process that had loaded the Piper voice).
    """
    for _ in range(2):
        payload = _child_payload(text, voice, rate, pitch)
        if payload is not None:
            break
    else:
        raise TtsError(f"espeak-ng hung twice saying {text!r}", code="espeak_failed")
    if not payload:
        raise TtsError(f"espeak-ng died saying {text!r}", code="espeak_failed")
    raw, words, rate_hz, error = pickle.loads(payload)
    if error is not None:
        raise TtsError(error[0], code=error[1])
    return np.frombuffer(raw, dtype=np.int16), words, rate_hz


def _child_payload(text: str, voice: str, rate: int, pitch: int) -> bytes | None:
    """What one forked child sent (empty if it died), or None if it sent nothing in time."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: synthesise, send, leave without running the parent's cleanup
        try:
            os.close(read_end)
            library = _Library()
            native, words = library.speak(text, voice, rate, pitch)
            payload = pickle.dumps((native.tobytes(), words, library.rate, None))
        except TtsError as err:
            payload = pickle.dumps((b"", [], 0, (err.message, err.code)))
        except BaseException as err:  # reported to the parent, never raised in the child
            payload = pickle.dumps((b"", [], 0, (f"espeak-ng failed: {err!r}", "espeak_failed")))
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
        os._exit(0)
    os.close(write_end)
    chunks: list[bytes] = []
    deadline = time.monotonic() + CHILD_DEADLINE_S
    with os.fdopen(read_end, "rb", buffering=0) as pipe:
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([pipe], [], [], max(left, 0.0))
            if not ready:  # hung: nothing more will come
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            chunk = pipe.read(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    os.waitpid(pid, 0)
    return b"".join(chunks)


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
