"""Extractive field answers: the value, never a bare label, in four languages, with its box and
the English sense of a foreign value."""

from __future__ import annotations

import pytest

from appliance.answer.context import Source, build_sources
from appliance.answer.extractive import Extract, coverage, is_bare_label, line_extract
from appliance.answer.fields import asked_field, field_extract
from appliance.answer.finding import find_extract
from appliance.document import Box
from appliance.vision.dimensions import parse_dimensions
from tests.answer.sources import drawing_source


def test_questions_name_the_new_fields() -> None:
    assert asked_field("How much does the part on drawing LiU0010 weigh?")[0] == "weight"
    assert asked_field("What is the surface treatment of the piston?")[0] == "surface_treatment"
    assert asked_field("What surface finish does the holder need?")[0] == "roughness"
    assert asked_field("Which general tolerance standard applies?")[0] == "general_tolerance"
    assert asked_field("What is the course code on the candle holder?")[0] == "project"
    assert asked_field("Who approved drawing LiU0010?")[0] == "approved_by"
    assert asked_field("Is it anodised?")[0] == "surface_treatment"
    # A phrase starts a word: "update" holds no date.
    assert asked_field("Any update on the bracket?")[0] == ""


def test_field_value_with_its_box_and_english_sense() -> None:
    cell = Box(1133, 2081, 1355, 2127)
    src = drawing_source(
        1,
        "Title block.\nSurface treatment: Anodiserad 15-20µm (anodised 15-20µm)",
        fields={"surface_treatment": "Anodiserad 15-20µm", "title": "Kolv Cykelpump"},
        boxes={"surface_treatment": cell},
        drawing="LiU0010",
    )
    found = find_extract("What is the surface treatment of the bicycle pump piston?", [src])
    assert found is not None
    assert (found.field, found.quote, found.box) == (
        "surface_treatment",
        "Anodiserad 15-20µm",
        cell,
    )
    assert found.english == "anodised 15-20µm"
    assert found.said() == "Anodiserad 15-20µm, anodised 15-20µm"


def test_an_english_or_coded_value_has_no_gloss() -> None:
    src = drawing_source(1, "", fields={"material": "EN AW-6082", "weight": "18.19 g"})
    material = field_extract("What material?", "material", "material", [src])
    assert material is not None and material.english == "" and material.said() == "EN AW-6082"
    assert material.box is None  # no box was kept for it


def test_a_stored_bare_label_is_no_value() -> None:
    """A field holding a label ("Ytbehandling") is not quoted: the text's value is taken."""
    src = drawing_source(
        1,
        "Surface treatment /Ytbehandling\nAnodiserad 15-20µm",
        fields={"surface_treatment": "Ytbehandling"},
    )
    found = field_extract(
        "What surface treatment?", "surface_treatment", "surface treatment", [src]
    )
    assert found is not None and found.quote == "Anodiserad 15-20µm"


def test_label_value_in_swedish_and_german_text() -> None:
    src = drawing_source(
        1, "Vikt/Massa: 0,35 kg\nWerkstoff: S235JR\nMaßstab 1:5\nOberflächengüte: Ra 1,6"
    )
    assert _quote("How much does it weigh?", src) == "0,35 kg"
    assert _quote("What material is it?", src) == "S235JR"
    assert _quote("What scale?", src) == "1:5"
    assert _quote("What roughness is required?", src) == "Ra 1,6"


def test_a_label_over_its_value_in_a_note() -> None:
    note = drawing_source(
        1,
        "Tolerance, if not indicated acc. to /\n"
        "generella toleranser där ej annat anges enligt\n"
        "ISO 2768-mK\n"
        "SURFACE FINISH:\n"
        "√Ra 1.6",
    )
    assert _quote("Which general tolerance standard applies?", note) == "ISO 2768-mK"
    assert _quote("What surface finish is required?", note) == "√Ra 1.6"


def test_a_label_followed_by_the_next_label_has_no_value() -> None:
    """SolidWorks text layers list the labels one after another: "SURFACE FINISH:" is followed by
    "TOLERANCES:", and the answer is not the next label, nor a line of something else."""
    pdf = drawing_source(
        1, "SURFACE FINISH:\nTOLERANCES:\nLINEAR:\nWEIGHT:\nMATERIAL:\nDO NOT SCALE"
    )
    assert field_extract("What surface finish?", "roughness", "surface finish", [pdf]) is None
    assert field_extract("What is the weight?", "weight", "weight", [pdf]) is None
    assert field_extract("What material?", "material", "material", [pdf]) is None


def test_bare_labels_are_never_quoted_as_lines() -> None:
    assert is_bare_label("Weight /vikt")
    assert is_bare_label("Surface treatment Ytbehandling")
    assert is_bare_label("SURFACE FINISH:")
    assert not is_bare_label("Weight /vikt 18.19 g")
    src = drawing_source(
        1, "Surface treatment Ytbehandling\nWeight vikt\nKulör: Natur", drawing="X-1"
    )
    found = line_extract("What is the surface treatment of X-1?", [src])
    assert found is None or not is_bare_label(found.quote)


def test_a_foreign_title_names_the_drawing_a_question_asks_about() -> None:
    """ "the bicycle pump piston" is "Kolv Cykelpump": the field comes from that drawing."""
    piston = drawing_source(1, "Scale: 2:1", fields={"scale": "2:1", "title": "Kolv Cykelpump"})
    plate = drawing_source(2, "Scale: 1:2", fields={"scale": "1:2", "title": "Stahl Adapterplatte"})
    found = find_extract("What scale is the bicycle pump piston drawn at?", [plate, piston])
    assert found is not None and found.quote == "2:1" and found.source_number == 1
    found = find_extract("What scale is the steel adapter plate?", [piston, plate])
    assert found is not None and found.quote == "1:2" and found.source_number == 2


class _Hit:
    """A search hit as the answer code reads it."""

    def __init__(self, extra: dict[str, object]) -> None:
        self.id, self.source, self.namespace, self.ord = 1, "LIU0010.jpg", "global", 0
        self.text, self.page, self.box = "Title block.", 1, Box(0, 0, 10, 10)
        self.section, self.drawing_number, self.revision = "title block", "LiU0010", "A"
        self.title, self.score, self.extra = "Kolv Cykelpump", 1.0, extra


def test_sources_carry_the_field_boxes_of_their_slices() -> None:
    hit = _Hit(
        {
            "title_block": {"weight": "18.19 g"},
            "field_boxes": {"weight": [1531, 1958, 1604, 1980], "bad": "x", "short": [1, 2]},
        }
    )
    (src,) = build_sources([hit], budget_tokens=500, max_sources=3)
    assert src.field_boxes == {"weight": Box(1531, 1958, 1604, 1980)}


def _quote(question: str, src: Source) -> str:
    field, phrase = asked_field(question)
    found = field_extract(question, field, phrase, [src])
    return found.quote if found else ""


def test_a_value_written_without_its_label() -> None:
    """A roughness in a note ("3. Oberfläche Ra 3,2"), a tolerance standard in another."""
    src = drawing_source(1, "Anmerkungen\n1. Tolerierung ISO 2768-mK\n3. Oberflache Ra 3.2")
    assert _quote("What surface roughness does the part need?", src) == "Ra 3.2"
    assert _quote("Which general tolerance standard applies?", src) == "ISO 2768-mK"


def test_iso_7200_and_everyday_phrasings() -> None:
    assert asked_field("What part is drawing HM-30518?")[0] == "title"
    assert asked_field("Who signed off drawing GB-4410-01?")[0] == "approved_by"
    assert asked_field("Which department is responsible for the part?")[0] == "department"
    assert asked_field("What is the document status of the cover?")[0] == "document_status"
    assert asked_field("What is the identification number?")[0] == "drawing_number"


def test_a_field_is_not_fished_from_a_drawing_the_question_does_not_name() -> None:
    """ "the wheel hub" names no source: only the best-ranked one is asked, and it has no approver."""
    first = drawing_source(1, "Scale: 1:1", fields={"scale": "1:1", "title": "Lagerdeckel"})
    other = drawing_source(2, "", fields={"approved_by": "M. Ortiz", "title": "GEARBOX COVER"})
    assert find_extract("Who approved the pump housing?", [first, other]) is None
    # Named by the English sense of its Swedish title, the right drawing is asked.
    hub = drawing_source(3, "", fields={"approved_by": "A. Berg", "title": "Hjulnav"})
    found = find_extract("Who approved the wheel hub?", [first, other, hub])
    assert found is not None and found.quote == "A. Berg"


def test_a_weight_needs_its_unit() -> None:
    pdf = drawing_source(1, "WEIGHT:\nMicro_Vu-4.20\nMicro-Vu Turm")
    assert field_extract("What does it weigh?", "weight", "weigh", [pdf]) is None


def test_a_longer_label_is_not_a_shorter_one_with_a_value() -> None:
    """ "APPROVED BY" with nothing after it: not the approver "BY"."""
    src = drawing_source(1, "DRAWN BY\nCHECKED BY\nAPPROVED BY\nALL DIMENSIONS IN MM")
    assert field_extract("Who approved it?", "approved_by", "approved", [src]) is None


def test_units_general_tolerance_phrasings_and_a_dimension_is_no_general_tolerance() -> None:
    src = drawing_source(1, "ALL DIMENSIONS IN MM\nTolerances: 12 ±0.1.\nNOTES")
    assert _quote("What units are the dimensions in?", src) == "ALL DIMENSIONS IN MM"
    assert _quote("Which general tolerance standard applies?", src) == ""
    assert asked_field("What linear tolerance applies unless defined otherwise?")[0] == (
        "general_tolerance"
    )


def test_a_foreign_note_line_matches_an_english_question() -> None:
    """The note says "Laufflächen induktiv gehärtet 58 HRC"; its English sense is what is asked."""
    src = drawing_source(
        1,
        "Surface treatment: gehärtet und geschliffen (hardened and ground)\n"
        "2. Laufflächen induktiv gehärtet 58 HRC",
        title="Führungsschiene",
    )
    found = line_extract("To what hardness are the running faces hardened?", [src])
    assert found is not None and "58 HRC" in found.quote


def test_a_file_named_whole_wins_over_one_that_shares_its_first_word() -> None:
    whole = drawing_source(1, "Sheet: 1 OF 1", fields={"sheet": "1 OF 1"}, source="Aufspannung.PDF")
    longer = drawing_source(
        2, "Sheet: 2 OF 2", fields={"sheet": "2 OF 2"}, source="Aufspannung_Ecke.PDF"
    )
    found = find_extract("Which sheet is Aufspannung.PDF?", [longer, whole])
    assert found is not None and found.source_number == 1


def test_umlaut_spellings_compare_equal() -> None:
    src = drawing_source(1, "Title: Fuhrungsschiene", fields={"drawing_number": "FS-0930-2"})
    assert _quote("What is the drawing number of drawing fuehrungsschiene.png?", src) == (
        "FS-0930-2"
    )
    assert coverage("fuehrungsschiene", "Führungsschiene") == 1.0


def test_an_empty_label_read_together_with_the_next_cell_is_no_answer() -> None:
    """The page's OCR read two cells as one line: "GEWICHT: MASSSTAB:1:2" has no weight."""
    src = drawing_source(
        1, "GEWICHT: MASSSTAB:1:2\nWEIGHT: SCALE:2:1 SHEET 1 OF 1", title="Adapterplatte"
    )
    assert find_extract("How much does the Adapterplatte weigh?", [src]) is None


def test_a_file_named_with_its_extension_is_the_subject() -> None:
    """Both PDFs' texts say "Aufspannung"; the question gives one file's whole name."""
    ecke = drawing_source(
        1,
        "Aufspannung_Ecken\nSHEET 1 OF 1",
        fields={"sheet": "1 OF 1"},
        source="Aufspannung_Ecke.PDF",
    )
    tower = drawing_source(2, "Micro_Vu-4.20", fields={"sheet": "2 OF 2"}, source="Aufspannung.PDF")
    found = find_extract("Which sheet is Aufspannung.PDF?", [ecke, tower])
    assert found is not None and found.source_number == 2


def test_values_must_have_their_fields_form() -> None:
    """Photo misreadings: "I2" is no scale, "Micro-Vu Turm" no size; "DO NOT SCALE DRAWING" says
    nothing about the scale."""
    src = drawing_source(
        1, "MASSSTAB: I2\nSIZE: Micro-Vu Turm\nDO NOT SCALE DRAWING", title="Halter"
    )
    assert find_extract("What scale is the Halter drawn at?", [src]) is None
    assert _quote("What sheet size is it?", src) == ""
    good = drawing_source(1, "MASSSTAB: 1:2\nSIZE: A4")
    assert _quote("What scale?", good) == "1:2"
    assert _quote("What sheet size?", good) == "A4"


def test_the_material_of_another_component_is_not_the_parts() -> None:
    block = drawing_source(
        1,
        "Title block.\nMaterial: AL 6061-T651",
        fields={"material": "AL 6061-T651", "title": "MANIFOLD BLOCK"},
    )
    assert (
        find_extract("What seal material do the ports of the manifold block use?", [block]) is None
    )
    assert find_extract("What material is the manifold block?", [block]) is not None
    seal = drawing_source(2, "", fields={"material": "FKM", "title": "SEAL RING"})
    found = find_extract("What is the seal material of the seal ring?", [seal])
    assert found is not None and found.quote == "FKM"


def test_a_field_answer_reads_as_a_sentence() -> None:
    assert Extract(1, "Stahl", "material", 1.0, None, "steel").sentence() == (
        "The material is Stahl, steel"
    )
    assert Extract(1, "K. Lund", "drawn_by", 1.0).sentence() == "It was drawn by K. Lund"
    assert Extract(1, "A4", "size", 1.0).sentence() == "The sheet size is A4"
    # A dimension answer's own wording stays.
    assert Extract(1, "±0.1", "tolerance on ⌀21.5", 1.0).sentence() == (
        "The tolerance on ⌀21.5 is ±0.1"
    )


@pytest.mark.parametrize(
    ("question", "line", "answered"),
    [
        ("What torque do the M8 bolts on the plate take?", "Threads: 4 x M8 through.", False),
        ("What torque do the M8 bolts on the plate take?", "Tighten the M8 bolts to 25 N·m.", True),
        ("What test pressure does the plate see?", "Pressure test the plate ports.", False),
        ("What test pressure does the plate see?", "Pressure test the plate to 3000 PSI.", True),
        ("What does the plate cost?", "Plate cost centre 4410, machined.", False),
    ],
)
def test_a_quantity_asked_is_answered_only_by_a_line_with_its_units(
    question: str, line: str, answered: bool
) -> None:
    found = find_extract(question, [drawing_source(1, line, title="plate")])
    assert (found is not None) is answered, found


def test_questions_name_fields_in_further_words() -> None:
    assert asked_field("What issue is drawing BS-2290-05 at?")[0] == "revision"
    assert asked_field("When was BS-2290-05 issued?")[0] == "date"
    assert asked_field("Who designed the hub cap?")[0] == "drawn_by"
    assert asked_field("Is the bearing sleeve heat treated?")[0] == "heat_treatment"
    assert asked_field("What's the gearbox housing cast from?")[0] == "material"
    assert asked_field("What size sheet is the base drawing?")[0] == "size"
    assert asked_field("How rough may the bearing seat be?")[0] == "roughness"
    assert asked_field("What tolerance applies where none is given?")[0] == "general_tolerance"
    assert asked_field("How many of the plates do we need to make?")[0] == "quantity"


@pytest.mark.parametrize(
    ("question", "line", "answered"),
    [
        ("How thick is the powder coat on the plate?", "Surface treatment: POWDER COAT", False),
        ("How thick is the powder coat on the plate?", "POWDER COAT 60-80 µm", True),
        ("How deep is the case hardening on the plate?", "CASE HARDEN, 58-62 HRC", False),
        ("How deep is the case hardening on the plate?", "CASE HARDEN .030 DEEP, 58-62 HRC", True),
        ("What wall thickness does the plate have?", "WALL THICKNESS 2.0 UNLESS NOTED", True),
    ],
)
def test_a_thickness_or_depth_is_answered_only_by_a_line_that_states_it(
    question: str, line: str, answered: bool
) -> None:
    found = find_extract(question, [drawing_source(1, line, title="plate")])
    assert (found is not None) is answered, found


def test_a_depth_a_note_states_when_the_dimensions_do_not() -> None:
    plate = drawing_source(1, "CASE HARDEN .030 DEEP, 58-62 HRC", title="plate")
    plate.dimensions.extend(d.to_json() for d in parse_dimensions("⌀25 H7", Box(0, 0, 9, 9)))
    other = drawing_source(2, "Harden 2 mm deep", title="lever")
    found = find_extract("How deep is the case hardening on the plate?", [plate, other])
    assert found is not None and ".030" in found.quote and found.source_number == 1


def test_a_finish_asked_of_a_feature_is_its_surface_not_its_size() -> None:
    sleeve = drawing_source(1, "2. Bore honed, Ra 0.4", title="sleeve")
    sleeve.dimensions.extend(d.to_json() for d in parse_dimensions("⌀25 H7", Box(0, 0, 9, 9)))
    found = find_extract("What finish is the bore of the sleeve honed to?", [sleeve])
    assert found is not None and "Ra 0.4" in found.quote
    # The bore's size is still a dimension.
    found = find_extract("What fit is on the bore of the sleeve?", [sleeve])
    assert found is not None and "H7" in found.quote


@pytest.mark.parametrize(
    ("question", "line", "answered"),
    [
        (
            "Which grease is the plate lubricated with?",
            "Lubricate with grease before assembly",
            False,
        ),
        ("Which grease is the plate lubricated with?", "Lubricate with Klüber NBU 15", True),
        ("Which RAL colour is the plate painted?", "Paint RAL 7035 after machining", True),
        ("Which projection does the plate drawing use?", "FIRST ANGLE PROJECTION", True),
        # An empty checker cell read with the text beside it names nobody.
        ("Who checked the plate drawing?", "Granskad: 95.5 Q5.5 25.5", False),
        ("Who checked the plate drawing?", "Checked by T. Weiss", True),
    ],
)
def test_which_one_is_answered_by_a_line_that_names_one(
    question: str, line: str, answered: bool
) -> None:
    found = find_extract(question, [drawing_source(1, line, title="plate")])
    assert (found is not None) is answered, found
