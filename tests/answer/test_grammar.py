"""Grammar-constrained answers: the grammars themselves, the ``grammar`` request field on the pipe
(malformed, oversized, unparsable), and real constrained generation in the locked worker."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from appliance.answer import grammar, protocol
from appliance.answer.errors import WorkerRequestError
from appliance.answer.protocol import ProtocolViolation
from appliance.answer.settings import AnswerSettings
from appliance.answer.worker import AnswerWorker, WorkerState
from tests.answer.sources import drawing_source
from tests.answer.test_worker import HELLO, _raw_worker, _read, _write

SOURCES = [
    drawing_source(1, 'MATERIAL: steel S235\nSCALE 1:2\nsays "hi" \\ back', drawing="A-1024"),
    drawing_source(2, "Bore Ø21.5 H7\nGENERAL TOLERANCE ISO 2768-m"),
]
CITED = re.compile(r"^[^\[\]\n]+ \[[12]\](\[[12]\])*\.?$")


def _generate(request_id: int, **extra: object) -> dict[str, object]:
    return {
        "type": "generate",
        "id": request_id,
        "messages": HELLO,
        "max_tokens": 4,
        "temperature": 0,
        **extra,
    }


# ---------------------------------------------------------------------------- the grammars
def test_literal_escapes_quotes_backslashes_and_control_characters() -> None:
    assert grammar.literal('a "b" \\ c\nd\x01') == '"a \\"b\\" \\\\ c\\nd\\x01"'
    assert grammar.literal("Ø21.5") == '"Ø21.5"'


def test_citation_grammar_offers_only_the_request_source_numbers() -> None:
    text = grammar.citation_grammar([3, 1, 3])
    assert 'src ::= "1" | "3"' in text
    assert "root ::=" in text and '" ["' in text
    with pytest.raises(ValueError):
        grammar.citation_grammar([])


def test_extraction_grammar_offers_source_lines_verbatim_and_respects_its_size() -> None:
    text = grammar.extraction_grammar(SOURCES)
    assert '"[1] "' in text and '"[2] "' in text
    assert '"MATERIAL: steel S235"' in text and '"Bore Ø21.5 H7"' in text
    assert (
        '"drawing A-1024, page 1"' in text
    )  # the label: drawing-number questions are answered too
    small = grammar.extraction_grammar(SOURCES, max_chars=200)
    assert '"[1] "' in small and '"[2] "' not in small  # the second source did not fit
    with pytest.raises(ValueError):
        grammar.extraction_grammar([drawing_source(1, "")], max_chars=10)


def test_protocol_validates_the_grammar_field() -> None:
    assert protocol.check_generate(_generate(1))["grammar"] is None
    assert (
        protocol.check_generate(_generate(1, grammar='root ::= "a"'))["grammar"] == 'root ::= "a"'
    )
    cases = [
        ("x" * (protocol.MAX_GRAMMAR_CHARS + 1), "grammar_too_large"),
        (42, "bad_grammar"),
        ("   ", "bad_grammar"),
        ('root ::= "a\x00b"', "bad_grammar"),
    ]
    for value, code in cases:
        with pytest.raises(ProtocolViolation) as err:
            protocol.check_generate(_generate(1, grammar=value))
        assert err.value.code == code


# ---------------------------------------------------------------- in the real locked worker
@pytest.mark.slow
def test_worker_refuses_bad_grammars_with_codes_and_survives(models_dir: Path) -> None:
    proc = _raw_worker(models_dir)
    try:
        cases = [
            (
                _generate(1, grammar="x" * (protocol.MAX_GRAMMAR_CHARS + 1)),
                "protocol_grammar_too_large",
            ),
            (_generate(2, grammar=["root"]), "protocol_bad_grammar"),
            # Parsed by llama.cpp inside the locked worker: a syntax error, a missing root rule, and
            # a rule used but never defined.
            (_generate(3, grammar="root ::= ("), "grammar_invalid"),
            (_generate(4, grammar='answer ::= "x"'), "grammar_invalid"),
            (_generate(5, grammar="root ::= undefined-rule"), "grammar_invalid"),
        ]
        for message, code in cases:
            _write(proc, protocol.encode(message))
            reply = _read(proc)
            assert (reply["type"], reply["id"], reply["code"]) == ("error", message["id"], code)
        # Alive, still locked down, and a valid grammar is obeyed.
        _write(proc, protocol.encode(_generate(9, grammar='root ::= "[" ("1" | "2") "]"')))
        text = ""
        while (reply := _read(proc))["type"] == "token":
            text += reply["text"]
        assert reply["type"] == "done" and text in ("[1]", "[2]")
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.slow
async def test_constrained_answers_cite_and_copy(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    question = (
        "Sources:\n[1] MATERIAL: steel S235\n[2] Bore Ø21.5 H7\nQuestion: What is the material?"
    )
    messages = [{"role": "user", "content": question}]
    async with AnswerWorker(answer_settings, models_dir=models_dir) as worker:
        cited = "".join(
            [
                p
                async for p in worker.generate(
                    messages, max_tokens=60, grammar=grammar.citation_grammar([1, 2])
                )
            ]
        )
        assert CITED.match(cited.strip()), cited
        picked = "".join(
            [
                p
                async for p in worker.generate(
                    messages, max_tokens=40, grammar=grammar.extraction_grammar(SOURCES)
                )
            ]
        )
        number, line = picked.split("] ", 1)
        assert line in grammar.candidate_lines(SOURCES[int(number.lstrip("[")) - 1])
        with pytest.raises(WorkerRequestError) as err:
            [p async for p in worker.generate(messages, max_tokens=4, grammar="root ::= (")]
        assert err.value.code == "grammar_invalid"
        assert worker.state is WorkerState.READY
