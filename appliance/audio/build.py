"""Building the voice front end from the configuration: each backend chosen by name, imported lazily."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from appliance.audio.base import AudioSink, AudioSource, Recogniser, WakeDetector
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.sayable import sayable
from appliance.audio.sinks import SoundDeviceSink, WavFileSink
from appliance.audio.sources import SoundDeviceSource, WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker, Synthesizer
from appliance.config import Config
from appliance.errors import ConfigError, ModelError, OpenClawError, public_name
from appliance.events import Event, EventBus, EventType

log = logging.getLogger(__name__)
T = TypeVar("T")


def _under(base: Path, path: Path) -> Path:
    return path if path.is_absolute() else base / path


def build_source(
    config: Config,
    *,
    wav_files: Sequence[Path] | None = None,
    realtime: bool | None = None,
    on_state: Callable[[str, str], None] | None = None,
) -> AudioSource:
    """The configured source; ``wav_files`` forces the WAV replay source."""
    s = config.audio
    if wav_files or s.source == "wav":
        files = list(wav_files or [_under(config.paths.data_dir, p) for p in s.wav_files])
        if not files:
            raise ConfigError("audio.wav_files: the wav source needs at least one file")
        return WavReplaySource(
            files,
            realtime=s.wav_realtime if realtime is None else realtime,
            chunk_ms=s.chunk_ms,
            convert=s.wav_convert,
        )
    device: str | int | None = int(s.input_device) if s.input_device.isdigit() else s.input_device
    return SoundDeviceSource(
        device=device,
        chunk_ms=s.chunk_ms,
        ring_seconds=s.ring_seconds,
        reconnect_initial_s=s.reconnect_initial_s,
        reconnect_max_s=s.reconnect_max_s,
        on_state=on_state,
    )


def build_recogniser(config: Config, engine: str | None = None) -> Recogniser:
    """The question recogniser (verifies its model against the manifest first)."""
    s = config.audio
    engine = engine or s.stt_engine
    if engine == "vosk":
        from appliance.audio.engines.vosk import VoskRecogniser

        return VoskRecogniser.from_manifest(s.vosk_model, config.paths.models_dir)
    from appliance.audio.engines.whisper import WhisperRecogniser

    return WhisperRecogniser.from_manifest(
        s.whisper_model,
        config.paths.models_dir,
        threads=s.stt_threads,
        short_context=s.whisper_short_context,
        short_context_min_score=s.whisper_short_context_min_score,
        short_context_s=s.whisper_short_context_s,
        beam_size=s.whisper_beam_size,
    )


def _needed_by(setting: str, what: str, remedy: str, load: Callable[[], T]) -> T:
    """``load()``, its error saying which setting needs the model and how to do without it."""
    try:
        return load()
    except OpenClawError as err:
        raise type(err)(
            f"{setting} needs {what} ({err.message}); {remedy} or set {setting} = false",
            code=err.code,
        ) from None


def build_wake_detector(config: Config, recogniser: Recogniser | None = None) -> WakeDetector:
    """The configured wake detector; reuses ``recogniser`` when it is the same engine."""
    s = config.audio
    if s.wake_engine == "kws":
        kws = build_kws_detector(config)
        if not s.wake_verify:
            return kws
        from appliance.audio.engines.whisper import WhisperRecogniser
        from appliance.audio.verify import VerifiedWakeDetector

        checker = recogniser if isinstance(recogniser, WhisperRecogniser) else None
        if (
            checker is None
            or checker.threads != s.wake_verify_threads
            or checker.model_name != s.wake_verify_model
        ):
            # Say which setting needs the model: on a Pi whose questions go to Vosk, the verifier
            # may be the only user of whisper.
            checker = _needed_by(
                "audio.wake_verify",
                f"the whisper model {s.wake_verify_model!r}",
                "provision it",
                lambda: WhisperRecogniser.from_manifest(
                    s.wake_verify_model, config.paths.models_dir, threads=s.wake_verify_threads
                ),
            )
        contrast = None
        if s.wake_contrast:
            from appliance.audio.wake_contrast import ContrastHead

            contrast = _needed_by(
                "audio.wake_contrast",
                f"the model {s.wake_contrast_model!r}",
                "restore it",
                lambda: ContrastHead.from_manifest(config.paths.models_dir, s.wake_contrast_model),
            )
        return VerifiedWakeDetector(
            kws,
            checker,
            s.wake_phrase,
            threshold=s.wake_verify_threshold,
            window_s=s.wake_verify_window_s,
            arm=s.wake_verify_arm,
            contrast=contrast,
            contrast_threshold=s.wake_contrast_threshold,
        )
    if s.wake_engine == "vosk":
        from appliance.audio.engines.vosk import VoskRecogniser
        from appliance.audio.wake import VoskWakeDetector

        vosk = recogniser if isinstance(recogniser, VoskRecogniser) else None
        vosk = vosk or VoskRecogniser.from_manifest(s.vosk_model, config.paths.models_dir)
        return VoskWakeDetector(vosk, s.wake_phrase, threshold=s.wake_threshold)
    from appliance.audio.engines.whisper import WhisperRecogniser
    from appliance.audio.wake import WhisperWakeDetector

    whisper = recogniser if isinstance(recogniser, WhisperRecogniser) else None
    whisper = whisper or WhisperRecogniser.from_manifest(s.whisper_model, config.paths.models_dir)
    return WhisperWakeDetector(
        whisper,
        s.wake_phrase,
        vad_threshold_db=s.vad_threshold_db,
    )


def build_kws_detector(config: Config) -> WakeDetector:
    """The trained keyword model (both feature graphs and the head verified against the manifest)."""
    from appliance.audio.engines.speech_embedding import SpeechEmbedding
    from appliance.audio.wake_model import KeywordHead, KeywordModelWakeDetector

    s = config.audio
    if s.wake_kws_head:
        path = _under(config.paths.models_dir, Path(s.wake_kws_head))
        if not path.is_file():
            raise ModelError(
                f"audio.wake_kws_head: no head file {public_name(path)}", code="model_missing"
            )
        head = KeywordHead.load(path)
    else:
        head = KeywordHead.from_manifest(config.paths.models_dir, s.wake_kws_model)
    trained_for = str(head.meta.get("phrase", ""))
    if trained_for != s.wake_phrase:
        raise ConfigError(
            f"audio.wake_phrase: {s.wake_phrase!r} is not the phrase the keyword model "
            f"{s.wake_kws_model} was trained for ({trained_for!r}); use wake_engine = 'whisper' "
            "or 'vosk' for another phrase"
        )
    return KeywordModelWakeDetector(
        SpeechEmbedding.from_manifest(config.paths.models_dir),
        head,
        s.wake_phrase,
        threshold=s.wake_kws_threshold,
        refractory_s=s.wake_refractory_s,
    )


def build_sink(config: Config, *, out_dir: Path | None = None) -> AudioSink:
    """The configured speech sink; ``out_dir`` forces the WAV sink."""
    s = config.audio
    if out_dir is not None or s.sink == "wav":
        return WavFileSink(out_dir or _under(config.paths.data_dir, s.tts_out_dir))
    device: str | int | None = (
        int(s.output_device) if s.output_device.isdigit() else s.output_device
    )
    return SoundDeviceSink(device=device)


def build_tts(config: Config) -> Synthesizer:
    """The configured voice: Piper when asked for, or under ``auto`` when its files verify."""
    s = config.audio
    if s.tts_engine in ("piper", "auto"):
        from appliance.audio.piper import PiperTts, PiperVoice

        try:
            voice = PiperVoice.from_manifest(config.paths.models_dir, threads=s.tts_piper_threads)
        except ModelError as error:
            if s.tts_engine == "piper":
                raise
            # auto: a missing or changed voice is not worth a silent appliance; say so and go on.
            log.warning("tts: Piper voice unavailable (%s); speaking with espeak-ng", error)
        else:
            return PiperTts(voice)
    return EspeakTts(voice=s.tts_voice, rate_wpm=s.tts_rate_wpm, timeout_s=s.tts_timeout_s)


def build_speaker(config: Config, sink: AudioSink | None = None) -> Speaker:
    """The configured voice into the configured sink; an English voice says Chinese text and
    drawing marks in words it can say (:func:`~appliance.audio.sayable.sayable`)."""
    tts = build_tts(config)
    wording = sayable if tts.language.lower().startswith("en") else None
    return Speaker(tts, sink or build_sink(config), wording=wording)


def _state_publisher(bus: EventBus) -> Callable[[str, str], None]:
    """Microphone state changes (from the audio thread) as COMPONENT_STATE events on the loop."""

    def publish(state: str, error: str) -> None:
        event = Event(
            EventType.COMPONENT_STATE, {"component": "microphone", "state": state, "error": error}
        )
        try:
            bus.publish_threadsafe(event)
        except RuntimeError:  # the bus is not bound to a loop (yet, or any more): nothing to tell
            return

    return publish


def build_frontend(
    config: Config,
    *,
    bus: EventBus | None = None,
    source: AudioSource | None = None,
    sink: AudioSink | None = None,
    vocabulary: Callable[[], Sequence[str]] | None = None,
    rooms: Callable[[], Sequence[str]] | None = None,
) -> VoiceFrontEnd:
    """The whole voice front end as configured (models are verified and loaded here)."""
    recogniser = build_recogniser(config)
    wake = build_wake_detector(config, recogniser)
    on_state = _state_publisher(bus) if bus is not None else None
    return VoiceFrontEnd(
        source or build_source(config, on_state=on_state),
        wake,
        recogniser,
        build_speaker(config, sink),
        settings=config.audio,
        bus=bus,
        vocabulary=vocabulary,
        rooms=rooms,
    )
