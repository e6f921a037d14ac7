"""Answering from a real index (SQLite + sqlite-vec + FTS5, real MiniLM embeddings): citations, the
claim check, extractive fallback, abstention, namespaces, streaming, and the ``openclaw ask`` command."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from appliance.answer import verify
from appliance.answer.answering import (
    Answer,
    _prepare,
    _split_sentences,
    answer_question,
    stream_answer,
)
from appliance.answer.errors import QuestionError, RoleError
from appliance.answer.prompts import available_roles, render_messages
from appliance.answer.settings import AnswerSettings
from appliance.answer.worker import AnswerWorker, WorkerState
from appliance.cli import main as cli_main
from appliance.config import Config, load_config
from appliance.document import Box, DocumentSlice, SliceKind, SourceDocument
from appliance.index.store import IndexStore
from appliance.ingest.pipeline import ingest_path
from appliance.models.manifest import load_manifest
from tests.answer.conftest import TEST_MODEL, fault_command

pytestmark = pytest.mark.slow

BRACKET_NOTE = """# Mounting bracket

## Assembly

The M8 bolts on the mounting bracket take 25 N·m of torque.
Use thread locker on the M8 bolts.

## Finish

Powder coat the bracket in RAL 7035 after welding.
"""

LAB_NOTE = """# Oscilloscope

The oscilloscope probe compensation is adjusted with the 1 kHz square wave output.
"""

TORQUE_Q = "What torque do the M8 bolts on the mounting bracket take?"


def _drawing() -> SourceDocument:
    """A drawing as the vision path delivers it: a title-block slice with fields, number, revision, box."""
    title_block = DocumentSlice(
        text="TITLE: Mounting bracket\nDWG NO: A-1024\nREVISION: C\nMATERIAL: S235JR\nSCALE: 1:2",
        kind=SliceKind.TITLE_BLOCK,
        page=1,
        box=Box(1200.0, 1650.0, 2330.0, 2330.0),
        drawing_number="A-1024",
        revision="C",
        extra={"title_block": {"title": "Mounting bracket", "material": "S235JR", "scale": "1:2"}},
    )
    dimension = DocumentSlice(
        text="Hole pattern 4x Ø9 H11 on 60.00 ±0.10 centres",
        kind=SliceKind.DIMENSION,
        page=1,
        box=Box(400.0, 300.0, 900.0, 380.0),
        drawing_number="A-1024",
        revision="C",
    )
    return SourceDocument(
        source="capture:bracket-0001",
        namespace="shop",
        content_hash="f" * 64,
        slices=(title_block, dimension),
        media_type="image/png",
        title="Mounting bracket",
    )


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    root = tmp_path_factory.mktemp("answer-index")
    cfg = root / "openclaw.toml"
    # The test model (a model joined from pieces lives in the configured models folder; the small
    # one is read from its PyPI carrier).
    in_parts = load_manifest().get(TEST_MODEL).in_parts
    models = load_config().paths.models_dir if in_parts else root / "models"
    cfg.write_text(
        f'[paths]\ndata_dir = "{root / "data"}"\nmodels_dir = "{models}"\n'
        f'[answer]\nllm_model = "{TEST_MODEL}"\n'
        "threads = 1\ncontext_tokens = 1024\ncontext_budget_tokens = 300\n"
        "max_answer_tokens = 24\ntimeout_s = 600\nstart_timeout_s = 600\n"
        "restart_backoff_s = 0.05\nrestart_backoff_max_s = 0.2\n"
        # The model path is what most tests here check: ask the model even when an extract is sure.
        "fast_path = false\nfirst_sentence_timeout_s = 600\n",
        encoding="utf-8",
    )
    return load_config(cfg, environ={})


@pytest.fixture(scope="module")
def store(
    config: Config, shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[IndexStore]:
    notes = tmp_path_factory.mktemp("notes")
    (notes / "bracket.md").write_text(BRACKET_NOTE, encoding="utf-8")
    (notes / "scope.md").write_text(LAB_NOTE, encoding="utf-8")
    with IndexStore.open(config) as st:
        ingest_path(st, notes / "bracket.md", "shop", config=config, source="bracket.md")
        ingest_path(st, notes / "scope.md", "lab", config=config, source="scope.md")
        for name in ("Aufspannung.PDF", "Elevator_bottom.PDF", "Aufspannung_Ecke.PDF"):
            report = ingest_path(
                st, shared_data / "drawings-edocr2" / name, "global", config=config, source=name
            )
            assert not report.failures
        st.replace_source(_drawing())
        yield st


# ---------------------------------------------------------------------------------- extractive
async def test_field_answer_cites_drawing_revision_page_and_box(
    store: IndexStore, config: Config
) -> None:
    answer = await answer_question(
        "What material is drawing A-1024 made of?", store=store, config=config, namespaces=["shop"]
    )
    assert answer.mode == "extractive"
    assert "S235JR" in answer.text and "[1]" in answer.text
    (citation,) = answer.citations
    assert (citation.drawing_number, citation.revision, citation.page) == ("A-1024", "C", 1)
    assert citation.box is not None and citation.box[2] > citation.box[0]
    assert citation.source == "capture:bracket-0001"
    title_block_id = next(
        s.id
        for s in store.source_slices("shop", "capture:bracket-0001")
        if s.kind is SliceKind.TITLE_BLOCK
    )
    assert title_block_id in citation.slice_ids
    assert "[" not in answer.spoken and "S235JR" in answer.spoken and "A-1024" in answer.spoken


async def test_line_answer_quotes_the_note(store: IndexStore, config: Config) -> None:
    answer = await answer_question(TORQUE_Q, store=store, config=config, namespaces=["shop"])
    assert answer.mode == "extractive"
    assert "25 N·m" in answer.text
    assert answer.citations[0].source == "bracket.md"
    assert answer.citations[0].namespace == "shop"


async def test_text_layer_drawing_field(store: IndexStore, config: Config) -> None:
    answer = await answer_question(
        "What is the scale of the Keyence lift bottom drawing?", store=store, config=config
    )
    assert answer.mode == "extractive"
    assert "1:1" in answer.text
    assert answer.citations[0].source == "Elevator_bottom.PDF"


async def test_unanswerable_question_abstains_and_names_where_it_looked(
    store: IndexStore, config: Config
) -> None:
    answer = await answer_question(
        "Which football team won the world cup?", store=store, config=config, namespaces=["shop"]
    )
    assert answer.mode == "abstained"
    assert answer.citations == ()
    assert answer.namespaces == ("shop", "global")
    assert "shop, global" in answer.text
    assert "lab" in answer.text  # offers the document set it did not search
    assert "do not say" in answer.spoken
    # The question is said back first, so a misheard one can be recognised and asked again.
    assert answer.spoken.startswith('You asked: "Which football team won the world cup".')


async def test_a_named_drawing_that_does_not_answer_is_named_in_the_abstention(
    store: IndexStore, config: Config
) -> None:
    # The drawing was found and read: the person hears which drawing to look at themselves.
    answer = await answer_question(
        "What torque do the M10 bolts on drawing Keyence_Lift-12.19 take?",
        store=store,
        config=config,
        extractive_only=True,
    )
    assert answer.mode == "abstained" and answer.citations == ()
    # (The PDF's pages carry its title, not the number its title block gives.)
    assert answer.spoken.endswith("I could not find that on the drawing Elevator_bottom.")
    assert answer.text.startswith("I could not find that on the drawing Elevator_bottom.")
    assert "I searched: global" in answer.text


async def test_a_transcript_is_read_in_the_drawings_words(
    store: IndexStore, config: Config
) -> None:
    """A heard code split elsewhere, and two name words run together, are read as the drawing
    writes them before anything is judged, so the answer comes from the drawing they name."""
    prepared = _prepare(
        "Who checked the drawing A1-024 of the mountingbracket?",
        store=store,
        config=config,
        namespaces=["shop"],
        heard=True,
    )
    assert "A-1024" in prepared.question and "mounting bracket" in prepared.question
    answer = await answer_question(
        "what scale is the mountingbracket drawn at",
        store=store,
        config=config,
        namespaces=["shop"],
    )
    assert answer.mode == "extractive" and "1:2" in answer.text
    assert answer.citations[0].source == "capture:bracket-0001"


async def test_a_transcript_names_a_drawing_by_how_its_name_sounds(
    store: IndexStore, config: Config
) -> None:
    """ "Aufspannung Ecken" said by an English voice and written by ear as "off-spin-un, echo":
    heard, it names the drawing and is answered from it; typed, the same words name nothing."""
    asked = "What scale is the off-spin-un, echo drawing?"

    async def final(heard: bool) -> Answer:
        async for event in stream_answer(
            asked, store=store, config=config, extractive_only=True, heard=heard
        ):
            if event.answer is not None:
                return event.answer
        raise AssertionError("no answer")

    heard = await final(True)
    assert heard.mode == "extractive" and "1:5" in heard.text
    assert heard.citations[0].source == "Aufspannung_Ecke.PDF"
    assert (await final(False)).mode == "abstained"


def test_a_long_question_is_said_back_cut_to_a_dozen_words() -> None:
    from appliance.answer.answering import ECHO_WORDS, heard_as

    long = " ".join(f"word{i}" for i in range(30)) + "?"
    said = heard_as(long)
    assert said.startswith('You asked: "word0 word1')
    assert f"word{ECHO_WORDS - 1} ..." in said and f"word{ECHO_WORDS} " not in said
    assert heard_as("What scale is it?") == 'You asked: "What scale is it".'


async def test_namespaces_are_respected(store: IndexStore, config: Config) -> None:
    question = "How is the oscilloscope probe compensation adjusted?"
    in_lab = await answer_question(question, store=store, config=config, namespaces=["lab"])
    assert in_lab.mode == "extractive" and in_lab.citations[0].source == "scope.md"
    in_shop = await answer_question(question, store=store, config=config, namespaces=["shop"])
    assert all(c.namespace in ("shop", "global") for c in in_shop.citations)


async def test_huge_question_is_cut_not_fatal(store: IndexStore, config: Config) -> None:
    question = TORQUE_Q + " " + "please " * 15_000
    assert len(question) > 100_000
    answer = await answer_question(question, store=store, config=config, namespaces=["shop"])
    assert answer.question_truncated
    assert len(answer.question) <= config.answer.max_question_chars


async def test_empty_question_is_an_input_error(store: IndexStore, config: Config) -> None:
    with pytest.raises(QuestionError) as err:
        await answer_question(" \n\t\x00 ", store=store, config=config)
    assert err.value.code == "question_invalid"


# ----------------------------------------------------------------- generated answers (checked)
async def _with_fixed_worker(config: Config, text: str) -> AnswerWorker:
    worker = AnswerWorker(
        config.answer, models_dir=config.paths.models_dir, command=fault_command("liar", text)
    )
    await worker.start()
    return worker


async def test_supported_generated_answer_is_used_with_its_citation(
    store: IndexStore, config: Config
) -> None:
    worker = await _with_fixed_worker(
        config, "The M8 bolts take 25 N·m [1]. Use thread locker [1]."
    )
    try:
        events = [
            e
            async for e in stream_answer(
                TORQUE_Q, store=store, config=config, namespaces=["shop"], worker=worker
            )
        ]
    finally:
        await worker.close()
    sentences = [e.text for e in events if e.kind == "sentence"]
    assert sentences == ["The M8 bolts take 25 N·m.", "Use thread locker."]
    answer = events[-1].answer
    assert answer is not None and events[-1].kind == "answer"
    assert answer.mode == "llm" and answer.fallback_reason == ""
    assert answer.text == "The M8 bolts take 25 N·m [1]. Use thread locker [1]."
    assert answer.citations[0].source == "bracket.md"
    assert answer.spoken.startswith(
        "The M8 bolts take 25 N·m. Use thread locker. Source: Mounting bracket"
    )
    assert "first_token" in answer.timings


async def test_unsupported_number_falls_back_to_the_quoted_line(
    store: IndexStore, config: Config
) -> None:
    worker = await _with_fixed_worker(config, "The M8 bolts take 99 N·m [1].")
    try:
        answer = await answer_question(
            TORQUE_Q, store=store, config=config, namespaces=["shop"], worker=worker
        )
    finally:
        await worker.close()
    assert answer.mode == "extractive"
    assert answer.fallback_reason == "unsupported_claim"
    assert answer.unsupported == ("99",)
    assert answer.rejected_text == "The M8 bolts take 99 N·m [1]."
    assert "25 N·m" in answer.text and "99" not in answer.text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("The M8 bolts take 25 N·m [7].", "bad_citation"),
        ("The M8 bolts take 25 N·m.", "uncited_claim"),
        # A name the sources do not contain is an unsupported claim, like a number.
        ("The M8 bolts are made of Inconel [1].", "unsupported_claim"),
        # Cited, but only repeats the question's own words.
        ("The M8 bolts on the mounting bracket take torque [1].", "no_new_information"),
        ("The documents do not say.", "no_citation"),
    ],
)
async def test_uncited_or_miscited_answers_are_not_used(
    store: IndexStore, config: Config, text: str, reason: str
) -> None:
    worker = await _with_fixed_worker(config, text)
    try:
        answer = await answer_question(
            TORQUE_Q, store=store, config=config, namespaces=["shop"], worker=worker
        )
    finally:
        await worker.close()
    assert answer.mode == "extractive"
    assert answer.fallback_reason == reason


async def test_worker_killed_mid_answer_gives_extractive_answer_and_restarts(
    store: IndexStore, config: Config
) -> None:
    def kill_when_busy(status: object) -> None:
        if str(getattr(status, "state", "")) == "busy" and getattr(status, "pid", None):
            os.kill(status.pid, signal.SIGKILL)  # type: ignore[attr-defined]

    worker = AnswerWorker(
        config.answer, models_dir=config.paths.models_dir, on_state=kill_when_busy
    )
    await worker.start()
    try:
        answer = await answer_question(
            TORQUE_Q, store=store, config=config, namespaces=["shop"], worker=worker
        )
        assert answer.mode == "extractive"
        assert answer.fallback_reason == "worker_crashed"
        assert "25 N·m" in answer.text
        worker.on_state = None
        assert await worker.wait_ready(600)
        assert worker.status.restarts == 1
    finally:
        await worker.close()


async def test_real_model_answer_is_checked(store: IndexStore, config: Config) -> None:
    async with AnswerWorker(config.answer, models_dir=config.paths.models_dir) as worker:
        answer = await answer_question(
            TORQUE_Q, store=store, config=config, namespaces=["shop"], worker=worker
        )
        assert worker.state is WorkerState.READY
    assert answer.citations
    if answer.mode == "llm":
        # Whatever SmolLM2 wrote, what is kept states nothing its citations do not contain.
        sources = {c.number: c.label + "\n" + c.quote for c in answer.citations}
        full = {n: s for n, s in sources.items()}
        assert verify.check_answer(answer.text, full).cited
    else:
        assert answer.mode == "extractive" and answer.fallback_reason
        assert answer.rejected_text or answer.fallback_reason.startswith("worker_")


async def test_no_model_configured_answers_extractively(store: IndexStore, config: Config) -> None:
    # The default: the extract is the answer, spoken at once, and no fallback is reported (the
    # status page would show every answer as a failure of the model otherwise).
    no_model = replace(config, answer=replace(config.answer, llm_model=""))
    events = [
        e async for e in stream_answer(TORQUE_Q, store=store, config=no_model, namespaces=["shop"])
    ]
    assert [e.kind for e in events] == ["sentence", "answer"]
    answer = events[-1].answer
    assert answer is not None and "25 N·m" in answer.text
    assert (answer.mode, answer.fallback_reason) == ("extractive", "")


# ------------------------------------------------------------------------------- prompts, check
def test_roles_render_and_unknown_role_is_refused(store: IndexStore, config: Config) -> None:
    assert {"engineer", "apprentice"} <= set(available_roles())
    from appliance.answer.context import Source

    src = Source(
        number=1,
        slice_ids=[1],
        source="x.md",
        namespace="shop",
        title="Bracket",
        page=0,
        box=None,
        drawing_number="A-1024",
        revision="C",
        section="",
        score=1.0,
        text="MATERIAL: S235JR",
    )
    system, user = render_messages("apprentice", "What material?", [src])
    assert system["role"] == "system" and "apprentice" in system["content"]
    assert (
        "[1] drawing A-1024, revision C" in user["content"] and "What material?" in user["content"]
    )
    with pytest.raises(RoleError):
        render_messages("../../etc/passwd", "q", [src])
    with pytest.raises(Exception) as err:
        AnswerSettings(role="Bad Role!").validate()
    assert "answer.role" in str(err.value)


def test_claim_check() -> None:
    sources = {1: "Hole pattern 4x Ø9 H11 on 60.00 ±0.10 centres", 2: "DWG NO: A-1024 REVISION: C"}
    assert verify.check_answer("Centres are 60 mm ±0,10 [1].", sources).ok
    assert verify.check_answer("Drawing A1024 [2], holes Ø9 H11 [1].", sources).ok
    bad = verify.check_answer("Centres are 65.00 mm [1], drawing A-1025 [2].", sources)
    assert not bad.ok and set(bad.unsupported) == {"65.00", "A-1025"}
    assert verify.check_answer("Centres are 60.00 [1].", {2: "x"}).bad_citations == (1,)
    assert not verify.check_answer("Centres are 60.00.", sources).ok  # no citation at all
    scales = {1: "MASSSTAB:1:2 BLATT 1 VON 1", 2: "DATUM 2021-10-15"}
    assert verify.check_answer("Scale 1:2 [1], dated 2021-10-15 [2].", scales).ok
    # A scale is one claim: "1:1" is not supported by a sheet that says 1:2 and "1 VON 1".
    assert verify.check_answer("Scale 1:1 [1].", scales).unsupported == ("1:1",)
    assert verify.check_answer("Dated 2021-10-16 [2].", scales).unsupported == ("2021-10-16",)


# ------------------------------------------------------------------------------------------ CLI
def test_cli_ask_json(
    store: IndexStore, config: Config, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = Path(config.paths.data_dir).parent / "openclaw.toml"
    code = cli_main(
        ["--config", str(cfg), "ask", "--extractive", "--json", "--namespace", "shop", TORQUE_Q]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "extractive" and data["fallback_reason"] == "extractive_requested"
    assert data["citations"][0]["source_name"] == "bracket.md"
    assert "25 N·m" in data["text"]


async def test_a_failing_later_sentence_ends_the_answer_after_the_checked_ones(
    store: IndexStore, config: Config
) -> None:
    worker = await _with_fixed_worker(
        config, "The M8 bolts take 25 N·m [1]. They are made of Inconel [1]."
    )
    try:
        events = [
            e
            async for e in stream_answer(
                TORQUE_Q, store=store, config=config, namespaces=["shop"], worker=worker
            )
        ]
    finally:
        await worker.close()
    assert [e.text for e in events if e.kind == "sentence"] == ["The M8 bolts take 25 N·m."]
    answer = events[-1].answer
    assert answer is not None
    assert (answer.mode, answer.fallback_reason, answer.unsupported) == (
        "llm",
        "unsupported_claim",
        ("Inconel",),
    )
    assert answer.text == "The M8 bolts take 25 N·m [1]."


def test_names_are_claims() -> None:
    assert verify.names("The piston is made of PLA [1]. Ask the Gripper team.") == [
        "PLA",
        "Gripper",
    ]
    assert verify.supported(["PLA"], "Title: Stahl Adapterplatte") == ["PLA"]
    assert verify.supported(["Gripper"], "TITLE: Weird_Gripper_Cam_Adapter") == []


@pytest.mark.parametrize(
    ("picked", "mode", "text"),
    [
        # The model's pick "[n] line" becomes the sentence "line [n]." and passes the same check.
        ("[1] The M8 bolts take 25 N·m", "llm", "The M8 bolts take 25 N·m [1]."),
        # A pick whose number no source has is still refused (the grammar would not allow it, but the
        # check does not rely on the grammar).
        ("[1] The M8 bolts take 99 N·m", "extractive", ""),
        ("[9] The M8 bolts take 25 N·m", "extractive", ""),
    ],
)
async def test_extract_format_rewrites_the_pick_and_checks_it(
    store: IndexStore, config: Config, picked: str, mode: str, text: str
) -> None:
    extract = replace(config, answer=replace(config.answer, llm_format="extract"))
    worker = await _with_fixed_worker(extract, picked)
    try:
        answer = await answer_question(
            TORQUE_Q, store=store, config=extract, namespaces=["shop"], worker=worker
        )
    finally:
        await worker.close()
    assert answer.mode == mode
    if text:
        assert answer.text == text and answer.citations[0].source == "bracket.md"
    else:
        assert answer.fallback_reason in ("unsupported_claim", "bad_citation")
        assert "25 N·m" in answer.text


def test_unknown_answer_format_is_refused() -> None:
    with pytest.raises(Exception) as err:
        AnswerSettings(llm_format="poetry").validate()
    assert "answer.llm_format" in str(err.value)


@pytest.mark.parametrize(("must_agree", "mode"), [(True, "extractive"), (False, "llm")])
async def test_cited_number_of_another_line_must_agree_with_the_evidence(
    store: IndexStore, config: Config, must_agree: bool, mode: str
) -> None:
    # 7035 is in the cited note (the RAL colour), so the support check alone lets it through; the
    # extractive evidence for the torque question is the 25 N·m line, which does not contain it.
    strict = replace(config, answer=replace(config.answer, llm_must_agree=must_agree))
    worker = await _with_fixed_worker(strict, "The M8 bolts take 7035 N·m [1].")
    try:
        answer = await answer_question(
            TORQUE_Q, store=store, config=strict, namespaces=["shop"], worker=worker
        )
    finally:
        await worker.close()
    assert answer.mode == mode
    if must_agree:
        assert (answer.fallback_reason, answer.unsupported) == (
            "disagrees_with_evidence",
            ("7035",),
        )
        assert "25 N·m" in answer.text


# ------------------------------------------------------------------------------- the fast path
def _fast(config: Config, **changes: object) -> Config:
    return replace(config, answer=replace(config.answer, fast_path=True, **changes))


async def test_a_sure_extract_is_spoken_without_asking_the_model(
    store: IndexStore, config: Config
) -> None:
    fast = _fast(config)
    # The model would say something false; a sure extract must not wait for it, nor be replaced.
    worker = await _with_fixed_worker(fast, "The M8 bolts take 99 N·m [1].")
    try:
        events = [
            e
            async for e in stream_answer(
                TORQUE_Q, store=store, config=fast, namespaces=["shop"], worker=worker
            )
        ]
    finally:
        await worker.close()
    assert [e.kind for e in events] == ["sentence", "answer"]
    answer = events[-1].answer
    assert answer is not None
    assert answer.mode == "extractive" and answer.fallback_reason == ""
    assert answer.rejected_text == "" and "generate" not in answer.timings
    assert "25 N·m" in answer.spoken


async def test_the_model_path_acknowledges_before_the_checked_answer(
    store: IndexStore, config: Config
) -> None:
    # Nothing extracted is sure enough (threshold 1 and a line that matches part of the question),
    # so the model is asked: the acknowledgement comes first, then its checked sentence.
    fast = _fast(config, fast_path_min_score=1.0, llm_must_agree=False)
    question = "What is the bracket powder coated with, and what should be checked after welding?"
    worker = await _with_fixed_worker(fast, "The bracket is powder coated in RAL 7035 [1].")
    try:
        events = [
            e
            async for e in stream_answer(
                question, store=store, config=fast, namespaces=["shop"], worker=worker
            )
        ]
    finally:
        await worker.close()
    assert [e.kind for e in events] == ["ack", "sentence", "answer"]
    assert events[0].text == fast.answer.acknowledgement
    answer = events[-1].answer
    assert answer is not None and answer.mode == "llm"
    assert "RAL 7035" in answer.spoken


async def test_a_rejected_model_answer_falls_back_to_the_extract_found_before(
    store: IndexStore, config: Config
) -> None:
    fast = _fast(config, fast_path_min_score=1.0, llm_must_agree=False)
    question = "What is the bracket powder coated with, and what should be checked after welding?"
    worker = await _with_fixed_worker(fast, "The bracket is powder coated in RAL 9999 [1].")
    try:
        answer = await answer_question(
            question, store=store, config=fast, namespaces=["shop"], worker=worker
        )
    finally:
        await worker.close()
    assert answer.mode == "extractive"
    assert answer.fallback_reason == "unsupported_claim"
    assert "RAL 7035" in answer.spoken


async def test_a_model_with_nothing_checked_in_time_gives_way_to_the_extract(
    store: IndexStore, config: Config
) -> None:
    # A worker that never answers: the first-sentence deadline ends the wait, not answer.timeout_s
    # (600 s here), and the extract found before the model was asked is spoken.
    slow = _fast(
        config, fast_path_min_score=1.0, llm_must_agree=False, first_sentence_timeout_s=1.0
    )
    worker = AnswerWorker(
        slow.answer, models_dir=slow.paths.models_dir, command=fault_command("hang")
    )
    await worker.start()
    question = "What is the bracket powder coated with, and what should be checked after welding?"
    events = []
    state_when_spoken = None
    try:
        async for e in stream_answer(
            question, store=store, config=slow, namespaces=["shop"], worker=worker
        ):
            events.append(e)
            if e.kind == "sentence":
                state_when_spoken = worker.state
    finally:
        await worker.close()
    assert [e.kind for e in events] == ["ack", "sentence", "answer"]
    answer = events[-1].answer
    assert answer is not None and answer.mode == "extractive"
    assert answer.fallback_reason == "model_too_slow"
    assert "RAL 7035" in answer.spoken
    # The extract was spoken while the worker was still being told to stop (it never answers the
    # cancel and is killed after its grace time): stopping the model does not delay the answer.
    assert state_when_spoken is WorkerState.BUSY


@pytest.mark.parametrize(
    "pieces",
    [
        ["The set screws take 4 N·m.", " [", "1", "]."],
        ["The set screws take 4 N·m. [1", "]"],
        ["The set screws take 4 N·m [1].", " They are M5."],
    ],
)
def test_a_citation_arriving_after_the_full_stop_stays_with_its_sentence(
    pieces: list[str],
) -> None:
    buffer, sentences = "", []
    for piece in pieces:
        done, buffer = _split_sentences(buffer + piece)
        sentences += done
    sentences += [buffer.strip()] if buffer.strip() else []
    assert verify.citations(sentences[0]) == [1], sentences


def test_the_model_is_shown_the_best_sources_within_its_budget(store: IndexStore) -> None:
    from appliance.answer.context import build_sources, within_budget
    from appliance.index.search import search

    hits = search(store, "M8 bolts torque mounting bracket", ["shop", "global"])
    sources = build_sources(hits, budget_tokens=900, max_sources=5)
    shown = within_budget(sources, 100)
    assert shown and len(shown) <= len(sources)
    assert [s.number for s in shown] == [s.number for s in sources[: len(shown)]]
    assert sum(len(s.text) + 40 for s in shown) <= 100 * 2.5 + 40
    assert shown[0].text == sources[0].text[: len(shown[0].text)]
    assert within_budget(sources, 100_000) == sources


def test_a_quoted_line_is_spoken_before_its_source_and_a_long_one_keeps_its_source() -> None:
    """The listener hears the answer first: a line's spoken form is the line, then its source.
    The text form names the source first, as a citation does."""
    from appliance.answer.answering import extractive_answer
    from appliance.answer.extractive import Extract
    from tests.answer.sources import drawing_source

    src = drawing_source(1, "ALL EDGES BROKEN 0.5 x 45°", drawing="A-1024", revision="C")

    def quoting(line: str, max_chars: int):  # type: ignore[no-untyped-def]
        found = Extract(source_number=1, quote=line, field="", score=0.9)
        return extractive_answer(
            "What does the drawing say?",
            [src],
            searched=["shop"],
            others=[],
            truncated=False,
            timings={},
            spoken_max_chars=max_chars,
            found=found,
        )

    answer = quoting("ALL EDGES BROKEN 0.5 x 45°.", 240)
    assert (
        answer.spoken == "ALL EDGES BROKEN 0.5 x 45°. Source: drawing A-1024, revision C, page 1."
    )
    assert answer.text.startswith("drawing A-1024, revision C, page 1 says:")
    answer = quoting("NOTE " + " ".join(f"word{i}" for i in range(60)), 120)
    assert answer.spoken.startswith("NOTE word0 word1")
    assert answer.spoken.endswith("… Source: drawing A-1024, revision C, page 1.")
    assert len(answer.spoken) <= 120


def test_a_model_that_must_agree_is_shown_only_the_extracts_source(store: IndexStore) -> None:
    from appliance.answer.answering import sources_for_model
    from appliance.answer.context import build_sources
    from appliance.answer.extractive import Extract
    from appliance.answer.settings import AnswerSettings
    from appliance.index.search import search

    hits = search(store, "M8 bolts torque mounting bracket", ["shop", "global"])
    sources = build_sources(hits, budget_tokens=900, max_sources=5)
    assert len(sources) >= 2
    settings = AnswerSettings(prompt_budget_tokens=900)
    second = sources[1]
    found = Extract(source_number=second.number, quote="25 N·m", field="", score=0.4)
    shown = sources_for_model(sources, found, settings)
    # Its number is kept, so the model's citation "[n]" still names the right source.
    assert [s.number for s in shown] == [second.number]
    assert shown[0].text == second.text
    # Free to say what any source holds, the model is shown them all within the budget.
    assert [s.number for s in sources_for_model(sources, None, settings)] == [
        s.number for s in sources
    ]
