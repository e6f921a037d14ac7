"""A foreign drawing name said by an English voice and written by ear still names its drawing."""

from __future__ import annotations

import pytest

from appliance.index.identity import SourceNames, _SourceRow, by_title
from appliance.index.soundalike import sound_closeness, sound_spans
from appliance.spelling import sound_key


def _names() -> SourceNames:
    rows = [
        _SourceRow(1, "global", "kedjespannare_KS-118-03.png", "Kedjespännare", "KS-118-03", ()),
        _SourceRow(2, "global", "SP-4471_Spannpratze.png", "Spannpratze", "SP-4471", ()),
        _SourceRow(3, "global", "LIU0010.jpg", "Kolv Cykelpump", "LiU0010", ()),
        _SourceRow(4, "global", "idler_shaft.png", "IDLER SHAFT", "IS-11902", ()),
        _SourceRow(5, "global", "Vorgelegewelle.png", "Vorgelegewelle", "VW-3318-00", ()),
        _SourceRow(6, "global", "sensor_bracket.png", "SENSOR BRACKET", "SB-3307-11", ()),
        _SourceRow(7, "global", "distansbricka.png", "Distansbricka", "KMM-2024-017", ()),
        # No drawing number in its sources row: only the title block's text names it.
        _SourceRow(8, "global", "motor_mount_plate.png", "MOTOR MOUNT PLATE", "", ("MM-2207-3",)),
    ]
    return SourceNames(rows)


def test_the_sound_key_says_alike_sounds_alike() -> None:
    assert sound_key("kedjespannare") == sound_key("kedjasbanner") == "kjspnr"
    assert sound_key("spannpratze") == sound_key("spanpratsy")
    assert sound_key("falanpan") == sound_key("phallanpen") == sound_key("felonpan")
    assert sound_key("cykelpump") == sound_key("cyclepump")
    # Unlike sounds stay apart.
    assert sound_key("lagerdeckel") != sound_key("lagerbock")


@pytest.mark.parametrize(
    ("heard", "source"),
    [
        ("What's the catcher spinner made from?", "kedjespannare_KS-118-03.png"),
        ("What radius has the nose of the span pratsy?", "SP-4471_Spannpratze.png"),
        ("What scale is the call of cycle pump drawing?", "LIU0010.jpg"),
        ("How much does the part on drawing eyedler shaft dot PNG weigh?", "idler_shaft.png"),
        ("What is the drawing number of the distance bracket drawing?", "distansbricka.png"),
    ],
)
def test_a_transcript_names_the_drawing_its_words_sound_like(heard: str, source: str) -> None:
    names = _names()
    found = names.match(heard, heard=True)
    assert [n.source for n in found] == [source]
    assert found[0].score < 1.0
    # Typed, the same words are a slip of nobody's ear: they name nothing.
    assert names.match(heard) == []


def test_the_words_heard_for_a_name_are_read_as_its_title() -> None:
    heard = "How much does the part on drawing eyedler shaft weigh?"
    found = _names().match(heard, heard=True)
    assert "eyedler" in found[0].said
    asked = by_title(heard, found, {"idler_shaft.png": "Idler Shaft"}, {})
    assert asked == "How much does the part on drawing Idler Shaft weigh?"


def test_a_word_spelled_as_the_name_spells_it_is_no_evidence_of_sound() -> None:
    spans = sound_spans(["scale", "neither", "shaft"])
    # "neither shaft" against "countershaft": only "neither" and "counter" are compared by
    # sound, and "counter" is too short a key to tell.
    assert sound_closeness("countershaft", spans) == (0.0, ())
    # A run that is only the name's own words says it by letters, not by sound.
    assert sound_closeness("idlershaft", sound_spans(["idler", "shaft"])) == (0.0, ())


def test_runs_ending_in_small_words_say_no_name() -> None:
    words = ["angle", "between", "the", "two", "arms", "of", "the", "rocker"]
    spans = sound_spans(words, frozenset({"the", "of"}))
    assert all(words[s.positions[0]] not in ("the", "of") for s in spans)
    assert all(words[s.positions[-1]] not in ("the", "of") for s in spans)


def test_two_drawings_that_sound_alike_name_neither() -> None:
    rows = [
        _SourceRow(1, "global", "a.png", "Kedjespännare", "AA-1001", ()),
        _SourceRow(2, "global", "b.png", "Kedjespanare", "BB-2002", ()),
    ]
    assert SourceNames(rows).match("What's the catcher spinner made from?", heard=True) == []


def test_a_question_sounding_like_no_name_names_nothing() -> None:
    names = _names()
    assert names.match("What torque do the M6 screws take?", heard=True) == []
    assert names.match("How long is the thread on the pin?", heard=True) == []


def test_a_number_in_groups_is_named_however_its_groups_are_heard() -> None:
    names = _names()
    for asked in ("Which revision is drawing MM-22073?", "Which revision is drawing MM-2207-3?"):
        assert [n.source for n in names.match(asked)] == ["motor_mount_plate.png"]


def test_a_name_heard_run_together_names_its_drawing() -> None:
    # A recogniser writes a file name it heard as one word.
    asked = "What tolerance is on the plate thickness of drawing motormountplate.png?"
    assert [n.source for n in _names().match(asked)] == ["motor_mount_plate.png"]


def test_a_group_of_a_number_said_inside_another_number_names_not_its_drawing() -> None:
    rows = [
        _SourceRow(1, "global", "PB-118-4_base.png", "PILLOW BLOCK BASE", "PB-118-4", ()),
        _SourceRow(2, "global", "kedjespannare_KS-118-03.png", "Kedjespannare", "KS-118-03", ()),
    ]
    names = SourceNames(rows)
    # "KS-118-03" heard as "case 118-03": its group 118 is PB-118-4's too, but 118-03 is not.
    heard = "How much does the part on drawing case 118-03 weigh?"
    assert [n.source for n in names.match(heard)] == ["kedjespannare_KS-118-03.png"]
    assert [n.source for n in names.match("What scale is the 118-4?")] == ["PB-118-4_base.png"]
    # A group said alone still names every drawing whose number has it.
    assert len(names.match("What is on drawing 118?")) == 2
