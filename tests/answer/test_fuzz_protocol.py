"""Fuzzing the answer worker's frame protocol: the codec on both ends, and the real worker process.

Whatever a frame holds, the codec answers with a message or a ``ProtocolViolation`` (never another
exception), and the real worker, with its model loaded and locked down, answers every well-framed
message with an ``error`` frame carrying a code, or with tokens and ``done`` - and keeps serving.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from appliance.answer import protocol
from tests.answer.test_worker import _raw_worker, _read, _write
from tests.fuzzing import any_text, deep_nesting, json_bytes, json_values, long, quick

GENERATE_KEYS = ["type", "id", "messages", "max_tokens", "temperature", "stop", "grammar"]


def _turns() -> st.SearchStrategy[Any]:
    turn = st.fixed_dictionaries(
        {"role": st.sampled_from(["system", "user", "assistant", "root"]), "content": any_text}
    )
    return st.one_of(st.lists(turn, min_size=1, max_size=3), json_values(["role", "content"]))


def _hostile_value() -> st.SearchStrategy[Any]:
    return st.one_of(
        json_values(["role", "content"]),
        _turns(),
        st.lists(any_text, max_size=10),
        st.text(min_size=1, max_size=50).map(lambda t: t * 400),  # over the grammar limit
        st.integers(min_value=10**300, max_value=10**4000),
    )


def generate_requests() -> st.SearchStrategy[dict[str, Any]]:
    """``generate`` messages: a valid request with up to two fields replaced by hostile values."""
    valid = st.fixed_dictionaries(
        {
            "type": st.just("generate"),
            "id": st.integers(min_value=-(2**63), max_value=2**63),
            "messages": st.lists(
                st.fixed_dictionaries(
                    {"role": st.sampled_from(["system", "user"]), "content": any_text}
                ),
                min_size=1,
                max_size=2,
            ),
            "max_tokens": st.integers(1, 3),  # a real generation per valid example: kept short
            "temperature": st.floats(0, 2),
        },
        optional={
            "stop": st.lists(st.text(min_size=1, max_size=5), max_size=3),
            "grammar": st.sampled_from(['root ::= "yes" | "no"', "root ::= [0-9]+"]),
        },
    )
    fields = [k for k in GENERATE_KEYS if k != "type"]
    return st.builds(
        lambda base, keys, values: {**base, **dict(zip(keys, values, strict=False))},
        valid,
        st.lists(st.sampled_from(fields), max_size=2, unique=True),
        st.lists(_hostile_value(), min_size=2, max_size=2),
    )


def messages() -> st.SearchStrategy[dict[str, Any]]:
    """Any message a parent could send but ``start`` and ``shutdown`` (which end the session)."""
    other = st.dictionaries(
        st.one_of(st.sampled_from(GENERATE_KEYS), any_text),
        json_values(GENERATE_KEYS),
        max_size=5,
    ).map(lambda d: {**d, "type": d.get("type", "cancel")})
    return st.one_of(generate_requests(), other).filter(
        lambda m: m.get("type") not in ("start", "shutdown")
    )


def payloads() -> st.SearchStrategy[bytes]:
    """Frame payloads: random bytes, nesting too deep to parse, JSON of any shape and encoding."""
    return st.one_of(
        st.binary(min_size=1, max_size=300),
        deep_nesting(),
        st.builds(json_bytes, json_values(GENERATE_KEYS), st.booleans()),
        st.builds(json_bytes, messages(), st.booleans()),
    )


def check_payload(payload: bytes) -> None:
    for types in (protocol.PARENT_TYPES, protocol.WORKER_TYPES):
        try:
            message = protocol.decode(payload, types)
        except protocol.ProtocolViolation as err:
            assert err.code in {"bad_json", "bad_message", "unknown_type"}
            continue
        assert message["type"] in types
        if message["type"] == "generate":
            check_message(message)


def check_message(message: dict[str, Any]) -> None:
    try:
        request = protocol.check_generate(message)
    except protocol.ProtocolViolation as err:
        assert err.code in {"bad_field", "bad_grammar", "grammar_too_large"}
        return
    assert 1 <= request["max_tokens"] <= 4096 and 0.0 <= request["temperature"] <= 2.0
    # Whatever passed can be framed again (the worker echoes ids and text back).
    frame = protocol.encode({"type": "token", "id": request["id"], "text": "x"})
    length = protocol.frame_length(frame[: protocol.HEADER_BYTES])
    assert length == len(frame) - protocol.HEADER_BYTES


@quick(300)
@given(payloads())
def test_the_codec_refuses_any_payload_with_a_code(payload: bytes) -> None:
    check_payload(payload)


@pytest.mark.fuzz
@long()
@given(payloads())
def test_fuzz_the_codec(payload: bytes) -> None:
    check_payload(payload)


@quick(200)
@given(messages())
def test_the_codec_frames_any_message_or_refuses_it(message: dict[str, Any]) -> None:
    try:
        frame = protocol.encode(message)
    except protocol.ProtocolViolation as err:
        assert err.code == "frame_too_large"
        return
    try:
        decoded = protocol.decode(frame[protocol.HEADER_BYTES :], protocol.PARENT_TYPES)
    except protocol.ProtocolViolation as err:
        assert err.code == "unknown_type" and message["type"] not in list(protocol.PARENT_TYPES)
        return
    assert decoded.keys() == message.keys()
    if message.get("type") == "generate":
        check_message(decoded)


# -- the real worker ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def worker() -> Iterator[subprocess.Popen[bytes]]:
    """One real worker (the development model, sandboxed and locked down) for all examples."""
    with tempfile.TemporaryDirectory() as models_dir:
        proc = _raw_worker(Path(models_dir))
        try:
            yield proc
        finally:
            proc.kill()
            proc.wait()


def frames() -> st.SearchStrategy[bytes]:
    """Well-framed payloads (framing errors end the worker by design; they are tested apart)."""
    framed = st.builds(protocol.encode, messages())
    raw = payloads().filter(lambda p: len(p) <= protocol.MAX_FRAME_BYTES)
    return st.one_of(
        framed.filter(lambda f: len(f) <= protocol.MAX_FRAME_BYTES),
        raw.filter(_keeps_the_session).map(lambda p: len(p).to_bytes(4, "big") + p),
    )


def _keeps_the_session(payload: bytes) -> bool:
    try:
        return protocol.decode(payload, protocol.PARENT_TYPES)["type"] not in ("start", "shutdown")
    except (protocol.ProtocolViolation, ValueError, RecursionError):
        return True


def expected_reply(frame: bytes) -> str:
    """What the worker owes a frame, by the codec: ``stream`` (tokens, then done or error),
    ``error`` (one error frame) or ``none`` (a cancel between requests is ignored)."""
    try:
        message = protocol.decode(frame[protocol.HEADER_BYTES :], protocol.PARENT_TYPES)
    except protocol.ProtocolViolation:
        return "error"
    if message["type"] == "cancel":
        return "none"
    if message["type"] != "generate":
        return "error"
    try:
        protocol.check_generate(message)
    except protocol.ProtocolViolation:
        return "error"
    return "stream"


def exchange(
    proc: subprocess.Popen[bytes], frame: bytes, serial: list[int]
) -> list[dict[str, Any]]:
    """Send a frame and read what it is owed; a marker after it shows nothing else came."""
    expected = expected_reply(frame)
    _write(proc, frame)
    replies: list[dict[str, Any]] = []
    while expected != "none" and not (replies and replies[-1]["type"] in ("done", "error")):
        assert proc.poll() is None, f"the worker died: {frame[:200]!r}"
        replies.append(_read(proc))
    serial[0] += 1
    marker = f"marker-{serial[0]}"
    _write(proc, protocol.encode({"type": marker}))
    after = _read(proc)
    assert after["code"] == "protocol_unknown_type" and f"'{marker}'" in after["message"], (
        after,
        frame[:200],
    )
    if expected == "error":
        assert len(replies) == 1 and replies[0]["type"] == "error", (replies, frame[:200])
    return replies


def check_replies(replies: list[dict[str, Any]], frame: bytes) -> None:
    """Tokens, then ``done`` or a coded ``error``; an error names its request or none."""
    for reply in replies:
        assert reply["type"] in {"error", "token", "done"}, (reply, frame[:200])
        if reply["type"] == "error":
            assert reply["code"] and reply["message"], (reply, frame[:200])
            assert reply["id"] is None or isinstance(reply["id"], int), reply


_serial = [0]


@quick(120)
@given(frames())
def test_the_worker_answers_any_frame_and_keeps_serving(
    worker: subprocess.Popen[bytes], frame: bytes
) -> None:
    check_replies(exchange(worker, frame, _serial), frame)


@pytest.mark.fuzz
@long(0.5)
@given(frames())
def test_fuzz_the_worker(worker: subprocess.Popen[bytes], frame: bytes) -> None:
    check_replies(exchange(worker, frame, _serial), frame)


def test_the_worker_still_answers_after_the_fuzz(worker: subprocess.Popen[bytes]) -> None:
    request = {
        "type": "generate",
        "id": 77,
        "messages": [{"role": "user", "content": "Say hello."}],
        "max_tokens": 3,
        "temperature": 0.0,
    }
    replies = exchange(worker, protocol.encode(request), _serial)
    assert replies[-1]["type"] == "done" and replies[-1]["id"] == 77
    assert json.dumps(replies)  # all of it plain JSON
