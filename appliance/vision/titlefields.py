"""Title-block fields from words: the labels that introduce each field (the glossary's, in four
languages), where a label's value is (after it, under it, in the next cell), what a value of each
field must look like, and the vote between several readings.

Pure text and geometry over :class:`OcrWord` boxes; no OCR runs here.
"""

from __future__ import annotations

import difflib
import re
from typing import NamedTuple

from appliance.document import Box
from appliance.drawing_terms import LABELS, known_spelling, split_label, strip_connective
from appliance.spelling import edit_distance
from appliance.vision.ocrlines import OcrWord
from appliance.vision.symbols import mend_code
from appliance.vision.titlegrid import Cell

#: Every field a title block can give, in display order.
FIELDS = (
    "drawing_number",
    "title",
    "revision",
    "material",
    "scale",
    "sheet",
    "size",
    "date",
    "weight",
    "surface_treatment",
    "heat_treatment",
    "roughness",
    "general_tolerance",
    "project",
    "quantity",
    "drawn_by",
    "checked_by",
    "approved_by",
    "approved_date",
    "standardised_by",
    "process_by",
    "stage",
    "company",
    "department",
    "technical_reference",
    "document_type",
    "document_status",
    "owner",
)
#: Field name -> labels that introduce it, lower case, in English, Swedish, German and Chinese
#: (the glossary's labels).
FIELD_LABELS: dict[str, tuple[str, ...]] = {name: LABELS[name] for name in FIELDS}
_ESZETT = {
    label: re.compile(re.escape(label).replace("ß", "."))
    for labels in FIELD_LABELS.values()
    for label in labels
    if "ß" in label
}
_LABELS = sorted(
    ((label, name) for name, labels in FIELD_LABELS.items() for label in labels),
    key=lambda item: -len(item[0]),
)
_LABEL_SET = frozenset(label for label, _ in _LABELS)
#: A date: ISO 8601, year first with dots (GB/T 10609.1 sign-offs, "2026.03.16"), day or month first.
DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2}|\d{4}\.\d{1,2}\.\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})\b")


class FieldReading(NamedTuple):
    """One reading of a field's value."""

    #: The cleaned value.
    value: str
    #: The lowest confidence of the words it was read from.
    conf: float
    #: Those words (page boxes); empty for values read by a pass that gives no word boxes.
    words: tuple[OcrWord, ...] = ()


#: Two letters, of any of the four languages: a name, a title, a treatment.
_WORDS_FORM = re.compile(r".*[A-Za-zÀ-ÿ\u3400-\u9fff].*[A-Za-zÀ-ÿ\u3400-\u9fff].*")
#: What a field's value must look like to be taken (a misreading usually breaks the form).
_VALID: dict[str, re.Pattern[str]] = {
    # An identifier: letters, digits and joining marks, with at least one digit; or words joined
    # by underscores ("Aufspannung_Ecken", a CAD file name used as the number).
    "drawing_number": re.compile(
        r"(?=.*\d)[A-Za-z0-9][A-Za-z0-9_.\-/ ]{2,}|[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+"
    ),
    "title": _WORDS_FORM,
    "material": re.compile(r".*[A-Za-z0-9À-ÿ].*[A-Za-z0-9À-ÿ].*"),
    "revision": re.compile(r"[A-Za-z0-9]{1,3}"),
    "sheet": re.compile(
        r"\d+(?:\s*(?:of|von|av|/)\s*\d+)?|(?:共\s*\d+\s*张\s*)?第\s*\d+\s*张(?:\s*共\s*\d+\s*张)?",
        re.IGNORECASE,
    ),
    # ISO A sizes, or the letter of an ANSI size (A-E) written under its SIZE label.
    "size": re.compile(r"A[0-4]|[A-E]"),
    "date": DATE,
    # A weight, a roughness, a tolerance class or standard, a quantity: a number in it.
    "weight": re.compile(
        r"(?:approx\.?\s*|ca\.?\s*|~\s*)?\d+(?:[.,]\d+)?\s*(?:mg|g|kg|t|lbs?|oz)\b.*", re.IGNORECASE
    ),
    "roughness": re.compile(r".*\d.*"),
    "general_tolerance": re.compile(r".*\d.*"),
    "quantity": re.compile(r"\d+(?:\s*\w+)?"),
    # Words: a treatment, a code, a name.
    "surface_treatment": _WORDS_FORM,
    "heat_treatment": _WORDS_FORM,
    "project": re.compile(r".*[A-Za-z0-9À-ÿ].*[A-Za-z0-9À-ÿ].*"),
    "drawn_by": _WORDS_FORM,
    "checked_by": _WORDS_FORM,
    "approved_by": _WORDS_FORM,
    "approved_date": DATE,
    "standardised_by": _WORDS_FORM,
    "process_by": _WORDS_FORM,
    # A GB/T 10609.1 stage mark: a letter or two (S, A, B), or a word.
    "stage": re.compile(r"[A-Za-z0-9]{1,2}|[\u3400-\u9fff]{1,4}"),
    "company": _WORDS_FORM,
    "department": _WORDS_FORM,
    "technical_reference": _WORDS_FORM,
    "document_type": _WORDS_FORM,
    "document_status": _WORDS_FORM,
    "owner": _WORDS_FORM,
}


def valid_value(name: str, value: str) -> bool:
    """Whether ``value`` has the form of field ``name`` (see :data:`_VALID`; a scale is a ratio,
    a date has a month of 1-12 and a day of 1-31) and is not itself a label."""
    if not (_SCALE if name == "scale" else _VALID[name]).fullmatch(value):
        return False
    label = match_label(value.split(), 0)
    if name != "title" and label is not None and label[1] == len(value.split()):
        return False  # a neighbouring cell's label ("审核" beside "设计"), not a value
    if name in ("date", "approved_date"):
        parts = [int(p) for p in re.split(r"[-./]", value)]
        if value[4:5] in ("-", "."):  # year first (ISO 8601, GB/T 10609.1)
            return 1 <= parts[1] <= 12 and 1 <= parts[2] <= 31
        return all(1 <= p <= 31 for p in parts[:2]) and min(parts[:2]) <= 12
    return True


def choose_fields(*readings: dict[str, FieldReading]) -> dict[str, str]:
    """Per field, the value most readings agree on among those with the field's form; between
    equally many, the most confident. Readings are passes or looks at the block."""
    chosen: dict[str, str] = {}
    for name in FIELDS:
        votes: dict[str, list[float]] = {}
        for reading in readings:
            option = reading.get(name)
            if option is not None and valid_value(name, option.value):
                votes.setdefault(option.value, []).append(option.conf)
        if votes:
            chosen[name] = max(votes, key=lambda v: (len(votes[v]), max(votes[v])))
    return chosen


def field_boxes(fields: dict[str, str], *readings: dict[str, FieldReading]) -> dict[str, Box]:
    """Where each chosen value is written: the union of the words of a reading that gave it, or,
    when only a pass without word boxes gave it, of any reading of that field (the same place)."""
    boxes: dict[str, Box] = {}
    for name, value in fields.items():
        options = [r[name] for r in readings if name in r and r[name].words]
        same = [o for o in options if o.value == value]
        chosen = (same or options)[:1]
        if chosen:
            box = chosen[0].words[0].box
            for word in chosen[0].words[1:]:
                box = box.union(word.box)
            boxes[name] = box
    return boxes


def cell_tokens(words: list[OcrWord]) -> list[tuple[str, OcrWord]]:
    """Raw tokens, with "LABEL:value" glued by OCR split into "LABEL:" and "value", and Chinese
    characters Tesseract spaced apart ("名 称", "表面 处 理") joined again on their line."""
    tokens: list[tuple[str, OcrWord]] = []
    for word in words:
        raw = word.raw_text
        if _SPACED_HAN.fullmatch(raw):
            raw = raw.replace(" ", "")  # one word of Chinese read with spaces in it ("名 称")
        match = re.fullmatch(r"([A-Za-zÄÖÜäöüß.]{3,}:)(.+)", raw)
        if match:
            tokens.append((match.group(1), word))
            tokens.append((match.group(2), word))
        elif (
            tokens
            and _HAN.fullmatch(raw)
            and _HAN.fullmatch(tokens[-1][0])
            and abs(_centre_y(tokens[-1][1]) - _centre_y(word)) < 0.5 * (word.box.y1 - word.box.y0)
            and not _label_complete(tokens[-1][0], raw)
        ):
            tokens[-1] = (tokens[-1][0] + raw, tokens[-1][1])
        else:
            tokens.append((raw, word))
    return tokens


_HAN = re.compile(r"[\u3400-\u9fff]+")
_SPACED_HAN = re.compile(r"[\u3400-\u9fff]+(?: [\u3400-\u9fff]+)+")


def _label_complete(head: str, more: str) -> bool:
    """Whether ``head`` is a whole label that ``more`` would not continue into a longer one: the
    value after it starts there ("张数" then "共 2 张" of "张数: 共 2 张 第 1 张", the colon lost)."""
    if match_label([head], 0) is None:
        return False
    longer = head + more
    return match_label([longer], 0) is None and not any(
        label.startswith(longer) for label, _ in _LABELS
    )


def _centre_y(word: OcrWord) -> float:
    return (word.box.y0 + word.box.y1) / 2


#: A unit in brackets glued to the end of a label ("重量(kg)", "Weight[kg]").
_GLUED_UNIT = re.compile(r"\s*[(\[]\s*(kg|g|lbs?|mm|in|t)\s*[)\]]$")


def match_label(tokens: list[str], pos: int) -> tuple[str, int] | None:
    """(field, number of tokens used) when a known label starts at ``tokens[pos]``."""
    for label, name in _LABELS:
        width = len(label.split())
        if pos + width > len(tokens):
            continue
        head = " ".join(tokens[pos : pos + width]).lower().strip("|[ ").rstrip(":.;,")
        head = _GLUED_UNIT.sub("", head)  # "重量(kg)": the label with its unit
        if "/" in head and not head.startswith("/"):
            # A bilingual label read as one word ("Scale/skala", "Description/benämning"): the
            # first language decides.
            head = head.split("/")[0].rstrip(":.;, ")
        # The English model reads "ß" as "B", "R" or "8": any one letter stands for it.
        exact = head == label or ("ß" in label and _ESZETT[label].fullmatch(head) is not None)
        # One letter misread in a long label ("Geprift" for "Geprüft") is still the label; the
        # ratio alone would refuse it below ten letters.
        fuzzy = (
            len(label) >= 6
            and abs(len(head) - len(label)) <= 1
            and difflib.SequenceMatcher(None, head, label).ratio() >= 0.88
        ) or (len(label) >= 7 and edit_distance(head, label, 1) <= 1)
        # A Chinese label of four characters or more read without its first, the one against
        # the cell's left rule ("样名称" for "图样名称"): the rest of it names it alone.
        clipped = (
            len(label) >= 4
            and len(head) == len(label) - 1
            and label.endswith(head)
            and _HAN.fullmatch(label) is not None
            and head not in _LABEL_SET
        )
        if not (exact or fuzzy or clipped):
            continue
        following = tokens[pos + width].lower() if pos + width < len(tokens) else ""
        if label in ("rev", "revision") and following.startswith("by"):
            continue  # "Rev. by": the reviewer's column, not the revision
        previous = tokens[pos - 1].lower() if pos > 0 else ""
        if previous in ("not", "nicht", "no"):
            continue  # "DO NOT SCALE DRAWING"
        return name, width
    return None


def _labels_in(tokens: list[str]) -> list[tuple[int, str, int]]:
    """Positions of labels in a cell's tokens: the first token, or a later one written as a label."""
    found = []
    pos = 0
    while pos < len(tokens):
        match = match_label(tokens, pos)
        as_label = (
            pos == 0
            or tokens[pos].isupper()
            or tokens[pos].endswith(":")
            or (pos <= 1 and len(tokens[0]) <= 2)
        )
        if match and as_label:
            found.append((pos, match[0], match[1]))
            pos += match[1]
        else:
            pos += 1
    return found


def cell_fields(per_cell: list[tuple[Cell, list[OcrWord]]]) -> dict[str, FieldReading]:
    """Field -> its reading, from each cell's words in reading order."""
    fields: dict[str, FieldReading] = {}
    label_cells: set[int] = set()
    pending: list[tuple[int, str, Box]] = []
    for i, (_, words) in enumerate(per_cell):
        pairs = cell_tokens(words)
        under = _label_under(pairs)
        if under is not None:
            label_cells.add(i)
            name, value_pairs, unit = under
            used = tuple(dict.fromkeys(w for _, w in value_pairs))
            value = " ".join(t for t, _ in value_pairs)
            if unit and re.fullmatch(r"[\d.,\s]+", value):
                value = (
                    f"{value} {unit}"  # "1.62" under "重量(kg)": the label's unit is the value's
                )
            value = clean_value(name, value)
            fields.setdefault(name, FieldReading(value, min(w.conf for w in used), used))
            continue
        tokens = [t for t, _ in pairs]
        labels = _labels_in(tokens)
        if labels:
            label_cells.add(i)
        for k, (pos, name, width) in enumerate(labels):
            end = labels[k + 1][0] if k + 1 < len(labels) else len(tokens)
            start = _value_start(tokens, pos, width, end, name)
            label_words = [w for _, w in pairs[pos : pos + width]]
            value_pairs = _value_rows(label_words, pairs[start:end])
            value = " ".join(t for t, _ in value_pairs)
            if value.strip(" .:;|-_—"):
                if name not in fields:
                    used = tuple(dict.fromkeys(w for _, w in value_pairs))
                    fields[name] = FieldReading(
                        clean_value(name, value), min(w.conf for w in used), used
                    )
            elif len(labels) == 1:
                label_box = label_words[0].box
                for w in label_words[1:]:
                    label_box = label_box.union(w.box)
                pending.append((i, name, label_box))
    for i, name, label_box in pending:
        if name in fields:
            continue
        box = per_cell[i][0].box
        label_height = label_box.y1 - label_box.y0
        # The unlabelled cell beside the label in its row, printed bigger than the label and in
        # the field's form, is its value ("Gezeichnet" | "F. Wagner"): the cell under it belongs
        # to the next row's label, whose value may span under both. A neighbour printed as small
        # as the label is the next label, read wrong ("名称" | "样 代号" for "图样代号"); then, in a
        # row of labels over a row of values, the cell under the label is the value. Under a
        # person's label, a word that is no name is the next row's label. A big cell holding only
        # its label has its value nowhere else: the field is empty on this drawing.
        beside = _right_of(i, label_box, per_cell, label_cells)
        if beside and not valid_value(
            name, clean_value(name, " ".join(w.raw_text for w in beside))
        ):
            beside = []  # the next field's value ("DATE" | "TMPS34/TMPT06"): not this one's form
        below = []
        if beside and (
            max(w.box.y1 - w.box.y0 for w in beside) >= 1.15 * label_height
            or _latin_beside_chinese(per_cell[i][1], beside)
        ):
            below = beside
        elif box.y1 - box.y0 <= 3.5 * label_height:
            below = _below(i, per_cell, label_cells)
            if name in _PERSON_FIELDS and not _is_name(" ".join(w.raw_text for w in below)):
                below = []  # a word under "GEZEICHNET" that is no name: the next row's label
        below = below or beside
        if below:
            value = " ".join(w.raw_text for w in below)
            fields[name] = FieldReading(
                clean_value(name, value), min(w.conf for w in below), tuple(below)
            )
        if name == "approved_by" and below is beside and beside:
            signed = _signoff_date(i, label_box, per_cell, label_cells)
            if signed is not None:
                fields.setdefault("approved_date", signed)
    approver = fields.get("approved_by")
    on_approval = DATE.search(approver.value) if approver is not None else None
    if approver is not None and on_approval and valid_value("date", on_approval.group(1)):
        # The approver's name and date in one cell ("周建国 2026.02.25").
        fields.setdefault(
            "approved_date", FieldReading(on_approval.group(1), approver.conf, approver.words)
        )
    if "date" not in fields and "approved_date" in fields:
        # A GB/T 10609.1 grid dates each sign-off and has no date cell of its own: the drawing's
        # date is the day it was approved (released), not the day it was begun.
        fields["date"] = fields["approved_date"]
    if "date" not in fields:
        for _, words in per_cell:
            match = DATE.search(" ".join(w.raw_text for w in words))
            if match:
                dated = tuple(w for w in words if DATE.search(w.raw_text)) or tuple(words)
                fields["date"] = FieldReading(match.group(1), min(w.conf for w in words), dated)
                break
    if "size" not in fields:
        for _, words in per_cell:
            text = " ".join(w.raw_text for w in words).strip()
            if re.fullmatch(r"A[0-4]", text):
                fields["size"] = FieldReading(text, min(w.conf for w in words), tuple(words))
                break
    return {k: v for k, v in fields.items() if v.value}


#: What a person's name looks like under its label: an initial ("H. Berger") or Chinese ("王明").
_NAME = re.compile(r"^(?:[A-Z]\.\s?[A-Za-zÀ-ÿ]|[\u3400-\u9fff]{2,4}$)")
_PERSON_FIELDS = (
    "drawn_by",
    "checked_by",
    "approved_by",
    "standardised_by",
    "process_by",
    "technical_reference",
)


def _is_name(text: str) -> bool:
    """Whether ``text`` looks like a person's name (Chinese characters Tesseract spaced apart, "张 伟",
    joined first)."""
    return bool(_NAME.search(re.sub(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])", "", text)))


def _value_start(tokens: list[str], pos: int, width: int, end: int, name: str) -> int:
    """Where a label's value begins among a cell's tokens: after the label, its second language
    ("/ritningsnummer", "by/Godk. av") and the words joining it to the value ("acc. to")."""
    start = pos + width
    while start < end and tokens[start].startswith("/"):
        start += 1  # the second language of a bilingual label ("/ritningsnummer")
    found = split_label(" ".join(tokens[pos:end]))
    if found is not None and found.field == name:
        # The glossary knows the label's other spellings: what it leaves is the value.
        start = max(start, end - len(found.rest.split()))
    return start


def _value_rows(
    label: list[OcrWord], pairs: list[tuple[str, OcrWord]]
) -> list[tuple[str, OcrWord]]:
    """A value printed bigger than its label: only its rows. The label's own rows (a second
    language, "generella toleranser där ej annat anges enligt") are the label's size."""
    if not label or not pairs:
        return pairs
    label_height = max(w.box.y1 - w.box.y0 for w in label)
    rows = _text_rows(pairs)
    heights = [max(w.box.y1 - w.box.y0 for _, w in row) for row in rows]
    big = [row for row, h in zip(rows, heights, strict=True) if h >= 1.3 * label_height]
    if not big or len(big) == len(rows):
        return pairs
    return [pair for row in big for pair in row]


def _text_rows(pairs: list[tuple[str, OcrWord]]) -> list[list[tuple[str, OcrWord]]]:
    """Tokens in reading order grouped into the printed rows they stand on."""
    rows: list[list[tuple[str, OcrWord]]] = []
    for pair in pairs:
        word = pair[1]
        if rows:
            last = rows[-1][-1][1]
            if abs(_centre_y(word) - _centre_y(last)) < 0.5 * (last.box.y1 - last.box.y0):
                rows[-1].append(pair)
                continue
        rows.append([pair])
    return rows


def _label_under(
    pairs: list[tuple[str, OcrWord]],
) -> tuple[str, list[tuple[str, OcrWord]], str] | None:
    """(field, value tokens, the label's unit or "") of a cell whose value is written over its
    label: the last row is a label and nothing else, printed smaller than the rows above it (ISO
    7200 blocks that put the small label under the value). A cell read top to bottom would find
    the label with nothing after it."""
    rows = _text_rows(pairs)
    if len(rows) < 2:
        return None
    tokens = [t for t, _ in rows[-1]]
    match = match_label(tokens, 0)
    unit = None if match is None else _only_label(tokens, match[0], match[1])
    if match is None or unit is None:
        return None
    label_height = max(w.box.y1 - w.box.y0 for _, w in rows[-1])
    above = [pair for row in rows[:-1] for pair in row]
    if max(w.box.y1 - w.box.y0 for _, w in above) < 1.15 * label_height:
        return None
    return match[0], above, unit


#: A unit written after a label ("重量(kg)", "Weight [kg]", "Masse kg").
_UNIT = re.compile(r"[(\[]?\s*(kg|g|lbs?|mm|in|t)\s*[)\]]?", re.I)


def _only_label(tokens: list[str], name: str, start: int) -> str | None:
    """The unit of a label row that says nothing but the label ("" when it gives none): the
    tokens after its first ``start`` are its second language ("材料 MATERIAL", "图号 DWG NO.") or
    its unit ("重量 (kg)"). None when they say more."""
    units = [m.group(1) for t in tokens[:start] if (m := _GLUED_UNIT.search(t.lower()))]
    pos = start
    while pos < len(tokens):
        token = tokens[pos].strip(".:;,|/")
        again = match_label(tokens, pos)
        unit = _UNIT.fullmatch(token)
        if again is not None and again[0] == name:
            units += [
                m.group(1)
                for t in tokens[pos : pos + again[1]]
                if (m := _GLUED_UNIT.search(t.lower()))
            ]
            pos += again[1]
        elif not token or unit:
            units += [unit.group(1)] if unit else []
            pos += 1
        else:
            return None
    return units[0].lower() if units else ""


def _latin_beside_chinese(label: list[OcrWord], beside: list[OcrWord]) -> bool:
    """Whether a Chinese label's neighbour is its value though printed hardly bigger: a value with
    digits and no Chinese ("材料" | "45 GB/T 699" of a GB/T 10609.1 block) is no misread Chinese
    label (those the rule of the bigger neighbour guards against read as Chinese or as junk
    letters, without digits)."""
    label_text = " ".join(w.raw_text for w in label)
    text = " ".join(w.raw_text for w in beside)
    return (
        bool(_HAN.search(label_text)) and not _HAN.search(text) and any(ch.isdigit() for ch in text)
    )


def _signoff_date(
    i: int,
    label: Box,
    per_cell: list[tuple[Cell, list[OcrWord]]],
    label_cells: set[int],
) -> FieldReading | None:
    """The date of a sign-off written in a cell of its own after the name (GB/T 10609.1: 批准 |
    周国强 | 2026.03.16): the unlabelled cell right of the name's cell, when it holds a date and
    nothing else. Without it the grid's dates are loose cells (the approver's date read as the
    next label's value)."""
    beside = _right_index(i, label, per_cell)
    if beside is None:
        return None
    name_box = per_cell[beside][0].box
    after = _right_index(beside, Box(name_box.x0, name_box.y0, name_box.x1, name_box.y1), per_cell)
    if after is None or after in label_cells:
        return None
    words = per_cell[after][1]
    text = " ".join(w.raw_text for w in words).strip()
    match = DATE.fullmatch(text)
    if not words or match is None or not valid_value("date", match.group(1)):
        return None
    return FieldReading(match.group(1), min(w.conf for w in words), tuple(words))


def _right_index(i: int, label: Box, per_cell: list[tuple[Cell, list[OcrWord]]]) -> int | None:
    """The cell touching cell ``i`` on its right in the same row, when ``label`` stands in the
    middle of cell ``i``'s height (see :func:`_right_of`)."""
    box = per_cell[i][0].box
    height = box.y1 - box.y0
    middle = (label.y0 + label.y1) / 2 - (box.y0 + box.y1) / 2
    if abs(middle) > 0.2 * height or height > 5 * (label.y1 - label.y0):
        return None
    for j, (cell, _) in enumerate(per_cell):
        c = cell.box
        shared = min(c.y1, box.y1) - max(c.y0, box.y0)
        if (
            j != i
            and 0 <= c.x0 - box.x1 <= max(12.0, 0.02 * (box.x1 - box.x0))
            and shared > 0.7 * min(c.y1 - c.y0, box.y1 - box.y0)
        ):
            return j
    return None


def _right_of(
    i: int,
    label: Box,
    per_cell: list[tuple[Cell, list[OcrWord]]],
    label_cells: set[int],
) -> list[OcrWord]:
    """Text of the unlabelled cell touching cell ``i`` on its right in the same row, when cell ``i``
    is a label's cell only ("DRAWN BY" | name, "Benämning" | "Hjulnav"): the label stands in the
    middle of its cell's height. A label at the top of a taller cell leaves room for its value
    under it, in its own cell (an empty "Appr. by" box), and takes nothing from its neighbour."""
    j = _right_index(i, label, per_cell)
    if j is None or j in label_cells:
        return []
    return per_cell[j][1]


def _below(
    i: int, per_cell: list[tuple[Cell, list[OcrWord]]], label_cells: set[int]
) -> list[OcrWord]:
    """Text of the cell right under cell ``i`` in the same column (table layouts), if unlabelled."""
    box = per_cell[i][0].box
    options = []
    for j, (cell, _) in enumerate(per_cell):
        c = cell.box
        if j == i or c.y0 < box.y1 - 4:
            continue
        shared = min(c.x1, box.x1) - max(c.x0, box.x0)
        if shared > 0.5 * min(c.x1 - c.x0, box.x1 - box.x0):
            options.append((c.y0 - box.y1, j))
    if not options:
        return []
    distance, j = min(options)
    # Only the touching cell counts (the ruling line between them is a few pixels thick).
    if distance > max(12.0, 0.02 * (box.x1 - box.x0)) or j in label_cells:
        return []
    return per_cell[j][1]


_SCALE = re.compile(r"\d+(?:[.,]\d+)?[:/]\d+(?:[.,]\d+)?")


#: Fields written in words (of any language), whose OCR slips the glossary can mend.
_WORDED = ("title", "material", "surface_treatment", "heat_treatment", "project")
#: The further fields of ISO 7200 title blocks (words, names).
_ISO_7200 = ("department", "technical_reference", "document_type", "document_status", "owner")
#: A standard's name: "ISO 2768-mK", "DIN ISO 2768-1 m", "SS-ISO 2768-1", "GB/T 1804-m".
_STANDARD = re.compile(r"\b(?:DIN|ISO|SS|EN|GB/T|JIS|ANSI|ASME|BS)\b[ -]?(?:[A-Z]+[ -]?)?\d")


def clean_value(name: str, value: str) -> str:
    if name == "drawing_number" and "[" not in value:
        # Drawing numbers hold no brackets: an unpaired "]" closing one is a plain "1" (sans-serif
        # ones without a foot are read so).
        value = re.sub(r"(?<=[A-Za-z0-9])\](?=\s|$)", "1", value)
    if name == "sheet":
        # A sheet is counted in digits: a stroke standing alone ("1 OF |") is a sans-serif 1, and
        # so are the strokes around "von" in "lvonl" or "1vonil".
        value = re.sub(r"(?<!\S)[|Il\]](?!\S)", "1", value)
        value = re.sub(
            r"^[|Iil\]]+(?=\s*(?:of|von|av)\s*\S)|(?<=of|on|av)[|Iil\]]+$|(?<=of |on |av )[|Iil\]]+$",
            "1",
            value,
            flags=re.IGNORECASE,
        )
        value = re.sub(r"(\d)\s*(of|von|av)\s*(?=\d)", r"\1 \2 ", value, flags=re.IGNORECASE)
        # "共2张第1张" (of 2 sheets, sheet 1) spaced as it is written.
        value = re.sub(r"\s*([共第])\s*(\d+)\s*张\s*", r" \1 \2 张 ", value).strip()
    value = re.sub(r"\s+", " ", value).strip()
    if name != "sheet":  # "共 2 张 第 1 张" is spaced as written
        # Chinese is written without spaces; Tesseract puts some between its characters.
        value = re.sub(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])", "", value)
    # A sub-label left without its value ("LINEAR: +0.1/-0.1 WINKEL:"): not part of the value.
    value = re.sub(r"(?<=\S)(?:\s+[^\W\d_]+:)+$", "", value) or value
    abbreviated = bool(re.search(r"(?<![^\W\d_])[^\W\d_]{1,4}\.$", value.rstrip()))
    value = value.strip(" |[]{}_—-:;,.")
    if abbreviated and name in _WORDED + _PERSON_FIELDS + _ISO_7200:
        value += "."  # an abbreviation keeps its full stop ("DRIVES ENG.")
    value = re.sub(r"^/\s*", "", value)  # the slash between a label's two languages
    value = strip_connective(value) or value
    if name in ("drawing_number", "title"):
        # A name wrapped after its underscore ("Weird_Gripper_Cam_" over "Adapter") is one word.
        value = re.sub(r"_ (?=\w)", "_", value)
    if name == "drawing_number":
        # Identifiers have no space beside their joining marks: "Keyence _Lift-12. 19" was read
        # from "Keyence_Lift-12.19".
        value = re.sub(r"\s*([_\-.])\s*(?=\w)", r"\1", value)
        if len(value.split()) <= 2:
            value = value.replace(" ", "")
    if name in _WORDED:
        # Swedish and German words the English OCR model garbled ("Kul6or"), and micrometres.
        value = re.sub(r"[^\s:;,]+", lambda m: known_spelling(m.group(0)) or m.group(0), value)
        value = re.sub(r"(?<=\d)\s?[uμ]m\b", "µm", value)
    if name in ("material", "drawing_number"):
        # A grade's S read as "$" ("$355J2"), a stroke glued before a code ("rMM-2207-3").
        value = " ".join(mend_code(w) for w in value.split(" "))
    if name in _PERSON_FIELDS:
        # A stroke of a Chinese name read as a mark between its characters ("孙 \\ 立").
        value = re.sub(r"(?<=[\u3400-\u9fff])\s*[^\w\s]\s*(?=[\u3400-\u9fff])", "", value)
        # An initial's full stop read as a comma ("F, Wagner").
        value = re.sub(r"^([A-Z]),\s?(?=[A-Z][a-z])", r"\1. ", value)
    if name == "revision" and value.isalpha() and len(value) <= 2:
        # A revision letter is a capital; "Cc" is one letter read as its two cases.
        value = (
            value[0].upper() if len(value) == 1 or value[0].lower() == value[1].lower() else value
        )
    if name == "general_tolerance":
        # The standard the tolerances follow, whatever of the label's wording was read before it.
        standard = _STANDARD.search(value)
        value = value[standard.start() :] if standard else value
    if name == "scale":
        value = value.replace(" ", "").replace(";", ":")
        # A scale is a ratio; anything else is a misreading, and no value is better than a wrong one.
        value = value if _SCALE.fullmatch(value) else ""
    if name == "size":
        match = re.search(r"\bA[0-4]\b", value)
        value = match.group(0) if match else value
    return value
