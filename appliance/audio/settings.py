"""Settings of the microphone, wake word, speech recognition and speech output."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from appliance.errors import ConfigError


@dataclass(frozen=True)
class AudioSettings:
    """Audio source, wake word and recogniser options."""

    #: Audio source: the sound card through PortAudio, or WAV files replayed (development).
    source: Literal["sounddevice", "wav"] = "wav"
    #: WAV files replayed by the ``wav`` source, in order (relative to the data dir when relative).
    wav_files: tuple[Path, ...] = ()
    #: Replay WAV files in real time (true) or as fast as the consumer reads (false).
    wav_realtime: bool = True
    #: Convert WAV files of another rate, channel count or sample format (true) or refuse them (false).
    wav_convert: bool = True
    #: PortAudio input device name or index ("" = the system default).
    input_device: str = ""
    #: PortAudio output device name or index ("" = the system default).
    output_device: str = ""
    #: Length of one audio chunk handed to the recognisers, in milliseconds.
    chunk_ms: int = 30
    #: Seconds of audio the microphone ring buffer holds before it counts overflows.
    ring_seconds: float = 10.0
    #: First and longest wait, in seconds, between attempts to reopen a lost microphone.
    reconnect_initial_s: float = 0.5
    #: Longest wait between reconnect attempts, in seconds.
    reconnect_max_s: float = 30.0
    #: Wake phrase, lower case, words separated by single spaces.
    wake_phrase: str = "open claw"
    #: Wake detector: the trained keyword model ("kws", default; docs/decisions/0031), a Vosk
    #: grammar recogniser ("vosk") or whisper on short speech windows ("whisper").
    wake_engine: Literal["kws", "vosk", "whisper"] = "kws"
    #: Manifest name of the keyword model's trained head (its phrase must be ``wake_phrase``).
    wake_kws_model: str = "kws-open-claw"
    #: A head trained on this appliance's users' own recordings of the phrase (``python -m
    #: training.wake.train --user-positives DIR --out FILE``; README "A wake word that
    #: misses your voice"), used instead of ``wake_kws_model``'s; relative to
    #: ``paths.models_dir``. It is checked as a head file, not against the manifest (it is made
    #: here). Empty: the manifest's head.
    wake_kws_head: str = ""
    #: Score (0..1) at which the keyword model wakes; chosen from the benchmark's sweep (0031).
    wake_kws_threshold: float = 0.9
    #: Ask whisper tiny.en to confirm each keyword-model wake before it counts (a second stage:
    #: appliance/audio/verify.py, docs/decisions/0032-audio-wake-verifier.md).
    wake_verify: bool = True
    #: Lowest probability (0..1) whisper must give the phrase in the audio that woke the keyword
    #: model; ordinary speech gets ~1e-4, the phrase ~0.01-0.5.
    wake_verify_threshold: float = 0.0001
    #: Seconds of audio before a keyword-model wake that whisper checks.
    wake_verify_window_s: float = 1.2
    #: Keyword-model score (0..1) at which whisper starts checking, before the score reaches
    #: ``wake_kws_threshold``, so that the check overlaps the audio still arriving; 0 checks only
    #: at the detection. 0.01 was chosen on the validation speakers (decision 0032): the score
    #: is steep, and it reads over 0.01 one 80 ms step before the detection for most positives;
    #: it costs a few hundred checks per hour of ordinary speech (under 1% of one core).
    wake_verify_arm: float = 0.01
    #: Also require the contrast stage (a classifier over whisper's encoder states of the same
    #: window, trained against the near-misses: appliance/audio/wake_contrast.py, decision 0035)
    #: to confirm each wake whisper confirmed.
    wake_contrast: bool = False
    #: Manifest name of the contrast stage.
    wake_contrast_model: str = "kws-open-claw-contrast"
    #: Lowest contrast score (0..1) that confirms a wake.
    wake_contrast_threshold: float = 0.3
    #: Drop, silently, an utterance whose transcript shows the wake phrase inside other words
    #: ("reopen claw", "open clawing"): the detector decides before the rest of the word is heard,
    #: the question recogniser hears the whole of it (``phrases.phrase_glued``).
    wake_glued_check: bool = True
    #: Refuse, silently, an utterance whose wake window (the audio around a keyword detection's
    #: phrase, heard again by the question recogniser without the prompt, while the question is
    #: said) shows a near-miss there: the phrase inside other words, or no whole word "open"
    #: ("oven claw" heard as "Avent law"; ``phrases.window_near_miss``). Off: on held-out voices
    #: it refuses most near-misses but also some of the phrase itself at >= 10 dB (a positive in
    #: nine is lost), which a wake word must not.
    wake_window_check: bool = False
    #: Manifest name of the whisper model that checks each wake. Its thresholds were chosen with
    #: tiny.en (decision 0032), so it stays tiny.en when the questions go to a larger model
    #: (``whisper_model``); a question recogniser of the same model and threads is shared.
    wake_verify_model: str = "whisper-tiny-en"
    #: CPU threads whisper uses for the check (its own model instance when this differs from
    #: ``stt_threads``). Two were slower than one on the 2-core development machine, loaded or
    #: quiet (decision 0032); measure on the Pi before raising it.
    wake_verify_threads: int = 1
    #: Seconds after a keyword-model detection during which it cannot fire again.
    wake_refractory_s: float = 2.0
    #: Minimum confidence (0..1) of every word of the wake phrase.
    wake_threshold: float = 0.6
    #: Seconds of audio kept before the wake word, so "open claw what is ..." works in one breath.
    preroll_s: float = 2.5
    #: Speech recogniser engine for questions.
    stt_engine: Literal["vosk", "whisper"] = "whisper"
    #: Manifest name of the Vosk model (wake word and questions).
    vosk_model: str = "vosk-model-small-en-us"
    #: Manifest name of the faster-whisper model for questions (and the whisper wake detector).
    #: Base answers more spoken questions right than tiny.en at about twice the time (p50 0.8 s
    #: against 0.4 s on 2 x86 cores, inside the 2 s to the first audio); on a Pi, where the
    #: question engine is Vosk, a whisper set-up would start from "whisper-tiny-en" for speed.
    whisper_model: str = "whisper-base"
    #: CPU threads whisper reads a question with: two give the first audio 0.3 s sooner at p50
    #: and 0.6 s at p95 on the 2-core development machine (docs/audio.md). An ``OMP_THREAD_LIMIT``
    #: below it in the environment lowers it (with a warning): CTranslate2 granted fewer threads
    #: than it asked for misreads. Vosk (the Pi's question engine) does not use it.
    stt_threads: int = 2
    #: Transcribe questions up to 8 s with whisper's encoder shortened from 30 s to
    #: ``whisper_short_context_s``: about a third of the work, one reading and no second. A
    #: reading that looped back to its start (or heard less surely than
    #: ``whisper_short_context_min_score``) is read again with the full 30 s (docs/audio.md).
    whisper_short_context: bool = True
    #: With ``whisper_short_context``: a transcript heard with a mean token probability below this
    #: is transcribed again with the full context (0: the short one is always kept). With the
    #: 10-s context the full reading heard no better, so nothing waits for it.
    whisper_short_context_min_score: float = 0.0
    #: With ``whisper_short_context``: seconds of encoder context the shortened reading has at
    #: least, the question and then silence (0: the question and half a second). Whisper was
    #: trained on 30-s windows that end in silence: with 10 s it hears real readers as well as
    #: with 30 s, with the question alone it hears them worse.
    whisper_short_context_s: float = 10.0
    #: Hypotheses whisper's decoder keeps while it reads a question (1: greedy). Five hear more
    #: questions and commands right than one, for about 0.15 s more per question at p50 on 2
    #: x86 cores (docs/decisions/0072). The wake check and the command grammar's scores are not
    #: decoded with it.
    whisper_beam_size: int = 5
    #: Extra words the recogniser is biased towards (drawing numbers, part names), besides the index's.
    vocabulary: tuple[str, ...] = ()
    #: Hear the index's names in a question (Vosk only): a second decode of the question, limited
    #: to the names, the question words and ``[unk]``, whose surely heard names replace the free
    #: decode's words there (appliance/audio/engines/vosk_bias.py). About 10 % more
    #: compute per question on the Korean model (the grammar's search is small).
    vosk_question_bias: bool = True
    #: Hear the fixed commands as a grammar (whisper only): a short utterance becomes the command
    #: sentence whisper finds nearly as probable as its free text ("switch room" -> "which room";
    #: appliance/audio/grammar.py, decision 0033). Costs one batched decoder call per short utterance.
    command_grammar: bool = True
    #: Hear the index's names again in the question's audio (whisper only): the spans of the
    #: question nearest to a drawing's title or number are scored with the name in their place,
    #: and a sentence the audio supports nearly as well as the free text is taken
    #: ("call of cycle pump" -> "Kolv Cykelpump"; appliance/audio/heard_names.py). Costs two
    #: batched decoder calls for a question that does not already say a name.
    heard_names: bool = True
    #: Seconds of trailing silence that end a question.
    trailing_silence_s: float = 0.8
    #: Start transcribing (whisper) at the speaker's first pause instead of when the trailing
    #: silence has ended the question: the same audio, so the same text, ready sooner; the early
    #: text is dropped when the speaker goes on (appliance/audio/early.py).
    early_transcription: bool = True
    #: Longest question, in seconds.
    max_question_s: float = 12.0
    #: Play a short tone the moment a question ends, before it is transcribed: the listener hears
    #: at once that it was taken (the answer follows the transcription and the search).
    end_cue: bool = True
    #: Seconds after the wake word with no speech before the appliance gives up listening.
    no_speech_timeout_s: float = 4.0
    #: How far above the tracked noise floor (in dB) a frame must be to count as speech.
    vad_threshold_db: float = 9.0
    #: Speech output engine: ``auto`` speaks with the Piper voice of the model manifest when it is
    #: installed and verifies, else with espeak-ng (decision 0034); ``piper`` insists on the voice.
    tts_engine: Literal["auto", "espeak-ng", "piper"] = "auto"
    #: onnxruntime threads for the Piper voice.
    tts_piper_threads: int = 2
    #: espeak-ng voice.
    tts_voice: str = "en-us"
    #: espeak-ng speed in words per minute.
    tts_rate_wpm: int = 165
    #: Seconds before one espeak-ng call is abandoned.
    tts_timeout_s: float = 20.0
    #: Where the answer is spoken: the sound card, or WAV files in ``tts_out_dir`` (development).
    sink: Literal["sounddevice", "wav"] = "wav"
    #: Folder for the WAV sink's files (relative to the data dir when relative).
    tts_out_dir: Path = Path("speech-out")

    def validate(self) -> None:
        """Reject values that cannot work, naming the key."""
        words = self.wake_phrase.split()
        if not words or self.wake_phrase != " ".join(w.lower() for w in words):
            raise ConfigError(
                f"audio.wake_phrase: {self.wake_phrase!r} must be lower-case words separated by "
                "single spaces"
            )
        checks: list[tuple[str, bool, str]] = [
            ("chunk_ms", 10 <= self.chunk_ms <= 500, "between 10 and 500"),
            ("ring_seconds", 1.0 <= self.ring_seconds <= 120.0, "between 1 and 120"),
            (
                "reconnect_initial_s",
                0.01 <= self.reconnect_initial_s <= 60.0,
                "between 0.01 and 60",
            ),
            (
                "reconnect_max_s",
                self.reconnect_max_s >= self.reconnect_initial_s,
                ">= reconnect_initial_s",
            ),
            ("wake_threshold", 0.0 <= self.wake_threshold <= 1.0, "between 0 and 1"),
            ("wake_kws_threshold", 0.0 < self.wake_kws_threshold < 1.0, "between 0 and 1"),
            ("wake_refractory_s", 0.0 <= self.wake_refractory_s <= 30.0, "between 0 and 30"),
            (
                "wake_verify_threshold",
                0.0 <= self.wake_verify_threshold < 1.0,
                "between 0 and 1",
            ),
            ("wake_verify_arm", 0.0 <= self.wake_verify_arm < 1.0, "between 0 and 1"),
            (
                "wake_contrast_threshold",
                0.0 <= self.wake_contrast_threshold < 1.0,
                "between 0 and 1",
            ),
            (
                "wake_verify_window_s",
                0.8 <= self.wake_verify_window_s <= 4.0,
                "between 0.8 and 4",
            ),
            ("preroll_s", 0.0 <= self.preroll_s <= 10.0, "between 0 and 10"),
            ("stt_threads", 1 <= self.stt_threads <= 16, "between 1 and 16"),
            (
                "whisper_short_context_min_score",
                0.0 <= self.whisper_short_context_min_score <= 1.0,
                "between 0 and 1",
            ),
            (
                "whisper_short_context_s",
                0.0 <= self.whisper_short_context_s <= 30.0,
                "between 0 and 30",
            ),
            ("whisper_beam_size", 1 <= self.whisper_beam_size <= 10, "between 1 and 10"),
            ("wake_verify_threads", 1 <= self.wake_verify_threads <= 16, "between 1 and 16"),
            ("trailing_silence_s", 0.1 <= self.trailing_silence_s <= 5.0, "between 0.1 and 5"),
            ("max_question_s", 1.0 <= self.max_question_s <= 60.0, "between 1 and 60"),
            ("no_speech_timeout_s", 0.5 <= self.no_speech_timeout_s <= 30.0, "between 0.5 and 30"),
            ("vad_threshold_db", 1.0 <= self.vad_threshold_db <= 40.0, "between 1 and 40"),
            ("tts_rate_wpm", 80 <= self.tts_rate_wpm <= 450, "between 80 and 450"),
            ("tts_timeout_s", 1.0 <= self.tts_timeout_s <= 300.0, "between 1 and 300"),
            ("tts_piper_threads", 1 <= self.tts_piper_threads <= 8, "between 1 and 8"),
        ]
        for key, ok, allowed in checks:
            if not ok:
                raise ConfigError(
                    f"audio.{key}: {getattr(self, key)!r} is out of range; use {allowed}"
                )
