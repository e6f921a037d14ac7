"""Settings of the microphone, wake word, speech recognition and speech output."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class AudioSettings:
    """Audio source, wake word and recogniser options."""

    #: Audio source: the sound card through PortAudio, or WAV files replayed (development).
    source: Literal["sounddevice", "wav"] = "wav"
    #: Wake phrase recognised by the grammar-limited recogniser.
    wake_phrase: str = "open claw"
    #: Speech recogniser engine for questions.
    stt_engine: Literal["vosk", "whisper"] = "vosk"
    #: Speech output engine.
    tts_engine: Literal["espeak-ng", "piper"] = "espeak-ng"
