"""The fixed commands heard as a grammar: real whisper scores, through the real front end."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from appliance.audio.base import Samples
from appliance.audio.commands import CommandKind
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.grammar import (
    MAX_WORDS,
    WORD_WINDOW,
    choose_command,
    command_sentences,
    without_repeats,
)
from appliance.audio.phrases import normalise_words, split_after_phrase
from appliance.audio.utterance import Utterance

from .conftest import SynthFn, samples_of
from .test_frontend import after_a_press, make_frontend

ROOMS = ["Machine shop", "Electronics lab", "Assembly area"]


async def said_to_the_button(
    recogniser: WhisperRecogniser, wav: Path, tmp_path: Path, *, grammar: bool = True
) -> Utterance:
    """What the front end makes of ``wav`` said after a press of the button."""
    frontend, _ = make_frontend(recogniser, [wav], tmp_path, command_grammar=grammar, rooms=ROOMS)
    return await after_a_press(frontend)


def free_reading(utterance: Utterance) -> str:
    """The words after the phrase in whisper's own transcript (what the parser read before)."""
    return split_after_phrase(utterance.transcript.text, "open claw")[1]


@pytest.mark.parametrize(
    ("said", "voice", "kind", "argument"),
    [
        # whisper tiny.en writes "switch room" for these voices' "which room".
        ("open claw, which room", "en-gb-x-rp+klatt5", CommandKind.WHICH_ROOM, ""),
        ("open claw, which room am I in", "en+f4", CommandKind.WHICH_ROOM, ""),
        # ... and adds "remember" from the command hints: "switch to, remember, machine shop".
        (
            "open claw, switch to the machine shop",
            "en+klatt5",
            CommandKind.SWITCH_ROOM,
            "Machine shop",
        ),
    ],
)
async def test_a_misheard_command_is_the_command_said(
    whisper: WhisperRecogniser,
    synth: SynthFn,
    tmp_path: Path,
    said: str,
    voice: str,
    kind: CommandKind,
    argument: str,
) -> None:
    wav = synth(said, voice=voice, lead_s=0.5, tail_s=1.5)
    utterance = await said_to_the_button(whisper, wav, tmp_path)
    assert utterance.command.kind == kind, utterance.transcript.text
    assert utterance.command.argument == argument
    assert utterance.grammar is not None and utterance.grammar.taken
    assert utterance.latency["grammar_s"] > 0
    # Whisper's own words said something else: the grammar is what made it right.
    assert free_reading(utterance) != utterance.text, utterance.transcript.text
    without = await said_to_the_button(whisper, wav, tmp_path, grammar=False)
    assert without.grammar is None
    assert (without.command.kind, without.command.argument) != (kind, argument)


@pytest.mark.parametrize(
    "question",
    [
        "what is this part",
        pytest.param(
            "which room has the lathe",
            # On some CPUs whisper tiny.en writes this voice's words as "switch room to frame",
            # and the command grammar then takes "which room am I in": a question heard as a
            # command (decision 0033's known limit). The transcript depends on the machine.
            marks=pytest.mark.xfail(reason="whisper's free reading differs by CPU", strict=False),
        ),
        "how do I stop the spindle",
    ],
)
async def test_a_short_question_stays_a_question(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path, question: str
) -> None:
    wav = synth(f"open claw, {question}", lead_s=0.5, tail_s=1.5)
    utterance = await said_to_the_button(whisper, wav, tmp_path)
    assert utterance.command.kind == CommandKind.QUESTION, utterance.transcript.text
    assert utterance.grammar is not None and not utterance.grammar.taken
    assert utterance.command.argument.lower().startswith(question.split()[0])


def test_scores_compare_whole_sentences(whisper: WhisperRecogniser, synth: SynthFn) -> None:
    audio = samples_of(synth("open claw, which room am I in", lead_s=0.3, tail_s=0.5))
    right, cut_short, other = whisper.texts_logprobs(
        audio,
        ["Open Claw, which room am I in", "Open Claw, which room", "Open Claw, scan this"],
    )
    # A sentence that ends early pays for the end of text where speech goes on.
    assert right > cut_short > other


class _Scores:
    """A scorer with fixed answers (the grammar's arithmetic, apart from whisper)."""

    def __init__(self, scores: dict[str, float]) -> None:
        self.scores = scores
        self.asked: list[str] = []

    def texts_logprobs(self, audio: Samples, texts: Sequence[str]) -> list[float]:
        self.asked += texts
        return [self.scores.get(t, -50.0) for t in texts]


def test_the_margin_and_the_words_before_the_command() -> None:
    audio = samples_of  # never read by the fixed scorer
    heard = "Open Claw, switch room."
    scorer = _Scores({"Open Claw, switch room": -12.0, "Open Claw, which room": -13.5})
    choice = choose_command(scorer, audio, heard, "switch room", ROOMS)  # type: ignore[arg-type]
    assert choice is not None and choice.taken and choice.text == "which room"
    assert choice.lead == pytest.approx(-1.5)
    # Every candidate keeps the words before the command as heard; the free text loses its stop.
    assert scorer.asked[0] == "Open Claw, switch room"
    assert "Open Claw, say that again" in scorer.asked
    farther = choose_command(scorer, audio, heard, "switch room", ROOMS, margin=1.0)  # type: ignore[arg-type]
    assert farther is not None and not farther.taken and farther.text == "switch room"


def test_a_decoding_loop_is_not_kept_in_front_of_the_commands() -> None:
    heard = "Open Claw, switch to, open claw, switch to, open claw, switch to"
    scorer = _Scores({"Open Claw, which room": -8.0, heard: -30.0})
    choice = choose_command(scorer, samples_of, heard, "switch to", ROOMS)  # type: ignore[arg-type]
    assert choice is not None and choice.taken and choice.text == "which room"
    assert all(text.startswith("Open Claw, ") for text in scorer.asked)
    assert not any(text.lower().count("claw") > 1 for text in scorer.asked[1:])


def test_a_loop_counts_once_for_the_length() -> None:
    def said(text: str) -> str:
        return " ".join(without_repeats(normalise_words(text)))

    assert said("scan this, open, open, open, open, open") == "scan this open"
    assert said("switch to, switch to, switch to") == "switch to"
    assert said("what is this part") == "what is this part"
    # Seven words as written, three said: it is scored, against sentences of two to four words.
    heard = "Open Claw, scan this, open, open, open, open, open."
    scorer = _Scores({"Open Claw, say that again": -9.0, heard.rstrip("."): -40.0})
    after = "scan this, open, open, open, open, open"
    choice = choose_command(scorer, samples_of, heard, after, ROOMS)  # type: ignore[arg-type]
    assert choice is not None and choice.taken and choice.text == "say that again"


def test_only_sentences_about_as_long_as_what_was_heard_compete() -> None:
    # Whisper gives "Open Claw, stop" + end of text more than the question said; it must not win.
    heard = "Open Claw, stop, watch, battery size"
    scorer = _Scores({"Open Claw, stop": -5.0, "Open Claw, stop, watch, battery size": -20.0})
    choice = choose_command(scorer, samples_of, heard, "stop, watch, battery size", ROOMS)  # type: ignore[arg-type]
    assert choice is not None and not choice.taken
    assert choice.text == "stop, watch, battery size"
    heard_words = 4  # "stop watch battery size"
    for text in scorer.asked[1:]:
        said = text.removeprefix("Open Claw, ").split()
        assert abs(len(said) - heard_words) <= WORD_WINDOW
    assert "Open Claw, stop" not in scorer.asked
    assert "Open Claw, what room is this" in scorer.asked  # four words against four


def test_the_grammar_never_makes_a_room_switch_of_other_words() -> None:
    # The switch holds until cleared: only a switch heard as one has its room corrected.
    heard = "Open Claw, no signed, remember, machine shop drawing."
    after = "no signed, remember, machine shop drawing"
    scorer = _Scores({"Open Claw, switch to the Machine shop": -1.0, heard.rstrip("."): -10.0})
    choice = choose_command(scorer, samples_of, heard, after, ROOMS)  # type: ignore[arg-type]
    assert choice is not None and not choice.taken
    assert not any("switch to" in text for text in scorer.asked)
    misheard = "switch to, remember, machine shop"
    scorer = _Scores({"Open Claw, switch to the Machine shop": -1.0})
    choice = choose_command(scorer, samples_of, f"Open Claw, {misheard}", misheard, ROOMS)  # type: ignore[arg-type]
    assert choice is not None and choice.taken and choice.text == "switch to the Machine shop"


def test_long_or_empty_utterances_are_not_scored() -> None:
    scorer = _Scores({})
    long = " ".join(f"word{i}" for i in range(MAX_WORDS + 1))
    assert choose_command(scorer, samples_of, f"Open Claw, {long}", long) is None  # type: ignore[arg-type]
    assert choose_command(scorer, samples_of, "Open Claw.", "") is None  # type: ignore[arg-type]
    assert scorer.asked == []
    assert {s.kind for s in command_sentences(ROOMS)} == {
        CommandKind.SCAN,
        CommandKind.WHICH_ROOM,
        CommandKind.REPEAT,
        CommandKind.STOP,
        CommandKind.SWITCH_ROOM,
    }


async def test_a_failing_scorer_leaves_the_transcript(
    whisper: WhisperRecogniser, synth: SynthFn, tmp_path: Path
) -> None:
    class Failing(WhisperRecogniser):
        def texts_logprobs(self, audio: Samples, texts: Sequence[str]) -> list[float]:
            raise RuntimeError("decoder failed")

    failing = Failing.__new__(Failing)
    failing.__dict__.update(whisper.__dict__)
    wav = synth("open claw, scan this", lead_s=0.5, tail_s=1.5)
    utterance = await said_to_the_button(failing, wav, tmp_path)
    assert utterance.grammar is None
    assert utterance.command.kind == CommandKind.SCAN
    assert dataclasses.asdict(utterance.command)["transcript"] == utterance.text
