"""The recogniser's bias prompt: terms written as they are said, without repeats, within a budget."""

from __future__ import annotations

from appliance.audio.bias import bias_prompt, question_prompt, spoken_term


def test_terms_are_written_as_they_are_said() -> None:
    assert spoken_term("GEARBOX COVER") == "Gearbox cover"
    assert spoken_term("Weird_Gripper_Cam_Adapter") == "Weird Gripper Cam Adapter"
    assert spoken_term("Lagerdeckel.png") == "Lagerdeckel"
    # Codes keep their capitals and dashes: they are read out as written.
    assert spoken_term("HM-30518") == "HM-30518"
    assert spoken_term("QM230307FBSC04") == "QM230307FBSC04"


def test_prompt_drops_repeats_and_keeps_within_its_budget() -> None:
    prompt = bias_prompt(["MOUNTING BRACKET", "Mounting bracket", "A-1024", "B-2040"], budget=28)
    assert prompt == "Mounting bracket, A-1024"
    assert bias_prompt([]) == ""
    long = bias_prompt([f"term {i}" for i in range(500)])
    assert 0 < len(long) <= 400


def test_question_prompt_puts_question_words_before_the_index_names() -> None:
    prompt = question_prompt(
        ["scan this"], ["Bench 3"], ["GEARBOX COVER", "HM-30518"], phrase="Open Claw"
    )
    assert prompt.startswith("Open Claw, scan this, drawing, sheet, scale, material"), prompt
    assert prompt.endswith("weight, Bench 3, Gearbox cover, HM-30518"), prompt
    # Without the phrase (a capture that starts after it) the commands lead.
    assert question_prompt(["stop"], [], []).startswith("stop, drawing")
    # The index's names fill what the budget leaves.
    many = question_prompt([], [], [f"TITLE NUMBER {i}" for i in range(200)])
    assert len(many) <= 400 and "Title number 0" in many
