"""A question naming a drawing (title, translation, file name, number) searches that drawing first.

The drawings are the shared sample drawings, indexed through the real pipeline (page correction,
Tesseract, title-block fields for the images; the text layer for the PDF) into a real index.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from appliance.answer.answering import _prepare
from appliance.config import Config, load_config
from appliance.errors import public_name
from appliance.index.embedder import Embedder
from appliance.index.identity import (
    SourceNames,
    _SourceRow,
    by_title,
    compact,
    question_words,
    singular,
    terms,
)
from appliance.index.search import SearchOptions, search
from appliance.index.store import IndexStore
from appliance.ingest.pipeline import ingest_path

DRAWINGS = ("Adapterplatte.jpg", "Candle_holder.jpg", "LIU0010.jpg", "halter.jpg")
SPACES = ["global"]


def _names_of(*drawings: tuple[str, str, str]) -> SourceNames:
    """The names of drawings given as (file, title, drawing number), all in the global room."""
    return SourceNames(
        [_SourceRow(i, "global", f, t, n, ()) for i, (f, t, n) in enumerate(drawings, 1)]
    )


@pytest.fixture(scope="module")
def drawing_config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    root = tmp_path_factory.mktemp("identity")
    return load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(root / "data")})


@pytest.fixture(scope="module")
def drawings(drawing_config: Config, shared_data: Path, embedder: Embedder) -> Iterator[IndexStore]:
    """Four raster drawings and one PDF, indexed once for the module."""
    root = shared_data / "drawings-edocr2"
    files = [root / "test_samples" / name for name in DRAWINGS] + [root / "Elevator_bottom.PDF"]
    with IndexStore.open(drawing_config, embedder=embedder) as store:
        for path in files:
            report = ingest_path(store, path, "global", config=drawing_config, source=path.name)
            assert not report.failures, report.failures
        yield store


def test_terms_fold_split_and_singular() -> None:
    assert terms("Candle_holders") == ["candle", "holder"]
    assert terms("WeirdGripperCamAdapter") == ["weird", "gripper", "cam", "adapter"]
    assert terms("Ljushållare") == ["ljushallare"]
    assert singular("bodies") == "body" and singular("brass") == "brass"
    assert compact("LiU-0010") == compact("liu 0010") == "liu0010"
    forms = set().union(*(w.forms for w in question_words("What is on LiU 0010?")))
    assert "liu0010" in forms
    adapter = question_words("Adapterplatte")[0].forms
    assert {"adapterplatte", "adapter", "plate"} <= adapter


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What material is the adapter plate made of?", "Adapterplatte.jpg"),
        ("Which scale are the adapter plates drawn at?", "Adapterplatte.jpg"),
        ("What is the Werkstoff of the Stahl Adapterplatte?", "Adapterplatte.jpg"),
        ("adapterplatte scale", "Adapterplatte.jpg"),
        ("What material is the bicycle pump piston made of?", "LIU0010.jpg"),
        ("What is the date on drawing LiU0010?", "LIU0010.jpg"),
        ("date of liu-0010", "LIU0010.jpg"),
        ("What scale is drawing 2022001?", "Candle_holder.jpg"),
        ("What scale is the candle holder?", "Candle_holder.jpg"),
        ("Which material is Candle_holder?", "Candle_holder.jpg"),
        ("What is the drawing number of the Ljushållare HT2022?", "Candle_holder.jpg"),
        ("What paper size is the Halter1 drawing?", "halter.jpg"),
        ("What is the scale of the elevator bottom?", "Elevator_bottom.PDF"),
    ],
)
def test_a_named_drawing_is_found_and_searched_first(
    drawings: IndexStore, question: str, expected: str
) -> None:
    named = drawings.names.named(question, SPACES)
    assert [public_name(n.source) for n in named] == [expected]
    hits = search(drawings, question, SPACES, options=SearchOptions(focus_sources=(named[0].id,)))
    assert public_name(hits[0].source) == expected and hits[0].focused
    assert "named drawing" in hits[0].why
    # Every slice of the named drawing that was returned comes before any other drawing's.
    flags = [h.focused for h in hits]
    assert flags == sorted(flags, reverse=True)
    assert all(public_name(h.source) == expected for h in hits if h.focused)


@pytest.mark.slow
def test_questions_naming_nothing_search_as_before(drawings: IndexStore) -> None:
    for question in (
        "What is the boiling point of water at sea level?",
        "Which thread size is used?",
        # "tower holder" is not the drawing called "Halter" (holder): the question names more.
        "What material is the tower holder made of?",
    ):
        assert drawings.names.named(question, SPACES) == []
        plain = search(drawings, question, SPACES)
        focused = search(drawings, question, SPACES, options=SearchOptions(focus_sources=()))
        assert [h.id for h in plain] == [h.id for h in focused]
        assert not any(h.focused for h in focused)


@pytest.mark.slow
def test_answer_stage_puts_the_named_drawing_first(
    drawings: IndexStore, drawing_config: Config
) -> None:
    question = "What date is on the bicycle pump piston drawing?"
    p = _prepare(question, store=drawings, config=drawing_config, namespaces=None)
    assert public_name(p.sources[0].source) == "LIU0010.jpg"
    # Switched off, the same question is an ordinary search: no focused hit can lead it.
    off = replace(drawing_config, index=replace(drawing_config.index, focus_named=False))
    plain = _prepare(question, store=drawings, config=off, namespaces=None)
    ordinary = search(drawings, question, SPACES, options=SearchOptions(max_results=20))
    assert plain.sources[0].source == ordinary[0].source


@pytest.mark.slow
def test_names_are_cached_until_the_index_changes(
    drawings: IndexStore, drawing_config: Config, tmp_path: Path
) -> None:
    question = "What material is the tower holder made of?"
    drawings.names.named(question, SPACES)
    loads = drawings.names.loads
    drawings.names.named("the adapter plate", SPACES)
    assert drawings.names.loads == loads  # nothing changed: the names were not read again
    note = tmp_path / "Turmhalter.md"
    note.write_text("# Turmhalter\n\nMaterial: Aluminium 6082, anodised.\n", encoding="utf-8")
    try:
        ingest_path(drawings, note, "global", config=drawing_config, source=note.name)
        named = drawings.names.named(question, SPACES)
        assert drawings.names.loads == loads + 1
        assert [n.source for n in named] == ["Turmhalter.md"]  # compound + translation
        hits = search(
            drawings, question, SPACES, options=SearchOptions(focus_sources=(named[0].id,))
        )
        assert hits[0].source == "Turmhalter.md"
    finally:
        drawings.delete_source("global", "Turmhalter.md")
    assert drawings.names.named(question, SPACES) == []


def test_a_synonym_of_a_titles_english_sense_names_the_drawing() -> None:
    names = _names_of(
        ("DG-0620-02.png", "端盖", "DG-0620-02"),
        ("flange.png", "Flange", "FL-3306"),
    )
    # 端盖 reads "end cover"; a person says "end cap".
    found = names.match("What bore fit does the end cap have?", soundalike_names=False)
    assert [n.source for n in found] == ["DG-0620-02.png"]
    assert "cover" in question_words("the end cap")[2].forms


def test_the_language_of_a_drawing_does_not_make_it_another_part() -> None:
    names = _names_of(
        ("Lagerdeckel.png", "Lagerdeckel", "LD-1208-00"),
        ("flange.png", "Flange", "FL-3306"),
        ("halter.jpg", "Halter", "H-1"),
    )
    found = names.match("What is the scale of the German bearing cover?", soundalike_names=False)
    assert [n.source for n in found] == ["Lagerdeckel.png"]
    # A content word before the name still makes it another thing.
    assert names.match("What is the tower holder made of?", soundalike_names=False) == []


def test_common_part_names_have_their_english_sense() -> None:
    from appliance.drawing_terms import english

    assert english("传动轴") == "drive shaft"
    assert english("Schneckenrad") == "worm wheel"
    assert english("Mellanaxel") == "intermediate shaft"
    assert english("花键轴") == "spline shaft"


def test_an_idiomatic_part_name_has_its_english_name_not_its_pieces() -> None:
    from appliance.drawing_terms import english

    assert english("Gabelkopf") == "clevis"  # not "fork head"
    assert english("Druckstück") == "thrust pad"  # not "compression piece"
    assert english("压板") == "clamp plate"


def test_a_part_is_named_by_its_head_noun_unless_another_is_named_in_full() -> None:
    names = _names_of(
        ("DL-5208-01.png", "皮带轮", "DL-5208-01"),
        ("falanpan.png", "法兰盘", "FL-3306"),
        ("pump_mounting_flange.png", "PUMP MOUNTING FLANGE", "PF-1"),
        ("halter.jpg", "Halter", "H-1"),
    )

    def named(question: str) -> list[str]:
        return [n.source for n in names.match(question, soundalike_names=False)]

    # 皮带轮 reads "belt pulley"; a person says either.
    assert named("Does the belt pulley have to be balanced?") == ["DL-5208-01.png"]
    assert named("What does note 4 of the pulley drawing say?") == ["DL-5208-01.png"]
    # "The flange" is the drawing titled flange (法兰盘), not every flange's drawing...
    assert named("What scale is the flange drawing?") == ["falanpan.png"]
    # ...and the pump flange said in full is that one.
    assert named("What scale is the pump mounting flange?") == ["pump_mounting_flange.png"]
    # A head noun after a word that is no part of the name still names another thing.
    assert named("What is the tower holder made of?") == []


def test_the_title_block_names_no_drawing_called_a_block() -> None:
    names = _names_of(
        ("HM-30518_revD.png", "HYDRAULIC MANIFOLD BLOCK", "HM-30518"),
        ("JJ-4820-00.png", "夹具体", "JJ-4820-00"),
        ("lagerbock.png", "Lagerbock", "LB-3340-01"),
    )

    def named(question: str) -> list[tuple[str, float]]:
        return [(n.source, n.score) for n in names.match(question, soundalike_names=False)]

    # "block" of an English title is the head noun, not a full name of the manifold block (the
    # glossary lists the word only for its Swedish and German spellings).
    assert named("What material does the title block of JJ-4820-00 give?") == [
        ("JJ-4820-00.png", 1.0)
    ]
    assert named("What does the Titelblock say the scale is?") == []
    assert named("Which bolts does the Stückliste of JJ-4820-00 list?") == [("JJ-4820-00.png", 1.0)]
    assert named("What is the scale of the hydraulic manifold block?") == [
        ("HM-30518_revD.png", 1.0)
    ]
    # Lagerbock is a translation: "the bearing block" names it in full.
    assert named("What is the scale of the bearing block?") == [("lagerbock.png", 1.0)]


def test_the_parts_of_a_sheet_have_their_english_names_not_their_pieces() -> None:
    from appliance.drawing_terms import english

    assert english("Stückliste") == "parts list"  # not "piece strip"
    assert english("Teileliste") == "parts list"
    assert english("明细栏") == "parts list"
    assert english("标题栏") == "title block"


def test_german_part_name_words_give_the_english_a_person_says() -> None:
    from appliance.drawing_terms import english

    assert english("Vorgelegewelle") == "counter shaft"


def test_a_file_is_named_by_its_words_without_the_numbers_pieces() -> None:
    names = _names_of(
        ("yaban_YB-2312-05.png", "压板", "YB-2312-05"),
        ("lagerbock_LB-3340-01.png", "Lagerbock", "LB-3340-01"),
    )
    found = names.match("What date is in the title block of the yaban drawing?")
    assert [n.source for n in found] == ["yaban_YB-2312-05.png"]
    # The number's pieces alone name nothing: "YB" is no word of the name.
    assert names.match("the yb part", soundalike_names=False) == []


def test_a_part_is_named_by_the_other_english_names_of_its_sense() -> None:
    names = _names_of(
        ("Gabelkopf_GK-4520-10.png", "Gabelkopf", "GK-4520-10"),
        ("druckstueck.png", "Druckstück", "DS-1733-00"),
        ("Vorgelegewelle_VW-3318-00.png", "Vorgelegewelle kpl.", "VW-3318-00"),
        ("idler_shaft.png", "IDLER SHAFT", "IS-2201"),
    )
    for asked, drawing in (
        ("Does the fork head get any plating?", "Gabelkopf_GK-4520-10.png"),
        ("What blank does the pressure piece start from?", "druckstueck.png"),
        ("the spur gear of the intermediate shaft", "Vorgelegewelle_VW-3318-00.png"),
    ):
        found = names.match(asked, soundalike_names=False)
        assert [n.source for n in found] == [drawing], asked


def test_a_treatment_said_of_a_part_is_no_other_part() -> None:
    names = _names_of(
        ("druckstueck.png", "Druckstück", "DS-1733-00"),
        ("halter.jpg", "Halter", "H-1"),
    )
    found = names.match("The case-hardened Druckstück, is it blackened?", soundalike_names=False)
    assert [n.source for n in found] == ["druckstueck.png"]
    # A noun before the name still makes it another part.
    assert names.match("What is the tower holder made of?", soundalike_names=False) == []


def test_the_finder_reads_a_drawing_named_by_another_word_by_its_title() -> None:
    names = _names_of(
        ("Gabelkopf_GK-4520-10.png", "Gabelkopf", "GK-4520-10"),
        ("druckstueck.png", "Druckstück", "DS-1733-00"),
    )
    titles = {"Gabelkopf_GK-4520-10.png": "Gabelkopf", "druckstueck.png": "Druckstück"}
    texts = {"Gabelkopf_GK-4520-10.png": "Gabelkopf GK-4520-10 Oberfläche: verzinkt"}
    asked = "Does the fork head get any coating?"
    named = names.match(asked, soundalike_names=False)
    assert by_title(asked, named, titles, texts) == "Does the Gabelkopf get any coating?"
    asked = "How deep is the case of the pressure pad?"
    named = names.match(asked, soundalike_names=False)
    assert by_title(asked, named, titles, texts) == "How deep is the case of the Druckstück?"
    # By its title, its number or its file name, the question stays as it was.
    for asked in (
        "Does the Gabelkopf get any coating?",
        "Is GK-4520-10 coated?",
        "Is Gabelkopf_GK-4520-10.png coated?",
    ):
        named = names.match(asked, soundalike_names=False)
        assert named and by_title(asked, named, titles, texts) == asked
    # Words the drawing's text has are read there.
    texts["druckstueck.png"] = "Druckstück (pressure pad)"
    named = names.match("the pressure pad?", soundalike_names=False)
    assert by_title("the pressure pad?", named, titles, texts) == "the pressure pad?"


def test_a_word_joining_the_sentence_to_a_name_is_no_other_part() -> None:
    names = _names_of(("bottenplatta_kompl.png", "Bottenplatta, kompl.", "BP-5531-01"))
    found = names.match(
        "How many socket head screws go into bottenplatta_kompl?", soundalike_names=False
    )
    assert [n.source for n in found] == ["bottenplatta_kompl.png"]
    # A content word before the name still makes it another part.
    assert names.match("How many screws hold the frame bottenplatta?", soundalike_names=False) == []
