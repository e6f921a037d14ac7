"""One espeak-ng utterance with its word events, made in a process of its own.

:mod:`training.wake.espeak_words` runs this file as a script (``python -I -S espeak_child.py``),
writes a pickled request ``(text, voice, rate, pitch)`` to its standard input and reads a pickled
answer ``(audio bytes, [(text position, sample)], sample rate, error)`` from its standard output,
where ``error`` is None or ``(message, code)``. It imports the standard library only, so a new
process starts in a few tens of milliseconds and never holds a lock some other thread took: a
fresh interpreter has one thread, which a fork of the calling process does not guarantee.
"""

from __future__ import annotations

import ctypes
import pickle
import sys

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


class SpeechFailed(Exception):
    """What went wrong, with the appliance's error code (sent back to the parent)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        #: The human-readable reason.
        self.message = message
        #: The ``TtsError`` code the parent raises it with.
        self.code = code


class Library:
    """libespeak-ng loaded and started; used for one utterance (the process's only one)."""

    def __init__(self) -> None:
        try:
            # The soname first: find_library runs ldconfig, which costs more than the utterance.
            self.lib = ctypes.CDLL("libespeak-ng.so.1")
        except OSError:
            from ctypes.util import find_library  # (34 ms of imports: only when needed)

            name = find_library("espeak-ng")
            try:
                self.lib = ctypes.CDLL(name or "libespeak-ng.so")
            except OSError as err:
                raise SpeechFailed(
                    f"libespeak-ng is not installed ({err}); apt-get install libespeak-ng1",
                    "espeak_library_missing",
                ) from None
        self.lib.espeak_Initialize.restype = ctypes.c_int
        rate = self.lib.espeak_Initialize(_AUDIO_OUTPUT_SYNCHRONOUS, 0, None, 0)
        if rate <= 0:
            raise SpeechFailed("libespeak-ng failed to start", "espeak_library_failed")
        self.rate = rate
        self._chunks: list[bytes] = []
        self._words: list[tuple[int, int]] = []  # (text position, audio sample at its rate)
        self._callback = _Callback(self._on_audio)  # kept alive as long as the library
        self.lib.espeak_SetSynthCallback(self._callback)

    def _on_audio(self, wav: ctypes._Pointer, count: int, events: ctypes._Pointer) -> int:
        if count > 0 and wav:
            self._chunks.append(ctypes.string_at(wav, count * ctypes.sizeof(ctypes.c_short)))
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
            raise SpeechFailed(f"espeak-ng has no voice {voice!r}", "espeak_voice")

    def speak(
        self, text: str, voice: str, rate: int, pitch: int
    ) -> tuple[bytes, list[tuple[int, int]]]:
        """Audio (int16, native byte order, the library's rate) and each word's (position, sample)."""
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
            raise SpeechFailed(f"espeak-ng failed to say {text!r} ({status})", "espeak_failed")
        self.lib.espeak_Synchronize()
        return b"".join(self._chunks), list(self._words)


def answer(request: bytes) -> bytes:
    """The pickled answer to one pickled request (never raises: failures are part of it)."""
    try:
        text, voice, rate, pitch = pickle.loads(request)
        library = Library()
        audio, words = library.speak(text, voice, rate, pitch)
        return pickle.dumps((audio, words, library.rate, None))
    except SpeechFailed as err:
        return pickle.dumps((b"", [], 0, (err.message, err.code)))
    except Exception as err:  # reported to the parent, which raises it as a TtsError
        return pickle.dumps((b"", [], 0, (f"espeak-ng failed: {err!r}", "espeak_failed")))


if __name__ == "__main__":
    sys.stdout.buffer.write(answer(sys.stdin.buffer.read()))
    sys.stdout.buffer.flush()
