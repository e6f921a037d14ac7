"""Spoken commands recognised from a transcript: pure text in, a :class:`Command` out.

Anything that is not one of the fixed commands is a question for the knowledge index. Matching is on
normalised words at the start of the utterance (after the wake phrase has been removed), so "stop" in
"what stops the spindle" stays a question.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass


class CommandKind(enum.StrEnum):
    """What the user asked for."""

    QUESTION = "question"
    SCAN = "scan"
    REMEMBER = "remember"
    WHICH_ROOM = "which-room"
    SWITCH_ROOM = "switch-room"
    REPEAT = "repeat"
    STOP = "stop"
    EMPTY = "empty"


@dataclass(frozen=True)
class Command:
    """A parsed utterance."""

    #: The kind of command.
    kind: CommandKind
    #: The argument: the question, the note to remember, the room to switch to ("" when none).
    argument: str = ""
    #: The transcript it was parsed from.
    transcript: str = ""


_FILLERS = {"um", "uh", "er", "erm", "please", "okay", "ok", "hey", "so", "now"}
_SCAN = [
    ("scan", "this"),
    ("scan", "that"),
    ("scan", "it"),
    ("scan",),
    ("capture", "this"),
    ("take", "a", "picture"),
]
# "with room": how whisper tiny.en hears "which room" from synthetic voices; no question starts so.
_WHICH_ROOM = [("which", "room"), ("what", "room"), ("where", "am", "i"), ("with", "room")]
# The words that may follow "which room" in the command ("which room am I in now", "what room is
# this"); any other word makes it a question about rooms ("which room has the lathe").
_WHICH_ROOM_TAIL = {"am", "i", "in", "is", "this", "are", "we", "now", "it", "that", "currently"}
_REPEAT = [("repeat",), ("say", "that", "again"), ("say", "it", "again"), ("again",)]
_STOP = [("stop",), ("cancel",), ("be", "quiet"), ("quiet",), ("shut", "up"), ("never", "mind")]
_SWITCH = [
    ("switch", "to"),
    ("go", "to"),
    ("change", "to"),
    ("switch", "room", "to"),
]
_REMEMBER = [("remember", "that"), ("remember",), ("note", "that"), ("make", "a", "note", "that")]
_TOKEN = re.compile(r"[a-z0-9']+")


def _words(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _starts(words: list[str], patterns: list[tuple[str, ...]]) -> int:
    """Length of the longest pattern ``words`` starts with, 0 if none."""
    best = 0
    for pattern in patterns:
        if tuple(words[: len(pattern)]) == pattern:
            best = max(best, len(pattern))
    return best


def _rest_of(text: str, skip_words: int) -> str:
    """The original text after its first ``skip_words`` words (keeps "A-1024", case and digits)."""
    matches = list(_TOKEN.finditer(text.lower()))
    if skip_words >= len(matches):
        return ""
    return text[matches[skip_words].start() :].strip(" \t,.;:!?")


def parse_command(transcript: str) -> Command:
    """Classify one utterance (the wake phrase already removed)."""
    words = _words(transcript)
    lead = 0
    while lead < len(words) and words[lead] in _FILLERS:
        lead += 1
    body = words[lead:]
    text = transcript.strip()
    if not body:
        return Command(CommandKind.EMPTY, "", text)
    only = len(body)
    n = _starts(body, _STOP)
    if n and only <= n + 1:
        return Command(CommandKind.STOP, "", text)
    n = _starts(body, _REPEAT)
    if n and only <= n + 1:
        return Command(CommandKind.REPEAT, "", text)
    n = _starts(body, _SCAN)
    if n and only <= n + 2:
        return Command(CommandKind.SCAN, "", text)
    n = _starts(body, _WHICH_ROOM)
    if n and all(word in _WHICH_ROOM_TAIL for word in body[n:]):
        return Command(CommandKind.WHICH_ROOM, "", text)
    n = _starts(body, _REMEMBER)
    if n and only > n:
        return Command(CommandKind.REMEMBER, _rest_of(transcript, lead + n), text)
    n = _starts(body, _SWITCH)
    if n and only > n:
        room = _rest_of(transcript, lead + n)
        room = re.sub(r"^(the)\s+", "", room, flags=re.IGNORECASE)
        room = re.sub(r"\s+(room)$", "", room, flags=re.IGNORECASE)
        return Command(CommandKind.SWITCH_ROOM, room, text)
    return Command(CommandKind.QUESTION, _rest_of(transcript, lead), text)
