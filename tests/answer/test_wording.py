"""A question read back into the drawings' words: sizes and revisions spaced as drawings write
them, the words a recogniser hears for drawing words put back (transcripts only), a drawing number
split elsewhere written as its drawing writes it, and two name words run together."""

from __future__ import annotations

import pytest

from appliance.answer.finding import as_named
from appliance.answer.wording import as_asked, spaced
from appliance.index.identity import SourceNames, _SourceRow
from tests.answer.sources import drawing_source


@pytest.mark.parametrize(
    ("written", "spaced_form"),
    [
        ("How much can the 25mm wall vary?", "How much can the 25 mm wall vary?"),
        ("Is it 0.5mm or 3,8kg?", "Is it 0.5 mm or 3,8 kg?"),
        ("What changed in RevB of the housing?", "What changed in Rev B of the housing?"),
        ("What changed in rev.C?", "What changed in rev C?"),
        # Codes and sizes that are not a number against its unit stay as they are.
        ("The M8 bolts of A-1024, 6061-T6, HM30518 and review", None),
    ],
)
def test_sizes_and_revisions_are_spaced(written: str, spaced_form: str | None) -> None:
    assert spaced(written) == (spaced_form or written)


@pytest.mark.parametrize(
    ("heard", "asked"),
    [
        ("What size is Hold D1 in the whole table?", "What size is hole D1 in the hole table?"),
        ("What size is whole B-1 on PB-118-4?", "What size is hole B1 on PB-118-4?"),
        ("What size is Hall-H5 in the hall table?", "What size is hole H5 in the hole table?"),
        ("What is the exposition of hole H1?", "What is the X position of hole H1?"),
        ("which standard covers, intolerant sizes", "which standard covers, untoleranced sizes"),
        ("What governs the intolerance dimensions?", "What governs the untoleranced dimensions?"),
        (
            "How much does the part on drawing SP-447-1 way?",
            "How much does the part on drawing SP-447-1 weigh?",
        ),
        ("Hoodrew drawing SP-4471", "Who drew drawing SP-4471"),
        ("What counterboard does whole see one get?", "What counterbore does hole C1 get?"),
        ("What is the X position of hole one?", "What is the X position of hole 1?"),
        (
            "When was revision of drawing HN-5520 made?",
            "When was revision A of drawing HN-5520 made?",
        ),
        ("Who approved rep B of JP55187?", "Who approved rev B of JP55187?"),
        # Ordinary uses of the same words are left alone.
        ("When was the last revision of drawing HN-5520 made?", None),
        ("Which hole is one inch deep?", None),
        ("Which way does the arrow point?", None),
        ("How much does it cost, by the way?", None),
        ("Read me the whole drawing", None),
        ("Hold on, what is the material?", None),
        ("Is there an intolerance to heat?", None),
    ],
)
def test_words_a_recogniser_hears_for_drawing_words(heard: str, asked: str | None) -> None:
    assert as_asked(heard) == (asked or heard)


def test_a_code_split_elsewhere_is_written_as_its_drawing_writes_it() -> None:
    gearbox = drawing_source(1, "GEARBOX COVER", drawing="GB-4410-01")
    assert as_named("Which department owns drawing G-B441001?", [gearbox]) == (
        "Which department owns drawing GB-4410-01?"
    )
    # One edit away, a code still reads as the one source it comes close to.
    end_cap = drawing_source(2, "轴承端盖", drawing="DG-0620-02")
    assert as_named("Who designed the G-062002?", [gearbox, end_cap]) == (
        "Who designed the DG-0620-02?"
    )


def _names() -> SourceNames:
    return SourceNames(
        [
            _SourceRow(1, "global", "navkapsel.png", "Navkapsel", "NK-0412", ()),
            _SourceRow(2, "global", "gearbox.png", "Gearbox cover", "GB-4410-01", ()),
        ]
    )


def test_two_name_words_run_together_name_the_drawing() -> None:
    names = _names()
    # "Navkapsel" is "hub cap" in the glossary; a recogniser writes "hubcap".
    assert names.match("Who designed the hubcap?") == []
    spelled = names.split_compounds("Who designed the hubcap?")
    assert spelled == "Who designed the hub cap?"
    assert [n.source for n in names.match(spelled)] == ["navkapsel.png"]
    # A name word itself, or a word that is not two name words, is left whole.
    assert names.split_compounds("the gearbox, the material, the capsule") == (
        "the gearbox, the material, the capsule"
    )
