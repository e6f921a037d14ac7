"""Wake detectors on real engines: whisper windows (English) and the Vosk grammar (Korean model mechanics)."""

from __future__ import annotations

import numpy as np
import pytest

from appliance.audio.base import SAMPLE_RATE, Samples, WakeDetection
from appliance.audio.engines.vosk import VoskRecogniser
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.wake import VoskWakeDetector, WhisperWakeDetector

from .conftest import SynthFn, samples_of


def feed_all(
    detector: VoskWakeDetector | WhisperWakeDetector, audio: Samples
) -> list[WakeDetection]:
    found = []
    for i in range(0, len(audio) - 480 + 1, 480):
        detection = detector.feed(audio[i : i + 480], i + 480)
        if detection is not None:
            found.append(detection)
    return found


@pytest.mark.parametrize(
    "text, voice",
    [
        ("open claw, what torque do the M8 bolts take", "en-us"),
        ("open claw, which room", "en-us+m3"),
    ],
)
def test_whisper_detector_wakes_on_the_phrase_said_in_one_breath(
    whisper: WhisperRecogniser, synth: SynthFn, text: str, voice: str
) -> None:
    audio = samples_of(synth(text, voice=voice))
    detector = WhisperWakeDetector(whisper, "open claw")
    found = feed_all(detector, audio)
    assert len(found) == 1, detector.last_text
    wake = found[0]
    assert wake.detector == "whisper-window" and wake.phrase == "open claw"
    assert 0.0 < wake.score <= 1.0
    assert 0 <= wake.start_sample <= int(0.5 * SAMPLE_RATE)  # the window holds the phrase start
    assert wake.detected_at_sample < len(audio)


@pytest.mark.parametrize(
    "near_miss", ["open clause", "clean the claw", "open call logs", "open the law"]
)
def test_whisper_detector_rejects_near_misses(
    whisper: WhisperRecogniser, synth: SynthFn, near_miss: str
) -> None:
    detector = WhisperWakeDetector(whisper, "open claw")
    assert feed_all(detector, samples_of(synth(near_miss))) == []
    assert detector.decodes >= 1  # it did listen: speech was decoded, and rejected


def test_whisper_detector_does_no_work_on_silence_or_steady_noise(
    whisper: WhisperRecogniser,
) -> None:
    detector = WhisperWakeDetector(whisper, "open claw")
    assert feed_all(detector, np.zeros(SAMPLE_RATE * 5, np.int16)) == []
    noise = np.random.default_rng(3).normal(0, 1500, SAMPLE_RATE * 20).astype(np.int16)
    assert feed_all(detector, noise) == []
    # The floor takes one 3 s window to settle on the noise: at most ~10 decodes at 0.3 s hops.
    assert detector.decodes <= 12


def test_whisper_detector_on_real_wake_words_of_other_products(
    whisper: WhisperRecogniser, shared_data: object
) -> None:
    from pathlib import Path

    root = Path(str(shared_data)) / "speech" / "picovoice_wakeword_benchmark"
    clips = sorted(root.rglob("*.wav"))[:12]
    assert len(clips) == 12
    detector = WhisperWakeDetector(whisper, "open claw")
    accepts = sum(len(feed_all(detector, samples_of(c))) for c in clips)
    assert accepts == 0


def test_vosk_grammar_detector_with_the_korean_model(
    vosk_ko: VoskRecogniser, synth: SynthFn
) -> None:
    """The Pi's detector code on the only Vosk model here: Korean phrase, Korean espeak-ng voice."""
    audio = samples_of(synth("안녕하세요", voice="ko", lead_s=1.0, tail_s=1.0))
    detector = VoskWakeDetector(vosk_ko, "안녕하세요", threshold=0.5)
    found = feed_all(detector, audio)
    assert len(found) == 1
    wake = found[0]
    assert wake.detector == "vosk-grammar" and wake.phrase == "안녕하세요"
    assert wake.score >= 0.5
    # Word timings place the phrase after the 1 s lead and before the end of the audio.
    assert int(0.8 * SAMPLE_RATE) <= wake.start_sample < wake.end_sample <= len(audio)
    assert wake.end_sample <= wake.detected_at_sample
    # The recogniser restarts after a detection: the same phrase again is found again, later.
    again = feed_all(detector, np.concatenate([audio, audio]))
    assert len(again) >= 1


def test_vosk_grammar_detector_threshold_rejects(vosk_ko: VoskRecogniser, synth: SynthFn) -> None:
    audio = samples_of(synth("안녕하세요", voice="ko", lead_s=0.5, tail_s=1.0))
    detector = VoskWakeDetector(vosk_ko, "안녕하세요", threshold=1.01)  # nothing can pass
    assert feed_all(detector, audio) == []
    assert detector.rejected >= 1
