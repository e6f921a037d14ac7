"""A question as written by a person or a recogniser, read back into the words the drawings use.

Two kinds of difference, both met in transcripts of spoken drawing questions:

- **Spacing** (any question): a size written against its unit ("25mm") or a revision against its
  letter ("RevB") is the same size or revision as "25 mm" and "rev B"; the answer rules look for
  the spaced form.
- **Words a recogniser hears for drawing words** (transcripts only): "whole", "hold" or "hall"
  before a hole's designation or "table" is "hole" ("the whole table", "Hold D1"), and the
  designation after it is written as a table writes it ("hole B-1" is hole B1); "exposition" is
  "X position"; "way" ending a "how much does … weigh" question is "weigh"; "Hoodrew" is
  "Who drew"; a hole said in words is its designation ("whole see one" is hole C1); "revision of
  drawing" with nothing before "revision" lost its letter A as if it were the article; "rep B" is
  rev B; "counterboard" is counterbore; "intolerance(d)" or "intolerant" before dimensions or
  sizes is "untoleranced". A typed question means what it says, so these are read only in what
  the recogniser wrote.
"""

from __future__ import annotations

import re

#: A number written against its unit: "25mm", "0.5mm", "3,8kg", "25Nm".
_GLUED_UNIT = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)(mm|cm|kg|g|Nm|N|µm|um)\b")
#: A revision written against its letter or number: "RevB", "rev.C", "Rev2".
_GLUED_REVISION = re.compile(r"\b([Rr]ev)\.?(?=[A-Z0-9]\b)")
#: "hole" heard as a word that sounds like it, before a designation ("D1", "B-1", "H5") or "table".
_HOLE = re.compile(
    r"\b(?i:whole|hold|hall|hole)[\s-]+(?:([A-Z]{1,2})-?(\d{1,2})\b|(?=(?i:tables?)\b))"
)
#: Letters whose spoken names a recogniser writes as words ("hole see one" for hole C1).
_LETTER_NAMES = {
    "see": "C",
    "sea": "C",
    "bee": "B",
    "dee": "D",
    "gee": "G",
    "jay": "J",
    "kay": "K",
    "pee": "P",
    "tee": "T",
    "tea": "T",
    "vee": "V",
    "ex": "X",
}
#: Numbers a hole's designation may be said with, as a recogniser writes them.
_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
#: A hole's designation said in words: "whole see one", "hole C one", "hole one".
_SPOKEN_HOLE = re.compile(
    r"\b(?i:whole|hold|hall|hole)[\s-]+"
    rf"(?:((?i:{'|'.join(_LETTER_NAMES)})|[A-Z])[\s-]+)?"
    rf"((?i:{'|'.join(_NUMBER_WORDS)}))\b"
)
#: A revision's letter lost as if it were the article: "when was revision of drawing …" (no
#: article or other word before "revision") is revision A.
_REVISION_A = re.compile(
    r"(?i:^(when|who|what)\s+(?:was|is|made|approved|drew)\s+)revision(?=\s+of\b)"
)
#: "rev" heard as "rep" before a revision's letter.
_REP = re.compile(r"\b[Rr]ep\.?(?=\s+[A-Z]\b)")
#: "counterbore" written as the commoner word it sounds like.
_COUNTERBORE = re.compile(r"\bcounter[\s-]?boards?\b", re.I)
#: "X position" heard as one word.
_X_POSITION = re.compile(r"\bexposition\b", re.I)
#: "weigh" heard as "way" at the end of a "how much does … weigh" question.
_WEIGH = re.compile(
    r"^(\s*how\s+much\s+(?:does|do|did|would|will)\b.*\s)(?<!\bby the )way(?=\W*$)", re.I
)
#: "Who drew" heard run together.
_WHO_DREW = re.compile(r"\bhoo[\s-]?drew\b", re.I)
#: "untoleranced" heard as a commoner word, before what it qualifies.
_UNTOLERANCED = re.compile(
    r"\bintoleran(?:ce|ced|t)(?=\s+(?:dimensions?|sizes?|lengths?|features?)\b)", re.I
)


def spaced(question: str) -> str:
    """Sizes and revisions spaced as the drawings write them: "25mm" -> "25 mm", "RevB" -> "Rev B"."""
    question = _GLUED_UNIT.sub(r"\1 \2", question)
    return _GLUED_REVISION.sub(r"\1 ", question)


def _hole(m: re.Match[str]) -> str:
    # A hole's designation as its table writes it: "B-1" heard for B1.
    return f"hole {m.group(1)}{m.group(2)}" if m.group(1) else "hole "


def _spoken_hole(m: re.Match[str]) -> str:
    letter = m.group(1) or ""
    letter = _LETTER_NAMES.get(letter.lower(), letter)
    return f"hole {letter}{_NUMBER_WORDS[m.group(2).lower()]}"


def as_read(question: str, heard: bool) -> str:
    """A question as the finder reads it: spaced, and a ``heard`` one (a transcript) with the
    drawing words the recogniser hears as others put back."""
    return spaced(as_asked(question) if heard else question)


def as_asked(transcript: str) -> str:
    """A recogniser's transcript with the drawing words it hears as others put back."""
    text = _SPOKEN_HOLE.sub(_spoken_hole, transcript)
    text = _HOLE.sub(_hole, text)
    text = _REVISION_A.sub(lambda m: m.group(0) + " A", text)
    text = _REP.sub("rev", text)
    text = _COUNTERBORE.sub("counterbore", text)
    text = _X_POSITION.sub("X position", text)
    text = _WEIGH.sub(r"\1weigh", text)
    text = _WHO_DREW.sub("Who drew", text)
    return _UNTOLERANCED.sub("untoleranced", text)
