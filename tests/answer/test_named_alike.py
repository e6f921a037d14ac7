"""A question that names two drawings alike ("the guide plate", with a Chinese and a German guide
plate indexed) is asked back, and the reply answers it; one about the drawing in hand is answered
about it; a foreign word said names the drawing that writes it.

Two drawings are put in a real index (real embeddings, FTS5, sqlite-vec) as the ingest writes
them: a title block slice with its fields, and a note on hardening on the German one."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from appliance.answer.answering import Answer, answer_question
from appliance.answer.in_hand import InHand
from appliance.answer.which_drawing import drawing_in_reply
from appliance.config import Config
from appliance.document import Box, DocumentSlice, SliceKind, SourceDocument
from appliance.index.store import IndexStore
from tests.answer.conftest import model_free_config


def _drawing(
    source: str, number: str, title: str, block: str, fields: dict[str, str], more: str = ""
) -> SourceDocument:
    slices = [
        DocumentSlice(
            text=block,
            kind=SliceKind.TITLE_BLOCK,
            page=1,
            box=Box(1200.0, 1650.0, 2330.0, 2330.0),
            drawing_number=number,
            extra={"title_block": {"title": title, **fields}},
        )
    ]
    if more:
        slices.append(
            DocumentSlice(
                text=more,
                kind=SliceKind.NOTE,
                page=1,
                box=Box(100.0, 100.0, 900.0, 400.0),
                drawing_number=number,
            )
        )
    return SourceDocument(
        source=source,
        namespace="global",
        content_hash=number.encode().hex().ljust(64, "0")[:64],
        slices=tuple(slices),
        media_type="image/png",
        title=title,
    )


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return model_free_config(tmp_path_factory.mktemp("named-alike"))


@pytest.fixture(scope="module")
def store(config: Config) -> Iterator[IndexStore]:
    with IndexStore.open(config) as st:
        st.replace_source(
            _drawing(
                "DX-3105-02.png",
                "DX-3105-02",
                "导向板",
                "Title block.\nDrawing number: DX-3105-02\nTitle: 导向板 (guide plate)\n"
                "Material: 45\nDrawn by: 王建国\n图样名称\n导向板\n材料\n45",
                {"material": "45", "drawn_by": "王建国"},
            )
        )
        st.replace_source(
            _drawing(
                "FP-3619-02.png",
                "FP-3619-02",
                # As OCR read it, the ü as i.
                "Fihrungsplatte",
                "Title block.\nDrawing number: FP-3619-02\nTitle: Fihrungsplatte (guide plate)\n"
                "Material: 16MnCr5\nDrawn by: M. Schäfer\nBenennung\nWerkstoff\n16MnCr5",
                {"material": "16MnCr5", "drawn_by": "M. Schäfer"},
                more="3) CASE HARDEN, HARDNESS 58+2 HRC, DEPTH 0.6",
            )
        )
        yield st


async def _ask(store: IndexStore, config: Config, question: str, **kw: object) -> Answer:
    return await answer_question(question, store=store, config=config, **kw)  # type: ignore[arg-type]


async def test_a_question_both_drawings_answer_is_asked_back_naming_them(
    store: IndexStore, config: Config
) -> None:
    answer = await _ask(store, config, "What material is the guide plate made of?")
    assert answer.mode == "asked", answer
    assert answer.citations == ()
    # Both are named so the reply can be either; the Chinese title is said by its English sense.
    assert "DX-3105-02" in answer.spoken and "FP-3619-02" in answer.spoken, answer.spoken
    assert "guide plate" in answer.spoken and "导" not in answer.spoken
    assert {s for _, s in answer.listed} == {"DX-3105-02.png", "FP-3619-02.png"}


async def test_the_reply_answers_the_question_about_the_drawing_it_names(
    store: IndexStore, config: Config
) -> None:
    asked = await _ask(store, config, "What hardness does the guide plate get?")
    assert asked.mode == "asked", asked
    held = drawing_in_reply("FP-3619-02", store=store, namespaces=("global",), only_name=True)
    assert held is not None and held.source == "FP-3619-02.png"
    answer = await _ask(store, config, "What hardness does the guide plate get?", in_hand=held)
    assert answer.mode == "extractive", answer
    assert [c.source for c in answer.citations][:1] == ["FP-3619-02.png"]
    assert "58" in answer.spoken


async def test_the_drawing_in_hand_is_the_one_meant(store: IndexStore, config: Config) -> None:
    held = InHand("global", "DX-3105-02.png", "scanned", 0.0)
    answer = await _ask(store, config, "What material is the guide plate made of?", in_hand=held)
    assert answer.mode == "extractive", answer
    assert [c.source for c in answer.citations][:1] == ["DX-3105-02.png"]
    assert "45" in answer.spoken


async def test_a_foreign_word_names_the_drawing_written_in_it(
    store: IndexStore, config: Config
) -> None:
    answer = await _ask(store, config, "What material is the Führungsplatte made of?")
    assert answer.mode == "extractive", answer
    assert [c.source for c in answer.citations][:1] == ["FP-3619-02.png"]
    assert "16MnCr5" in answer.spoken


async def test_not_asked_back_when_asking_back_is_off_or_drawings_are_asked_for(
    store: IndexStore, config: Config
) -> None:
    off = dataclasses.replace(config, answer=dataclasses.replace(config.answer, ask_which_s=0.0))
    answer = await _ask(store, off, "What material is the guide plate made of?")
    assert answer.mode != "asked", answer
    listing = await _ask(store, config, "Which guide plates are made of 16MnCr5?")
    assert listing.mode != "asked", listing


async def test_a_reply_picks_a_listed_drawing_by_its_language(
    store: IndexStore, config: Config
) -> None:
    asked = await _ask(store, config, "What material is the guide plate made of?")
    for reply, source in (
        ("The German one.", "FP-3619-02.png"),
        ("the Chinese one", "DX-3105-02.png"),
    ):
        held = drawing_in_reply(reply, store=store, namespaces=("global",), listed=asked.listed)
        assert held is not None and held.source == source, reply
    # Not one of those listed, or a question of its own: no drawing.
    assert (
        drawing_in_reply(
            "the Swedish one", store=store, namespaces=("global",), listed=asked.listed
        )
        is None
    )
    assert (
        drawing_in_reply(
            "what is the German one made of?",
            store=store,
            namespaces=("global",),
            listed=asked.listed,
        )
        is None
    )
