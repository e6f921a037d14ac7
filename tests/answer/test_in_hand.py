"""The drawing in hand: a question that names no drawing is about the one just scanned or quoted.

The holder's rules with a clock of the test's own, then answers from a real index (three
SolidWorks drawings of ../shared/data read through their text layer, real embeddings)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.answer.answering import Answer, answer_question
from appliance.answer.in_hand import DrawingInHand, InHand, points_at_it
from appliance.config import Config
from appliance.document import Citation
from appliance.index.store import IndexStore
from tests.answer.conftest import SHARED_PDFS as DRAWINGS
from tests.answer.conftest import Clock, model_free_config, shared_drawings


def _citation(namespace: str, source: str) -> Citation:
    return Citation(
        number=1,
        slice_ids=(1,),
        source=source,
        namespace=namespace,
        title="",
        page=1,
        box=None,
        drawing_number="",
        revision="",
        label=source,
        quote="",
    )


def test_a_drawing_stays_in_hand_for_its_time_then_goes() -> None:
    clock = Clock()
    hand = DrawingInHand(300.0, clock=clock)
    assert hand.current() is None
    hand.take("shop", "capture:1", "scanned")
    clock.now += 299.0
    held = hand.current()
    assert held is not None and (held.namespace, held.source, held.why) == (
        "shop",
        "capture:1",
        "scanned",
    )
    clock.now += 2.0
    assert hand.current() is None


def test_an_answer_puts_the_one_drawing_it_quoted_in_hand() -> None:
    clock = Clock()
    hand = DrawingInHand(300.0, clock=clock)
    hand.take("shop", "capture:1", "scanned")
    # An abstention quotes nothing, an answer from two drawings names no one drawing: the hand
    # stays as it was.
    hand.after_answer([])
    hand.after_answer([_citation("shop", "a.pdf"), _citation("global", "b.pdf")])
    held = hand.current()
    assert held is not None and held.source == "capture:1"
    clock.now += 10.0
    hand.after_answer([_citation("global", "b.pdf"), _citation("global", "b.pdf")])
    held = hand.current()
    assert held is not None and (held.source, held.why, held.since) == ("b.pdf", "quoted", 1010.0)
    hand.drop()
    assert hand.current() is None


def test_a_declined_question_that_named_a_drawing_puts_that_drawing_in_hand() -> None:
    hand = DrawingInHand(300.0, clock=Clock())
    hand.take("shop", "capture:1", "scanned")
    # "What torque do the Gabelkopf's bolts take?": the documents do not say, but the person is
    # now asking about the Gabelkopf.
    hand.after_answer([], named=("global", "gabelkopf.png"))
    held = hand.current()
    assert held is not None and (held.source, held.why) == ("gabelkopf.png", "named")
    # A quoted drawing is what the listener heard last: it is in hand, whatever was named.
    hand.after_answer([_citation("global", "b.pdf")], named=("global", "gabelkopf.png"))
    held = hand.current()
    assert held is not None and (held.source, held.why) == ("b.pdf", "quoted")


def test_nothing_is_held_when_the_hand_is_off() -> None:
    hand = DrawingInHand(0.0)
    hand.take("shop", "capture:1", "scanned")
    hand.after_answer([_citation("shop", "a.pdf")])
    assert hand.current() is None


@pytest.mark.parametrize(
    ("question", "points"),
    [
        ("What is it made of?", True),
        ("How long is this part overall?", True),
        ("What is its weight?", True),
        ("What is the scale?", False),
        ("What's the Gabe cop made of?", False),
        ("Which edits were made?", False),
        # "The drawing", "the part": the one talked about; but a field's name, or a name to follow.
        ("What scale is the drawing?", True),
        ("What is the part made of?", True),
        ("What is the drawing number of the Siemens example drawing?", False),
        ("What is the part number?", False),
        ("What sheet size is it drawn on?", True),
        ("How much does the part on drawing idler_shaft.png weigh?", False),
        ("Which drawings are at scale 1:2?", False),
        # A note is found by its words, not held in hand like a drawing.
        ("What torque does this note give for the M6 screws?", False),
        ("What does this memo say about the jig?", False),
        ("Is this noted on it?", True),
    ],
)
def test_the_words_that_point_at_the_drawing_in_hand(question: str, points: bool) -> None:
    assert points_at_it(question) is points


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return model_free_config(tmp_path_factory.mktemp("in-hand"))


@pytest.fixture(scope="module")
def store(config: Config, shared_data: Path) -> Iterator[IndexStore]:
    with shared_drawings(config, shared_data, DRAWINGS) as st:
        yield st


async def _ask(
    store: IndexStore, config: Config, question: str, source: str | None, namespace: str = "global"
) -> Answer:
    hand = InHand(namespace, source, "scanned", 0.0) if source else None
    return await answer_question(question, store=store, config=config, in_hand=hand)


async def test_a_question_that_names_no_drawing_is_answered_from_the_one_in_hand(
    store: IndexStore, config: Config
) -> None:
    asked = [
        ("Aufspannung.PDF", "What is it made of?", "material"),
        ("Elevator_bottom.PDF", "What scale is it drawn at?", "scale"),
        ("Aufspannung.PDF", "What scale is it drawn at?", "scale"),
    ]
    for source, question, said in asked:
        answer = await _ask(store, config, question, source)
        assert answer.mode == "extractive", (source, answer)
        assert [c.source for c in answer.citations] == [source]
        assert answer.in_hand == f"global/{source}"
        assert said in answer.spoken.lower(), answer.spoken
    alone = await _ask(store, config, "What is it made of?", None)
    assert alone.in_hand == ""


async def test_a_question_without_pointing_words_is_about_the_drawing_in_hand_when_its_words_are(
    store: IndexStore, config: Config
) -> None:
    answer = await _ask(store, config, "What is the scale?", "Elevator_bottom.PDF")
    assert answer.in_hand == "global/Elevator_bottom.PDF"
    assert [c.source for c in answer.citations] == ["Elevator_bottom.PDF"], answer
    # A drawing name the recogniser lost, with a drawing found that holds more of the question's
    # words than the one in hand (the Aufspannung states a material, the elevator bottom none):
    # searched on its own.
    lost = await _ask(store, config, "What's the Gabe cop made of?", "Elevator_bottom.PDF")
    assert lost.in_hand == ""


async def test_a_question_that_names_a_drawing_goes_to_it_whatever_is_in_hand(
    store: IndexStore, config: Config
) -> None:
    question = "What scale is the Aufspannung Ecke drawing?"
    named = await _ask(store, config, question, "Elevator_bottom.PDF")
    assert named.in_hand == ""
    assert named.named == ("global", "Aufspannung_Ecke.PDF")
    assert [c.source for c in named.citations] == ["Aufspannung_Ecke.PDF"], named
    assert named.text == (await _ask(store, config, question, None)).text


async def test_a_drawing_in_hand_outside_the_searched_namespaces_is_let_go(
    store: IndexStore, config: Config
) -> None:
    answer = await _ask(store, config, "What is it made of?", "Aufspannung.PDF", namespace="shop")
    assert answer.in_hand == ""
    gone = await _ask(store, config, "What is it made of?", "no-such-drawing.pdf")
    assert gone.in_hand == ""


async def test_a_fact_the_drawing_in_hand_does_not_state_is_declined_not_taken_from_another(
    store: IndexStore, config: Config
) -> None:
    # Aufspannung_Ecke states no material; Aufspannung, beside it in the index, does (PLA). Asked
    # of the drawing in hand, the answer is "the documents do not say", not the other's line.
    answer = await _ask(store, config, "What is it made of?", "Aufspannung_Ecke.PDF")
    assert answer.mode == "abstained", answer
    assert answer.citations == ()
    assert answer.in_hand == "global/Aufspannung_Ecke.PDF"
    other = await _ask(store, config, "What is it made of?", "Aufspannung.PDF")
    assert "PLA" in other.spoken, other.spoken


async def test_a_question_no_other_drawing_fits_better_stays_with_the_drawing_in_hand(
    store: IndexStore, config: Config
) -> None:
    # "What is the drawing number?" holds no content words, only a field's: every drawing states
    # one, and the one in hand is meant. Searched on its own it was another drawing's number.
    for source in DRAWINGS:
        answer = await _ask(store, config, "What is the drawing number?", source)
        assert answer.in_hand == f"global/{source}", answer
        assert [c.source for c in answer.citations] == [source], answer
    # With nothing in hand, it is asked which drawing (each of them has a number).
    alone = await _ask(store, config, "What is the drawing number?", None)
    assert alone.mode == "asked", alone


async def test_a_drawing_chosen_for_the_question_is_answered_from_whatever_its_words(
    store: IndexStore, config: Config
) -> None:
    # Named in reply to "which drawing?" (or to correct an answer), the drawing is the one the
    # person means for this question, even where another holds more of its words.
    question = "What's the Gabe cop made of?"
    chosen = InHand("global", "Elevator_bottom.PDF", "chosen", 0.0)
    answer = await answer_question(question, store=store, config=config, in_hand=chosen)
    assert answer.in_hand == "global/Elevator_bottom.PDF", answer
    assert answer.mode == "abstained", answer  # the elevator bottom states no material
    scanned = await _ask(store, config, question, "Elevator_bottom.PDF")
    assert scanned.in_hand == "", scanned
