"""Questions about one row of a drawing's parts list, answered from the cell.

"How many bearings does VW-3318-00 take?", "What is item 4?", "What material is the feather key?":
the question names a row (by its item number or by what the part is) and a column (quantity, unit,
part number or standard, material, remark, name). A material field that says "see parts list"
("siehe Stückliste", "见明细栏") is answered from the row of the drawing's own part.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from appliance.answer import extractive, subjects
from appliance.answer.context import Source, same_page
from appliance.drawing_terms import english, senses
from appliance.index.identity import compact, singular
from appliance.vision.tables import Table, TableRow

#: An item of a parts list named by its number ("item 3", "Pos. 1", "position 2", "序号 4").
_ITEM = re.compile(
    r"(?<![^\W_])(?:item|pos\.?|position|序号)\s*(?:no\.?\s*|number\s*)?(\d{1,3})\b", re.I
)
#: The column a parts-list question asks for, in the order they are tried: the unit and the
#: quantity first ("how many"), then the part number before the material ("which standard is it
#: made to"), the name last (a bare "what is item 4").
_PARTS_COLUMNS = (
    ("unit", re.compile(r"\bunits?\b|\beinheit\b", re.I)),
    (
        "qty",
        re.compile(
            r"\bhow many\b|\bquantity\b|\bqty\b|(?<!part )\bnumber of\b|\bmenge\b|数量", re.I
        ),
    ),
    (
        "part_no",
        re.compile(
            # A standard part's size is in its designation ("DIN 6885-A 8x7x28").
            r"\bpart (?:number|no\.?)\b|\bstandard\b|\bsachnummer\b|\bdesignation\b|代号"
            r"|\bwhat size\b|\bsize of\b",
            re.I,
        ),
    ),
    (
        "material",
        re.compile(
            r"\bmaterials?\b|\bmade (?:of|from)\b|\bcast (?:from|of|in)\b|\bwerkstoff\b|材料"
            r"|\b(?:what|which) (?:steel|alloy|metal)\b",
            re.I,
        ),
    ),
    ("remarks", re.compile(r"\bremarks?\b|\bbemerkung\b|备注", re.I)),
    ("name", re.compile(r"\bwhat is\b|\bwhat's\b|\bwhich\b|\bname[ds]?\b|\bcalled\b", re.I)),
)
#: Words asking a size or its tolerance, which no parts-list column holds.
_SIZE_ASKED = re.compile(
    r"\b(?:fit|tolerance|diameter|bore|radius|radii|length|width|thick\w*|deep|depth|angle|chamfer)\b",
    re.I,
)
_PARTS_SPOKEN = {
    "unit": "unit of item {key}",
    "qty": "quantity of item {key}",
    "part_no": "part number of item {key}",
    "material": "material of item {key}",
    "remarks": "remark on item {key}",
    "name": "name of item {key}",
}
#: Words of a question that name no part ("the parts list", "the drawing").
_NOT_PARTS = frozenset(
    {"part", "parts", "list", "item", "items", "drawing", "assembly", "table", "title", "block"}
)


def parts_extract(
    question: str, sources: Sequence[Source]
) -> tuple[extractive.Extract | None, bool]:
    """The cell of the parts list that answers a question about one of its rows: the row named by
    its item number ("item 3", "Pos. 1") or by what the part is ("the bearings": a row whose name
    means bearing), the column by what is asked (how many, unit, material, part number or
    standard, remark, what); and whether that settles it. No cell when the drawing asked about has
    no parts list, or the question names no row of it (then it is about the drawing itself: "what
    material is VW-3318-00"). An item named by its number whose cell the list lacks is settled
    unanswered: another line of the drawing would only be a guess."""
    column = next((c for c, pattern in _PARTS_COLUMNS if pattern.search(question)), None)
    if column is None or (column == "name" and _SIZE_ASKED.search(question)):
        # "What's the fit on the seal bore": a size of the part drawn, not a row of the list.
        return None, False
    item = _ITEM.search(question)
    asked = question.replace(item[0], " ") if item else question
    subject = subjects.subject_sources(asked, "", sources)
    if _LIST_NAMED.search(question):
        # "the German shaft with the parts list": the drawing that has one.
        subject = [s for s in subject if _has_parts_list(s)] or subject
    files = {(s.source, s.page) for s in subject[:1]}
    settled = False
    for src in sources:
        if (src.source, src.page) not in files:
            continue
        for record in src.tables:
            table = Table.from_json(record)
            if table.kind != "parts":
                continue
            settled = settled or item is not None
            if item is not None:
                row = table.row(item[1])
            elif column == "unit":
                row = next((r for r in table.rows if r.cells.get("unit")), None)
            else:
                row = _named_row(_naming_words(asked, column), table, _title_words(src))
            if row is None:
                continue
            wanted = column
            if column == "name" and item is None:
                wanted = "part_no"  # "which bearings": the type, the name was the question's
            if wanted not in row.cells:
                continue
            key = row.key or "?"
            cell = extractive.Extract(
                src.number,
                row.cells[wanted],
                _PARTS_SPOKEN[wanted].format(key=key),
                1.0,
                box=row.boxes.get(wanted),
            )
            return cell, True
    return None, settled


#: Where the thing counted ends in "how many bearings go into ...".
_COUNTED_END = re.compile(
    r"\b(?:do|does|did|are|is|go|goes|have|has|of|in|on|for|are|were|will|must)\b|[,?]", re.I
)


def _naming_words(question: str, column: str) -> str:
    """The words that may name the row: for "how many", the thing counted ("how many teeth does
    the gear have" counts teeth, not gears); for "which", the thing asked for ("which grease are
    the bearings filled with" asks a grease, not a bearing); else the whole question."""
    asks = {"qty": r"\bhow many\b", "name": r"\bwhich\b"}.get(column)
    many = re.search(asks, question, re.I) if asks else None
    if many is None:
        return question
    rest = question[many.end() :]
    end = _COUNTED_END.search(rest)
    return rest[: end.start()] if end else rest


def _title_words(src: Source) -> set[str]:
    """The words naming the drawing itself, and their senses: "the countershaft" names the
    assembly, not its shaft."""
    title = " ".join(v for v in (src.title, src.fields.get("title", "")) if v)
    words = set(_words(title))
    for sense in [*senses(title), *_head_senses(title)]:
        words.update(_words(sense))
    return words


#: A question that speaks of a parts list ("in the parts list", "the Stückliste", "明细栏").
_LIST_NAMED = re.compile(
    r"\b(?:parts?\s*lists?|bom|bill of materials?|st[üu]c?kliste|stycklista)\b|明细[栏表]", re.I
)


def _has_parts_list(src: Source) -> bool:
    return any(record.get("kind") == "parts" for record in src.tables)


def _named_row(
    question: str, table: Table, skip: frozenset[str] | set[str] = frozenset()
) -> TableRow | None:
    """The one row whose name (or part number) means a word of the question ("bearings" for
    "Rillenkugellager", "base plate" for "底板"), the drawing's own name (``skip``) aside; None
    when no row or more than one is named."""
    asked = set(_words(question)) - _NOT_PARTS - skip
    found = []
    for row in table.rows:
        written = " ".join(row.cells.get(c, "") for c in ("name", "part_no", "description"))
        meant = set(_words(written))
        for sense in [*senses(written), *_head_senses(written)]:
            meant.update(_words(sense))
        if asked & (meant - _NOT_PARTS):
            found.append(row)
    return found[0] if len(found) == 1 else None


def _head_senses(text: str) -> list[str]:
    """The English of each word's head, its longest known ending: a German or Swedish compound
    names what it is last ("Rillenkugellager" is a bearing)."""
    out = []
    for word in re.findall(r"[^\W\d_]{4,}", text):
        folded = word.lower()
        for i in range(1, len(folded) - 2):
            sense = english(folded[i:])
            if sense:
                out.append(sense)
                break
    return out


def _words(text: str) -> list[str]:
    """The words of a text that may name a part: Chinese runs, Latin words of three letters or
    more ("VW" of a part number names none), singular."""
    return [
        singular(w)
        for w in re.findall(r"[^\W\d_]+", text.lower())
        if len(w) >= 3 or re.match(r"[\u3400-\u9fff]", w)
    ]


#: A field that sends the reader to the parts list ("siehe Stückliste", "见明细栏").
SEE_PARTS_LIST = re.compile(
    r"\b(?:see|siehe|se|refer to)\s+(?:the\s+)?(?:parts?\s*list|bom|bill of materials?"
    r"|st[üu]c?kliste|stycklista|teileliste)\b|见\s*明细[栏表]",
    re.I,
)


def own_row_extract(
    found: extractive.Extract, field_name: str, sources: Sequence[Source]
) -> extractive.Extract | None:
    """A field that says "see parts list" answered from the parts list's row for the drawing's
    own part: the row whose name or number is the drawing's title or number, else the one row
    that gives the field at all. None when no such row is known (the field stands as written)."""
    column = {"material": "material"}.get(field_name)
    quoted = next((s for s in sources if s.number == found.source_number), None)
    if column is None or quoted is None or not SEE_PARTS_LIST.search(found.quote):
        return None
    drawing = same_page(quoted, sources)
    names = {
        compact(v)
        for s in drawing
        for v in (s.drawing_number, s.fields.get("title", ""), s.fields.get("number", ""))
        if v
    }
    for src in drawing:
        for record in src.tables:
            table = Table.from_json(record)
            if table.kind != "parts":
                continue
            own = [
                r
                for r in table.rows
                if names & {compact(r.cells.get(c, "")) for c in ("name", "part_no")}
            ]
            given = [r for r in table.rows if r.cells.get(column)]
            rows = own if len(own) == 1 else (given if len(given) == 1 else [])
            if rows and rows[0].cells.get(column):
                row = rows[0]
                return extractive.Extract(
                    src.number,
                    row.cells[column],
                    _PARTS_SPOKEN[column].format(key=row.key or "?"),
                    1.0,
                    box=row.boxes.get(column),
                )
    return None
