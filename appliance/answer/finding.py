"""The extract that answers a question, in the order the drawing states things.

A question naming a table row is answered from its cell (:mod:`appliance.answer.tables`); one over
the dimensions from the typed set (:mod:`appliance.answer.dimensions`); one naming a title-block
field from the value (:mod:`appliance.answer.extractive`); else the best qualifying line, which must
show the form or the units of what was asked. Each of those modules builds on
:mod:`appliance.answer.extractive`; this one sits above them all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

from appliance.answer import dimensions, forms, notes, parts, tables
from appliance.answer.context import Source, same_page
from appliance.answer.extractive import Extract, line_extract
from appliance.answer.fields import (
    FIELD_LABELS,
    FIELD_WORDS,
    RATIO,
    WEIGHT,
    asked_field,
    field_extract,
    labelled_value,
)
from appliance.answer.quantities import (
    DURATION_ASKED,
    TORQUE_ASKED,
    asks_quantity,
    states_quantity,
)
from appliance.answer.subjects import (
    COMPONENTS,
    compact_code,
    identity_terms,
    names_absent,
    of_a_component,
    subject_sources,
)
from appliance.answer.terms import normalise, term_matches, terms
from appliance.drawing_terms import LABELS, synonyms, translate
from appliance.errors import public_name
from appliance.index.soundalike import close_identifiers
from appliance.vision.tables import PARTS_ROW, Table
from appliance.vision.titlefields import DATE


def find_extract(
    question: str, sources: Sequence[Source], *, heard: bool = False
) -> Extract | None:
    """A table cell, a typed dimension or a title-block field when the question asks for one, else
    the best qualifying line; None when nothing in the sources answers.

    Whatever answers, the drawing it quotes must state every designation the question names (see
    :func:`unstated_designations`): "the M6 bolts" of a drawing that shows only M8 bolts, "hole
    H6" of a five-hole table or "drawing A-1025" when A-1024 is indexed are not asked of it.
    A ``heard`` question (a speech recogniser's transcript) is read with its codes as the sources
    name them (:func:`as_named`), and is not held to its designations: a recogniser hears codes
    and sizes worst ("1020-1.20", "6th", "C2022"), and on the spoken tuning questions the check
    refused six right answers for every trap it caught (bench/answer_eval.py --heard).
    """
    if heard:
        question = as_named(question, sources)
    found = _find(question, sources)
    if found is None:
        return None
    quoted = next((s for s in sources if s.number == found.source_number), None)
    if quoted is None:
        return found
    drawing = same_page(quoted, sources)
    if not heard and unstated_designations(question, drawing):
        return None
    return found


def as_named(question: str, sources: Sequence[Source]) -> str:
    """The question with each code that comes close to exactly one source's drawing number (or
    file name, when it has no number) written as that source writes it: "PB-441-001" for
    GB-4410-01, "1024" for A-1024 — within an identifier's edits, or the tail of four digits or
    more that only one of them ends with (the index's own rule for names heard nearly right)."""
    names: dict[str, str] = {}
    for src in sources:
        name = src.drawing_number or PurePosixPath(public_name(src.source)).stem
        if name:
            names[compact_code(name)] = name
    for token in designations(question):
        written = names.get(compact_code(token))
        if written is not None:
            # The same code split elsewhere ("G-B441001" for GB-4410-01): written as the source
            # writes it, so the rules that look for the drawing's number find it.
            question = question.replace(token, written)
            continue
        close = close_identifiers(names, {compact_code(token)})
        if len(close) == 1:
            question = question.replace(token, names[close[0]])
    return question


#: A file name is the drawing's name, not something it states.
_FILE_NAME = re.compile(r"\.(?:png|jpe?g|pdf|tiff?|md)$", re.I)


def _designation_pattern(token: str) -> re.Pattern[str]:
    """How a designation is written on a drawing: any case, "Ø 11,00" for "Ø11", "R1.00" for "R1",
    "6x M6x1" for "M6" (a thread's pitch after it), "UR10_29.20" for "UR10"."""
    token = token.rstrip(".,-/")
    pieces = re.split(r"(\d+(?:[.,]\d+)?)", token)
    body = ""
    for part in pieces:
        if not part:
            continue
        if body and part not in "⌀Øø" and body[-1] not in "?":
            # A code written with a dash or a space between its letters and its digits is the
            # same code: "A1024" as a recogniser writes it is "A-1024" on the drawing.
            body += r"[-\s]?"
        if re.fullmatch(r"\d+(?:[.,]\d+)?", part):
            whole, _, frac = part.replace(",", ".").partition(".")
            frac = frac.rstrip("0")
            body += re.escape(whole) + (
                r"[.,]" + re.escape(frac) + "0*" if frac else r"(?:[.,]0+)?"
            )
        elif part in "⌀Øø":
            body += r"[⌀Øø]\s?"
        else:
            body += r"\s?".join(re.escape(c) for c in part)
    # A symbol or a count may stand before it ("4xØ6.60", "2x M10"); a letter or digit may not.
    lead = r"(?<![^\W_xXØø])" if re.match(r"[^\W_]", token) else ""
    return re.compile(lead + body + r"(?!\d|[.,]\d*[1-9])", re.I)


def designations(question: str) -> list[str]:
    """The words of a question that designate something by a digit: a code or size ("M6", "Ø50",
    "H6", "A-1025", "3.40", "UR10"), file names left out."""
    words = re.sub(r"([⌀Øø])\s+(?=\d)", r"\1", question).split()
    out = []
    for word in words:
        word = re.sub(r"(?:'s|’s)$", "", word.strip("?!,;:()\"'“”‘’")).rstrip(".")
        if re.search(r"\d", word) and not _FILE_NAME.search(word):
            out.append(word)
    return out


def unstated_designations(question: str, drawing: Sequence[Source]) -> list[str]:
    """The designations the question names that the drawing's retrieved text does not state.

    The drawing's text, its fields, typed dimensions and table cells count; the drawing's own
    number and file name are names, not designations."""
    if not drawing:
        return []
    stated = "\n".join(
        [s.text for s in drawing]
        + [v for s in drawing for v in s.fields.values()]
        + [json.dumps(s.dimensions, ensure_ascii=False) for s in drawing]
        + [json.dumps(s.tables, ensure_ascii=False) for s in drawing]
        + [s.drawing_number for s in drawing]
    )
    missing = []
    for token in designations(question):
        if not _designation_pattern(token).search(stated):
            missing.append(token)
    for letter in _REVISION_ASKED.findall(question):
        if not _states_revision(letter, drawing, stated):
            missing.append(f"revision {letter}")
    return missing


#: A revision named by its letter ("who approved revision B"): a letter designates as a digit does.
_REVISION_ASKED = re.compile(r"\b(?:[Rr]evision|[Rr]ev\.?)\s+([A-Z])\b(?![-.]\w)")


def _states_revision(letter: str, drawing: Sequence[Source], stated: str) -> bool:
    """Whether the drawing states revision ``letter``: as its revision field, a row of its revision
    table, or after a revision label in its text ("Rev B", "Index: B", "版本 B")."""
    if any(s.fields.get("revision", "").strip() == letter for s in drawing):
        return True
    revisions = (Table.from_json(r) for s in drawing for r in s.tables)
    if any(t.kind == "revisions" and t.row(letter) is not None for t in revisions):
        return True
    after_label = re.compile(
        r"(?:rev(?:ision)?|index|zust(?:and)?|utg[åa]va|[äa]nd(?:erung|ring)\w*|版本)\W{0,3}"
        + re.escape(letter)
        + r"(?![A-Za-z0-9])",
        re.I,
    )
    return bool(after_label.search(stated))


def _find(question: str, sources: Sequence[Source]) -> Extract | None:
    row = tables.asks_table(question)
    if row is not None:
        cell, has_table = tables.table_extract(question, row, sources)
        if cell is not None or (has_table and not row.before):
            return cell  # (None: the drawing's table has no such row or column)
        if row.before:
            # No change says what it was: a note may ("HARDNESS WAS 45-50 HRC").
            return _find_without_table(question, sources)
        return _without_table(question, row, sources)
    return _find_without_table(question, sources)


def _find_without_table(question: str, sources: Sequence[Source]) -> Extract | None:
    part, settled = parts.parts_extract(question, sources)
    if part is not None or settled:
        return part  # a row of the parts list named ("item 3", "the bearings"); None: no such cell
    if notes.asked_note(question) is not None:
        return notes.numbered_note_extract(question, sources)
    edge = dimensions.edge_note_extract(question, sources)
    if edge is not None:
        return edge
    if _DEBURR_ASKED.search(question):
        deburr = _deburr_note(question, sources)
        if deburr is not None:
            return deburr
    if _PROJECTION_ASKED.search(question):
        return _projection(question, sources)
    field, phrase = asked_field(question)
    role = _ROLE_ASKED.search(question) if field in _PEOPLE or _WHO.match(question) else None
    if role is not None:
        return _person_of_role(question, role, sources)
    if _COATING_THICKNESS.search(question):
        return _coating_thickness(question, sources)
    # "What finish is the bore honed to?" names a feature but asks for its surface, not a size;
    # "how long is the leak test" asks a time, not a length.
    thread_note = _thread_note(question, sources)
    if thread_note is not None:
        return thread_note
    if (
        dimensions.asks_dimension(question)
        and field not in _SURFACE_FIELDS
        and field not in _SHEET_FIELDS
        and not DURATION_ASKED.search(question)
        and not _NOT_A_LENGTH.search(question)
    ):
        found = dimensions.dimension_extract(question, sources)
        if found is None and asks_quantity(question):
            # No dimension says it; a note of the same drawing may, with its unit ("CASE HARDEN
            # .030 DEEP"). Another drawing's note would answer for the wrong part.
            subject = subject_sources(question, "", sources)[:1]
            files = {(s.source, s.page) for s in subject}
            found = line_extract(question, [s for s in sources if (s.source, s.page) in files])
        if found is not None and not found.field and not states_quantity(question, found.quote):
            return None  # a line in place of a missing dimension, without the quantity asked
        return found
    if field == "scale" and _VIEW.search(question):
        # "the scale of section A-A": a view drawn at its own scale says so beside its name; the
        # title block's scale is the sheet's.
        line = line_extract(question, sources)
        if line is not None and RATIO.search(line.quote) and _VIEW.search(line.quote):
            return line
        own = _view_scale(question, sources)
        if own is not None or _DETAIL.search(question):
            # A detail is drawn enlarged, at a scale written by it: the sheet's would be a guess.
            return own
    if field in _SURFACE_FIELDS:
        # "How are the edges finished", "how smooth must the pin bore be": the line about that
        # feature, before the part's own finish in the title block.
        featured = _feature_line(question, field, sources)
        if featured is None:
            featured = _step_of_treatment(question, phrase, sources)
        if featured is not None:
            return featured
    if field == "roughness" and phrase == "surface finish":
        # "Surface finish" is a roughness on an ANSI drawing ("SURFACE FINISH: Ra 1.6") and the
        # treatment on others ("Ytbehandling: Anodiserad"): the roughness when one is stated.
        rough = _find_field(question, field, phrase, sources)
        if rough is not None:
            return rough
        field = "surface_treatment"
    if field == "date":
        # "When was it designed", "the date next to the checker": the date written with that
        # person's name, not the sheet's own date.
        signed = _date_of_role(question, sources)
        if signed is not None:
            return signed
    if field:
        found = field_extract(question, field, phrase, sources)
        if found is not None and field in _NEVER_THE_NAME and _names_its_drawing(found, sources):
            return None  # "MATERIAL: Keyence_Lift-12.19": the label's cell read with the name
        if found is not None and not states_quantity(question, found.quote):
            # "How hard is it?" of "Heat treatment: Case hardened": the note that gives the
            # hardness in its unit answers; the field does only when no line states it.
            stated = _line_answer(question, field, sources) or _only_line_with_unit(
                question, sources
            )
            if stated is not None:
                return stated
        if found is not None:
            # "Werkstoff: siehe Stückliste": the parts list's row for the part itself.
            own = parts.own_row_extract(found, field, sources)
            return own if own is not None else _followed_to_its_note(found, sources)
        if names_absent(question, phrase, sources):
            return None  # a field of a drawing that is not among the sources
        subject = subject_sources(question, phrase, sources)[:1]
        if field == "material" and subject and of_a_component(question, phrase, subject[0]):
            return None  # the drawing states its part's material, not this component's
    line = _line_answer(question, field, sources)
    if line is None and asks_quantity(question):
        # "What hardness must KM-6027-02 reach?" of "Sätthärdas, härddjup 0.6-0.9 mm, 58-62 HRC":
        # no word is shared, but one line of the drawing states the quantity in its unit.
        line = _only_line_with_unit(question, sources)
    form = forms.asked_form(question)
    if line is None and form is not None:
        # "Ra 12" under a roughness symbol, "ABS, BLACK" in the material cell: the value in the
        # asked form, where no line shares the question's words.
        return forms.form_extract(question, form, sources)
    return line


#: A question about a drawing's thread.
_THREAD = re.compile(r"\bthreads?\b|\bthreaded\b", re.I)


def _thread_note(question: str, sources: Sequence[Source]) -> Extract | None:
    """The one line of the drawing asked about that speaks of its thread and of what else the
    question asks ("What thread undercut does it call for?" of "Gewindefreistich DIN 76-B",
    "is the thread cut or rolled?" of "Gängan rullas"): the thread's size is not the answer.
    None when the question names a size of its own, or no line or several qualify."""
    if not _THREAD.search(question):
        return None
    subject = subject_sources(question, "", sources)[:1]
    if not subject:
        return None
    src = subject[0]
    number = compact_code(src.drawing_number)
    if any(compact_code(t) != number for t in designations(question)):
        return None  # "the M8 thread": its size is asked of
    own = set(terms(f"{src.title} {translate(src.title)}"))
    asked = {t for t in terms(question) if not t.startswith("thread") and t not in own}
    found = []
    for line in src.text.splitlines():
        said = set(terms(line)) | set(terms(translate(line)))
        if any(t.startswith("thread") for t in said) and any(term_matches(t, said) for t in asked):
            found.append(line.strip())
    if len(set(found)) != 1:
        return None
    return Extract(src.number, found[0], "", 1.0)


#: The title-block roles a date may be asked of, by the words that name them.
_ROLES = (
    ("drawn_by", re.compile(r"\b(?:design(?:ed|er)?|drawn|drew|draft(?:ed|sman)?)\b", re.I)),
    ("checked_by", re.compile(r"\b(?:check(?:ed|er)?|review(?:ed|er)?)\b", re.I)),
    ("approved_by", re.compile(r"\b(?:approv(?:ed|al|er)|released)\b", re.I)),
)


def _date_of_role(question: str, sources: Sequence[Source]) -> Extract | None:
    """The date in the cell of the one role the question names ("Drawn by: 王磊 2026.02.10");
    None when it names none or several, or the cell holds no date."""
    named = [field for field, words in _ROLES if words.search(question)]
    if len(named) != 1:
        return None
    # The role's words ask for the cell; they name no drawing ("the designer").
    role_words = dict(_ROLES)[named[0]]
    found = field_extract(role_words.sub(" ", question), named[0], "", sources)
    date = DATE.search(found.quote) if found is not None else None
    if found is None or date is None:
        return None
    return Extract(found.source_number, date.group(0), "date", found.score, found.box)


#: Parts a tightening torque is always for.
_FASTENERS = frozenset({"bolt", "screw", "nut", "stud"})


def _only_line_with_unit(question: str, sources: Sequence[Source]) -> Extract | None:
    """The one line of the drawing the question is about that states the quantity it asks for
    in its unit; None when none or several do (which one is meant is then not known)."""
    subject = subject_sources(question, "", sources)[:1]
    if not subject:
        return None
    # A size or code the question names ("the M6 screws") must be the line's, not the drawing's
    # other line: only a question naming nothing but the drawing is answered this way.
    names = {compact_code(subject[0].drawing_number), compact_code(public_name(subject[0].source))}
    if any(compact_code(d) not in names for d in designations(question)):
        return None
    files = {(s.source, s.page) for s in subject}
    # "How hard are the locating pins": a component's quantity is only its own line's.
    components = {
        w.rstrip("s")
        for w in re.findall(r"[a-z-]+", question.lower())
        if w.rstrip("s") in COMPONENTS or w in COMPONENTS
    }
    components -= {t.rstrip("s") for t in identity_terms(subject[0])}
    if TORQUE_ASKED.search(question):
        components -= (
            _FASTENERS  # a tightening torque is a fastener's whether the line says so or not
        )
    found: dict[str, Extract] = {}
    changes: dict[str, Extract] = {}
    for src in sources:
        if (src.source, src.page) not in files:
            continue
        for line in src.text.splitlines():
            line = line.strip()
            if not line or len(line) > 120 or not states_quantity(question, line):
                continue
            if PARTS_ROW.match(line):
                continue  # a parts-list row's cells answer for their own part only (parts.py)
            said = f"{line}\n{translate(line)}".lower()
            if all(part in said for part in components):
                kept = changes if _REVISION_ROW.match(line) else found
                kept.setdefault(line, Extract(src.number, line, "", 0.5))
    # A revision row says what a value was changed to ("Härdning ändrad till 58 HRC"); the note
    # saying the same is the one to quote, and the row only when no note states it.
    found = found or changes
    return next(iter(found.values())) if len(found) == 1 else None


#: Deburring asked in a shop's words ("the deburr requirement", "any burrs").
_DEBURR_ASKED = re.compile(r"\b(?:de-?burr\w*|burrs?)\b", re.I)
#: A note on burrs or sharp edges, as drawings write it in English, German, Swedish and Chinese.
_DEBURR_NOTE = re.compile(
    r"burr|sharp\s+edges?|break\s+(?:all\s+)?(?:sharp\s+)?edges|edges?\s+broken|entgrat"
    r"|kanten\s+gebrochen|scharfe\s+kanten|grad(?:as|ad|ning)|kanter\s+brytes|毛刺|锐边|倒钝",
    re.I,
)


def _asked_drawing(question: str, sources: Sequence[Source]) -> list[Source]:
    """The sources of the one drawing page the question is about ([] when none)."""
    subject = subject_sources(question, "", sources)[:1]
    return same_page(subject[0], sources) if subject else []


def _deburr_note(question: str, sources: Sequence[Source]) -> Extract | None:
    """The line of the drawing asked about that says how its burrs and sharp edges are treated
    ("What's the deburr requirement?" of "BREAK ALL SHARP EDGES 0.5 X 45°"); None when none does."""
    for src in _asked_drawing(question, sources):
        for line in src.text.splitlines():
            line = line.strip()
            if line and len(line) <= 160 and _DEBURR_NOTE.search(line):
                return Extract(src.number, line, "", 0.5)
    return None


#: A revision row as the index writes it (vision.tables.table_text): "Revision B: ...".
_REVISION_ROW = re.compile(r"Revision [^:]{1,4}: ")


#: Quantities no dimension states: "what torque does the M16x1,5 thread need" is not its size.
_NOT_A_LENGTH = re.compile(
    r"\b(?:torque|tighten\w*|pressure|temperature|hardness|how hard|rpm|speed|price|cost)\b", re.I
)

#: A field whose value sends the reader to a note: "FINISH: SEE NOTE 7", "siehe Anm. 3", "se not 2".
_SEE_NOTE = re.compile(
    r"\b(?:see|siehe|se|refer to)\s+(?:general\s+)?(?:note|anm(?:erkung)?|not|hinweis)\.?\s*(\d{1,2})\b"
    r"|见(?:注|技术要求)\s*(\d{1,2})",
    re.I,
)


def _followed_to_its_note(found: Extract, sources: Sequence[Source]) -> Extract:
    """A field that says "see note 7" answered by note 7 of its drawing, when the drawing's notes
    are numbered that far; else the field as written."""
    see = _SEE_NOTE.search(found.quote)
    quoted = next((s for s in sources if s.number == found.source_number), None)
    if see is None or quoted is None:
        return found
    drawing = same_page(quoted, sources)
    note = notes.numbered_note_extract(f"note {see[1] or see[2]}", drawing)
    return note if note is not None else found


#: Features of a part a surface question may be about.
_FEATURES = re.compile(
    r"\b(edges?|bores?|holes?|faces?|seats?|threads?|slots?|grooves?|flanks?|shoulders?|journals?)\b",
    re.I,
)


def _feature_line(question: str, field: str, sources: Sequence[Source]) -> Extract | None:
    """The line of the asked drawing about the feature a surface question names, with a roughness
    when one is asked; None when the question names no feature or no line speaks of it."""
    named = _FEATURES.search(question)
    if named is None:
        return None
    feature = normalise(named.group(1))
    wanted = {feature, *synonyms(feature), *(normalise(w) for w in synonyms(feature.rstrip("s")))}
    subject = subject_sources(question, "", sources)[:1]
    files = {(s.source, s.page) for s in subject}
    drawing = [s for s in sources if (s.source, s.page) in files]

    def about_it(quote: str) -> bool:
        said = set(terms(quote)) | set(terms(translate(quote)))
        if not any(term_matches(w, said) for w in wanted):
            return False
        return field != "roughness" or _LINE_FORMS["roughness"].search(quote) is not None

    # The feature's synonyms count as the question's words: "the pin bore" is a "Bolzenbohrung"
    # (bolt hole).
    asked = f"{question} {' '.join(sorted(wanted))}"
    return line_extract(asked, drawing, about_it) if drawing else None


#: Treatments named by their process ("before anodize", "after plating").
_PROCESS_WORDS = ("anodis", "anodiz", "plating", "plated", "coating", "coated")


def _step_of_treatment(question: str, phrase: str, sources: Sequence[Source]) -> Extract | None:
    """The line of the asked drawing that says the treatment's process together with the other
    thing asked ("mask anything before anodize?" of "MASK ⌀1.5010 BORE FROM ANODIZE"): the
    question asks about a step of the treatment, not which treatment it is."""
    if phrase not in _PROCESS_WORDS:
        return None
    subject = subject_sources(question, "", sources)[:1]
    if not subject:
        return None
    src = subject[0]
    own = set(terms(f"{src.title} {translate(src.title)} {src.drawing_number}"))
    other = [
        t for t in terms(question) if not t.startswith(phrase[:5]) and t not in own and len(t) > 2
    ]
    if not other:
        return None

    def says_both(quote: str) -> bool:
        said = set(terms(quote)) | set(terms(translate(quote)))
        return any(w.startswith(phrase[:5]) for w in said) and any(
            term_matches(t, said) for t in other
        )

    return line_extract(question, [s for s in sources if s.source == src.source], says_both)


def _line_answer(question: str, field: str, sources: Sequence[Source]) -> Extract | None:
    """The best line of the sources, kept only if it answers what the question asks."""
    as_asked = _answers_as_asked(question, sources)
    if field == "standard":
        of_asked = _standard_of_asked(question)
        line = line_extract(question, sources, lambda quote: as_asked(quote) and of_asked(quote))
    else:
        line = line_extract(question, sources, as_asked)
    if line is not None and field in _NEVER_THE_NAME and _names_its_drawing(line, sources):
        return None  # "MATERIAL: Keyence_Lift-12.19": the label's cell read with the drawing's name
    if line is not None and field in _LINE_FORMS and not _LINE_FORMS[field].search(line.quote):
        return None  # a weight asked, a line without one: the drawing does not state it
    if (
        line is not None
        and field
        and field not in _LINE_FORMS
        and not _names_field(field, line.quote)
    ):
        return None  # a paper format asked, the "Drawn by" line: the drawing does not state it
    if line is not None and not states_quantity(question, line.quote):
        return None  # a torque asked, a line with the bolt's size but no torque
    if line is not None and PARTS_ROW.match(line.quote):
        return None  # a parts-list row is answered cell by cell (parts.py), or not at all
    if line is not None and field and _ends_with_label(field, line.quote):
        return None  # "DO NOT SCALE DRAWING REVISION": the label, its value cell empty
    if line is not None and _another_person(field, line.quote):
        return None  # the approver asked, the drafter's line: the approver's cell is empty
    return line


def _standard_of_asked(question: str) -> Callable[[str], bool]:
    """The test a line's standard must pass: written after another field's label that the question
    does not name, it is that field's ("Surface treatment: Clear anodised General tolerance: ISO
    2768-fH" gives no standard for the anodising)."""
    asked = [t for t in terms(question) if t != "standard"]

    def accept(quote: str) -> bool:
        found = _LINE_FORMS["standard"].search(quote)
        if found is None:
            return True
        before = quote[: found.start()].rstrip()
        if not before.endswith(":"):
            return True
        head = before[:-1].rstrip().lower()
        label = next(
            (lab for labs in LABELS.values() for lab in labs if head.endswith(lab.lower())), None
        )
        return label is None or any(term_matches(t, terms(label)) for t in asked)

    return accept


def _ends_with_label(field: str, quote: str) -> bool:
    """Whether the line ends with one of the field's labels, no value after it."""
    text = quote.rstrip(" :.").lower()
    return any(
        re.search(r"(?<![^\W_])" + re.escape(label.lower()) + r"$", text)
        for label in LABELS.get(field, ())
    )


def _answers_as_asked(question: str, sources: Sequence[Source]) -> Callable[[str], bool]:
    """The test a line must pass to answer the question as asked: "which bearing" wants a line
    naming one; "how hard" or "what torque" a line with the quantity in its unit, and, when the
    question names the thing ("the M5 screws"), the line naming that thing too — a person looks
    for the torque of the M5 screws, not the torque of the M8 bolts."""
    which = _WHICH.match(question) is not None
    quantity = asks_quantity(question)
    names = {
        compact_code(n)
        for s in sources
        for n in (s.drawing_number, s.title, PurePosixPath(public_name(s.source)).stem)
        if n
    }
    things = [
        _designation_pattern(d) for d in designations(question) if compact_code(d) not in names
    ]

    def accept(quote: str) -> bool:
        if which and not _designates(question, quote):
            return False
        if quantity and not states_quantity(question, quote):
            return False
        return not quantity or all(p.search(quote) for p in things)

    return accept


def _find_field(
    question: str, field: str, phrase: str, sources: Sequence[Source]
) -> Extract | None:
    """A field's value, or a line of the drawing that states it in the field's form."""
    found = field_extract(question, field, phrase, sources)
    if found is not None:
        return found
    line = line_extract(question, sources)
    if line is not None and field in _LINE_FORMS and _LINE_FORMS[field].search(line.quote):
        return line
    return None


#: Fields whose value is never the drawing's own name.
_NEVER_THE_NAME = ("material", "surface_treatment", "heat_treatment", "weight")


def _names_its_drawing(line: Extract, sources: Sequence[Source]) -> bool:
    """Whether a line holds its drawing's number, title or file name whole, when that is an
    identifier (a digit in it, or words joined by "_" or "-"; compared by letters and digits alone):
    a label followed by the name is a label whose value was not read. A plain word ("bracket")
    names the part, and a line may well mention the part."""
    src = next((s for s in sources if s.number == line.source_number), None)
    if src is None:
        return False
    quote = compact_code(line.quote)
    names = (src.drawing_number, src.title, PurePosixPath(public_name(src.source)).stem)
    return any(
        len(compact_code(n)) >= 6 and re.search(r"\d|\w[_-]\w", n) and compact_code(n) in quote
        for n in names
    )


#: A question about how the views are arranged: first or third angle projection.
_PROJECTION_ASKED = re.compile(
    r"\bprojection\b|\b(?:first|third|1st|3rd)[- ]angle\b|\bprojektion\w*|\bprojektionsmetod",
    re.I,
)
#: Where a drawing states its projection ("FIRST ANGLE PROJECTION", "THIRD ANGLE", "3RD ANGLE").
_PROJECTION_STATED = re.compile(
    r"\b(?:first|third|1st|3rd)[- ]?angle(?:\s+projection)?\b|\bprojektion\w*\s*[:=]?\s*(?:1|3|e|a)\b",
    re.I,
)


def _projection(question: str, sources: Sequence[Source]) -> Extract | None:
    """The projection the asked drawing states ("FIRST ANGLE PROJECTION"), quoted as written; None
    when it states none in words (the projection symbol is a drawing, not text)."""
    subject = subject_sources(question, "", sources)[:1]
    if not subject or names_absent(question, "projection", sources):
        return None  # a drawing named that is not among the sources: another's would be a guess
    drawing = same_page(subject[0], sources)
    for src in drawing:
        for line in src.text.splitlines():
            stated = _PROJECTION_STATED.search(line)
            if stated:
                return Extract(src.number, stated.group(0), "", 1.0)
    return None


#: A question about a detail view (drawn enlarged, at its own scale).
_DETAIL = re.compile(r"\b(?:details?|einzelheit|detalj)\b", re.I)
#: A line that is a view's scale and nothing else: "2:1", "SCALE 1:2", "A 20 : 1", "MASSSTAB 5:1".
_SCALE_LINE = re.compile(
    r"^\s*(?:(?:detail|view|section|einzelheit|schnitt|snitt|detalj)\s+)?(?P<letter>[A-Z]\b)?"
    r"\s*(?:scale|skala|ma(?:ß|ss)stab|比例)?\s*[:.]?\s*(?P<ratio>\d{1,3}\s?:\s?\d{1,3})\s*$",
    re.I,
)


def _view_scale(question: str, sources: Sequence[Source]) -> Extract | None:
    """The scale a view of the asked drawing is drawn at, from a line that states only a scale
    ("2:1" under detail B, "SCALE 1:2" under the isometric view) and is not the sheet's: the only
    such scale, or the one written with the view's letter. None when none or several qualify."""
    subject = subject_sources(question, "scale", sources)[:1]
    if not subject:
        return None
    drawing = same_page(subject[0], sources)
    sheet = {_ratio(s.fields["scale"]) for s in drawing if s.fields.get("scale")}
    found: dict[str, list[tuple[Source, str, str]]] = {}
    for src in drawing:
        for line in src.text.splitlines():
            match = _SCALE_LINE.match(line)
            if match is None or _ratio(match["ratio"]) in sheet:
                continue
            entry = (src, line.strip(), (match["letter"] or "").upper())
            found.setdefault(_ratio(match["ratio"]), []).append(entry)
    if not found:
        return None
    if len(found) > 1:
        letters = set(_VIEW_LETTER.findall(question))
        found = {r: e for r, e in found.items() if any(letter in letters for _, _, letter in e)}
        if len(found) != 1:
            return None
    src, line, _ = next(iter(found.values()))[0]
    return Extract(src.number, line, "", 1.0)


#: The letter a question names its view by ("detail B", "section A-A", "view C").
_VIEW_LETTER = re.compile(r"\b(?:details?|views?|sections?|schnitt|snitt)\s+([A-Z])\b")


def _ratio(text: str) -> str:
    return re.sub(r"\s", "", text)


#: A view of a drawing named in a question or a line (its own scale may differ from the sheet's).
_VIEW = re.compile(
    r"\b(?:views?|sections?|details?|isometric|schnitt\w*|ansicht\w*|einzelheit|snitt\w*|vy)\b|剖|视图",
    re.I,
)

#: A question asking which one of a kind of thing (a grease, a bearing, a seal).
_WHICH = re.compile(r"\s*which\b", re.I)


def _designates(question: str, quote: str) -> bool:
    """Whether a line names a particular thing: a word with a digit ("ISO 2768-mK", "RAL 9005") or
    a capitalised designation ("FIRST ANGLE") the question did not say. A line mentioning only
    the kind of thing asked for names none."""
    asked = {w.lower() for w in re.findall(r"\w+", question)}
    quote = re.sub(r"^\s*\d{1,2}[.)]\s+", "", quote)  # a note's number says nothing of it
    # A measured value is not a designation: "Ra 0.8 ON BEARING SEATS" says how smooth the seats
    # are, not which bearing sits there.
    measured = _MEASURED.search(quote) is not None
    quote = _MEASURED.sub(" ", quote)
    # In a line written all in capitals every word is capitalised: there the capitals set a
    # designation apart ("FIRST ANGLE PROJECTION") only in a line that measures nothing.
    capitals_say = any(ch.islower() for ch in quote) or not measured
    return any(
        any(ch.isdigit() for ch in word) or (capitals_say and word.isupper() and len(word) > 1)
        for word in re.findall(r"[\w./-]+", quote)
        if word.lower() not in asked
    )


#: Values that measure something (a roughness, a length or angle with its unit, a diameter or
#: radius, a tolerance) rather than name a thing.
_MEASURED = re.compile(
    r"\b(?:Ra|Rz)\s*\d+(?:[.,]\d+)?"
    r"|[⌀Ø]\s*\d+(?:[.,]\d+)?|\bR\d+(?:[.,]\d+)?\b"
    r"|[±]\s*\d+(?:[.,]\d+)?"
    r"|\d+(?:[.,]\d+)?\s*(?:mm|µm|μm|°|%|N\s*·?\s*m|Nm|bar|MPa|kg|g)(?![\w])",
)


#: Fields that speak of a surface: a question naming one is not about the feature's size.
_SURFACE_FIELDS = ("roughness", "surface_treatment")
#: Fields of the sheet, never of a feature: "the scale of the plate with the hole table" names the
#: drawing by its hole, and asks no dimension. (A sheet is not one: "the biggest diameter on the
#: sheet" asks a dimension.)
_SHEET_FIELDS = ("scale",)


def _without_table(
    question: str, row: tables.TableAsk, sources: Sequence[Source]
) -> Extract | None:
    """A table question about a drawing without such a table: its dimensions or lines may say.

    One row of a hole table ("the X position of hole 1") is not any dimension of the drawing: the
    largest diameter is not hole 4's size. Only a line may say it."""
    one_hole = row.kind == "holes" and bool(row.key)
    if dimensions.asks_dimension(question) and not one_hole:
        return dimensions.dimension_extract(question, sources)
    line = line_extract(question, sources)
    if line is not None and one_hole and not _names_hole(row.key, line.quote):
        return None  # a line that does not name the hole
    if (
        line is not None
        and row.kind == "revisions"
        and row.key
        and not _names_change(row.key, line.quote)
    ):
        return None  # "what changed in index b" of a note that only mentions the index
    return line


def _names_change(key: str, quote: str) -> bool:
    """Whether a line names change ``key`` ("Rev. B", "Index b", "Utgåva B", "b |" first in a row)."""
    key = re.escape(key)
    return bool(
        re.search(
            rf"(?:rev(?:ision)?|index|utgåva|änd(?:ring)?|ecn|eco)\W{{0,2}}{key}(?!\w)", quote, re.I
        )
        or re.match(rf"\W*{key}(?![\w.])", quote, re.I)
    )


def _names_hole(key: str, quote: str) -> bool:
    """Whether a line names hole ``key``: after a hole word ("Hole 4", "Hål 4", "孔 4") or as the
    first cell of a table row ("4 | M12 | 65.0")."""
    key = re.escape(key)
    return bool(
        re.search(rf"(?:hole|hål|bohrung|孔)\W{{0,2}}{key}(?![\w.])", quote, re.I)
        or re.match(rf"\W*{key}(?![\w.])", quote)
    )


def _names_field(field: str, quote: str) -> bool:
    """Whether a line speaks of the field: one of its labels or question words (a single word by its
    stem, at most five letters: "hardened" for "CASE HARDEN", "coated" for "POWDER COAT") starts a
    word of the line or of its English sense, or the line shows the field's form. A finish and a
    roughness are one family: "Bore honed, Ra 0.4" says what finish the bore has."""
    family = _SURFACE_FIELDS if field in _SURFACE_FIELDS else (field,)
    if field in _PROCESSES and _PROCESSES[field].search(f"{quote} {translate(quote)}"):
        return True
    return any(
        (name in _LINE_FORMS and _LINE_FORMS[name].search(quote)) or _speaks_of(name, quote)
        for name in family
    )


#: A line naming one of these processes speaks of the field, without its label: "2. 时效处理消除内应力"
#: (ageing to relieve internal stress) is a heat treatment.
_PROCESSES: dict[str, re.Pattern[str]] = {
    "heat_treatment": re.compile(
        r"(?<![^\W\d_])(?:anneal|temper|quench|normali[sz]|ageing|aging|stress.reliev|carburi[sz]"
        r"|nitrid|case.harden|induction.harden|through.harden)",
        re.I,
    ),
}


def _speaks_of(field: str, quote: str) -> bool:
    """Whether one of the field's labels or question words (a single word by its stem, at most
    five letters) starts a word of the line or of its English sense."""
    text = f"{quote} {translate(quote)}".lower()
    for word in {*FIELD_LABELS.get(field, ()), *FIELD_WORDS.get(field, ())}:
        word = word.lower()
        if " " not in word:  # "coated" -> "coat", "hardened" -> "harde"
            # A long label keeps most of itself: "Zeichnungsnummer" is not "ZEICHNUNG".
            word = re.sub(r"(?<=\w{3})(?:ed|ing|es|s)$", "", word)
            word = word[: max(5, len(word) - 2)]
        if re.search(r"(?<![^\W_])" + re.escape(word), text):
            return True
    return False


#: The people a title block names, each in a cell of their own.
_PEOPLE = ("drawn_by", "checked_by", "approved_by")
#: A question asking who.
_WHO = re.compile(r"\s*(?:who|whose|whom)\b", re.I)
#: A role a drawing may give a signature box of its own, beyond drawn, checked and approved, with
#: the labels it is written under.
_ROLE_BOXES: dict[str, tuple[str, ...]] = {
    "quality": ("QA", "Q.A.", "QC", "QUALITY", "INSPECTION"),
    "manufacturing": ("MFG APPR", "MFG", "MANUFACTURING", "PRODUCTION"),
}
# (Engineering approval is the title block's approver: its reader takes it by the cell's place.)
_ROLE_ASKED = re.compile(
    r"\b(?:(?P<quality>QA|Q\.A\.|QC|quality)|(?P<manufacturing>MFG|manufacturing|production))\b",
    re.I,
)
#: A coating's thickness asked ("how thick is the powder coat"): not a dimension of the part.
_COATING = (
    r"(?:coat\w*|anodi[sz]\w*|eloxi\w*|plat(?:ed|ing)|paint\w*|lack\w*|layer|schicht|skikt"
    r"|zinc|zink|galvani[sz]\w*|chrom\w*|nickel|powder|pulver\w*|镀\w*|涂\w*|漆|膜)"
)
_COATING_THICKNESS = re.compile(
    rf"\b(?:how thick|thickness)\b.*\b{_COATING}|\b{_COATING}\b.*\b(?:how thick|thickness)\b",
    re.I,
)
_COATING_WORD = re.compile(_COATING, re.I)
_THICKNESS_STATED = re.compile(r"\d\s*(?:µm|μm|um|mm|mils?)\b|\d\s*(?:µm|μm)", re.I)


def _person_of_role(
    question: str, role: re.Match[str], sources: Sequence[Source]
) -> Extract | None:
    """Who signed for a role the drawing gives a box of its own ("Who signed QA?": the name under
    "QA"); None when the drawing has no such box with a name in it. Another role's signature
    (the approver's, a revision's) does not answer."""
    labels = _ROLE_BOXES[role.lastgroup or ""]
    person = _LINE_FORMS["approved_by"]
    for src in _asked_drawing(question, sources):
        value = labelled_value(src.text, labels, lambda v: person.search(v) is not None)
        if value:
            field = "checked_by" if role.lastgroup == "quality" else "approved_by"
            return Extract(src.number, value, field, 1.0)
    return None


def _coating_thickness(question: str, sources: Sequence[Source]) -> Extract | None:
    """The line of the drawing asked about that states a coating with its thickness ("Anodise
    clear, layer at least 15 µm", "镀层厚度8~12um"); None when no line does: the part's own
    thickness is not its coat's."""
    drawing = _asked_drawing(question, sources)

    def states_it(quote: str) -> bool:
        said = f"{quote} {translate(quote)}"
        return bool(_THICKNESS_STATED.search(quote) and _COATING_WORD.search(said))

    return line_extract(question, drawing, states_it) if drawing else None


def _another_person(field: str, quote: str) -> bool:
    """Whether a line names another person's role than the one asked, and not this one's ("Ritad
    av: S. Nyberg" for who approved: the drafter, not the approver)."""
    return (
        field in _PEOPLE
        and not _speaks_of(field, quote)
        and any(_speaks_of(other, quote) for other in _PEOPLE if other != field)
    )


#: What a line must hold to answer a question about these fields when no field value answered it.
_LINE_FORMS: dict[str, re.Pattern[str]] = {
    "weight": WEIGHT,
    "scale": RATIO,
    # "Ra 1.6", or ANSI's value before the symbol: "63 µin Ra", "125 Ra MAX".
    "roughness": re.compile(r"(?<![^\W\d_])(?:Ra|Rz|N)\s*\d|\d\s*(?:[^\W\d_]{2,3}\s*)?R[az]\b"),
    # A standard by its body and number: "DIN 6311", "GB/T 1804", "MIL-STD-130"; American bodies
    # put a series letter before the number: "ASME Y14.5", "MIL-A-8625", "SAE J429", "ASTM A36".
    "standard": re.compile(
        r"\b(?:DIN|ISO|EN|SS|GB/T|GB|ANSI|ASME|JIS|BS|MIL-STD)[\s-]*\d"
        r"|\b(?:ANSI|ASME|MIL|SAE|ASTM|AMS)[\s-]*[A-Z]{1,3}[\s-]?\d"
    ),
    # A sheet size: ISO A0-A5 or ANSI A-E; "Hole K1: size ⌀5.5" is a hole's size.
    "size": re.compile(r"(?<![\w.])(?:A[0-5]|[A-E])(?![\w.])"),
    # A person on a line: an initial and a name ("T. WEISS"), or a Chinese name. A line that is
    # only the label and other text ("Granskad: 95.5 Q5.5") names nobody.
    **dict.fromkeys(
        ("drawn_by", "checked_by", "approved_by"),
        re.compile(r"\b[A-Z]\.\s?[^\W\d_]{2,}|[\u3400-\u9fff]{2,4}"),
    ),
}
