"""The index's names heard again in a question's audio: real whisper scores on real speech, and the
arithmetic of the choice apart from whisper."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from appliance.audio.base import Samples
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.heard_names import (
    MARGIN,
    choose_name,
    name_candidates,
    quiet,
    with_name,
)
from appliance.events import EventBus, EventType

from .conftest import SynthFn, samples_of
from .test_frontend import after_a_press, make_frontend

NAMES = [
    "Kolv Cykelpump",
    "Lagerdeckel",
    "Spannpratze",
    "Druckstück",
    "Bearing sleeve",
    "Gearbox cover",
    "LiU0010",
    "HM-30518",
]


def spans(question: str, names: Sequence[str] = NAMES) -> list[tuple[str, str]]:
    """(name, the words it would replace) of every candidate, nearest first."""
    return [(c.name, question[c.start : c.end]) for c in name_candidates(question, names)]


def test_the_words_nearest_a_name_are_put_forward() -> None:
    found = spans("What scale is the call of cycle pump drawing?")
    assert [name for name, _ in found[:3]] == ["Kolv Cykelpump"] * 3
    # The two nearest spans overlap, so the two together are put forward too: the whole name.
    assert ("Kolv Cykelpump", "call of cycle pump") in found
    # A foreign name heard as English words that sound like it, accents and all.
    assert ("Druckstück", "drug stook") in spans("What material is the drug stook?")
    # A drawing number with a letter lost.
    assert spans("What date is on drawing LU-0010?")[0] == ("LiU0010", "LU-0010")


def test_a_question_that_says_a_name_puts_none_forward() -> None:
    assert spans("What material is the gearbox cover made of?") == []
    assert spans("Who drew hm 30518?") == []
    assert spans("What scale is the Druckstuck drawing?") == []


def test_unlike_words_and_short_names_are_not_put_forward() -> None:
    assert spans("Which room am I in?") == []
    # Five letters at least: "Cap" is another word too often.
    assert spans("What is the cap made of?", ["Cap"]) == []


def test_plain_question_words_are_not_taken_for_a_name() -> None:
    names = [*NAMES, "Distansbricka", "Idler shaft", "Hjulnav"]
    # Follow-ups about the drawing in hand: their words are heard as said, and nothing is scored.
    # Before, "this drawing" was put forward as Distansbricka and "who drew it" as Idler shaft.
    for question in (
        "What is it made of?",
        "What scale is this drawing?",
        "Who drew it?",
        "How much does it weigh?",
        "What is the general tolerance?",
    ):
        assert spans(question, names) == [], question
    # A name heard as other words is still put forward, beside the plain words.
    assert ("Druckstück", "drug stook") in spans("What is this drug stook made of?", names)


def test_at_most_two_spans_a_name_and_their_union_when_they_overlap() -> None:
    question = "What scale is the pan-pressed seed drawing?"
    found = [words for name, words in spans(question) if name == "Spannpratze"]
    assert sorted(found) == sorted(["pan-pressed", "pressed seed", "pan-pressed seed"])


class _Scores:
    """A scorer with fixed answers for the question's audio and for the quiet."""

    def __init__(self, said: dict[str, float], prior: dict[str, float]) -> None:
        self.said, self.prior = said, prior
        self.asked: list[str] = []

    def texts_evidence(
        self, audio: Samples, texts: Sequence[str], baseline: Samples
    ) -> list[float]:
        self.asked += texts
        assert int(np.abs(baseline).max()) < 1000 and len(baseline) == len(audio)
        return [self.said.get(t, -60.0) - self.prior.get(t, -60.0) for t in texts]


SPEECH = np.full(16000, 8000, dtype=np.int16)


def test_the_name_is_taken_when_the_audio_supports_it_against_the_quiet() -> None:
    heard = "What scale is the larger decal drawing?"
    named = "What scale is the Lagerdeckel drawing?"
    # Less probable than the free text outright (a foreign word is rare in English), but far
    # more probable than the quiet makes it: the audio supports the name.
    scorer = _Scores({heard: -10.0, named: -18.0}, {heard: -70.0, named: -79.5})
    choice = choose_name(scorer, SPEECH, heard, heard, ["Lagerdeckel"])
    assert choice is not None and choice.taken and choice.text == named
    assert choice.lead == pytest.approx(1.5)
    # The same sentence the quiet expects as much as the audio does is not taken.
    doubtful = _Scores({heard: -10.0, named: -18.0}, {heard: -70.0, named: -70.0})
    choice = choose_name(doubtful, SPEECH, heard, heard, ["Lagerdeckel"])
    assert choice is not None and not choice.taken and choice.text == heard
    assert choice.lead == pytest.approx(-8.0) and choice.lead < -MARGIN


def test_the_words_before_the_question_stay_as_heard() -> None:
    heard = "Open Claw, what scale is the larger decal drawing?"
    after = "what scale is the larger decal drawing?"
    scorer = _Scores({}, {})
    choose_name(scorer, SPEECH, heard, after, ["Lagerdeckel"])
    assert scorer.asked[0] == heard
    assert "Open Claw, what scale is the Lagerdeckel drawing?" in scorer.asked


def test_nothing_is_scored_when_no_name_is_near() -> None:
    scorer = _Scores({}, {})
    assert choose_name(scorer, SPEECH, "Which room am I in?", "Which room am I in?", NAMES) is None
    assert scorer.asked == []


def test_the_quiet_is_faint_and_the_same_every_time() -> None:
    a, b = quiet(16000), quiet(16000)
    assert np.array_equal(a, b) and len(a) == 16000
    assert 0 < np.abs(a).max() < 1000


@pytest.mark.slow
def test_whisper_hears_a_foreign_name_again(whisper: WhisperRecogniser, synth: SynthFn) -> None:
    # espeak-ng says "Lagerdeckel" as English; tiny.en writes "larger decal".
    audio = samples_of(synth("What material is the Lagerdeckel made of?", lead_s=0.5, tail_s=1.0))
    heard = whisper.transcribe(audio).text.strip()
    assert "lagerdeckel" not in heard.lower()
    choice = choose_name(whisper, audio, heard, heard, NAMES)
    assert choice is not None and choice.taken, heard
    assert "Lagerdeckel" in choice.text


@pytest.mark.slow
def test_the_evidence_is_the_two_scorings_subtracted(
    whisper: WhisperRecogniser, synth: SynthFn
) -> None:
    audio = samples_of(synth("What material is the Lagerdeckel made of?", lead_s=0.5, tail_s=1.0))
    texts = [
        "What material is the larger decal made of?",
        "What material is the Lagerdeckel made of?",
    ]
    evidence = whisper.texts_evidence(audio, texts, quiet(len(audio)))
    apart = [
        said - prior
        for said, prior in zip(
            whisper.texts_logprobs(audio, texts),
            whisper.texts_logprobs(quiet(len(audio)), texts),
            strict=True,
        )
    ]
    assert evidence == pytest.approx(apart, abs=0.05)
    with pytest.raises(ValueError, match="as long as"):
        whisper.texts_evidence(audio, texts, quiet(len(audio) - 1))


@pytest.mark.slow
def test_whisper_keeps_a_name_that_was_not_said(whisper: WhisperRecogniser, synth: SynthFn) -> None:
    # "bearing block" is near "Bearing sleeve" by its letters; the audio says otherwise.
    audio = samples_of(synth("What scale is the bearing block drawing?", lead_s=0.5, tail_s=1.0))
    heard = whisper.transcribe(audio).text.strip()
    choice = choose_name(whisper, audio, heard, heard, NAMES)
    assert choice is not None and choice.best is not None, heard
    assert choice.best.name == "Bearing sleeve" and not choice.taken
    assert with_name(heard, choice.best) != choice.text == heard


@pytest.mark.slow
async def test_the_front_end_hands_on_the_question_with_the_name_heard_again(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    wav = synth("what material is the Lagerdeckel made of", lead_s=0.5, tail_s=1.5)
    # More drawings than the prompt's budget holds: the name asked about is not in the prompt,
    # as on an appliance with hundreds of drawings.
    drawings = [f"KX-{4100 + i}-0{i % 7}" for i in range(40)] + ["Lagerdeckel"]
    bus = EventBus()
    events = bus.subscribe_queue()
    frontend, _ = make_frontend(whisper, [wav], tmp_path / "on", bus=bus, drawings=drawings)
    utterance = await after_a_press(frontend)
    assert "Lagerdeckel" in utterance.text
    assert "lagerdeckel" not in utterance.transcript.text.lower()
    finals = []
    while not events.empty():
        event = events.get_nowait()
        if event.type == EventType.TRANSCRIPT_FINAL:
            finals.append(event)
    final = finals[-1]
    assert final.data["name"] == "Lagerdeckel" and final.data["name_lead"] >= -MARGIN
    assert utterance.names is not None and utterance.names.taken
    # Off, the question goes on as whisper wrote it.
    frontend, _ = make_frontend(
        whisper, [wav], tmp_path / "off", drawings=drawings, heard_names=False
    )
    free = await after_a_press(frontend)
    assert "Lagerdeckel" not in free.text and free.text == free.transcript.text.strip()
