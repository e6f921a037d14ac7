"""Questions that name a drawing's note by its number: "what does note 2 say", "the third note".

A drawing numbers its notes ("1. Tolerance ...", "2) DEBURR", "3 Kanten gebrochen"); a person at the
bench reads the number off the sheet and asks for it. The answer is that note of the drawing the
question is about, quoted whole; a number the drawing's notes do not reach is not answered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from appliance.answer import extractive, subjects
from appliance.answer.context import Source

_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
    "6th": 6,
}
#: "note 2", "note no. 2", "note #2", "the third note", "the 2nd note", "the last note".
_ASKED = re.compile(
    r"\bnote\s*(?:no\.?\s*|number\s*|#\s*)?(?P<n>\d{1,2})\b"
    r"|\b(?P<ord>" + "|".join(_ORDINALS) + r"|last)\s+(?:general\s+)?note\b",
    re.I,
)
#: A numbered note line: its number, then the note (a notes header glued before it is allowed:
#: "Anmerkungen 1. Freimaßtoleranzen ...").
_NUMBERED = re.compile(r"^(?:[^\W\d_]+:?\s+)?(?P<n>\d{1,2})\s?[.)]\s+(?P<text>\S.*)$")


#: A note line whose number lost its punctuation: the number, then words (not a dimension).
_BARE_NUMBERED = re.compile(r"^(?P<n>\d{1,2})\s+(?P<text>[^\W\d_]{3,}\s.{6,})$")


def asked_note(question: str) -> tuple[int, str] | None:
    """(note number, 0 for the last one; the words naming it) or None when no note is named."""
    match = _ASKED.search(question)
    if match is None:
        return None
    if match["n"]:
        return int(match["n"]), match[0]
    word = match["ord"].lower()
    return (0 if word == "last" else _ORDINALS[word]), match[0]


def numbered_note_extract(question: str, sources: Sequence[Source]) -> extractive.Extract | None:
    """The note the question names by its number, from the drawing the question is about."""
    asked = asked_note(question)
    if asked is None:
        return None
    number, words = asked
    subject = subjects.subject_sources(question.replace(words, " "), "", sources)[:1]
    files = {(s.source, s.page) for s in subject}
    notes: dict[int, tuple[Source, str]] = {}
    bare: dict[int, tuple[Source, str]] = {}
    for src in sources:
        if (src.source, src.page) not in files:
            continue
        for line in src.text.splitlines():
            match = _NUMBERED.match(line.strip())
            if match:
                notes.setdefault(int(match["n"]), (src, f"{match['n']}. {match['text']}"))
            elif loose := _BARE_NUMBERED.match(line.strip()):
                bare.setdefault(int(loose["n"]), (src, f"{loose['n']}. {loose['text']}"))
    if number and number not in notes and number in bare:
        # The ")" or "." after a note's number was not read ("5 Sicherungsringe ..."): a line of
        # words after a bare number is that note when its neighbours in the list are there too.
        near = {number - 2, number - 1, number + 1, number + 2}
        if len(near & (set(notes) | set(bare))) >= 2:
            notes[number] = bare[number]
    if not notes:
        return None
    found = notes.get(max(notes) if number == 0 else number)
    if found is None:
        return None
    src, quote = found
    return extractive.Extract(src.number, quote, "", 1.0)
