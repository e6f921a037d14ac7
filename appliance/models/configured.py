"""The models a configuration needs: what ``openclaw doctor`` checks and the image build installs.

One list, so the install script (``openclaw models fetch --configured``, ``models verify
--configured``) and the health check cannot disagree about what a configuration loads.
"""

from __future__ import annotations

from dataclasses import dataclass

from appliance.config import Config


@dataclass(frozen=True)
class ConfiguredModel:
    """One model the configuration names, and what it is for."""

    #: What the model does here ("embedding model", "wake features (kws)" ...).
    label: str
    #: Its manifest name.
    name: str
    #: Whether the appliance cannot do its job without it (False: it degrades, e.g. to extractive
    #: answers or to espeak-ng's voice).
    required: bool


def configured_models(config: Config) -> list[ConfiguredModel]:
    """Every model the configuration loads, in the order ``openclaw doctor`` reports them."""
    audio = config.audio
    models = [ConfiguredModel("embedding model", config.index.embedding_model, True)]
    if config.answer.llm_model:
        models.append(ConfiguredModel("answer model", config.answer.llm_model, False))
    if config.vision.chinese_line_model:
        # Without it Chinese drawings are read by Tesseract alone, worse but read.
        models.append(
            ConfiguredModel("Chinese line reader", config.vision.chinese_line_model, False)
        )
    stt = audio.vosk_model if audio.stt_engine == "vosk" else audio.whisper_model
    models.append(ConfiguredModel(f"speech model ({audio.stt_engine})", stt, True))
    if audio.wake_engine == "kws":
        # The trained keyword head and the feature graphs it reads.
        models.append(ConfiguredModel("wake features (kws)", "speech-embedding", True))
        models.append(ConfiguredModel("wake model (kws)", audio.wake_kws_model, True))
        shared = audio.stt_engine == "whisper" and audio.whisper_model == audio.wake_verify_model
        if audio.wake_verify and not shared:
            models.append(ConfiguredModel("wake check (whisper)", audio.wake_verify_model, True))
        if audio.wake_contrast:
            models.append(ConfiguredModel("wake contrast", audio.wake_contrast_model, True))
    elif audio.wake_engine != audio.stt_engine:
        wake = audio.vosk_model if audio.wake_engine == "vosk" else audio.whisper_model
        models.append(ConfiguredModel(f"wake model ({audio.wake_engine})", wake, True))
    if audio.tts_engine != "espeak-ng":
        from appliance.audio.piper import MODEL_NAME

        models.append(ConfiguredModel("voice (piper)", MODEL_NAME, audio.tts_engine == "piper"))
    return models
