"""A roughness, the units or a colour asked of a drawing whose lines state it without the
question's words: the drawing's one value in that form answers, two different values do not."""

from __future__ import annotations

from appliance.answer.finding import find_extract
from appliance.answer.forms import asked_form
from tests.answer.sources import drawing_source


def test_the_asked_form_is_recognised() -> None:
    assert asked_form("What surface roughness does the gripper need?").name == "roughness"
    assert asked_form("What units are the dimensions of BM-B-112 in?").name == "units"
    assert asked_form("What colour is the sensor cover plate?").name == "colour"
    assert asked_form("What material is the sensor cover plate?") is None


def test_a_value_in_the_asked_form_answers_when_no_line_shares_the_words() -> None:
    plate = drawing_source(
        1,
        "SENSOR COVER PLATE C-3310\nMaterial: ABS, BLACK\nALL DIME IONS IN MM\nLRz 2.5",
        title="SENSOR COVER PLATE",
        drawing="C-3310",
    )
    colour = find_extract("What colour is the sensor cover plate?", [plate])
    assert colour is not None and "BLACK" in colour.quote
    units = find_extract("What units are the dimensions of the sensor cover plate in?", [plate])
    assert units is not None and "IN MM" in units.quote
    rough = find_extract("What surface roughness does the sensor cover plate need?", [plate])
    assert rough is not None and "Rz 2.5" in rough.quote


def test_two_different_values_or_an_unnamed_drawing_answer_nothing() -> None:
    two = drawing_source(
        1,
        "SENSOR COVER PLATE C-3310\nMaterial: ABS, BLACK\nLID: WHITE",
        title="SENSOR COVER PLATE",
        drawing="C-3310",
    )
    assert find_extract("What colour is the sensor cover plate?", [two]) is None
    black = drawing_source(
        2,
        "SENSOR COVER PLATE C-3310\nMaterial: ABS, BLACK",
        title="SENSOR COVER PLATE",
        drawing="C-3310",
    )
    assert find_extract("What colour is the impeller?", [black]) is None
