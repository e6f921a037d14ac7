"""Rules found by reading the misses of the answers set's dev part (decision 0016): a revision named
by its letter must be one the drawing states, a line sharing only a bare number with a question in
words does not answer it, a view's own scale answers a question about that view, one row of a hole
table is not any dimension of a drawing without a read table, a hardness line answers a hardness
question, and labels and part names read without their accents or compounded are still known."""

from __future__ import annotations

from appliance.answer.finding import find_extract, unstated_designations
from appliance.drawing_terms import english, label_field, senses
from appliance.vision.titlefields import clean_value, match_label
from tests.answer.sources import drawing_source

_CLAMP = drawing_source(
    1,
    "Revision: A Material: 42CrMo4\n2. Harten 45+5 HRC\nDate: 2022-08-26\nLengths: 25 ±0.2, 220.",
    fields={"revision": "A", "material": "42CrMo4", "scale": "2:1"},
    title="Spannpratze",
    drawing="SP-4471",
    revision="A",
)


def test_a_revision_the_drawing_does_not_state_is_not_answered_for() -> None:
    assert unstated_designations("Who approved revision B of drawing SP-4471?", [_CLAMP]) == [
        "revision B"
    ]
    assert unstated_designations("Who approved revision A of drawing SP-4471?", [_CLAMP]) == []
    assert find_extract("Who approved revision B of the part on drawing SP-4471?", [_CLAMP]) is None


def test_a_revision_in_a_revision_label_counts_as_stated() -> None:
    src = drawing_source(2, "Änderung: C neue Bohrung", title="Lagerbock", drawing="LB-1")
    assert unstated_designations("What changed in revision C of drawing LB-1?", [src]) == []
    # "and C" is English, not a revision label read without its umlaut.
    sections = drawing_source(3, "SECTIONS A and C", title="Lagerbock", drawing="LB-2")
    assert unstated_designations("What changed in revision C of drawing LB-2?", [sections]) == [
        "revision C"
    ]


def test_a_line_sharing_only_a_year_does_not_answer_a_question_in_words() -> None:
    assert find_extract("Who won the football world cup in 2022?", [_CLAMP]) is None


def test_a_size_in_the_question_still_picks_its_line() -> None:
    found = find_extract("How much can the 25 mm length of the Spannpratze vary?", [_CLAMP])
    assert found is not None and "25 ±0.2" in found.quote


def test_a_hardness_line_answers_how_hard_a_part_is_hardened() -> None:
    found = find_extract("To what hardness is the Spannpratze hardened?", [_CLAMP])
    assert found is not None and "45+5 HRC" in found.quote


def test_a_views_own_scale_answers_a_question_about_that_view() -> None:
    src = drawing_source(
        3,
        "Scale: 1:1\nREFERENCE ISOMETRIC VIEW SCALE 1:2\nSECTION A-A",
        fields={"scale": "1:1"},
        title="Bracket",
        drawing="BM-1",
    )
    view = find_extract("At what scale is the isometric view of drawing BM-1 shown?", [src])
    assert view is not None and "1:2" in view.quote
    sheet = find_extract("What scale is drawing BM-1?", [src])
    assert sheet is not None and sheet.quote == "1:1"


def test_one_hole_of_a_table_not_read_is_not_the_largest_diameter() -> None:
    src = drawing_source(4, "FLANGE FL-1", title="Flange", drawing="FL-1", dims="⌀180\n⌀65")
    assert find_extract("What is the X position of hole 1 on drawing FL-1?", [src]) is None
    assert find_extract("What size is hole 4 in the hole table of drawing FL-1?", [src]) is None


def test_labels_read_without_their_accents_are_known() -> None:
    assert label_field("Oberflache") == "surface_treatment"
    assert label_field("Anderung") == "revision"
    assert label_field("Gepruft") == "checked_by"


def test_machine_element_names_have_an_english_sense_however_compounded() -> None:
    assert english("Spannpratze") == "clamping claw"
    assert english("Kedjespännare") == "chain tensioner"
    assert english("Kettenspanner") == "chain tensioner"
    assert english("Distanzhülse") == "spacer sleeve"
    # English words that are also glossary words keep their English sense.
    assert senses("Listen: the LED list, pass the spanner") == []


def test_the_overall_length_is_not_a_fitted_size() -> None:
    src = drawing_source(
        5, "IDLER SHAFT IS-1", title="Idler shaft", drawing="IS-1", dims="925 h6\n158\n32"
    )
    found = find_extract("What is the overall length of the part on drawing IS-1?", [src])
    assert found is not None and found.quote == "158"


def test_a_hole_row_is_answered_only_by_a_line_that_names_the_hole() -> None:
    src = drawing_source(
        6,
        "Surface treatment: galvanised Drawn by: AS 4\nFLANGE FL-2",
        title="Flange",
        drawing="FL-2",
    )
    assert find_extract("What size is hole 4 in the hole table of drawing FL-2?", [src]) is None
    named = drawing_source(7, "Hole 4: M12 through\nFLANGE FL-3", title="Flange", drawing="FL-3")
    found = find_extract("What size is hole 4 in the hole table of drawing FL-3?", [named])
    assert found is not None and "M12" in found.quote


def test_a_label_with_one_letter_misread_is_still_the_label() -> None:
    assert match_label(["Geprift"], 0) == ("checked_by", 1)
    assert match_label(["Gezeichnet"], 0) == ("drawn_by", 1)
    assert match_label(["Gewinde"], 0) is None


def test_an_initials_full_stop_read_as_a_comma_is_a_name() -> None:
    assert clean_value("drawn_by", "F, Wagner") == "F. Wagner"
    assert clean_value("material", "S, Steel") == "S, Steel"


def test_a_note_of_the_drawing_named_is_that_drawings_even_in_another_slice() -> None:
    block = drawing_source(
        8, "MOTOR MOUNT PLATE MM-1\nMaterial: S355J2", title="Motor mount plate", drawing="MM-1"
    )
    notes = drawing_source(9, "NOTES\n3. Paint RAL 7035 after machining", source=block.source)
    found = find_extract("Which RAL colour is the motor mount plate painted?", [block, notes])
    assert found is not None and "RAL 7035" in found.quote
