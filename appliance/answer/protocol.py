"""The pipe protocol between the appliance and its answer worker.

Every message is one frame: a 4-byte big-endian length, then that many bytes of UTF-8 JSON holding one
object with a ``type``. Length prefixes (rather than lines) mean a token containing a newline, or a
question of 100k characters, needs no escaping rules, and a reader always knows how much to expect
before it allocates: a length above :data:`MAX_FRAME_BYTES` is refused before anything is read.

Parent to worker:
  ``start``     model name, models dir, manifest path, context size, threads, limits (first message)
  ``generate``  ``id``, ``messages`` (chat turns), ``max_tokens``, ``temperature``, ``stop``, and an
                optional ``grammar`` (llama.cpp GBNF text the answer must match; compiled by the worker)
  ``cancel``    ``id`` of the running request (the worker stops after the current token)
  ``shutdown``  exit cleanly
Worker to parent:
  ``ready``     the model is verified, loaded, warmed up and the worker is locked down
  ``token``     ``id``, ``text``: one streamed piece of the answer
  ``done``      ``id``, ``tokens``, ``prompt_tokens``, ``finish`` (``stop``, ``length`` or ``cancelled``)
  ``error``     ``id`` (or null), ``code``, ``message``: one request failed, the worker lives on
  ``fatal``     ``code``, ``message``: the worker cannot serve (model missing, corrupt) and exits
"""

from __future__ import annotations

import json
import struct
from typing import Any

#: Largest frame either side accepts (a 100k-character question plus its context fits easily).
MAX_FRAME_BYTES = 4 * 1024 * 1024
_HEADER = struct.Struct(">I")
HEADER_BYTES = _HEADER.size

#: Message types the parent may send.
PARENT_TYPES = frozenset({"start", "generate", "cancel", "shutdown"})
#: Message types the worker may send.
WORKER_TYPES = frozenset({"ready", "token", "done", "error", "fatal"})
#: Longest grammar text a request may carry. The grammars the appliance builds are a few hundred
#: characters; the limit keeps a malformed request from making the worker's parser chew on megabytes.
MAX_GRAMMAR_CHARS = 16_384
#: Roles a chat turn may have.
CHAT_ROLES = frozenset({"system", "user", "assistant"})


class ProtocolViolation(ValueError):
    """A frame or message breaks the protocol; ``code`` says how."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def encode(message: dict[str, Any]) -> bytes:
    """One frame holding ``message``."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        payload = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (from a hostile frame): escaped, still valid JSON
        payload = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    if len(payload) > MAX_FRAME_BYTES:
        raise ProtocolViolation("frame_too_large", f"message of {len(payload)} bytes is too large")
    return _HEADER.pack(len(payload)) + payload


def frame_length(header: bytes) -> int:
    """The payload length announced by a header, refusing impossible ones."""
    if len(header) != HEADER_BYTES:
        raise ProtocolViolation("truncated_frame", "the pipe closed inside a frame header")
    (length,) = _HEADER.unpack(header)
    if length == 0 or length > MAX_FRAME_BYTES:
        raise ProtocolViolation("bad_frame_length", f"frame length {length} is out of range")
    return int(length)


def decode(payload: bytes, allowed_types: frozenset[str]) -> dict[str, Any]:
    """The message in a frame's payload, checked to be a JSON object of an allowed type."""
    try:
        message = json.loads(payload.decode("utf-8"))
    # ValueError: also an integer too long to convert; RecursionError: arrays nested thousands deep.
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise ProtocolViolation(
            "bad_json", f"frame is not UTF-8 JSON ({err.__class__.__name__})"
        ) from None
    if not isinstance(message, dict):
        raise ProtocolViolation("bad_message", "a message must be a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in allowed_types:  # a list or object is unhashable
        raise ProtocolViolation("unknown_type", f"unknown message type {str(kind)[:40]!r}")
    return message


def reply_id(message: dict[str, Any]) -> int | None:
    """The ``id`` to put in an answer to ``message``: its own when it is an integer, else null."""
    value = message.get("id")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _require(message: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = message.get(key)
    # bool is an int subclass; a limit given as true/false is a mistake, not a number.
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int, float))):
        raise ProtocolViolation("bad_field", f"field {key!r} is missing or has the wrong type")
    return value


def check_generate(message: dict[str, Any]) -> dict[str, Any]:
    """The fields of a ``generate`` request, validated; raises ProtocolViolation otherwise."""
    request_id = _require(message, "id", int)
    messages = _require(message, "messages", list)
    if not messages:
        raise ProtocolViolation("bad_field", "field 'messages' is empty")
    for turn in messages:
        if (
            not isinstance(turn, dict)
            or turn.get("role") not in CHAT_ROLES
            or not isinstance(turn.get("content"), str)
        ):
            raise ProtocolViolation("bad_field", "each message needs a role and a string content")
    max_tokens = _require(message, "max_tokens", int)
    if not 1 <= max_tokens <= 4096:
        raise ProtocolViolation("bad_field", "field 'max_tokens' must be between 1 and 4096")
    try:
        temperature = float(_require(message, "temperature", (int, float)))
    except OverflowError:  # an integer of hundreds of digits
        temperature = float("inf")
    if not 0.0 <= temperature <= 2.0:  # NaN fails this too
        raise ProtocolViolation("bad_field", "field 'temperature' must be between 0 and 2")
    stop = message.get("stop", [])
    if (
        not isinstance(stop, list)
        or not all(isinstance(s, str) and s for s in stop)
        or len(stop) > 8
    ):
        raise ProtocolViolation("bad_field", "field 'stop' must be a list of up to 8 strings")
    grammar = message.get("grammar")
    if grammar is not None:
        if not isinstance(grammar, str) or not grammar.strip():
            raise ProtocolViolation("bad_grammar", "field 'grammar' must be non-empty GBNF text")
        if len(grammar) > MAX_GRAMMAR_CHARS:
            raise ProtocolViolation(
                "grammar_too_large",
                f"grammar of {len(grammar)} characters exceeds {MAX_GRAMMAR_CHARS}",
            )
        if "\x00" in grammar:
            # llama.cpp reads the grammar as a C string: a NUL would silently cut it.
            raise ProtocolViolation("bad_grammar", "field 'grammar' contains a NUL character")
    return {
        "id": request_id,
        "messages": [{"role": t["role"], "content": t["content"]} for t in messages],
        "max_tokens": max_tokens,
        "temperature": temperature,
        "stop": stop,
        "grammar": grammar,
    }
