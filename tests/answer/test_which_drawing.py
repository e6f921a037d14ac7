"""Which drawing? A question that points at a drawing when none is in hand is asked back.

The waiting question's rules with a clock of the test's own, then questions and replies answered
from a real index (three SolidWorks drawings of ../shared/data read through their text layer, and
a text note, with real embeddings)."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from appliance.answer.answering import Answer, answer_question
from appliance.answer.in_hand import InHand
from appliance.answer.which_drawing import (
    PendingQuestion,
    asks_for_drawings,
    calls_a_drawing,
    chosen_by_place,
    drawing_in_reply,
    fits_drawings_alike,
    spoken_title,
    which_question,
)
from appliance.config import Config
from appliance.index.store import IndexStore, SourceInfo
from appliance.ingest.pipeline import ingest_path
from tests.answer.conftest import SHARED_PDFS as DRAWINGS
from tests.answer.conftest import Clock, model_free_config, shared_drawings


def test_a_question_asked_back_waits_for_its_reply_within_its_time() -> None:
    clock = Clock()
    pending = PendingQuestion(60.0, clock=clock)
    assert pending.current() is None
    pending.ask("What is it made of?")
    clock.now += 59.0
    asked = pending.current()
    assert asked is not None and (asked.question, asked.since) == ("What is it made of?", 1000.0)
    pending.drop()
    assert pending.current() is None
    pending.ask("What scale is this drawing?")
    clock.now += 61.0
    assert pending.current() is None


def test_nothing_waits_when_asking_back_is_off() -> None:
    pending = PendingQuestion(0.0)
    pending.ask("What is it made of?")
    assert not pending.enabled and pending.current() is None


def _info(title: str, number: str, source: str) -> SourceInfo:
    return SourceInfo(
        id=1,
        namespace="global",
        source=source,
        content_hash="",
        media_type="image/png",
        title=title,
        slices=1,
        indexed_at=0.0,
        drawing_number=number,
        revision="",
        superseded=False,
        extra={},
    )


def test_the_question_back_names_a_few_drawings_and_says_how_to_name_one_of_many() -> None:
    flange = _info("FALANPAN", "FL-3306", "falanpan_FL-3306.png")
    shaft = _info("", "", "shafts/idler_shaft.png")
    plate = _info("MOTOR MOUNT PLATE MM-2207-3", "MM-2207-3", "motor_mount_plate.png")
    assert spoken_title(flange) == "FALANPAN FL-3306"
    assert spoken_title(shaft) == "idler shaft"
    assert spoken_title(plate) == "MOTOR MOUNT PLATE MM-2207-3"
    assert which_question([flange, shaft]) == (
        "Which drawing do you mean: FALANPAN FL-3306 or idler shaft?"
    )
    assert which_question([flange, shaft, plate]).count(",") == 1
    many = which_question([flange, shaft, plate, flange, shaft])
    assert many.startswith("Which drawing do you mean? I have 5 here")
    assert "number or its title" in many


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return model_free_config(tmp_path_factory.mktemp("which-drawing"))


@pytest.fixture(scope="module")
def store(config: Config, shared_data: Path) -> Iterator[IndexStore]:
    with shared_drawings(config, shared_data, DRAWINGS) as st:
        yield st


@contextlib.contextmanager
def _beside_a_note(
    folder: Path, shared_data: Path, drawings: Sequence[str]
) -> Iterator[IndexStore]:
    """An index of ``drawings`` beside a text note about the gripper adapter."""
    config = model_free_config(folder)
    note = config.paths.data_dir / "gripper.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("The gripper adapter is printed in black PETG.\n", encoding="utf-8")
    with shared_drawings(config, shared_data, drawings) as st:
        assert not ingest_path(st, note, "global", config=config, source="gripper.md").failures
        yield st


@pytest.fixture(scope="module")
def one_drawing(
    tmp_path_factory: pytest.TempPathFactory, shared_data: Path
) -> Iterator[IndexStore]:
    """An index of one drawing beside a text note."""
    with _beside_a_note(tmp_path_factory.mktemp("one-drawing"), shared_data, DRAWINGS[:1]) as st:
        yield st


async def _ask(
    store: IndexStore,
    config: Config,
    question: str,
    hand: InHand | None = None,
    namespaces: tuple[str, ...] = ("global",),
) -> Answer:
    return await answer_question(
        question, store=store, config=config, namespaces=namespaces, in_hand=hand
    )


async def test_a_question_pointing_at_no_drawing_in_hand_is_asked_back(
    store: IndexStore, config: Config
) -> None:
    answer = await _ask(store, config, "What is it made of?")
    assert answer.mode == "asked", answer
    assert answer.citations == ()
    # Three drawings are searched: each is named, so the reply can be one of them.
    assert answer.spoken.startswith("Which drawing do you mean:"), answer.spoken
    assert answer.spoken.count(" or ") == 1 and answer.spoken.count(",") == 1
    assert "Elevator" in answer.spoken or "ELEVATOR" in answer.spoken.upper()


async def test_no_question_back_when_it_has_a_drawing(
    store: IndexStore, one_drawing: IndexStore, config: Config
) -> None:
    # A drawing in hand, a drawing named, a question that points at nothing: answered.
    held = InHand("global", "Aufspannung.PDF", "scanned", 0.0)
    in_hand = await _ask(store, config, "What is it made of?", held)
    assert in_hand.mode == "extractive" and "PLA" in in_hand.spoken, in_hand
    named = await _ask(store, config, "What is the Aufspannung made of?")
    assert named.mode != "asked", named
    plain = await _ask(store, config, "Which drawing is drawn at scale 1:2?")
    assert plain.mode != "asked", plain
    # One drawing (and a note) searched: "it" can only be that drawing.
    only = await _ask(one_drawing, config, "What is it made of?")
    assert only.mode == "extractive" and "PLA" in only.spoken, only


async def test_asking_back_off_searches_the_question_on_its_own(
    store: IndexStore, config: Config
) -> None:
    off = dataclasses.replace(config, answer=dataclasses.replace(config.answer, ask_which_s=0.0))
    answer = await answer_question("What is it made of?", store=store, config=off)
    assert answer.mode != "asked", answer


async def test_a_reply_that_is_a_drawing_name_answers_the_question_about_that_drawing(
    store: IndexStore, config: Config
) -> None:
    for reply in ("The Aufspannung.", "drawing Aufspannung.PDF", "I mean the Aufspannung, please"):
        held = drawing_in_reply(reply, store=store, namespaces=("global",), heard=True)
        assert held is not None and (held.source, held.why) == ("Aufspannung.PDF", "chosen"), reply
        answer = await _ask(store, config, "What is it made of?", held)
        assert [c.source for c in answer.citations] == ["Aufspannung.PDF"]
        assert "PLA" in answer.spoken
    ecke = drawing_in_reply("the Aufspannung Ecke", store=store, namespaces=("global",))
    assert ecke is not None and ecke.source == "Aufspannung_Ecke.PDF"
    # Said to correct which drawing an answer quoted, it must be the name alone.
    for said in ("No, I mean the Aufspannung Ecke, please.", "the Aufspannung Ecke drawing"):
        alone = drawing_in_reply(said, store=store, namespaces=("global",), only_name=True)
        assert alone is not None and alone.source == "Aufspannung_Ecke.PDF", said
    for said in ("the Aufspannung Ecke's scale", "scale of the Aufspannung Ecke"):
        assert drawing_in_reply(said, store=store, namespaces=("global",), only_name=True) is None
        assert drawing_in_reply(said, store=store, namespaces=("global",)) is not None


def test_a_reply_that_asks_something_or_names_nothing_is_a_question_of_its_own(
    store: IndexStore,
) -> None:
    for reply in (
        "What scale is the Aufspannung?",
        "How long is the elevator bottom",
        "the blue one",
        "never mind",
    ):
        assert drawing_in_reply(reply, store=store, namespaces=("global",)) is None, reply
    # A drawing that is not indexed is not named.
    assert drawing_in_reply("the Lagerdeckel", store=store, namespaces=("global",)) is None


def test_a_reply_may_pick_a_listed_drawing_by_its_place() -> None:
    listed = [("global", "a.png"), ("global", "b.png"), ("shop", "c.pdf")]
    assert chosen_by_place("The second one.", listed) == ("global", "b.png")
    assert chosen_by_place("the first", listed) == ("global", "a.png")
    assert chosen_by_place("the last one, please", listed) == ("shop", "c.pdf")
    assert chosen_by_place("the third", listed[:2]) is None  # only two were named
    assert chosen_by_place("the first or the second?", listed) is None
    assert chosen_by_place("the shaft coupling", listed) is None
    assert chosen_by_place("the second one", []) is None


async def test_the_question_back_says_which_drawings_it_named_in_order(
    store: IndexStore, config: Config
) -> None:
    answer = await _ask(store, config, "What is it made of?")
    assert len(answer.listed) == 3 and {s for _, s in answer.listed} == set(DRAWINGS)
    positions = [answer.spoken.find(spoken_title(_source(store, s))) for _, s in answer.listed]
    assert positions == sorted(positions) and -1 not in positions, (answer.spoken, positions)
    assert answer.to_json()["listed"] == [f"{n}/{s}" for n, s in answer.listed]


def _source(store: IndexStore, source: str) -> SourceInfo:
    info = store.source_info("global", source)
    assert info is not None
    return info


def test_a_question_that_fits_drawings_alike_is_told_from_one_that_picks_one() -> None:
    def found(*covers: tuple[str, bool, float]) -> list[tuple[str, bool, float]]:
        return list(covers)

    two_alike = found(("g/a.png", True, 1.0), ("g/b.png", True, 1.0), ("g/c.png", True, 0.5))
    assert fits_drawings_alike("What is the scale?", two_alike)
    # One drawing holds more of its words: the search picks it, as before.
    assert not fits_drawings_alike(
        "What is the scale?", found(("g/a.png", True, 1.0), ("g/b.png", True, 0.5))
    )
    # A text note holds its words as fully: the note may well be the answer.
    assert not fits_drawings_alike(
        "What torque?",
        found(("g/a.png", True, 1.0), ("g/b.png", True, 1.0), ("g/n.md", False, 1.0)),
    )
    # Most of its words are on no drawing found: searched (and most often declined).
    assert not fits_drawings_alike(
        "What is the crankshaft's bore?", found(("g/a.png", True, 0.4), ("g/b.png", True, 0.4))
    )
    # Several slices of one drawing are one drawing.
    assert not fits_drawings_alike(
        "What is the scale?", found(("g/a.png", True, 1.0), ("g/a.png", True, 1.0))
    )
    # Asking for drawings, the drawings are the answer.
    for question in ("Which drawings are at scale 1:2?", "How many parts are in aluminium?"):
        assert asks_for_drawings(question)
        assert not fits_drawings_alike(question, two_alike)
    assert not asks_for_drawings("What is the scale?")
    # A drawing called by a name the naming did not find is not here: declined, not asked back.
    assert calls_a_drawing("What material is the crankshaft drawing?")
    assert not fits_drawings_alike("What material is the crankshaft drawing?", two_alike)
    for question in ("What is the sheet size of the drawing?", "Is the same part anodised?"):
        assert not calls_a_drawing(question), question


async def test_a_question_whose_words_fit_every_drawing_is_asked_back(
    store: IndexStore, config: Config
) -> None:
    answer = await _ask(store, config, "What is the scale?")
    assert answer.mode == "asked", answer
    assert len(answer.listed) == 3, answer.listed
    # With the drawing in hand it is answered about that drawing.
    held = InHand("global", "Aufspannung.PDF", "scanned", 0.0)
    in_hand = await _ask(store, config, "What is the scale?", held)
    assert in_hand.mode == "extractive", in_hand
    assert [c.source for c in in_hand.citations] == ["Aufspannung.PDF"]
    # Named, it is answered; asking for the drawings, it is searched.
    named = await _ask(store, config, "What is the scale of the Aufspannung Ecke?")
    assert named.mode == "extractive", named
    assert [c.source for c in named.citations] == ["Aufspannung_Ecke.PDF"]
    which = await _ask(store, config, "Which drawings are drawn at scale 1:1?")
    assert which.mode != "asked", which


@pytest.fixture(scope="module")
def drawings_and_note(
    tmp_path_factory: pytest.TempPathFactory, shared_data: Path
) -> Iterator[IndexStore]:
    """The three drawings beside a text note."""
    with _beside_a_note(tmp_path_factory.mktemp("with-note"), shared_data, DRAWINGS) as st:
        yield st


async def test_a_question_about_this_note_is_searched_not_asked_back(
    drawings_and_note: IndexStore, config: Config
) -> None:
    answer = await _ask(
        drawings_and_note, config, "In what colour is the adapter printed, by this note?"
    )
    assert answer.mode == "extractive", answer
    assert [c.source for c in answer.citations] == ["gripper.md"], answer
    assert "black" in answer.spoken.lower(), answer.spoken
    # "This part" with nothing in hand is still asked back.
    part = await _ask(drawings_and_note, config, "What is this part made of?")
    assert part.mode == "asked", part
