"""A drawing named by the language it is written in ("the German guide plate" of two guide plates
is the one written in German) or by what its part is made of or finished with."""

from __future__ import annotations

from appliance.index.identity import NamedSource
from appliance.index.qualifiers import (
    asked_language,
    by_number,
    described_as,
    in_language,
    in_own_words,
    the_whole,
    with_revision,
    written_in,
)

_TEXTS = {
    "DX-3105-02.png": "Title: 导向板 (guide plate)\n材料 45 GB/T 699",
    "FP-3619-02.png": "Benennung: Führungsplatte\nWerkstoff: 16MnCr5\nGezeichnet: M. Schäfer",
    "BP-5531-01.png": "Benämning: Bottenplatta\nRitad av: S. Nyberg\nYtbehandling: Förzinkad",
    "JP-55187.png": "TITLE: JIG PLATE\nMATERIAL: 6061-T6 ALUMINUM",
}


def _named(*sources: str) -> list[NamedSource]:
    return [NamedSource(i, "global", s, 1.0, s) for i, s in enumerate(sources)]


def _text(n: NamedSource) -> str:
    return _TEXTS[n.source]


def test_the_language_a_question_names() -> None:
    assert asked_language("What's the width of the little German guide plate?") == "german"
    assert asked_language("the Swedish fixture base plate") == "swedish"
    assert asked_language("Which material is the Chinese flange?") == "chinese"
    assert asked_language("Which material is the guide plate?") is None


def test_the_language_a_drawing_is_written_in() -> None:
    assert [written_in([t]) for t in _TEXTS.values()] == ["chinese", "german", "swedish", None]


def test_of_two_drawings_named_alike_the_one_in_the_language_asked() -> None:
    both = _named("DX-3105-02.png", "FP-3619-02.png")
    german = in_language("the German guide plate", both, _text)
    assert [n.source for n in german] == ["FP-3619-02.png"]
    chinese = in_language("the Chinese guide plate", both, _text)
    assert [n.source for n in chinese] == ["DX-3105-02.png"]
    # No language said: both stay, in their order.
    assert in_language("the guide plate", both, _text) == both


def test_a_name_said_less_fully_is_taken_when_its_language_picks_it() -> None:
    """The one drawing named is Chinese; the Swedish one was said only half ("fixture base plate")."""
    named = _named("DX-3105-02.png")
    wider = _named("DX-3105-02.png", "BP-5531-01.png")
    found = in_language("the Swedish fixture base plate", named, _text, lambda: wider)
    assert [n.source for n in found] == ["BP-5531-01.png"]
    # No drawing in the language asked: the named ones stand.
    assert in_language("the Swedish jig plate", _named("JP-55187.png"), _text) == _named(
        "JP-55187.png"
    )


_PLATES = {
    "Adapterplatte.jpg": "Benennung: Adapterplatte\nWerkstoff: Stahl",
    "AP-6613-01.png": "TITLE: ADAPTER PLATE, SPINDLE MOTOR\nMATL 6061-T6\nFINISH: BLK ANODIZE",
}


def _plate(n: NamedSource) -> str:
    return _PLATES[n.source]


def _plates() -> list[NamedSource]:
    return [
        NamedSource(i, "global", s, 1.0, s, frozenset({"adapter", "plate"}))
        for i, s in enumerate(_PLATES)
    ]


def test_a_drawing_described_by_its_material_or_finish() -> None:
    """ "The black anodized adapter plate" is the aluminium one; the describing words name the
    drawing, so the question keeps only what it asks."""
    found, asked = described_as(
        "How much does the black anodized adapter plate weigh?", _plates(), _plate
    )
    assert [n.source for n in found] == ["AP-6613-01.png"]
    assert asked == "How much does the adapter plate weigh?"
    found, _ = described_as("What scale is the aluminium adapter plate?", _plates(), _plate)
    assert [n.source for n in found] == ["AP-6613-01.png"]


def test_a_material_asked_about_is_no_description() -> None:
    """ "Black" after the name asks something; a description no drawing fits changes nothing."""
    question = "Is the adapter plate anodized black?"
    assert described_as(question, _plates(), _plate) == (_plates(), question)
    question = "What does the brass adapter plate weigh?"
    assert described_as(question, _plates(), _plate) == (_plates(), question)


def test_a_part_named_of_another_drawing_is_that_drawings() -> None:
    """ "The base plate of the fixture base": the fixture base is asked about, its base plate is
    a row of its parts list, whichever other drawing is titled base plate."""
    base_plate = NamedSource(
        1, "global", "BP-5531-01.png", 1.0, "Bottenplatta", frozenset({"base", "plate"})
    )
    fixture = NamedSource(
        2, "global", "JJ-4820-00.png", 1.0, "夹具底座", frozenset({"fixture", "base"})
    )
    both = [base_plate, fixture]
    assert the_whole("What is the base plate of the fixture base cast from?", both) == [fixture]
    assert the_whole("What is the fixture base of the base plate?", both) == [base_plate]
    # Named side by side, neither belongs to the other.
    assert the_whole("Is the base plate heavier than the fixture base?", both) == both


def test_a_drawing_number_said_in_full_names_its_drawing_over_a_title() -> None:
    """ "the base plate 底板 in JJ-4820-00": the number names the fixture base drawing; the base
    plate is a part in it, not the Swedish drawing titled Bottenplatta (base plate)."""
    jj = NamedSource(1, "global", "JJ-4820-00.png", 1.0, "JJ-4820-00", frozenset({"jj482000"}))
    bp = NamedSource(2, "global", "BP-5531-01.png", 1.0, "Bottenplatta", frozenset({"base"}))
    assert by_number([jj, bp]) == [jj]
    # Two numbers said: neither is preferred.
    other = NamedSource(3, "global", "FP-3619-02.png", 1.0, "FP-3619-02", frozenset({"fp361902"}))
    assert by_number([jj, other]) == [jj, other]
    # No number said: the names stand.
    said_title = NamedSource(1, "global", "JJ-4820-00.png", 1.0, "夹具底座", frozenset({"fixture"}))
    assert by_number([said_title, bp]) == [said_title, bp]


def test_a_foreign_word_said_names_the_drawing_that_writes_it() -> None:
    """ "Führungsplatte" has the English sense of both guide plates' names; only the German one
    writes it (read by OCR with its ü as i)."""
    dx = NamedSource(1, "global", "DX-3105-02.png", 1.0, "导向板 (guide plate)")
    fp = NamedSource(2, "global", "FP-3619-02.png", 1.0, "Fihrungsplatte (guide plate)")
    assert in_own_words("Who drew the Führungsplatte?", [dx, fp]) == [fp]
    # Said in English, the words are both names': both stay.
    assert in_own_words("Who drew the guide plate?", [dx, fp]) == [dx, fp]
    # A file name holds the word too.
    vw = NamedSource(3, "global", "Vorgelegewelle_VW-3318-00.png", 1.0, "VW-3318-00")
    cz = NamedSource(4, "global", "chilunzhou_CZ-4402-01.png", 1.0, "齿轮轴 (gear shaft)")
    assert in_own_words("What module is the gear on the Vorgelegewelle?", [vw, cz]) == [vw]
    # A foreign word no name holds picks nothing.
    assert in_own_words("Who released the guide plate, Freigegeben?", [dx, fp]) == [dx, fp]


def test_a_revision_said_picks_the_drawing_that_has_it() -> None:
    texts = {
        "Adapterplatte.jpg": "Title: Stahl Adapterplatte (steel adapter plate)",
        "spindle_adapter_plate.png": "Revision: C\nRevision B: Ø.250 DOWEL HOLES WAS Ø.188.",
    }
    named = _named("Adapterplatte.jpg")
    wider = _named("Adapterplatte.jpg", "spindle_adapter_plate.png")
    kept = with_revision(
        "What changed in rev B of the adapter plate?",
        named,
        lambda n: texts[n.source],
        lambda: wider,
    )
    assert [n.source for n in kept] == ["spindle_adapter_plate.png"]
    # No drawing has the revision, or the one named has it: the name stands.
    for question in ("What changed in rev F of the adapter plate?", "What is the adapter plate?"):
        kept = with_revision(question, named, lambda n: texts[n.source], lambda: wider)
        assert [n.source for n in kept] == ["Adapterplatte.jpg"]
