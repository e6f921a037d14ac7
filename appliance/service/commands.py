"""Spoken commands recognised in a transcript before it is treated as a question."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass


class CommandKind(enum.StrEnum):
    """What a transcript asks the appliance to do."""

    QUESTION = "question"
    SCAN = "scan"
    REMEMBER = "remember"
    WHICH_ROOM = "which-room"
    SWITCH_ROOM = "switch-room"
    REPEAT = "repeat"
    STOP = "stop"


@dataclass(frozen=True)
class Command:
    """A parsed transcript."""

    #: The command.
    kind: CommandKind
    #: Its argument: the note to remember, the room to switch to, or the question.
    argument: str = ""


_PATTERNS: tuple[tuple[CommandKind, re.Pattern[str]], ...] = (
    (
        CommandKind.SCAN,
        re.compile(r"^(please )?(scan|capture) (this|that|it)( drawing| page)?\W*$"),
    ),
    (CommandKind.REMEMBER, re.compile(r"^(please )?remember (that )?(?P<arg>.+)$")),
    (CommandKind.WHICH_ROOM, re.compile(r"^(which|what) room( am i in| is this| are we in)?\W*$")),
    (CommandKind.SWITCH_ROOM, re.compile(r"^(switch|change|go) (to|into) (the )?(?P<arg>.+?)\W*$")),
    (CommandKind.REPEAT, re.compile(r"^(repeat|say (that|it) again)( that| please)?\W*$")),
    (CommandKind.STOP, re.compile(r"^(stop|quiet|be quiet|cancel)( it| that| please)?\W*$")),
)


def parse_command(transcript: str) -> Command:
    """Recognise a command; anything else is a question."""
    text = " ".join(transcript.strip().split())
    lowered = text.lower().strip(" ,.")
    for kind, pattern in _PATTERNS:
        match = pattern.match(lowered)
        if match:
            arg = match.groupdict().get("arg") or ""
            if kind == CommandKind.REMEMBER:
                # Keep the person's own casing and units in the note.
                start = match.start("arg")
                offset = len(text) - len(text.lstrip(" ,."))
                arg = text[offset + start :].rstrip(" ")
            return Command(kind, arg.strip())
    return Command(CommandKind.QUESTION, text)
