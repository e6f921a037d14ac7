"""Questions about one row of a drawing's hole or revision table, answered from the cell (a parts
list's rows: :mod:`appliance.answer.parts`).

"What size is hole H5 in the hole table?", "What is the X position of hole P1?", "When was revision A
made?", "What changed in revision C?": the question names a row (a hole's tag, a revision's letter)
and a column (size, X, Y or both; date, change). The answer is that cell of the table of the drawing the
question is about (:attr:`Source.tables`, put there by the vision package), cited with the cell's
box. When that drawing has such a table and the row or column is not in it, nothing answers: another
line of the drawing would only be a guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from appliance.answer import extractive, subjects
from appliance.answer.context import Source
from appliance.answer.terms import term_matches, terms
from appliance.drawing_terms import LABELS, translate
from appliance.vision.revisions import date_key
from appliance.vision.tables import Table, TableRow, row_key

#: A hole table's row, named by what the hole is ("hole H5", "port T1", "Hål K2", "Bohrung B1").
_HOLE = re.compile(
    r"\b(?:hole|port|tapping|hål|hal|bohrung)\s+(?:no\.?\s+|number\s+)?([A-Za-z]{0,3}\d{1,3})\b",
    re.I,
)
#: A revision named by any word a title block uses for it ("revision C", "Index C", "Zust. B",
#: "Utgåva B"), followed by its letter.
_REVISION = re.compile(
    r"(?<![^\W_])(?i:"
    + "|".join(re.escape(w) for w in LABELS["revision"] if re.fullmatch(r"[^\W\d_]+", w))
    + r")\.?\s+([A-Za-z])\b(?!-)"
)
#: The first revision, named by its place rather than its letter ("the first issue").
_FIRST = re.compile(
    r"\b(?:first|initial|original)\s+(?:issue[ds]?|release[ds]?|revision|version|edition)\b", re.I
)
#: The newest revision, named by its place ("the latest revision", "the last change").
_LATEST = re.compile(
    r"\b(?:latest|last|newest|most recent|current)\s+(?:revision|change|issue|version|edition)\b",
    re.I,
)
#: Columns a question about the latest revision names; a bare "what" asks for its letter, which
#: the revision field gives.
_LATEST_COLUMNS = (
    ("by", re.compile(r"\b(?:who|whose|approv\w*|signed)\b", re.I)),
    ("date", re.compile(r"\b(?:when|date|dated)\b", re.I)),
    ("description", re.compile(r"\b(?:chang\w*|describ\w*|description|why)\b", re.I)),
)
_HOLE_COLUMNS = (
    # A counterbore's size and depth are in the hole's callout, not its drill size.
    (
        "description",
        re.compile(
            r"\b(?:c'?bore\w*|counter\s?bor\w*|counter\s?sin\w*|c'?sink|csk|spot\s?fac\w*"
            r"|deep|depth|callout|description)\b",
            re.I,
        ),
    ),
    ("x", re.compile(r"\bx\b(?:[\s-]*(?:position|coordinate|location|loc|value))?", re.I)),
    ("y", re.compile(r"\by\b(?:[\s-]*(?:position|coordinate|location|loc|value))?", re.I)),
    (
        "size",
        re.compile(r"\b(?:size|diameter|dia|thread|tap|drill|dimension|how (?:big|large))\b", re.I),
    ),
    # Both coordinates, when the question asks where the hole is without naming an axis.
    ("position", re.compile(r"\b(?:where|coordinates?|position|location|located|placed)\b", re.I)),
)
_REVISION_COLUMNS = (
    # The change order a revision was made under (ECO, ECN, 更改文件号): asked before the
    # description, whose words ("what", "change") the question shares.
    (
        "order",
        re.compile(
            r"\b(?:ec[onr]s?|change (?:order|notice|note|request|document)s?(?: number| no\.?)?)\b"
            r"|更改文件号",
            re.I,
        ),
    ),
    ("zone", re.compile(r"\bzones?\b|分区", re.I)),
    ("by", re.compile(r"\b(?:who|whose|approv\w*|signed)\b", re.I)),
    # What a part was before a change is in the change's description, whatever else is asked.
    (
        "description",
        re.compile(r"\b(?:before|previous(?:ly)?|formerly|originally|used to be)\b", re.I),
    ),
    # "made of" asks a material, not when a revision was made.
    (
        "date",
        re.compile(r"\b(?:when|date|dated|made(?!\s+(?:of|from|out))|released|issued)\b", re.I),
    ),
    ("description", re.compile(r"\b(?:chang\w*|what|describ\w*|description|why)\b", re.I)),
)
#: A question asking what something was before a change ("what was the radius before the change").
_BEFORE = re.compile(
    r"\b(?:before (?:the|that|this|it was|they|a|its)?\s*(?:chang|switch|revis|updat)\w*"
    r"|previous(?:ly)?|formerly|originally|used to be)\b",
    re.I,
)
#: A change's description that gives the value before it ("Material was EN AW-6060 T6", Swedish
#: "R42 var R40", German "war S235" or "600 statt 580", Chinese 原为).
_WAS = re.compile(
    r"(?<![^\W_])(?i:was|var|war|vorher|statt|previously|formerly|instead of)(?![^\W_])|原为|原"
)
#: How a column is named in the spoken answer.
_SPOKEN = {
    "x": "X position of hole {key}",
    "y": "Y position of hole {key}",
    "size": "size of hole {key}",
    "position": "position of hole {key}",
    "date": "date of revision {key}",
    "description": "change in revision {key}",
    "by": "approval of revision {key}",
    "order": "change order of revision {key}",
    "zone": "zone of revision {key}",
}
#: How a hole table's columns are named in the spoken answer.
_SPOKEN_HOLES = {**_SPOKEN, "description": "callout of hole {key}"}
#: Columns a revision table may have besides description, date and approval, known by their
#: header or, when the header was not read, by how their cells are written.
#: A hole's size as a table writes it: a diameter, a thread, a drill number or an inch thread.
_SIZE = re.compile(
    r"\s*(?:\d+\s*[xX×]\s*)?(?:[⌀Ø]\s*\.?\d|M\d|#\d|\d+/\d+-\d+|\d*\.\d+\s*(?:DIA|THRU))"
)

_OTHER_COLUMNS = {
    "order": (
        frozenset(
            {"eco", "ecn", "ecr", "eco no", "ecn no", "更改文件号", "ändringsnr", "änderungsnr"}
        ),
        re.compile(r"^[A-Z]{2,}[-/]?\d[\w-]*$"),
    ),
    "zone": (frozenset({"zone", "zon", "分区"}), re.compile(r"^[A-H]\d{1,2}$", re.I)),
}


@dataclass(frozen=True)
class TableAsk:
    """What a table question asks."""

    #: ``holes`` or ``revisions``.
    kind: str
    #: The row's key as the question gives it ("H5", "A").
    key: str
    #: The column asked for (x, y, size, date, description, by).
    column: str
    #: The words that name the row, left out when the drawing is looked for.
    words: tuple[str, ...]
    #: The latest revision asked for ("what changed in the latest revision"), not a letter.
    latest: bool = False
    #: What something was before a change, no revision named: the row whose change says so.
    before: bool = False
    #: A group of holes named by its letter ("the C holes": C1, C2 ...), not one row.
    group: bool = False


def _is_revision_letter(question: str, found: re.Match[str]) -> bool:
    """Whether the letter after a revision word names a revision: a capital always; a small letter
    too (German and Swedish drawings index their changes a, b, c), except "a" or "i" standing as a
    word of the sentence ("which revision a part is at")."""
    letter = found[1]
    if letter.isupper():
        return True
    if letter not in "ai":
        return True
    after = question[found.end() :]
    return re.match(r"\s*(?:[?.,!]|$|of\b|on\b|in\b|was\b|made\b|dated\b)", after) is not None


#: Words besides the title block's revision labels that name one change ("change c").
_CHANGE = re.compile(r"(?:(?<![^\W_])(?i:change)\s+|更改\s*|修改\s*|版次\s*)([A-Za-z])\b(?!-)")
#: Holes named as a group by the letter their tags share ("the C holes").
_HOLE_GROUP = re.compile(r"\bthe\s+([A-Z])\s+holes\b")


def asks_table(question: str) -> TableAsk | None:
    """The row and column a question asks for, or None when it names no table row."""
    hole = _HOLE.search(question)
    if hole:
        for column, pattern in _HOLE_COLUMNS:
            if pattern.search(question):
                return TableAsk("holes", row_key(hole[1]), column, (hole[0],))
        return None
    group = _HOLE_GROUP.search(question)
    if group:
        for column, pattern in _HOLE_COLUMNS:
            if pattern.search(question):
                return TableAsk("holes", group[1], column, (group[0],), group=True)
        return None
    latest = _LATEST.search(question)
    if latest:
        for column, pattern in _LATEST_COLUMNS:
            if pattern.search(question):
                return TableAsk("revisions", "", column, (latest[0],), latest=True)
        return None
    revision = _REVISION.search(question) or _CHANGE.search(question)
    first = _FIRST.search(question)
    if revision and _is_revision_letter(question, revision):
        key, words = revision[1].upper(), (revision[0],)
    elif first:
        key, words = "", (first[0],)
    elif _BEFORE.search(question):
        return TableAsk("revisions", "", "description", (), before=True)
    else:
        return None
    for column, pattern in _REVISION_COLUMNS:
        if pattern.search(question):
            return TableAsk("revisions", key, column, words)
    return None


def table_extract(
    question: str, ask: TableAsk, sources: Sequence[Source]
) -> tuple[extractive.Extract | None, bool]:
    """The cell that answers (or None), and whether the drawing the question is about has a table
    of that kind at all (when it has none, other answers may try)."""
    asked = question
    for word in ask.words:
        asked = asked.replace(word, " ")
    subject = subjects.subject_sources(asked, "", sources)
    files = {(s.source, s.page) for s in subject[:1]}
    seen_table = False
    for src in sources:
        if (src.source, src.page) not in files:
            continue
        for record in src.tables:
            table = Table.from_json(record)
            if table.kind != ask.kind:
                continue
            seen_table = True
            # No key: the first revision, the table's first row by date.
            if ask.group:
                cell = _group_cell(src.number, table, ask)
                if cell is not None:
                    return cell, True
                continue
            if ask.latest:
                row = _last_row(table)
            elif ask.before:
                row = _row_before(table, question)
            else:
                row = table.row(ask.key) if ask.key else _first_row(table)
            if row is None:
                continue
            spoken = _SPOKEN_HOLES if ask.kind == "holes" else _SPOKEN
            field = spoken[ask.column].format(key=ask.key or row.key)
            if ask.column == "position":
                cell = _position(src.number, row, field)
                if cell is not None:
                    return cell, True
                continue
            column = _column_for(table, row, ask.column)
            if column is None:
                continue
            cell = extractive.Extract(
                src.number, row.cells[column], field, 1.0, box=row.boxes.get(column)
            )
            return cell, True
    return None, seen_table


def _group_cell(number: int, table: Table, ask: TableAsk) -> extractive.Extract | None:
    """What every hole of a group has in the column asked ("the C holes": C1 and C2 are both
    "M6-6H"); None when the group has no hole or its holes differ there."""
    rows = [r for r in table.rows if re.fullmatch(rf"{ask.key}\d{{1,3}}", r.key or "")]
    values = set()
    first: tuple[TableRow, str] | None = None
    for row in rows:
        column = _column_for(table, row, ask.column)
        if column is None:
            return None
        values.add(row.cells[column].strip())
        first = first or (row, column)
    if first is None or len(values) != 1:
        return None
    row, column = first
    field = f"{ask.column} of the {ask.key} holes"
    return extractive.Extract(number, row.cells[column], field, 1.0, box=row.boxes.get(column))


def _column_for(table: Table, row: TableRow, asked: str) -> str | None:
    """The row's column holding what is asked: the column of that name, else (a change order, a
    zone) the one whose header says it or, its header unread, whose cell is written that way."""
    if asked in row.cells:
        return asked
    if asked == "size":
        # A table without a size column writes the size in its description ("⌀.2505/.2500 THRU").
        sized = [
            n
            for n in table.columns
            if n not in ("key", "x", "y") and _SIZE.match(row.cells.get(n, ""))
        ]
        return sized[0] if len(sized) == 1 else None
    if asked not in _OTHER_COLUMNS:
        return None
    headers, form = _OTHER_COLUMNS[asked]
    for name in table.columns:
        if name in row.cells and table.headers.get(name, "").strip(" .:").lower() in headers:
            return name
    unnamed = [n for n in table.columns if n in row.cells and n.startswith("column")]
    fitting = [n for n in unnamed if form.match(row.cells[n].strip())]
    return fitting[0] if len(fitting) == 1 else None


def _position(number: int, row: TableRow, field: str) -> extractive.Extract | None:
    """A hole's two coordinates as one quote ("X 3.750, Y 1.750"), cited with both cells' box;
    None when the row lacks either."""
    x, y = row.cells.get("x", "").strip(), row.cells.get("y", "").strip()
    if not x or not y:
        return None
    box = row.boxes.get("x")
    if box is not None and row.boxes.get("y") is not None:
        box = box.union(row.boxes["y"])
    return extractive.Extract(number, f"X {x}, Y {y}", field, 1.0, box=box)


def _last_row(table: Table) -> TableRow | None:
    """The newest revision: the latest dated row when every row has a date, else the row of the
    highest letter."""
    if not table.rows:
        return None
    dated = [(date_key(r.cells.get("date", "")), i) for i, r in enumerate(table.rows)]
    known = [(d, i) for d, i in dated if d is not None]
    if len(known) == len(dated):
        return table.rows[max(known)[1]]
    lettered = [r for r in table.rows if len(r.key) == 1 and r.key.isalpha()]
    return max(lettered, key=lambda r: r.key) if lettered else None


def _row_before(table: Table, question: str) -> TableRow | None:
    """The change that says what something was before it: of the rows whose description gives a
    former value, the one sharing most words with the question (its foreign words in English);
    None when two share as many, or none gives a former value."""
    asked = set(terms(question))
    scored = []
    for row in table.rows:
        text = row.cells.get("description", "")
        if _WAS.search(text):
            said = set(terms(text)) | set(terms(translate(text)))
            scored.append((sum(term_matches(t, said) for t in asked), row))
    scored.sort(key=lambda item: -item[0])
    if not scored or (len(scored) > 1 and scored[0][0] == scored[1][0]):
        return None
    return scored[0][1]


def _first_row(table: Table) -> TableRow | None:
    """The earliest revision: the row with the earliest date when every row has one, else the top
    row (revision blocks are written downwards or upwards depending on the standard)."""
    if not table.rows:
        return None
    dated = [(date_key(r.cells.get("date", "")), i) for i, r in enumerate(table.rows)]
    known = [(d, i) for d, i in dated if d is not None]
    if len(known) == len(dated):
        return table.rows[min(known)[1]]
    return table.rows[0]
