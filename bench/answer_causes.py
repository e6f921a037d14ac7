"""Why an answer was wrong, counted without reading the questions one by one.

The held-out part of the answers set is not read question by question (decision 0016), so its misses
could only be counted (the dev part, held out until decision 0027, may be read). These causes split
them by where the loss is, from what the index holds:

- ``unread``: no accepted form of the answer is anywhere in the expected file's indexed text, so the
  drawing was not read (vision, OCR) and no answering rule could find it;
- ``declined``: the value is in the index and the answer abstained;
- ``other file``: the value is in the index and another file was cited first (which drawing is meant);
- ``long claim``: the right file and the value, in a quote longer than an answer may be;
- ``other line``: the right file, another value (the answer read the wrong line or cell);
- for questions the drawings do not answer, ``answered, same drawing`` (a line of the drawing asked
  about was taken for the answer) or ``answered, other drawing``.

A count per cause and split is an aggregate like the right-answer rates, and says which lever (the
vision pipeline, the naming of drawings, the answering rules) the misses point at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from appliance.answer import answering
from appliance.answer.answering import Answer
from appliance.config import Config
from appliance.errors import public_name
from appliance.index.store import IndexStore
from bench.answer_eval_set import Question, matches

CAUSES = (
    "unread",
    "declined",
    "other file",
    "long claim",
    "other line",
    "answered, same drawing",
    "answered, other drawing",
)


class IndexedText:
    """The whole indexed text of each file, by its public name (read once per file)."""

    def __init__(self, store: IndexStore) -> None:
        self._store = store
        self._names = {
            public_name(info.source): (info.namespace, info.source) for info in store.list_sources()
        }
        self._text: dict[str, str] = {}

    def of(self, name: str) -> str:
        """The text of every slice of ``name`` ("" when it is not indexed)."""
        if name not in self._text:
            where = self._names.get(name)
            slices = self._store.source_slices(*where) if where else []
            self._text[name] = "\n".join(s.text for s in slices)
        return self._text[name]


def why_wrong(
    q: Question,
    answer: Answer,
    right: bool,
    text: IndexedText,
    drawing_files: dict[str, str],
    claim: Callable[[Answer], str],
    max_claim_chars: int,
) -> str:
    """The cause of a miss ("" when the answer was right); see the module's list."""
    if right:
        return ""
    cited = public_name(answer.citations[0].source) if answer.citations else ""
    if not q.answerable:
        asked = drawing_files.get(q.drawing, "")
        return "answered, same drawing" if asked and cited == asked else "answered, other drawing"
    if not any(matches(text.of(q.source), e) for e in q.expect):
        return "unread"
    if answer.mode == "abstained" or not cited:
        return "declined"
    if cited != q.source:
        return "other file"
    said = claim(answer)
    if any(matches(said, e) for e in q.expect) and len(said) > max_claim_chars:
        return "long claim"
    return "other line"


#: Where in the answering a declined question stopped (see :func:`where_declined`).
DECLINED_AT = ("weak retrieval", "file not retrieved", "file ranked below others", "no extract")


def where_declined(q: Question, text: str, store: IndexStore, config: Config) -> str:
    """Where an answerable question that was declined stopped: retrieval was too weak to try, the
    expected file was not among the sources retrieved, it was but not first, or it was first and
    no field, dimension or line of it qualified. Re-runs retrieval only (no answer is made)."""
    p = answering._prepare(
        text, store=store, config=config, namespaces=None, heard=False, in_hand=None
    )
    if p.weak:
        return "weak retrieval"
    names = [public_name(s.source) for s in p.sources]
    if q.source not in names:
        return "file not retrieved"
    return "no extract" if names[0] == q.source else "file ranked below others"


def report_declined(rows: Iterable[tuple[str, tuple[str, ...], str]], splits: list[str]) -> None:
    """Print, per split, the declined questions by where they stopped, in all and for each class
    (from (split, classes, where) triples). Totals only."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for split, classes, where in rows:
        for kind in ("all", *classes):
            counts[(split, kind, where)] += 1
    for split in splits:
        kinds = sorted({k for s, k, _ in counts if s == split}, key=lambda k: (k != "all", k))
        for kind in kinds:
            parts = [
                f"{w} {counts[(split, kind, w)]}" for w in DECLINED_AT if counts[(split, kind, w)]
            ]
            print(f"  {split} declined, {kind}: " + ", ".join(parts))


def drawing_files(questions: Iterable[Question]) -> dict[str, str]:
    """The file of each drawing, from the answerable questions that cite it."""
    return {q.drawing: q.source for q in questions if q.answerable and q.drawing and q.source}


def report_causes_by_class(
    misses: Iterable[tuple[str, tuple[str, ...], str]], splits: list[str]
) -> None:
    """Print, per split, each class's misses by cause, from (split, classes, cause) triples.

    A question of two classes counts in both. Still totals: no question is named.
    """
    counts: Counter[tuple[str, str, str]] = Counter()
    for split, classes, cause in misses:
        for kind in classes:
            counts[(split, kind, cause)] += 1
    for split in splits:
        kinds = sorted({k for s, k, _ in counts if s == split})
        for kind in kinds:
            parts = [f"{c} {counts[(split, kind, c)]}" for c in CAUSES if counts[(split, kind, c)]]
            print(f"  {split} {kind} misses: " + ", ".join(parts))


def report_causes(causes: Iterable[tuple[str, str]], splits: list[str]) -> None:
    """Print the count of each cause per split, from (split, cause) pairs of the misses."""
    counts = Counter(causes)
    print(f"  {'-- misses by cause':26}" + "".join(f"{s:>10}" for s in splits))
    for cause in CAUSES:
        print(f"  {cause:26}" + "".join(f"{counts[(s, cause)]:>10}" for s in splits))
