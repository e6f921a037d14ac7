"""The wake word's contrast stage: its file, its arithmetic, its place behind whisper's check."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.build import build_wake_detector
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.errors import SpeechModelError
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.settings import AudioSettings
from appliance.audio.sinks import WavFileSink
from appliance.audio.sources import WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker
from appliance.audio.verify import VerifiedWakeDetector
from appliance.audio.wake_contrast import (
    BINS,
    STATE_DIM,
    WINDOW_FRAMES,
    ContrastHead,
    window_bins,
)
from appliance.audio.wake_model import HEAD_MODEL
from appliance.config import load_config
from appliance.errors import ConfigError, ModelError
from appliance.events import Event, EventBus, EventType
from appliance.models.manifest import load_manifest
from appliance.state import LiveState
from training.wake.contrast import auc, fit, window_ends

from .conftest import SynthFn, samples_of
from .test_verify import ScriptedDetector, published, spoken_end
from .test_wake_model import HELD_OUT_VOICE, feed_all


def random_stage(seed: int, proj: int = 8, hidden: int = 6, bias: float = 0.0) -> ContrastHead:
    rng = np.random.default_rng(seed)

    def f(*shape: int) -> np.ndarray:
        return rng.normal(0, 0.3, shape).astype(np.float32)

    return ContrastHead(
        proj=f(STATE_DIM, proj),
        proj_bias=f(proj),
        hidden=f(BINS * proj, hidden),
        hidden_bias=f(hidden),
        out=f(hidden),
        out_bias=np.array([bias], np.float32),
        mean=f(BINS, STATE_DIM),
        std=(np.abs(f(BINS, STATE_DIM)) + 0.5).astype(np.float32),
        meta={"note": "test"},
    )


def test_scores_equal_an_independent_float64_computation() -> None:
    stage = random_stage(1)
    x = np.random.default_rng(2).normal(0, 1, (5, BINS, STATE_DIM)).astype(np.float32)
    z = (x.astype(np.float64) - stage.mean) / stage.std
    projected = np.maximum(np.einsum("nbd,dp->nbp", z, stage.proj) + stage.proj_bias, 0)
    hidden = np.maximum(projected.reshape(5, -1) @ stage.hidden + stage.hidden_bias, 0)
    oracle = 1 / (1 + np.exp(-(hidden @ stage.out + stage.out_bias[0])))
    got = stage.scores(x)
    assert got.shape == (5,)
    np.testing.assert_allclose(got, oracle, atol=1e-5)
    assert got.std() > 0.01  # the inputs differ, and so do their scores


def test_a_stage_survives_its_file(tmp_path: Path) -> None:
    stage = random_stage(3)
    path = tmp_path / "contrast.npz"
    stage.save(path)
    again = ContrastHead.load(path)
    assert again.meta == {"note": "test"}
    x = np.random.default_rng(4).normal(0, 1, (3, BINS, STATE_DIM)).astype(np.float32)
    np.testing.assert_array_equal(again.scores(x), stage.scores(x))


def test_a_truncated_or_mismatched_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "contrast.npz"
    random_stage(5).save(path)
    cut = tmp_path / "cut.npz"
    cut.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(SpeechModelError, match=r"cut\.npz: not a contrast file"):
        ContrastHead.load(cut)
    bad = random_stage(5)
    wrong = ContrastHead(**{**bad.__dict__, "hidden": bad.hidden[:-1]})
    wrong.save(tmp_path / "wrong.npz")
    with pytest.raises(SpeechModelError, match="do not fit together"):
        ContrastHead.load(tmp_path / "wrong.npz")


def test_window_bins_read_the_last_frames_and_pad_in_front() -> None:
    frames = np.arange(80 * STATE_DIM, dtype=np.float32).reshape(80, STATE_DIM)
    bins = window_bins(frames)
    assert bins.shape == (BINS, STATE_DIM)
    # The last bin is the mean of the last two frames.
    np.testing.assert_array_equal(bins[-1], frames[-2:].mean(axis=0))
    short = window_bins(np.ones((10, STATE_DIM), np.float32))
    assert (short[: (WINDOW_FRAMES - 10) // 2] == 0).all() and (short[-5:] == 1).all()


def test_encoder_states_cover_the_audio(whisper: WhisperRecogniser, synth: SynthFn) -> None:
    audio = samples_of(synth("open claw", voice=HELD_OUT_VOICE, tail_s=0.2))
    window = audio[-int(1.2 * SAMPLE_RATE) :]
    states = whisper.encoder_states(window)
    assert states.shape == (len(window) // 320, STATE_DIM)
    # Speech and silence have different states: the encoder read the audio.
    quiet = whisper.encoder_states(np.zeros_like(window))
    assert np.abs(states - quiet).mean() > 0.1


@pytest.mark.parametrize(("bias", "woken"), [(-30.0, False), (30.0, True)])
def test_the_stage_decides_after_whisper_confirmed(
    whisper: WhisperRecogniser, synth: SynthFn, bias: float, woken: bool
) -> None:
    # A stage that always rejects (or accepts) behind a real whisper check of a real phrase: its
    # output weights are zero, so its logit is its bias.
    stage = random_stage(6, bias=bias)
    stage = ContrastHead(**{**stage.__dict__, "out": np.zeros_like(stage.out)})
    audio = samples_of(synth("open claw", voice=HELD_OUT_VOICE, tail_s=1.0))
    verified = VerifiedWakeDetector(
        ScriptedDetector(spoken_end(audio) + 1600),
        whisper,
        "open claw",
        contrast=stage,
        contrast_threshold=0.5,
    )
    found = feed_all(verified, audio)
    assert verified.last is not None and verified.last.score >= verified.threshold
    assert verified.last_contrast is not None
    assert (len(found) == 1) is woken
    assert (verified.confirmed, verified.rejected) == ((1, 0) if woken else (0, 1))
    assert verified.rejected_by_contrast == (0 if woken else 1)


def test_whisper_rejects_before_the_stage_is_asked(whisper: WhisperRecogniser) -> None:
    audio = np.zeros(3 * SAMPLE_RATE, dtype=np.int16)
    verified = VerifiedWakeDetector(
        ScriptedDetector(2 * SAMPLE_RATE), whisper, "open claw", contrast=random_stage(7, bias=30)
    )
    assert feed_all(verified, audio) == []
    assert verified.rejected == 1 and verified.rejected_by_contrast == 0
    assert verified.last_contrast is None


def test_window_ends_follow_the_rise() -> None:
    rng = np.random.default_rng(0)
    trace = [(i * 1280, s) for i, s in enumerate([0.0, 0.0, 0.02, 0.5, 0.97, 0.3, 0.0, 0.0])]
    near = window_ends(trace, False, -1, 8 * 1280, rng)
    # First over the rise level, the peak, and one anywhere (the random one may coincide).
    assert {2 * 1280, 4 * 1280} <= set(near) and len(near) <= 4
    # A positive whose score never rose gets one window just after the phrase's end.
    flat = [(i * 1280, 0.0) for i in range(8)]
    (only,) = window_ends(flat, True, 3 * 1280, 8 * 1280, rng)
    assert 3 * 1280 <= only <= 3 * 1280 + 0.25 * SAMPLE_RATE


def test_the_fit_separates_what_can_be_separated() -> None:
    # Positives carry a bump in the last bins; negatives (a third of them "hard") do not.
    rng = np.random.default_rng(1)
    x = rng.normal(0, 1, (900, BINS, STATE_DIM)).astype(np.float32)
    y = (np.arange(900) % 3 == 0).astype(np.int8)
    x[y == 1, -4:, :32] += 2.0
    stage = fit(x.astype(np.float16), y, np.flatnonzero(y == 0)[:200], epochs=12, seed=0)
    fresh = rng.normal(0, 1, (200, BINS, STATE_DIM)).astype(np.float32)
    fresh[:100, -4:, :32] += 2.0
    s = stage.scores(fresh)
    assert auc(s[:100], s[100:]) > 0.95


def test_out_of_range_contrast_threshold_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"audio\.wake_contrast_threshold"):
        load_config(environ={"OPENCLAW_AUDIO__WAKE_CONTRAST_THRESHOLD": "1.0"})


async def test_a_wake_the_stage_turned_down_is_published_with_its_score(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    wav = synth("open claw", voice=HELD_OUT_VOICE, tail_s=1.0)
    audio = samples_of(wav)
    stage = random_stage(8, bias=-30.0)
    stage = ContrastHead(**{**stage.__dict__, "out": np.zeros_like(stage.out)})
    bus = EventBus()
    events = bus.subscribe_queue()
    state = LiveState()
    frontend = VoiceFrontEnd(
        WavReplaySource([wav], realtime=False),
        VerifiedWakeDetector(
            ScriptedDetector(spoken_end(audio) + 1600), whisper, "open claw", contrast=stage
        ),
        whisper,
        Speaker(EspeakTts(), WavFileSink(tmp_path / "spoken")),
        bus=bus,
    )
    try:
        assert await frontend.next_utterance() is None  # whisper confirmed, the stage did not
    finally:
        await frontend.close()
    seen = published(events, state)
    (rejected,) = [e for e in seen if e.type == EventType.WAKE_REJECTED]
    assert rejected.data["score"] >= AudioSettings().wake_verify_threshold
    assert rejected.data["contrast"] < 1e-6
    assert state.counters["wakes_rejected"] == 1
    assert not any(e.type == EventType.WAKE_DETECTED for e in seen)
    status = frontend.status()
    assert status["wake_rejected"] == 1 and status["wake_rejected_by_contrast"] == 1


def test_listen_says_the_stage_turned_a_wake_down(capsys: pytest.CaptureFixture[str]) -> None:
    from appliance.audio.cli import _show_rejection

    data = {"detector": "kws+whisper", "score": 0.02, "heard": "", "contrast": 0.0123}
    _show_rejection(Event(EventType.WAKE_REJECTED, data))
    err = capsys.readouterr().err
    assert "whisper gave the phrase 0.02" in err
    assert "the contrast stage scored it 0.0123" in err
    del data["contrast"]
    _show_rejection(Event(EventType.WAKE_REJECTED, data))
    assert "contrast" not in capsys.readouterr().err


def test_a_missing_contrast_model_names_the_setting() -> None:
    config = load_config(
        environ={
            "OPENCLAW_AUDIO__WAKE_CONTRAST": "true",
            "OPENCLAW_AUDIO__WAKE_CONTRAST_MODEL": "no-such-contrast",
        }
    )
    with pytest.raises(ModelError, match=r"audio\.wake_contrast = false") as caught:
        build_wake_detector(config)
    assert caught.value.code == "model_unknown"
    assert "no-such-contrast" in caught.value.message


def test_the_committed_stage_verifies_and_was_fitted_to_the_committed_head() -> None:
    # Its windows were placed where the committed keyword head's score rises: a new head needs a
    # new stage (python -m training.wake.contrast).
    stage = ContrastHead.from_manifest(Path("/nonexistent-models-dir"))
    head = load_manifest().get(HEAD_MODEL).file("head")
    assert stage.meta["keyword_head"] == head.sha256[:12]
    assert stage.proj.shape[0] == STATE_DIM and stage.meta["window_s"] == 1.2
