"""Audio settings: validated once, a bad value named by its key."""

from __future__ import annotations

import pytest

from appliance.config import load_config
from appliance.errors import ConfigError


def test_defaults_are_valid() -> None:
    config = load_config(environ={})
    assert config.audio.wake_phrase == "open claw"
    assert config.audio.wake_engine == "kws" and config.audio.source == "wav"


@pytest.mark.parametrize(
    "key, value, fragment",
    [
        ("WAKE_PHRASE", "Open Claw", "audio.wake_phrase"),
        ("WAKE_THRESHOLD", "1.5", "audio.wake_threshold"),
        ("TRAILING_SILENCE_S", "0", "audio.trailing_silence_s"),
        ("CHUNK_MS", "5", "audio.chunk_ms"),
        ("WAKE_ENGINE", "snowboy", "audio.wake_engine"),
        ("WAKE_KWS_THRESHOLD", "1.0", "audio.wake_kws_threshold"),
        ("WAKE_REFRACTORY_S", "-1", "audio.wake_refractory_s"),
        ("RECONNECT_MAX_S", "0.1", "audio.reconnect_max_s"),
        ("WHISPER_BEAM_SIZE", "0", "audio.whisper_beam_size"),
    ],
)
def test_bad_values_are_refused_naming_the_key(key: str, value: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(environ={f"OPENCLAW_AUDIO__{key}": value})
    assert fragment in str(err.value)


def test_wav_source_without_files_is_a_config_error() -> None:
    from appliance.audio.build import build_source

    with pytest.raises(ConfigError) as err:
        build_source(load_config(environ={}))
    assert "audio.wav_files" in str(err.value)
