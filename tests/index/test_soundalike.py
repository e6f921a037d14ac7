"""A drawing named by words or a number a recogniser heard nearly right still names its drawing."""

from __future__ import annotations

import pytest

from appliance.index.identity import SOUNDALIKE_SCORE, SourceNames, _SourceRow
from appliance.index.soundalike import close_identifiers, closeness
from appliance.spelling import edit_distance


def _names() -> SourceNames:
    rows = [
        _SourceRow(1, "global", "Candle_holder.jpg", "Ljushållare", "2022001", ()),
        _SourceRow(2, "global", "LIU0010.jpg", "Bicycle pump piston", "LIU0010", ()),
        _SourceRow(3, "global", "A-1024_revC.png", "MOUNTING BRACKET", "A-1024", ()),
        _SourceRow(4, "global", "lagerdeckel.png", "Lagerdeckel", "LD-1208-00", ()),
        _SourceRow(5, "global", "flange.png", "Flange", "FL-3306", ()),
    ]
    return SourceNames(rows)


def test_edit_distance_counts_edits_and_stops_at_its_limit() -> None:
    assert edit_distance("holder", "folder", 3) == 1
    assert edit_distance("mounting", "mountain", 3) == 2
    assert edit_distance("2022001", "2020001", 3) == 1
    assert edit_distance("abc", "abc", 0) == 0
    # Past the limit the answer is limit + 1, however far apart the words are.
    assert edit_distance("gearbox", "flange", 1) == 2
    assert edit_distance("a", "abcdefgh", 2) == 3


def test_short_words_are_never_close() -> None:
    # One letter makes another word of a short one: "hole" is not "role".
    assert closeness("hole", ["the", "role"]) == (0.0, ())
    nearness, where = closeness("holder", ["candle", "folder"])
    assert nearness == pytest.approx(1 - 1 / 6) and where == (1,)
    assert closeness("holder", ["boulder"])[0] == 0.0
    # A foreign word heard as two English ones.
    assert closeness("lagerdeckel", ["the", "lager", "deckle"])[1] == (1, 2)


@pytest.mark.parametrize(
    ("question", "source"),
    [
        ("What material is the candle folder made of?", "Candle_holder.jpg"),
        ("Which revision is the mountain bracket drawing?", "A-1024_revC.png"),
        ("What general tolerance class is the Langer-Deckel made to?", "lagerdeckel.png"),
        ("Which sheet is drawing 2-0-2-0-0-0-1?", "Candle_holder.jpg"),
        ("How much does the part on drawing a light U-0-0-1-0 weigh?", "LIU0010.jpg"),
    ],
)
def test_a_name_heard_nearly_right_names_its_drawing(question: str, source: str) -> None:
    names = _names()
    found = names.match(question)
    assert [n.source for n in found][:1] == [source]
    assert found[0].score < 1.0
    # Without the sound-alike pass the question names nothing.
    assert names.match(question, soundalike_names=False) == []


def test_an_exact_name_wins_and_scores_one() -> None:
    found = _names().match("Which sheet is drawing 2022001?")
    assert [(n.source, n.score) for n in found] == [("Candle_holder.jpg", 1.0)]


def test_an_identifier_one_edit_off_scores_below_an_exact_one() -> None:
    found = _names().match("Which sheet is drawing 2020001?")
    assert [(n.source, n.score) for n in found] == [("Candle_holder.jpg", SOUNDALIKE_SCORE)]


def test_a_question_near_no_name_names_nothing() -> None:
    assert _names().match("What torque do the M6 screws take?") == []
    assert _names().match("Which bearing goes on the idler shaft?") == []


def test_a_tail_shared_by_two_identifiers_names_neither() -> None:
    # "0010" ends both identifiers: the heard tail cannot tell them apart.
    assert close_identifiers(["liu0010", "kx0010"], {"0010"}) == []
    # A longer piece that ends only one of them tells them apart.
    assert close_identifiers(["liu0010", "kx0010"], {"0010", "u0010"}) == ["liu0010"]
