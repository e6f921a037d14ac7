"""The answer evaluation set: loading, checking and scoring rules (used by bench/answer_eval.py).

The set lives in bench/data/answer_eval/: ``shared.toml`` (the shared drawings and the demo drawings,
written by a person) and ``rendered.toml`` (generated from bench/answer_drawings.py's truth). Each file
has a ``[drawings]`` table (file name -> split and style) and ``[[question]]`` entries. The split is by
drawing: a question's split is its drawing's.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

SET_DIR = Path(__file__).resolve().parent / "data" / "answer_eval"
FILES = ("shared.toml", "rendered.toml")
CLASSES = ("field", "field_foreign", "note", "dimension", "naming", "table", "unanswerable")
SPLITS = ("tuning", "heldout")


@dataclass(frozen=True)
class Question:
    """One question of the set."""

    #: Unique id.
    qid: str
    #: The question as a person asks it.
    text: str
    #: Acceptable answer forms (empty when unanswerable).
    expect: tuple[str, ...]
    #: File the first citation must name ("" when unanswerable).
    source: str
    #: The drawing the question is about ("" for none).
    drawing: str
    #: tuning or heldout.
    split: str
    #: Style of the drawing (shared-raster, shared-pdf, demo, rendered-iso ...).
    style: str
    #: Classes the question belongs to.
    classes: tuple[str, ...]
    #: False when the drawings do not answer it.
    answerable: bool


def load_set(folder: Path = SET_DIR) -> list[Question]:
    """Every question of the set, checked: unique ids, known drawings and classes, forms present."""
    questions: list[Question] = []
    seen: set[str] = set()
    for name in FILES:
        data = tomllib.loads((folder / name).read_text(encoding="utf-8"))
        drawings = data["drawings"]
        for raw in data["question"]:
            qid = raw["id"]
            answerable = raw.get("answerable", True)
            drawing = raw.get("drawing", raw.get("source", ""))
            if qid in seen:
                raise ValueError(f"{name}: question id {qid} twice")
            seen.add(qid)
            if drawing not in drawings:
                raise ValueError(f"{name}: {qid} names drawing {drawing!r} missing from [drawings]")
            classes = tuple(raw.get("classes", ()))
            if not classes or any(c not in CLASSES for c in classes):
                raise ValueError(f"{name}: {qid} has classes {classes}; known: {CLASSES}")
            if answerable != ("unanswerable" not in classes):
                raise ValueError(f"{name}: {qid}: answerable and the unanswerable class disagree")
            if answerable and (not raw.get("expect") or not raw.get("source")):
                raise ValueError(f"{name}: {qid} is answerable but has no expect or source")
            split = raw.get("split", drawings[drawing]["split"])
            if drawing and split != drawings[drawing]["split"]:
                raise ValueError(f"{name}: {qid} is not in its drawing's split")
            if split not in SPLITS:
                raise ValueError(f"{name}: {qid} has split {split!r}")
            questions.append(
                Question(
                    qid=qid,
                    text=raw["question"],
                    expect=tuple(raw.get("expect", ())),
                    source=raw.get("source", ""),
                    drawing=drawing,
                    split=split,
                    style=drawings[drawing]["style"],
                    classes=classes,
                    answerable=answerable,
                )
            )
    return questions


_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def normalise(text: str) -> str:
    """NFKC, one diameter sign, one multiplication sign, no accents, single spaces.

    Accents go because OCR drops them ("Förzinkad" is read "Forzinkad") and a listener hears the same
    word either way; Ø is kept (it is a letter, not an accented O, to NFD).
    """
    text = unicodedata.normalize("NFKC", text).replace("⌀", "Ø").replace("×", "x")
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", text)).strip()


def matches(text: str, expected: str) -> bool:
    """``expected`` appears in ``text`` as a whole token; spaces inside it are optional.

    Case-insensitive beyond two characters ("A" must not match "a"). Chinese forms are compared with
    every space removed (OCR spaces CJK text unpredictably).
    """
    text, expected = normalise(text), normalise(expected)
    if _CJK.search(expected):
        return expected.replace(" ", "") in text.replace(" ", "")
    flags = re.I if len(expected) > 2 else 0
    body = r"\s*".join(re.escape(part) for part in expected.split(" "))
    pattern = r"(?<![A-Za-z0-9])" + body + r"(?![A-Za-z0-9])"
    return re.search(pattern, text, flags) is not None


_STOP = set(
    [
        "a",
        "an",
        "the",
        "of",
        "on",
        "in",
        "at",
        "to",
        "for",
        "is",
        "are",
        "was",
        "be",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "how",
        "much",
        "many",
        "does",
        "do",
        "did",
        "with",
        "and",
        "or",
        "it",
        "its",
        "this",
        "that",
        "there",
        "from",
        "by",
        "as",
        "drawing",
        "part",
        "s",
    ]
)


def content_words(text: str) -> list[str]:
    """The words of a question that carry its meaning (for the spoken right-question rate)."""
    words = re.findall(r"[a-z0-9]+", normalise(text).lower().replace("'", ""))
    return [w for w in words if w not in _STOP]


def question_heard(asked: str, heard: str) -> bool:
    """Every content word of the asked question is in the transcript (numbers as digits)."""
    said = set(re.findall(r"[a-z0-9]+", normalise(heard).lower()))
    return all(w in said for w in content_words(asked))
