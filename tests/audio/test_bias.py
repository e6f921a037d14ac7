"""The recogniser's bias prompt: terms written as they are said, without repeats, within a budget."""

from __future__ import annotations

from dataclasses import dataclass

from appliance.audio.bias import bias_prompt, index_names, question_prompt, spoken_term


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


@dataclass
class _Source:
    drawing_number: str
    title: str
    namespace: str
    indexed_at: float


def test_index_names_put_the_active_rooms_drawings_first_then_the_newest() -> None:
    sources = [
        _Source("A-100", "OLD GLOBAL", "global", 1.0),
        _Source("B-200", "NEW GLOBAL", "global", 9.0),
        _Source("C-300", "LAB FIXTURE", "lab", 2.0),
        _Source("C-300", "LAB FIXTURE", "lab", 3.0),  # a second revision: no repeat
    ]
    assert index_names(sources) == [
        "B-200",
        "NEW GLOBAL",
        "C-300",
        "LAB FIXTURE",
        "A-100",
        "OLD GLOBAL",
    ]
    assert index_names(sources, ["lab"])[:2] == ["C-300", "LAB FIXTURE"]
    # The given order counts: global before a namespace not named.
    lab_then_global = index_names([*sources, _Source("D-400", "", "shop", 50.0)], ["lab", "global"])
    assert lab_then_global[:3] == ["C-300", "LAB FIXTURE", "B-200"]
    assert lab_then_global[-1] == "D-400"
    # A title an English transcription cannot write takes no room; its drawing number does.
    assert index_names([_Source("FL-3306", "法兰盘", "global", 1.0)]) == ["FL-3306"]
    # Within the budget, the room's drawing is what survives when the index is long.
    many = [_Source(f"X-{i}", f"PART {i}", "global", 100.0 + i) for i in range(100)]
    prompt = question_prompt([], [], index_names([*many, *sources], ["lab"]))
    assert "C-300, Lab fixture" in prompt and "X-0" not in prompt
