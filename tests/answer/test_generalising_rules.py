"""Rules that keep an extractive answer to what the question asks (decision 0026): the designations it
names must be on the drawing quoted, a field asked and not found is not answered by another field's
line, a drawing that is not among the sources is not answered for, revision rows are named by any
title-block word for a revision or by their place, hole rows by what the hole is, a depth asked of a
bore is a depth, and how long a test runs is a time."""

from __future__ import annotations

from appliance.answer.dimensions import _intent
from appliance.answer.finding import designations, find_extract, unstated_designations
from appliance.answer.tables import asks_table
from appliance.document import Box
from appliance.vision.tables import Table, TableRow
from tests.answer.sources import drawing_source

_BRACKET = drawing_source(
    1,
    "MOUNTING BRACKET A-1024\n1. BREAK ALL SHARP EDGES 0.5 X 45°\n3. TORQUE M8 BOLTS TO 25 N·m",
    fields={"material": "6061-T6", "scale": "1:2"},
    title="MOUNTING BRACKET",
    drawing="A-1024",
)


def test_designations_are_the_words_with_a_digit_file_names_aside() -> None:
    asked = "What tolerance do the four Ø 6.60 holes of UR10's plate have, on drawing_7.png?"
    assert designations(asked) == ["Ø6.60", "UR10"]


def test_a_designation_is_matched_as_the_drawing_writes_it() -> None:
    drawing = [drawing_source(1, "6x M6x1\n4 x ⌀ 11,00 ↧ 20,00\nR1.00 ±0.10\nUR10_29.20\n⌀52 H7")]
    assert unstated_designations("the M6 screws, the Ø11 holes, the R1, the UR10", drawing) == []
    assert unstated_designations("the M8 screws, the Ø50 bore, drawing A-1025", drawing) == [
        "M8",
        "Ø50",
        "A-1025",
    ]


def test_a_torque_of_bolts_the_drawing_does_not_show_is_not_answered() -> None:
    right = find_extract("What torque do the M8 bolts on the mounting bracket take?", [_BRACKET])
    assert right is not None and "25 N·m" in right.quote
    assert (
        find_extract("What torque do the M6 bolts on the mounting bracket take?", [_BRACKET])
        is None
    )


def test_a_drawing_number_one_off_an_indexed_one_is_not_answered_for() -> None:
    assert find_extract("What scale is drawing A-1024?", [_BRACKET]) is not None
    assert find_extract("What scale is drawing A-1025?", [_BRACKET]) is None


def test_a_field_not_found_is_not_answered_by_another_fields_line() -> None:
    src = drawing_source(1, "Drawn by: L. Vogel\nLAGERBOCK", title="Lagerbock")
    assert find_extract("What paper format is the Lagerbock drawn on?", [src]) is None
    holes = drawing_source(2, "Hole K1: size ⌀5.5; X 20,0; Y 0,0.\nNAVKAPSEL", title="Navkapsel")
    assert find_extract("What paper size is the Navkapsel drawing?", [holes]) is None


def test_a_roughness_line_says_what_finish_a_bore_has() -> None:
    src = drawing_source(
        1, "1. Surface hardness 60 HRC\n2. Bore honed, Ra 0.4", title="BEARING SLEEVE"
    )
    found = find_extract("What finish is the bore of the bearing sleeve honed to?", [src])
    assert found is not None and "Ra 0.4" in found.quote


def test_a_field_of_a_drawing_no_source_mentions_is_not_answered() -> None:
    assert find_extract("What material is the mounting bracket?", [_BRACKET]) is not None
    assert find_extract("What material is the crankshaft drawing?", [_BRACKET]) is None


def _revisions() -> Table:
    rows = [
        TableRow("A", {"key": "A", "description": "Erstausgabe", "date": "10.01.2025"}, {}),
        TableRow("C", {"key": "C", "description": "Länge 600 statt 580", "date": "05.09.2025"}, {}),
        TableRow("B", {"key": "B", "description": "M5 statt M4", "date": "02.06.2025"}, {}),
    ]
    return Table("revisions", ["key", "description", "date"], {}, rows, Box(0, 0, 10, 10))


def test_a_revision_is_named_by_the_title_blocks_own_word() -> None:
    for asked in ("What changed in Index C?", "What was changed in Zust. C?", "Utgåva C: what?"):
        ask = asks_table(asked)
        assert ask is not None and (ask.kind, ask.key) == ("revisions", "C")
    assert asks_table("What is the index of the rail?") is None


def test_the_first_issue_is_the_earliest_dated_revision() -> None:
    src = drawing_source(
        1, "FÜHRUNGSSCHIENE FS-0930-2", title="Führungsschiene", tables=[_revisions()]
    )
    found = find_extract("When was the first issue of the Führungsschiene?", [src])
    assert found is not None and found.quote == "10.01.2025"
    found = find_extract("What changed in Index C of the Führungsschiene?", [src])
    assert found is not None and found.quote == "Länge 600 statt 580"
    assert find_extract("What changed in Index D of the Führungsschiene?", [src]) is None


def test_a_hole_row_is_named_by_what_the_hole_is() -> None:
    for asked in ("Which thread is port T1?", "Where is Hål T1, X?", "Bohrung T1: size?"):
        ask = asks_table(asked)
        assert ask is not None and (ask.kind, ask.key) == ("holes", "T1")


def test_a_depth_asked_of_a_bore_is_a_depth() -> None:
    intent = _intent("How deep is the Ø52 bore of the gearbox cover?")
    assert intent is not None and intent.aspect == "depth"
    src = drawing_source(1, "GEARBOX COVER", title="GEARBOX COVER", dims="⌀52 H7\n240\n4x ⌀11 ↧20")
    assert find_extract("How deep is the Ø52 bore of the gearbox cover?", [src]) is None
    found = find_extract("How deep are the Ø11 holes of the gearbox cover?", [src])
    assert found is not None and "20" in found.quote


def test_how_long_a_test_runs_is_a_time_not_a_length() -> None:
    src = drawing_source(
        1,
        "GEARBOX HOUSING\n3. LEAK TEST AT 2 BAR AIR FOR 60 s",
        title="GEARBOX HOUSING",
        dims="310",
    )
    found = find_extract("How long is the leak test on the gearbox housing?", [src])
    assert found is not None and "60 s" in found.quote
    found = find_extract("How long is the gearbox housing?", [src])
    assert found is not None and found.quote == "310"


def test_where_a_hole_is_answers_both_coordinates_and_a_missing_row_nothing() -> None:
    rows = [
        TableRow(
            "B2",
            {"key": "B2", "x": "3.750", "y": "1.750", "size": "⌀.266 THRU"},
            {"x": Box(100, 200, 140, 210), "y": Box(160, 200, 200, 210)},
        ),
        TableRow("A1", {"key": "A1", "x": "0.625", "y": "0.500"}, {}),
    ]
    holes = Table("holes", ["key", "x", "y", "size"], {}, rows, Box(90, 180, 300, 230))
    src = drawing_source(1, "PILLOW BLOCK BASE PB-118-4", title="Pillow block base", tables=[holes])
    found = find_extract("Where is hole B2 on the pillow block base?", [src])
    assert found is not None and found.quote == "X 3.750, Y 1.750"
    assert found.box == Box(100, 200, 200, 210)  # both cells cited
    found = find_extract("Where is hole B2 on the pillow block base, X?", [src])
    assert found is not None and found.quote == "3.750"  # an axis named: that cell alone
    # A row the table does not have is not answered by a dimension that shares its digit.
    missing = drawing_source(
        2, "PILLOW BLOCK BASE PB-118-4", title="Pillow block base", tables=[holes], dims="⌀1.000"
    )
    assert (
        find_extract("What are the coordinates of hole C1 on the pillow block base?", [missing])
        is None
    )


def test_a_note_sizing_every_chamfer_answers_when_no_chamfer_is_dimensioned() -> None:
    notes = drawing_source(
        1,
        "技术要求\n1. 未注倒角 C1\n2. 未注圆角 R3",
        title="轴承端盖",
        drawing="DG-0620-02",
        dims="R5\n⌀62 H8",
    )
    found = find_extract("What chamfer is on DG-0620-02?", [notes])
    assert found is not None and "未注倒角 C1" in found.quote
    # Asked for the default, the note answers although a radius is dimensioned.
    found = find_extract("What radius applies where none is given on DG-0620-02?", [notes])
    assert found is not None and "R3" in found.quote
    # A dimensioned radius asked for is still the dimension.
    found = find_extract("What is the corner radius on DG-0620-02?", [notes])
    assert found is not None and found.quote == "R5"


def test_a_chamfer_note_without_a_size_does_not_answer() -> None:
    notes = drawing_source(
        1, "NOTES\n1. BREAK ALL SHARP EDGES\n2. CHAMFER AS REQUIRED", drawing="X-1", dims="⌀20"
    )
    assert find_extract("What chamfer is on drawing X-1?", [notes]) is None


def test_a_bare_whole_number_on_an_inch_drawing_is_no_length() -> None:
    """Tags and zone marks read as lengths ("1", "2", "3") beside inch dimensions written to three
    places: the width is the second of the real lengths, not the tag 3."""
    inch = drawing_source(
        1,
        "MANIFOLD BLOCK HM-1",
        title="Manifold block",
        drawing="HM-1",
        dims="4.000\n2.500\n1\n2\n3",
    )
    found = find_extract("How wide is the manifold block?", [inch])
    assert found is not None and found.quote == "2.500"
    # On a metric drawing whole numbers are lengths like any other.
    metric = drawing_source(2, "COVER GB-1", title="Cover", drawing="GB-1", dims="240\n180\n12.5")
    found = find_extract("How wide is the cover?", [metric])
    assert found is not None and found.quote == "180"


def test_a_material_label_followed_by_the_drawings_own_name_is_no_material() -> None:
    src = drawing_source(
        1,
        "MATERIAL: Keyence_Lift-12.19\nSCALE 1:1",
        title="Keyence_Lift-12.19",
        drawing="Keyence_Lift-12.19",
        source="Elevator_bottom.PDF",
    )
    assert find_extract("What material is the Keyence lift bottom made of?", [src]) is None
    # A material that is a word of the title is still the material.
    steel = drawing_source(1, "MATERIAL: STEEL\nSCALE 1:1", title="STEEL BRACKET", drawing="SB-1")
    found = find_extract("What material is the steel bracket made of?", [steel])
    assert found is not None and "STEEL" in found.quote


def test_two_words_side_by_side_in_a_title_block_name_the_part() -> None:
    housing = drawing_source(
        1,
        "Title block.\nDrawing number: ZC-0215-01\nScale: 1:2\n轴承座 (bearing housing)",
        fields={"drawing_number": "ZC-0215-01", "scale": "1:2"},
        drawing="ZC-0215-01",
        source="ZC-0215-01.png",
        title="ZC-0215-01",
    )
    sleeve = drawing_source(
        2,
        "Title block.\nTitle: BEARING SLEEVE\nScale: 2:1",
        fields={"title": "BEARING SLEEVE", "scale": "2:1"},
        drawing="BS-2290-05",
        source="bearing_sleeve.png",
        title="BEARING SLEEVE",
    )
    found = find_extract("What scale is the bearing housing drawing?", [sleeve, housing])
    assert found is not None and found.quote == "1:2" and found.source_number == 1
    found = find_extract("What scale is the bearing sleeve drawing?", [housing, sleeve])
    assert found is not None and found.quote == "2:1"


def test_a_note_named_by_its_number_is_quoted_whole() -> None:
    notes = drawing_source(
        1,
        "Anmerkungen 1. Freimaßtoleranzen nach DIN ISO 2768-m\n2. Alle Kanten entgratet\n"
        "3. Nicht bemaßte Radien R2",
        title="Lagerbock",
        drawing="LB-3340-01",
    )
    other = drawing_source(2, "NOTES\n1. BREAK ALL SHARP EDGES\n2. PAINT RAL 9005", drawing="GH-1")
    found = find_extract("What does note 2 on the Lagerbock say?", [other, notes])
    assert found is not None and found.quote == "2. Alle Kanten entgratet"
    found = find_extract("What's the first note on LB-3340-01?", [other, notes])
    assert found is not None and found.quote.startswith("1. Freimaßtoleranzen")
    found = find_extract("What is the last note on the Lagerbock?", [other, notes])
    assert found is not None and found.quote == "3. Nicht bemaßte Radien R2"
    # A number the notes do not reach: nothing, not another drawing's note.
    assert find_extract("What does note 5 on the Lagerbock say?", [other, notes]) is None


def test_thickness_and_a_bores_tolerance_class() -> None:
    plate = drawing_source(
        1,
        "GEARBOX COVER GB-4410-01",
        title="Gearbox cover",
        drawing="GB-4410-01",
        dims="240\n180\n12 ±0.1\n⌀52 H7\n1",
    )
    found = find_extract("How thick is the gearbox cover?", [plate])
    assert found is not None and found.quote == "12 ±0.1"  # not the stray 1, not the width
    found = find_extract("What's the tolerance on the centre bore of the gearbox cover?", [plate])
    assert found is not None and found.quote == "H7"  # the bore's class, not the thickness's ±0.1
    washer = drawing_source(2, "DISTANSBRICKA", title="Distansbricka", dims="⌀30\n⌀10 H7\n5 ±0.05")
    found = find_extract("How thick is the Distansbricka?", [washer])
    assert found is not None and found.quote == "5 ±0.05"
    cap = drawing_source(3, "NAVKAPSEL", title="Navkapsel", dims="⌀64\n⌀30 h9\nR1")
    assert find_extract("How thick is the Navkapsel?", [cap]) is None  # not drawn


def test_the_latest_revision_is_the_newest_row_and_its_letter_the_field() -> None:
    src = drawing_source(
        1,
        "FÜHRUNGSSCHIENE FS-0930-2",
        title="Führungsschiene",
        fields={"revision": "C"},
        revision="C",
        tables=[_revisions()],
    )
    found = find_extract("What changed in the latest revision of the Führungsschiene?", [src])
    assert found is not None and found.quote == "Länge 600 statt 580"
    found = find_extract("When was the last change to the Führungsschiene made?", [src])
    assert found is not None and found.quote == "05.09.2025"
    found = find_extract("What's the latest revision of the Führungsschiene?", [src])
    assert found is not None and found.quote == "C"


def test_a_surface_finish_is_the_roughness_where_stated_else_the_treatment() -> None:
    treated = drawing_source(
        1, "NAVKAPSEL NK-0412", title="Navkapsel", fields={"surface_treatment": "Anodiserad klar"}
    )
    found = find_extract("What's the surface finish on the Navkapsel?", [treated])
    assert found is not None and found.quote == "Anodiserad klar"
    rough = drawing_source(
        2,
        "MANIFOLD HM-1\nSURFACE FINISH: Ra 1.6 ON PORT FACES",
        title="Manifold",
        fields={"surface_treatment": "ANODIZE"},
    )
    found = find_extract("What surface finish is on the manifold?", [rough])
    assert found is not None and "Ra 1.6" in found.quote


def test_a_bore_is_the_diameter_with_a_holes_fit_class() -> None:
    sleeve = drawing_source(
        1, "BEARING SLEEVE BS-2290-05", title="Bearing sleeve", dims="⌀40 g6\n⌀25 H7\n60"
    )
    found = find_extract("What's the bore size of the bearing sleeve?", [sleeve])
    assert found is not None and found.quote == "⌀25 H7"
    found = find_extract("What is the outside diameter of the bearing sleeve?", [sleeve])
    assert found is not None and found.quote == "⌀40 g6"


def test_a_drawing_named_by_its_material_is_not_asked_for_its_material() -> None:
    cover = drawing_source(
        1,
        "Title block.\nDrawing number: GB-4410-01\nTitle: GEARBOX COVER\nMaterial: EN AC-43400\n"
        "Scale: 1:2",
        title="Gearbox cover",
        drawing="GB-4410-01",
        fields={"material": "EN AC-43400", "scale": "1:2", "drawing_number": "GB-4410-01"},
    )
    found = find_extract("What scale is the one made of EN AC-43400?", [cover])
    assert found is not None and found.quote == "1:2"
    found = find_extract("Which drawing is made of EN AC-43400?", [cover])
    assert found is not None and found.quote == "GB-4410-01"
    found = find_extract("What is the gearbox cover made of?", [cover])
    assert found is not None and found.quote == "EN AC-43400"


def test_which_one_is_not_answered_by_a_measured_value() -> None:
    shaft = drawing_source(
        1,
        "IDLER SHAFT IS-11902\n2. SURFACE FINISH: Ra 0.8 ON BEARING SEATS\n3. BEARING 6204-2RS",
        title="IDLER SHAFT",
        drawing="IS-11902",
    )
    found = find_extract("Which bearing goes on the idler shaft?", [shaft])
    assert found is not None and "6204-2RS" in found.quote
    rough_only = drawing_source(
        2,
        "IDLER SHAFT IS-11902\n2. SURFACE FINISH: Ra 0.8 ON BEARING SEATS",
        title="IDLER SHAFT",
        drawing="IS-11902",
    )
    assert find_extract("Which bearing goes on the idler shaft?", [rough_only]) is None


def test_the_torque_a_part_transmits_is_not_its_screws_tightening_torque() -> None:
    coupling = drawing_source(
        1,
        "SHAFT COUPLING B-2040\n2. SET SCREWS M5 X 8, TORQUE TO 4 N·m",
        title="SHAFT COUPLING",
        drawing="B-2040",
    )
    asked = "What is the maximum torque the shaft coupling can transmit?"
    assert find_extract(asked, [coupling]) is None
    tightened = find_extract(
        "What torque do the set screws of the shaft coupling take?", [coupling]
    )
    assert tightened is not None and "4 N·m" in tightened.quote


def test_a_quantity_is_taken_from_the_line_that_states_it_for_the_thing_named() -> None:
    rail = drawing_source(
        1,
        "FÜHRUNGSSCHIENE FS-0930-2\nSurface treatment: gehärtet und geschliffen\n"
        "2. Laufflächen induktiv gehärtet 58 HRC",
        title="Führungsschiene",
        drawing="FS-0930-2",
    )
    hard = find_extract("How hard are the running surfaces of FS-0930-2?", [rail])
    assert hard is not None and "58 HRC" in hard.quote
    bolts = drawing_source(
        2,
        "COVER C-77\n4 x M6\n3. TORQUE M8 BOLTS TO 25 N·m",
        title="COVER",
        drawing="C-77",
    )
    assert find_extract("What torque do the M6 screws of C-77 take?", [bolts]) is None
    m8 = find_extract("What torque do the M8 bolts of C-77 take?", [bolts])
    assert m8 is not None and "25 N·m" in m8.quote


def test_a_field_that_says_see_note_is_answered_by_that_note() -> None:
    arm = drawing_source(
        1,
        "ROCKER ARM RA-9051-03\nFINISH: SEE NOTE 3\nGENERAL NOTES:\n1. DEBURR\n2. BREAK EDGES\n"
        "3. PAINT PER SPEC PS-114, GREY RAL 7035",
        fields={"surface_treatment": "SEE NOTE 3"},
        title="ROCKER ARM",
        drawing="RA-9051-03",
    )
    found = find_extract("What finish does the rocker arm get?", [arm])
    assert found is not None and "RAL 7035" in found.quote


def test_a_torque_or_a_hardness_is_not_read_from_the_dimensions() -> None:
    pad = drawing_source(
        1,
        "THRUST PAD DS-1733-00\nM16x1.5\n⌀22 H7\n4. INDUCTION HARDEN BORE TO 50-55 HRC",
        title="THRUST PAD",
        drawing="DS-1733-00",
    )
    assert (
        find_extract("What torque does the M16x1.5 thread of the thrust pad need?", [pad]) is None
    )
    hard = find_extract("What hardness is the bore of the thrust pad?", [pad])
    assert hard is not None and "50-55 HRC" in hard.quote


def test_small_revision_letters_and_changes_name_rows() -> None:
    assert asks_table("What changed in revision b of the Gabelkopf?").key == "B"
    assert asks_table("Who made change c on GK-4520-10?").column == "by"
    assert asks_table("Which revision a part is at?") is None


def test_a_word_and_its_inflection_match() -> None:
    arm = drawing_source(
        1,
        "ROCKER ARM RA-9051-03\n8. MARK PART NO. AND REV PER MIL-STD-130\n3. BREAK EDGES",
        title="ROCKER ARM",
        drawing="RA-9051-03",
    )
    found = find_extract("How is the rocker arm to be marked?", [arm])
    assert found is not None and "MIL-STD-130" in found.quote
    # An irregular form is its verb: "broken" is what BREAK says.
    edges = drawing_source(
        2,
        "ROCKER ARM RA-9051-03\n3. REMOVE ALL BURRS AND SHARP EDGES\n4. BREAK EDGES 0.5 MAX",
        title="ROCKER ARM",
        drawing="RA-9051-03",
    )
    found = find_extract("How much should edges be broken on RA-9051-03?", [edges])
    assert found is not None and "0.5" in found.quote


def test_a_row_of_labels_is_read_against_the_row_of_values_under_it() -> None:
    pad = drawing_source(
        1,
        "Title block.\nBenennung\nSachnummer\nDruckstück\nDS-1733-00\nWerkstoff\nRohteil\n"
        "Oberflächenbehandlung\n18CrNiMo7-6\nRd 50 x 36\nsiehe Anm. 3\nNorm\nDIN 6311",
        title="Druckstück",
        drawing="DS-1733-00",
    )
    blank = find_extract("What blank is DS-1733-00 cut from?", [pad])
    assert blank is not None and blank.quote.startswith("Rd 50 x 36")
    # The slice's header "Title block." is not a title "block".
    untitled = drawing_source(2, "Title block.\nDrawing number: H-1", drawing="H-1")
    assert find_extract("What is the title written on drawing H-1?", [untitled]) is None


def test_a_surface_question_about_a_feature_takes_that_features_line() -> None:
    clevis = drawing_source(
        1,
        "GABELKOPF GK-4520-10\nFinish: verzinkt\n2. Nicht bemaßte Radien R2\n"
        "3. Kanten gebrochen 0.5x45°\n5. Bolzenbohrung Ra 1.6\n6. Dichtfläche Ra 0.8\nR12",
        fields={"surface_treatment": "verzinkt"},
        title="Gabelkopf",
        drawing="GK-4520-10",
    )
    pin_bore = find_extract("How smooth must the pin bore of the clevis be?", [clevis])
    assert pin_bore is not None and "Ra 1.6" in pin_bore.quote
    face = find_extract("How rough may the sealing face of the clevis be?", [clevis])
    assert face is not None and "Ra 0.8" in face.quote
    edges = find_extract("How are the edges of the clevis finished?", [clevis])
    assert edges is not None and "0.5x45°" in edges.quote
    whole = find_extract("What surface treatment does the clevis get?", [clevis])
    assert whole is not None and whole.quote == "verzinkt"
    radius = find_extract("What radius goes where none is dimensioned on the clevis?", [clevis])
    assert radius is not None and "R2" in radius.quote


def test_the_tolerance_of_a_named_diameter_given_by_its_fit_is_the_fit() -> None:
    bolt = drawing_source(
        1,
        "STYRBULT SB-2044-07",
        title="Styrbult",
        drawing="SB-2044-07",
        dims="⌀16 f7\n⌀6 H7\n12 ±0.1",
    )
    found = find_extract("What's the tolerance on the Ø6 hole in SB-2044-07?", [bolt])
    assert found is not None and found.quote == "H7"


def test_first_issued_names_the_first_revision_row() -> None:
    asked = asks_table("When was the clevis drawing first issued?")
    assert asked is not None and asked.kind == "revisions" and asked.column == "date"


def test_a_material_grade_under_its_label_is_the_material_asked_in_any_words() -> None:
    pulley = drawing_source(
        1,
        "Title block.\n零件名称 (part name)\n皮带轮 (belt pulley)\n材料 (material)\nHT200\n"
        "比例 (scale)\n1:2",
        title="皮带轮",
        drawing="DL-5208-01",
    )
    for question in ("What is DL-5208-01 cast from?", "What is DL-5208-01 made from?"):
        found = find_extract(question, [pulley])
        assert found is not None and found.quote == "HT200"
    # A sheet size under the label is no grade.
    sized = drawing_source(
        2, "Title block.\nMaterial\nA3\nScale\n1:2", title="Plate", drawing="P-2"
    )
    found = find_extract("What is P-2 made from?", [sized])
    assert found is None or found.quote != "A3"


def test_a_revisions_change_order_and_zone_are_read_from_their_columns() -> None:
    rows = [
        TableRow("B", {"key": "B", "column 2": "ECO-1187", "description": "ADDED NOTE 6"}, {}),
        TableRow("C", {"key": "C", "column 2": "ECO-1240", "description": "R15 WAS R12"}, {}),
    ]
    arm = Table("revisions", ["key", "column 2", "description"], {}, rows, Box(0, 0, 10, 10))
    src = drawing_source(1, "ROCKER ARM RA-9051-03", title="ROCKER ARM", tables=[arm])
    found = find_extract("Which ECO is revision C of the rocker arm?", [src])
    assert found is not None and found.quote == "ECO-1240"
    found = find_extract("What changed in revision C of the rocker arm?", [src])
    assert found is not None and found.quote == "R15 WAS R12"
    zoned = Table(
        "revisions",
        ["key", "zone", "description"],
        {"zone": "ZONE"},
        [TableRow("B", {"key": "B", "zone": "C4", "description": "ADDED LEAK TEST"}, {})],
        Box(0, 0, 10, 10),
    )
    housing = drawing_source(2, "GEARBOX HOUSING", title="GEARBOX HOUSING", tables=[zoned])
    found = find_extract("Which zone was revision B of the gearbox housing in?", [housing])
    assert found is not None and found.quote == "C4"
    # A change order the table does not have is not answered from another column.
    plain = Table("revisions", ["key", "description"], {}, [rows[1]], Box(0, 0, 10, 10))
    bare = drawing_source(3, "ROCKER ARM RA-9051-03", title="ROCKER ARM", tables=[plain])
    found = find_extract("Which ECO is revision C of the rocker arm?", [bare])
    assert found is None or found.quote != "R15 WAS R12"


def test_what_is_a_drawing_asked_by_its_number_is_its_title() -> None:
    fixture = drawing_source(
        1,
        "Title block.\nTitle: 夹具底座 (fixture base)\nDrawing number: JJ-4820-00",
        fields={"title": "夹具底座", "drawing_number": "JJ-4820-00"},
        title="夹具底座",
        drawing="JJ-4820-00",
    )
    found = find_extract("What is drawing JJ-4820-00?", [fixture])
    assert found is not None and found.quote == "夹具底座"
    # A drawing number the sources do not have is not answered with this one's title.
    assert find_extract("What is drawing XX-9999-99?", [fixture]) is None


def test_a_note_whose_numbers_lost_their_brackets_is_still_found_by_number() -> None:
    shaft = drawing_source(
        1,
        "VORGELEGEWELLE VW-3318-00\nTechnische Anforderungen\n1 Nicht bemaßte Fasen 1x45°\n"
        "2 Lagersitze geschliffen Ra 0.8\n4 Lager mit Fett füllen\n5 Sicherungsringe nach Montage auf festen Sitz prüfen\n"
        "6 Allgemeintoleranzen ISO 2768-mK\n245",
        title="Vorgelegewelle",
        drawing="VW-3318-00",
    )
    found = find_extract("What does note 5 of VW-3318-00 say?", [shaft])
    assert found is not None and "festen Sitz" in found.quote
    # A lone bare number with no list around it is no note.
    lone = drawing_source(2, "PLATE P-1\n5 Holes drilled through all", title="Plate", drawing="P-1")
    found = find_extract("What does note 5 of P-1 say?", [lone])
    assert found is None or "Holes drilled" not in found.quote


def test_the_one_line_stating_the_quantity_in_its_unit_answers_without_shared_words() -> None:
    cam = drawing_source(
        1,
        "KAMSKIVA KM-6027-02\nNoter\n2. Grader avlägsnas, kanter brytes 0.2-0.5 mm\n"
        "3. Sätthärdas, härddjup 0.6-0.9 mm, 58-62 HRC\n4. Kamytan slipas, Ra 0.4",
        title="Kamskiva",
        drawing="KM-6027-02",
    )
    found = find_extract("What hardness must KM-6027-02 reach?", [cam])
    assert found is not None and "58-62 HRC" in found.quote
    # Two lines with a hardness: which one is meant is not known.
    two = drawing_source(
        2,
        "KAMSKIVA KM-6027-03\n3. Sätthärdas 58-62 HRC\n4. Navet 30-35 HRC",
        title="Kamskiva",
        drawing="KM-6027-03",
    )
    found = find_extract("What hardness must KM-6027-03 reach?", [two])
    assert found is None or "HRC" not in found.quote or "Sätthärdas" in found.quote


def test_a_components_quantity_is_not_the_drawings_one_line_in_that_unit() -> None:
    base = drawing_source(
        1,
        "夹具底座 JJ-4820-00\n注：\nHRC 55~60\n2. 未注倒角 C1",
        title="夹具底座",
        drawing="JJ-4820-00",
    )
    assert find_extract("How hard are the locating pins of JJ-4820-00?", [base]) is None
    found = find_extract("How hard must JJ-4820-00 be?", [base])
    assert found is not None and "HRC 55~60" in found.quote


def test_a_plus_minus_read_as_a_four_is_mended_only_where_the_size_is_implausible() -> None:
    plate = drawing_source(
        1,
        "压板 YB-2312-05",
        title="压板",
        drawing="YB-2312-05",
        dims="120\n60\n2040.1\n⌀16 H7",
    )
    found = find_extract("How thick is YB-2312-05, and to what tolerance?", [plate])
    assert found is not None and found.quote.replace(" ", "") in ("20±0.1", "±0.1")
    # A long part's 140.5 is a size, not "1 ±0.5".
    rail = drawing_source(2, "RAIL R-1", title="Rail", drawing="R-1", dims="140.5\n60\n45")
    found = find_extract("How long is R-1?", [rail])
    assert found is not None and found.quote == "140.5"


def test_a_tightening_torque_is_the_fasteners_even_when_its_line_does_not_say_screw() -> None:
    base = drawing_source(
        1, "夹具底座 JJ-4820-00\n738 25 N·m", title="夹具底座", drawing="JJ-4820-00"
    )
    found = find_extract("What torque are the screws of JJ-4820-00 tightened to?", [base])
    assert found is not None and "25 N·m" in found.quote


def test_several_dimensions_are_said_in_the_plural() -> None:
    piston = drawing_source(1, "Dimensions of Kolv.", title="Kolv", dims="2x R0,15\n2x R0,2\n⌀16,5")
    found = find_extract("What are the radii on the Kolv?", [piston])
    assert found is not None and found.sentence() == "The radii are 2 x R0.15, 2 x R0.2"
    found = find_extract("What is the largest radius on the Kolv?", [piston])
    assert found is not None and found.sentence() == "The largest radius is 2 x R0.2"


def test_a_view_scale_is_the_one_written_with_its_letter() -> None:
    fields = {"scale": "1:2"}
    drawing = drawing_source(
        1, "Scale: 1:2\nA 5:1\nB 10 : 1\nSECTION C-C", title="Welle", fields=fields
    )
    found = find_extract("At what scale is detail B of the Welle drawn?", [drawing])
    assert found is not None and found.quote == "B 10 : 1"
    # Two details at their own scales and none named by its letter: either would be a guess.
    assert find_extract("At what scale is the detail of the Welle drawn?", [drawing]) is None
    # A section with no scale of its own is drawn at the sheet's.
    lone = drawing_source(2, "Scale: 1:2\nSECTION C-C", title="Nabe", fields=fields)
    found = find_extract("What scale is section C-C of the Nabe drawn at?", [lone])
    assert found is not None and found.field == "scale" and found.quote == "1:2"
    # A detail with no scale written by it is not said to be at the sheet's.
    assert find_extract("What scale is detail B of the Nabe drawn at?", [lone]) is None


_PLATE = drawing_source(
    1,
    "Dimensions of Adapterplatte.",
    title="Adapterplatte",
    dims="4 x M8\n4 x ⌀ 11,00 ↧ 20,00\n⌀ 18,00 ↧ 12,00\n200,00\n20,00",
)


def test_holes_named_by_their_size_are_counted_alone() -> None:
    found = find_extract("How many M8 holes does the Adapterplatte have?", [_PLATE])
    assert found is not None and found.quote == "4 (4 x M8)"
    found = find_extract("How many Ø11 holes does the Adapterplatte have?", [_PLATE])
    assert found is not None and found.quote.startswith("4 (4 x ⌀11")
    found = find_extract("How many holes does the Adapterplatte have?", [_PLATE])
    assert found is not None and found.quote.startswith("8 (")


def test_a_counterbore_is_the_wider_shallower_step() -> None:
    found = find_extract("What size are the counterbores in the Adapterplatte?", [_PLATE])
    assert found is not None and found.quote == "⌀18.00, depth 12"
    found = find_extract("How deep are the counterbores on the Adapterplatte?", [_PLATE])
    assert found is not None and found.sentence() == "The counterbore depth is 12 (⌀18.00)"
    found = find_extract("How deep are the Ø11 holes in the Adapterplatte?", [_PLATE])
    assert found is not None and found.sentence() == "The depth is 20 (4 x ⌀11.00)"
    # One drilled depth and no wider step: no counterbore is drawn.
    drilled = drawing_source(2, "Welle", title="Welle", dims="⌀ 6 ↧ 10\n⌀40")
    assert find_extract("How deep is the counterbore in the Welle?", [drilled]) is None


def test_a_spacing_is_not_a_hole_size() -> None:
    assert find_extract("What is the hole spacing on the Adapterplatte?", [_PLATE]) is None
    assert find_extract("How far apart are the M8 holes on the Adapterplatte?", [_PLATE]) is None


def test_a_line_that_is_only_the_asked_word_in_another_language_is_no_answer() -> None:
    split = drawing_source(1, "ENTGRATEN\nUND SCHARFE\nKANTEN\nBRECHEN", title="Adapterplatte")
    asked = "What should I do with the edges of the Adapterplatte?"
    assert find_extract(asked, [split]) is None
    whole = drawing_source(2, "Alle Kanten gebrochen 0,5x45°", title="Adapterplatte")
    found = find_extract(asked, [whole])
    assert found is not None and found.quote == "Alle Kanten gebrochen 0,5x45°"


def test_the_projection_is_the_one_stated_in_words() -> None:
    candle = drawing_source(
        1, "DO NOT SCALE DRAWING\nFIRST ANGLE PROJECTION\nSS 1914", title="Ljushallare"
    )
    found = find_extract("Which projection is the Ljushallare drawn in?", [candle])
    assert found is not None and found.quote == "FIRST ANGLE PROJECTION"
    # "Projection" is not the project: the course code is not the answer, nor is the date.
    coded = drawing_source(2, "Project: TMPS34\nDRAWN 2022-08-26", title="Ljushallare")
    assert find_extract("Which projection is the Ljushallare drawn in?", [coded]) is None
    # A drawing named that is not among the sources is not answered for by another's.
    assert find_extract("Which projection is the gearbox cover drawn in?", [candle]) is None


def test_a_word_only_the_named_drawing_holds_is_what_is_asked() -> None:
    cover = drawing_source(
        1,
        "NOTES:\n1. WALL THICKNESS 2.0 UNLESS NOTED\n3. TEXTURE MT-11010 ON OUTSIDE FACES",
        title="SENSOR COVER PLATE",
        drawing="C-3310",
    )
    bracket = drawing_source(
        2, "NOTES:\n1. BREAK ALL SHARP EDGES", title="MOUNTING BRACKET", drawing="A-1024"
    )
    # "Texture" is on the cover plate only, and the question names the plate by its title:
    # the word is what is asked, not another name of the drawing.
    found = find_extract("What texture goes on the cover plate?", [cover, bracket])
    assert found is not None and "MT-11010" in found.quote


def test_american_standards_and_roughness_values_are_read_in_their_own_forms() -> None:
    # ASME, MIL and SAE put a series letter before the number; ANSI writes the value before "Ra".
    plate = drawing_source(
        1,
        "JIG PLATE JP-55187\n1. INTERPRET DRAWING PER ASME Y14.5-2018.\n"
        "4. BLACK ANODIZE PER MIL-A-8625 TYPE II\n5. ALL MACHINED SURFACES 63 µin Ra MAX.",
        title="JIG PLATE",
        drawing="JP-55187",
    )
    standard = find_extract("Which standard is the jig plate drawing interpreted to?", [plate])
    assert standard is not None and "ASME Y14.5-2018" in standard.quote
    anodize = find_extract("Which standard is JP-55187 anodized to?", [plate])
    assert anodize is not None and "MIL-A-8625" in anodize.quote
    rough = find_extract("What's the max roughness on the machined surfaces of JP-55187?", [plate])
    assert rough is not None and "63 µin Ra" in rough.quote
    # A line with neither form still answers neither question.
    bare = drawing_source(
        2, "PLATE P-1\n1. INTERPRET AS SHOWN\n2. MACHINED SURFACES SMOOTH", title="PLATE"
    )
    assert find_extract("Which standard is plate P-1 interpreted to?", [bare]) is None
    assert find_extract("What roughness are the machined surfaces of P-1?", [bare]) is None


def test_a_scale_asked_of_a_drawing_named_by_its_holes_is_the_sheets_scale() -> None:
    plate = drawing_source(
        1,
        "Hole table of JIG PLATE JP-55187.\nHole A1: size ⌀6.6; X 20; Y 15.",
        fields={"scale": "1:2"},
        title="JIG PLATE",
        drawing="JP-55187",
    )
    found = find_extract("What scale is the jig plate with the hole table drawn at?", [plate])
    assert found is not None and found.field == "scale" and found.quote == "1:2"


def test_a_line_naming_a_heat_treatment_process_answers_the_heat_treatment() -> None:
    pulley = drawing_source(
        1,
        "皮带轮 DL-5208-01\n2. 时效处理消除内应力\n3. 未注倒角 C1",
        title="皮带轮",
        drawing="DL-5208-01",
    )
    found = find_extract(
        "What heat treatment does the 皮带轮 get to relieve internal stress?", [pulley]
    )
    assert found is not None and "时效处理" in found.quote
    plain = drawing_source(2, "DISC D-1\n2. BREAK SHARP EDGES", title="DISC", drawing="D-1")
    assert find_extract("What heat treatment does disc D-1 get?", [plain]) is None


def test_a_standard_written_after_another_fields_label_is_that_fields() -> None:
    bracket = drawing_source(
        1,
        "HINGE BRACKET HB-2094-01\n"
        "Surface treatment: Clear anodised General tolerance: ISO 2768-fH\n"
        "6. Anodise clear to ISO 7599, layer at least 15 um.",
        title="HINGE BRACKET",
        drawing="HB-2094-01",
    )
    anodise = find_extract("Which standard is the hinge bracket anodised to?", [bracket])
    assert anodise is not None and "ISO 7599" in anodise.quote
    general = find_extract("Which general tolerance standard does HB-2094-01 follow?", [bracket])
    assert general is not None and "2768" in general.quote


def test_latin_scraps_read_from_a_chinese_cell_give_way_to_the_labels_chinese_line() -> None:
    shaft = drawing_source(
        1,
        "输出轴 SZ-1907-03\n| 表面处理 : 发黑\n6. 轴颈表面粗糙度 Ra 0.8",
        fields={"surface_treatment": "Rae ri"},
        title="输出轴",
        drawing="SZ-1907-03",
    )
    found = find_extract("What surface treatment does the 输出轴 get?", [shaft])
    assert found is not None and found.quote == "发黑" and found.english == "black oxide"
    # With no Chinese line to read it from, the cell's reading stays.
    alone = drawing_source(
        2, "输出轴 SZ-1907-04", fields={"surface_treatment": "Rae ri"}, title="输出轴"
    )
    kept = find_extract("What surface treatment does the 输出轴 get?", [alone])
    assert kept is not None and kept.quote == "Rae ri"


def test_a_hardness_asked_is_the_line_stating_it_not_the_heat_treatment_field() -> None:
    sleeve = drawing_source(
        1,
        "BEARING SLEEVE BS-2290-05\n1. Surface hardness 60 ±2 HRC, case depth 0.6",
        fields={"heat_treatment": "Case hardened"},
        title="BEARING SLEEVE",
        drawing="BS-2290-05",
    )
    found = find_extract("What surface hardness do I check BS-2290-05 for?", [sleeve])
    assert found is not None and "60 ±2 HRC" in found.quote
    # Asked what the treatment is, the field answers.
    treatment = find_extract("What heat treatment does BS-2290-05 get?", [sleeve])
    assert treatment is not None and treatment.quote == "Case hardened"


def test_a_quantity_in_a_note_and_in_a_revision_row_is_the_notes() -> None:
    pin = drawing_source(
        1,
        "STYRBULT SB-2044-07\n3. Härdas till 58 HRC\n"
        "Revision B: Ändring Härdning ändrad till 58 HRC; Datum 2026-02-27.",
        title="Styrbult",
        drawing="SB-2044-07",
    )
    found = find_extract("How hard is the Styrbult heat treated?", [pin])
    assert found is not None and found.quote == "3. Härdas till 58 HRC"


def test_the_sharp_edges_chamfer_is_the_edge_note_written_with_a_capital_x() -> None:
    found = find_extract(
        "How big a chamfer do I knock the sharp edges off with on the mounting bracket?",
        [_BRACKET],
    )
    assert found is not None and "0.5 X 45°" in found.quote


def test_how_flat_asks_a_flatness() -> None:
    plate = drawing_source(
        1,
        "JIG PLATE JP-55187\n5. FINISH: BLACK ANODIZE\n7. PART MUST BE FLAT WITHIN .002 AFTER FINISH.",
        fields={"surface_treatment": "BLACK ANODIZE"},
        title="JIG PLATE",
        drawing="JP-55187",
    )
    found = find_extract("JP-55187 - how flat after finishing?", [plate])
    assert found is not None and ".002" in found.quote
    chinese = drawing_source(
        2, "电机安装板 DJ-2740-01\n2. 安装面平面度 0.05， 粗糙度 Ra 1.6", drawing="DJ-2740-01"
    )
    flat = find_extract("How flat does the mounting face of DJ-2740-01 have to be?", [chinese])
    assert flat is not None and "0.05" in flat.quote


def test_a_coats_thickness_is_a_line_stating_it_never_the_parts_own() -> None:
    housing = drawing_source(
        1,
        "GEARBOX HOUSING GH-7702-11\n5. POWDER COAT RAL 9005",
        fields={"surface_treatment": "POWDER COAT"},
        dims="25 ±0.2\n180\n120",
        title="GEARBOX HOUSING",
        drawing="GH-7702-11",
    )
    asked = "How thick is the powder coat on the gearbox housing?"
    assert find_extract(asked, [housing]) is None
    bracket = drawing_source(
        2,
        "HINGE BRACKET HB-2094-01\n6. Anodise clear to ISO 7599, layer at least 15 um.",
        dims="12",
        title="HINGE BRACKET",
        drawing="HB-2094-01",
    )
    found = find_extract("How thick is the anodising on HB-2094-01?", [bracket])
    assert found is not None and "15 um" in found.quote


def test_a_role_with_a_box_of_its_own_is_answered_from_that_box_or_not_at_all() -> None:
    plate = drawing_source(
        1,
        "JIG PLATE JP-55187\nApproved by: M. OYELARAN\nQA\nD. BROOKS\n8. INSPECT PER QA PLAN",
        fields={"approved_by": "M. OYELARAN"},
        title="JIG PLATE",
        drawing="JP-55187",
    )
    qa = find_extract("Who signed QA on the jig plate?", [plate])
    assert qa is not None and qa.quote == "D. BROOKS"
    arm = drawing_source(
        2,
        "ROCKER ARM RA-9051-03\nApproved by: S. PATEL",
        fields={"approved_by": "S. PATEL"},
        title="ROCKER ARM",
        drawing="RA-9051-03",
    )
    assert find_extract("Who signed off QA on RA-9051-03?", [arm]) is None
    approved = find_extract("Who approved RA-9051-03?", [arm])
    assert approved is not None and approved.quote == "S. PATEL"


def test_deburring_asked_in_a_shops_words_is_the_edge_note() -> None:
    found = find_extract("What's the deburr requirement on A-1024?", [_BRACKET])
    assert found is not None and "BREAK ALL SHARP EDGES" in found.quote
    fork = drawing_source(
        2,
        "GABELKOPF GK-4520-10\n3. Kanten gebrochen 0.5x45°",
        title="Gabelkopf",
        drawing="GK-4520-10",
    )
    german = find_extract("Do I need to deburr GK-4520-10?", [fork])
    assert german is not None and "Kanten gebrochen" in german.quote
    plain = drawing_source(3, "PLATE P-1\n1. ANODIZE CLEAR", title="PLATE", drawing="P-1")
    assert find_extract("What's the deburr requirement on P-1?", [plain]) is None
