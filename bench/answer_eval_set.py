"""The answer evaluation set: loading, checking and scoring rules (used by bench/answer_eval.py).

The set lives in bench/data/answer_eval/: ``shared.toml`` (the shared drawings and the demo drawings,
written by a person) and ``rendered.toml`` (generated from bench/answer_drawings.py's truth). Each file
has a ``[drawings]`` table (file name -> split and style) and ``[[question]]`` entries. The split is by
drawing: a question's split is its drawing's: ``tuning`` (read and tuned on), ``dev`` (the old
held-out part, read question by question since decision 0027) and ``heldout`` (only totals are looked
at). ``fresh.toml`` holds a batch of tuning questions written blind (decision 0026), ``blind.toml`` one
written by writers who never saw the answering code (decision 0052), ``notes.toml`` note questions
written the same way (decision 0073); a file's top-level
``batch`` names the batch its questions belong to ("main" when absent), so the bench can print a batch
alone.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

SET_DIR = Path(__file__).resolve().parent / "data" / "answer_eval"
FILES = ("shared.toml", "rendered.toml", "fresh.toml", "blind.toml", "notes.toml")
CLASSES = ("field", "field_foreign", "note", "dimension", "naming", "table", "unanswerable")
SPLITS = ("tuning", "dev", "heldout")


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
    #: tuning, dev or heldout.
    split: str
    #: Style of the drawing (shared-raster, shared-pdf, demo, rendered-iso ...).
    style: str
    #: Classes the question belongs to.
    classes: tuple[str, ...]
    #: False when the drawings do not answer it.
    answerable: bool
    #: The batch the question was written in ("main": decisions 0016 and 0025; "fresh": 0026;
    #: "blind": 0052; "blind2": 0065; "notes": 0073).
    batch: str = "main"


def load_set(folder: Path = SET_DIR) -> list[Question]:
    """Every question of the set, checked: unique ids, known drawings and classes, forms present."""
    questions: list[Question] = []
    seen: set[str] = set()
    known: dict[str, dict[str, str]] = {}
    for name in FILES:
        data = tomllib.loads((folder / name).read_text(encoding="utf-8"))
        drawings = data["drawings"]
        batch = data.get("batch", "main")
        for drawing, entry in drawings.items():
            # A drawing listed in two files keeps one split: the split is by drawing.
            if known.setdefault(drawing, entry) != entry:
                raise ValueError(f"{name}: drawing {drawing!r} differs from {known[drawing]}")
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
                    batch=raw.get("batch", batch),
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


_FILE = re.compile(r"\.(png|jpg|pdf)\b", re.I)
#: Auxiliary verbs: they carry no content of their own.
_AUX = {"has", "have", "had", "can", "will", "should"}


def content_words(text: str) -> list[str]:
    """The words of a question that carry its meaning (for the spoken right-question rate).

    A file ending is not one ("drawing Lagerdeckel.png": the name says which drawing), nor is the
    "'s" of "what's" or an auxiliary verb ("has", "have").
    """
    text = _FILE.sub("", normalise(text)).lower().replace("'", " ")
    return [w for w in re.findall(r"[a-z0-9]+", text) if w not in _STOP and w not in _AUX]


def content_words_strict(text: str) -> list[str]:
    """content_words as they were before decision 0037 (file endings, "whats", auxiliaries
    counted), kept so the strict rate can be printed beside the revised one."""
    words = re.findall(r"[a-z0-9]+", normalise(text).lower().replace("'", ""))
    return [w for w in words if w not in _STOP]


#: Number words a recogniser may write for a digit that was said ("zero five one eight").
_DIGIT_WORDS = {
    w: str(i)
    for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    )
}


def question_heard(asked: str, heard: str) -> bool:
    """Every content word of the asked question is in the transcript.

    The transcript is compared with its spaces and punctuation removed, so a code heard as
    "2 0 2 2 0 0 1", "two zero two two zero zero one" or "GB 4410-01" counts as its written form.
    """
    words = re.findall(r"[a-z0-9]+", normalise(heard).lower())
    said = "".join(_DIGIT_WORDS.get(w, w) for w in words)
    return all(w in said for w in content_words(asked))


def question_heard_strict(asked: str, heard: str) -> bool:
    """question_heard as it was before decision 0037: digits only as digits, and the strict
    content words."""
    said = re.sub(r"[^a-z0-9]", "", normalise(heard).lower())
    return all(w in said for w in content_words_strict(asked))


_CODE = re.compile(r"[\w\-/]*\d[\w\-/]*(?:\.\d+)?")


def _say_part(part: str) -> str:
    """One piece of a code: letter runs of up to 3 spelled, longer ones said as words, digit runs of
    3 or more read digit by digit ("HM" "30518" -> "H M 3 0 5 1 8"; "Halter1" -> "Halter 1")."""
    out = []
    for run in re.findall(r"[A-Za-z]+|\d+|[^A-Za-z\d]+", part):
        if run.isalpha():
            out.append(" ".join(run.upper()) if len(run) <= 3 else run)
        elif run.isdigit():
            out.append(" ".join(run) if len(run) >= 3 else run)
        else:
            out.append(run)
    return " ".join(out)


def spoken_form(text: str) -> str:
    """The question as a person says it, for the speech synthesiser.

    Symbols become words (Ø diameter, ± plus or minus, 1:2 one to two), file endings "dot png", and
    drawing numbers and other codes are read piece by piece, as people read them out; short terms
    ("M8", "H7", "R5") and plain numbers ("120", "0.5") stay as written.
    """
    text = normalise(text).replace("Ø", " diameter ").replace("±", " plus or minus ")
    text = text.replace("°", " degrees ").replace("_", " ")
    text = re.sub(r"(\d):(\d)", r"\1 to \2", text)
    text = _FILE.sub(lambda m: f" dot {m.group(1).lower()}", text)

    def code(m: re.Match[str]) -> str:
        token = m.group(0)
        if len(token) <= 4 or re.fullmatch(r"\d{1,4}(\.\d+)?", token):
            return token
        return " ".join(_say_part(p) for p in re.split(r"[-/]", token) if p)

    text = _CODE.sub(code, text)
    return re.sub(r"\s+", " ", text).strip()


def demo_truth_problems(questions: list[Question]) -> list[str]:
    """Demo-drawing questions none of whose forms is drawn by appliance/service/samples.py any more."""
    from appliance.service.samples import SAMPLES

    drawn = {
        s.file_name: "\n".join(
            [
                s.number,
                s.title,
                s.revision,
                s.material,
                s.scale,
                s.date,
                s.sheet,
                *list(s.notes),
                *list(s.dimensions),
            ]
        )
        for s in SAMPLES
    }
    return [
        f"{q.qid}: none of {list(q.expect)} is on {q.source}"
        for q in questions
        if q.answerable
        and q.source in drawn
        and not any(matches(drawn[q.source], e) for e in q.expect)
    ]
