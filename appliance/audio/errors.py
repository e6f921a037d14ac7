"""Errors of the audio path, each a subclass of the appliance's families with a stable code."""

from __future__ import annotations

from appliance.errors import ExternalProgramError, HardwareError, InputError, ModelError


class AudioFormatError(InputError):
    """An audio file is unreadable, truncated or in a format the appliance will not convert."""

    code = "audio_format"


class MicrophoneError(HardwareError):
    """No usable input device, or the one in use went away."""

    code = "microphone_missing"


class SpeakerError(HardwareError):
    """No usable output device for speech."""

    code = "speaker_missing"


class SpeechModelError(ModelError):
    """A recogniser model is present and verified but its engine refused to load it."""

    code = "speech_model_load"


class TtsError(ExternalProgramError):
    """A speech synthesiser (espeak-ng, flite, festival) is missing, failed or timed out."""

    code = "tts_failed"
