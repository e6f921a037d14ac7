"""The trained keyword model: real feature graphs, the committed head, held-out voices, the frontend."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from appliance.audio.base import SAMPLE_RATE, Samples, WakeDetection, WakeDetector
from appliance.audio.build import build_wake_detector
from appliance.audio.commands import CommandKind
from appliance.audio.engines.speech_embedding import (
    EMBED_DIM,
    MEL_BANDS,
    EmbeddingStream,
    SpeechEmbedding,
    frames_for,
)
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.errors import SpeechModelError
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.phrases import normalise_words, split_after_phrase
from appliance.audio.settings import AudioSettings
from appliance.audio.sinks import WavFileSink
from appliance.audio.sources import WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker
from appliance.audio.utterance import Utterance
from appliance.audio.wake_model import (
    HEAD_MODEL,
    KeywordHead,
    KeywordModelWakeDetector,
    locate_head,
)
from appliance.config import load_config
from appliance.errors import ConfigError, ModelError
from appliance.models.manifest import load_manifest
from training.wake.clips import HELD_OUT_ACCENTS, HELD_OUT_VARIANTS, TRAIN_ACCENTS
from training.wake.voices import HELD_OUT_VOICES

from .conftest import SynthFn, samples_of

NO_MODELS_DIR = Path("/nonexistent-models-dir")
#: A voice no training clip used (held-out accent and held-out variant).
HELD_OUT_VOICE = f"{HELD_OUT_ACCENTS[0]}+{HELD_OUT_VARIANTS[0]}"


@pytest.fixture(scope="module")
def features() -> SpeechEmbedding:
    return SpeechEmbedding.from_manifest(NO_MODELS_DIR)


@pytest.fixture(scope="module")
def head() -> KeywordHead:
    return KeywordHead.from_manifest(NO_MODELS_DIR)


def detector(features: SpeechEmbedding, head: KeywordHead) -> KeywordModelWakeDetector:
    return KeywordModelWakeDetector(features, head, threshold=AudioSettings().wake_kws_threshold)


async def first_utterance(
    wav: Path,
    wake: KeywordModelWakeDetector,
    whisper: WhisperRecogniser,
    tmp_path: Path,
    max_question_s: float,
) -> Utterance | None:
    """The first utterance the voice front end makes of ``wav`` (replayed as fast as read)."""
    settings = AudioSettings(max_question_s=max_question_s, no_speech_timeout_s=2.0)
    frontend = VoiceFrontEnd(
        WavReplaySource([wav], realtime=False),
        wake,
        whisper,
        Speaker(EspeakTts(), WavFileSink(tmp_path / "spoken")),
        settings=settings,
    )
    try:
        return await frontend.next_utterance()
    finally:
        await frontend.close()


def feed_all(det: WakeDetector, audio: Samples, chunk: int = 480) -> list[WakeDetection]:
    """Every detection of ``det`` over ``audio`` fed in chunks from a reset."""
    det.reset()
    found = []
    for i in range(0, len(audio) - chunk + 1, chunk):
        hit = det.feed(audio[i : i + chunk], i + chunk)
        if hit is not None:
            found.append(hit)
    return found


def test_feature_graphs_give_the_documented_shapes(features: SpeechEmbedding) -> None:
    rng = np.random.default_rng(3)
    second = rng.normal(0, 3000, SAMPLE_RATE).astype(np.int16)
    mel = features.mel(second)
    assert mel.shape == (frames_for(SAMPLE_RATE), MEL_BANDS) == (97, 32)
    assert features.mel(second[:511]).shape == (0, MEL_BANDS)
    # Silence sits at the graph's -100 dB floor, scaled: -100 / 10 + 2.
    assert np.allclose(features.silent_frame, -8.0)
    assert mel.min() > -8.0  # noise is louder than the floor everywhere
    embeddings = features.clip(second)
    # One embedding per 80 ms of complete mel frames: frames 0..95 make 12 steps of 8.
    assert embeddings.shape == (12, EMBED_DIM)
    assert np.isfinite(embeddings).all() and embeddings.std() > 0.1


@pytest.mark.parametrize("chunk", [480, 1000, 4096])
@pytest.mark.parametrize("floor", ["noise", "digital-silence"])
def test_streaming_embeddings_equal_the_whole_clip(
    features: SpeechEmbedding, chunk: int, floor: str
) -> None:
    audio = np.random.default_rng(chunk).normal(0, 2000, 3 * SAMPLE_RATE).astype(np.int16)
    if floor == "digital-silence":
        # Loud sound after digital silence: one mel call over both would floor the silence 80 dB
        # under the sound, the stream's short calls at -100 dB (training clips without added
        # noise look like this).
        audio[: SAMPLE_RATE // 2] = 0
        audio[SAMPLE_RATE // 2 :] *= 8
    stream = EmbeddingStream(features, origin=5000)
    rows, ends = [], []
    for i in range(0, len(audio), chunk):
        got, at = stream.feed(audio[i : i + chunk])
        rows.append(got)
        ends += at
    streamed = np.concatenate(rows)
    whole = features.clip(audio)
    assert streamed.shape == whole.shape
    assert np.abs(streamed - whole).max() < 1e-3
    # Each embedding reports the stream index just past the audio it saw: 1,632 samples, then
    # every 1,280.
    assert ends[:3] == [5000 + 1632, 5000 + 2912, 5000 + 4192]
    assert all(e <= 5000 + len(audio) for e in ends)


def test_wakes_on_a_held_out_voice(
    features: SpeechEmbedding, head: KeywordHead, synth: SynthFn
) -> None:
    assert HELD_OUT_ACCENTS[0] not in TRAIN_ACCENTS
    audio = samples_of(synth("open claw", voice=HELD_OUT_VOICE, lead_s=1.0, tail_s=1.5))
    det = detector(features, head)
    found = feed_all(det, audio)
    assert len(found) == 1, det.max_score
    wake = found[0]
    assert wake.detector == "kws" and wake.phrase == "open claw"
    assert wake.score >= det.threshold
    # One second of silence, then the phrase (~0.7 s): the estimated phrase end lies after its
    # start, and the detection comes only once the phrase is (nearly) complete.
    assert int(0.5 * SAMPLE_RATE) <= wake.start_sample < wake.end_sample
    assert int(1.3 * SAMPLE_RATE) <= wake.end_sample <= wake.detected_at_sample
    assert wake.detected_at_sample < len(audio)


def test_no_wake_on_real_speech_or_a_near_miss(
    features: SpeechEmbedding, head: KeywordHead, synth: SynthFn, shared_data: Path
) -> None:
    det = detector(features, head)
    clip = (
        shared_data / "speech/pocketsphinx/librivox/sense_and_sensibility_01_austen_64kb-0870.wav"
    )
    assert feed_all(det, samples_of(clip)) == []
    assert 0.0 <= det.max_score < det.threshold
    for phrase in ("clean the claw", "open call logs", "open the law"):
        near = samples_of(synth(phrase, voice=HELD_OUT_VOICE))
        assert feed_all(det, near) == [], phrase


@pytest.mark.xfail(
    strict=True,
    reason="known weakness (decision 0031): 'open claw' plus a sound — open clause, open claws — "
    "wakes the model on voices it was not trained on, even since training has these phrasings "
    "(said by its own voices) among its negatives",
)
def test_open_clause_does_not_wake_it(
    features: SpeechEmbedding, head: KeywordHead, synth: SynthFn
) -> None:
    # Nine held-out voices (each held-out accent with three held-out variants): the session 4 head
    # rejects both phrases said by the first of them, and still wakes on them for 21 of the 27
    # voices of the three accents (the session 3 head: 26 of 27).
    det = detector(features, head)
    for voice in [f"{a}+{v}" for a in HELD_OUT_ACCENTS for v in HELD_OUT_VARIANTS[:3]]:
        for phrase in ("open clause", "open claws"):
            assert feed_all(det, samples_of(synth(phrase, voice=voice))) == [], (phrase, voice)


#: The phrase said alone, with a pause before the question, and in one breath.
AWB_PHRASINGS = (
    "open claw",
    "open claw, scan this",
    "open claw, which room",
    "open claw, what torque do the M8 bolts take",
    "open claw, repeat",
    "open claw, switch to the lab",
    "open claw what is on shelf two",
)


def test_wakes_on_a_held_out_flite_voice_and_not_on_its_near_misses(
    features: SpeechEmbedding, head: KeywordHead
) -> None:
    # flite's awb (a Scottish male, statistical parametric synthesis): no training clip used it,
    # nor any voice of its engine family before session 4 (the session 3 head missed 57 of the
    # benchmark's 60 flite/festival positives).
    # One utterance is inside a refit's spread (the session 8 one-breath head missed "open claw,
    # scan this" at 0.70 and woke on the rest), so the phrase is said several ways and most of them
    # must wake it, as they would not for a head that misses this family of speakers.
    awb = next(v for v in HELD_OUT_VOICES if v.name == "awb")
    pad = np.zeros(SAMPLE_RATE, np.int16)
    det = detector(features, head)
    woke = []
    for said in AWB_PHRASINGS:
        found = feed_all(det, np.concatenate([pad, awb.say(said), pad]))
        assert len(found) <= 1, said
        woke += [said] if found else []
    assert len(woke) > len(AWB_PHRASINGS) / 2, woke
    for phrase in ("clean the claw", "open call logs", "open the law"):
        assert feed_all(det, np.concatenate([pad, awb.say(phrase), pad])) == [], phrase


def test_refractory_period_stops_a_second_wake(
    features: SpeechEmbedding, head: KeywordHead, synth: SynthFn
) -> None:
    phrase = samples_of(synth("open claw", voice=HELD_OUT_VOICE, lead_s=0.8, tail_s=0.3))
    twice = np.concatenate([phrase, phrase])  # said again 1.5 s later: inside a long refractory
    long_quiet = KeywordModelWakeDetector(
        features, head, threshold=AudioSettings().wake_kws_threshold, refractory_s=10.0
    )
    assert len(feed_all(long_quiet, twice)) == 1
    short_quiet = KeywordModelWakeDetector(
        features, head, threshold=AudioSettings().wake_kws_threshold, refractory_s=0.5
    )
    assert len(feed_all(short_quiet, twice)) == 2


async def test_one_breath_question_through_the_frontend(
    features: SpeechEmbedding,
    head: KeywordHead,
    whisper: WhisperRecogniser,
    synth: SynthFn,
    tmp_path: Path,
) -> None:
    wav = synth(
        "open claw, what torque do the M8 bolts take", voice=HELD_OUT_VOICE, lead_s=1.0, tail_s=1.5
    )
    utterance = await first_utterance(wav, detector(features, head), whisper, tmp_path, 8.0)
    assert utterance is not None
    assert utterance.wake.detector == "kws"
    assert utterance.command.kind == CommandKind.QUESTION
    # The detector places the end of the phrase in the pause before the question (espeak-ng
    # pauses at the comma)...
    audio = samples_of(wav)
    frames = audio[: len(audio) // 160 * 160].astype(np.float64).reshape(-1, 160)
    level = 10 * np.log10((frames**2).mean(axis=1) + 1.0)
    at = utterance.wake.end_sample // 160
    assert level[at - 2 : at + 3].min() < level.max() - 15, level[at - 5 : at + 5]
    assert int(1.3 * SAMPLE_RATE) < utterance.wake.end_sample < int(2.2 * SAMPLE_RATE)
    # ... but the capture holds the whole phrase (the estimate can fall inside "claw" or after the
    # question has begun), and the question is what follows it in the text. What whisper tiny.en
    # makes of the words is measured in bench/audio_wer.py.
    found, after = split_after_phrase(utterance.transcript.text, "open claw")
    assert found and utterance.text == after, utterance.transcript.text
    words = normalise_words(after)
    # What whisper tiny.en makes of the words ("what talk do ...") is bench/audio_wer.py's
    # business; the capture must hold all of them: 8 words said, not one of the phrase's.
    assert len(words) >= 6 and "open" not in words and "claw" not in words, words
    assert utterance.latency["wake_after_phrase_s"] >= 0


def test_engine_chosen_by_configuration() -> None:
    config = load_config(
        environ={"OPENCLAW_AUDIO__WAKE_ENGINE": "kws", "OPENCLAW_AUDIO__WAKE_VERIFY": "false"}
    )
    det = build_wake_detector(config)
    assert isinstance(det, KeywordModelWakeDetector)
    assert det.threshold == config.audio.wake_kws_threshold
    other = load_config(
        environ={"OPENCLAW_AUDIO__WAKE_ENGINE": "kws", "OPENCLAW_AUDIO__WAKE_PHRASE": "hey bench"}
    )
    with pytest.raises(ConfigError, match=r"audio\.wake_phrase"):
        build_wake_detector(other)


def test_corrupt_head_is_refused_by_its_checksum(tmp_path: Path) -> None:
    spec = load_manifest().get(HEAD_MODEL)
    bad = tmp_path / spec.name / spec.file("head").path
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"PK\x03\x04 not a head at all")
    with pytest.raises(ModelError) as err:
        locate_head(spec, tmp_path)
    assert err.value.code == "model_checksum"
    # The same bytes loaded without the manifest check: a clear load error, not a numpy traceback.
    with pytest.raises(SpeechModelError) as load_err:
        KeywordHead.load(bad)
    assert load_err.value.code == "speech_model_load"


def test_missing_head_names_the_model(tmp_path: Path) -> None:
    spec = load_manifest().get(HEAD_MODEL)
    gone = dataclasses.replace(spec, name="kws-not-trained-yet")
    with pytest.raises(ModelError) as err:
        locate_head(gone, tmp_path)
    assert err.value.code == "model_missing" and "kws-not-trained-yet" in str(err.value)


def test_head_with_arrays_that_do_not_fit_is_refused(head: KeywordHead, tmp_path: Path) -> None:
    broken = dataclasses.replace(head, meta={**head.meta, "window": head.window + 1})
    broken.save(tmp_path / "head.npz")
    with pytest.raises(SpeechModelError, match="do not fit"):
        KeywordHead.load(tmp_path / "head.npz")
    # A verified copy in models_dir wins over the committed one (the Pi's layout).
    spec = load_manifest().get(HEAD_MODEL)
    committed = locate_head(spec, NO_MODELS_DIR)
    local = tmp_path / spec.name / spec.file("head").path
    local.parent.mkdir(parents=True)
    shutil.copy(committed, local)
    assert locate_head(spec, tmp_path) == local


@pytest.mark.parametrize("voice", ["en", HELD_OUT_VOICE])
async def test_a_command_after_the_comma_is_captured_without_the_end_of_claw(
    features: SpeechEmbedding,
    head: KeywordHead,
    whisper: WhisperRecogniser,
    synth: SynthFn,
    tmp_path: Path,
    voice: str,
) -> None:
    # The head's score may rise before its typical lag after "claw": the estimate then falls
    # inside "claw", and the pause that began just before the rise — not the gap between "open"
    # and "claw" — is where the question starts. Starting at that gap, whisper heard "your lawn
    # scan this" (the demo's voice).
    wav = synth("open claw, scan this", voice=voice, lead_s=1.0, tail_s=1.5)
    utterance = await first_utterance(wav, detector(features, head), whisper, tmp_path, 6.0)
    assert utterance is not None and utterance.wake.detector == "kws"
    assert utterance.command.kind == CommandKind.SCAN, utterance.transcript.text


def test_a_head_trained_here_is_chosen_by_configuration(head: KeywordHead, tmp_path: Path) -> None:
    # A head trained on the users' own recordings lives outside the manifest: it is loaded from
    # audio.wake_kws_head (relative to paths.models_dir) and checked as a head file.
    mine = dataclasses.replace(head, b2=head.b2 + 1.0, meta={**head.meta, "user_positives": {}})
    mine.save(tmp_path / "mine.npz")
    config = load_config(
        environ={
            "OPENCLAW_PATHS__MODELS_DIR": str(tmp_path),
            "OPENCLAW_AUDIO__WAKE_KWS_HEAD": "mine.npz",
            "OPENCLAW_AUDIO__WAKE_VERIFY": "false",
        }
    )
    det = build_wake_detector(config)
    assert isinstance(det, KeywordModelWakeDetector)
    assert det.head.meta["user_positives"] == {}
    assert np.allclose(det.head.b2, head.b2 + 1.0)
    # Missing: model_missing, naming the file but not the directory.
    gone = dataclasses.replace(
        config, audio=dataclasses.replace(config.audio, wake_kws_head="x.npz")
    )
    with pytest.raises(ModelError) as err:
        build_wake_detector(gone)
    assert err.value.code == "model_missing" and "x.npz" in err.value.message
    assert str(tmp_path) not in err.value.message
    # Not a head: the load error.
    (tmp_path / "junk.npz").write_bytes(b"PK\x03\x04 not a head")
    junk = dataclasses.replace(
        config, audio=dataclasses.replace(config.audio, wake_kws_head="junk.npz")
    )
    with pytest.raises(SpeechModelError):
        build_wake_detector(junk)
