"""Which of the retrieved sources a question is about, and whether it names one that is not there.

A question names a drawing by its number, its title, its file name or their English sense; the
sources whose identity and text share most of its terms are its subject, and a field or a line is
taken from those only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from pathlib import PurePosixPath

from appliance.answer.context import Source
from appliance.answer.terms import normalise, term_matches, terms
from appliance.drawing_terms import synonyms, translate
from appliance.errors import public_name


def identity_terms(src: Source) -> set[str]:
    """Terms that name a source rather than say something in it: title, drawing number, file name."""
    names = [src.title, src.drawing_number, PurePosixPath(public_name(src.source)).stem]
    names.append(src.fields.get("title", ""))
    out: set[str] = set()
    for name in names:
        out.update(terms(name.replace("_", " ")))
        out.update(terms(name))
        # The English sense of a Swedish or German name: "Kolv Cykelpump" is the bicycle pump piston.
        out.update(terms(translate(name.replace("_", " "))))
    return out


def subject_sources(question: str, phrase: str, sources: Sequence[Source]) -> list[Source]:
    """The sources the question is about: those matching most of its terms (the field's own words
    aside). When a question names a drawing, a field is never taken from another drawing."""
    asked = question.lower().replace(phrase, " ") if phrase else question
    q_terms = list(dict.fromkeys(terms(asked)))
    if not q_terms:
        return list(sources)
    # A question that gives a file's whole name ("Aufspannung.PDF") is about that file.
    named = [src for src in sources if names_file(question, src)]
    if named:
        return named
    scored = []
    q_pairs = set(pairwise(q_terms))
    for src in sources:
        text_terms = set(terms(src.text))
        ident = identity_terms(src)
        # Two words of the question side by side in a title block name the part there ("the
        # bearing housing drawing": "轴承座 (bearing housing)"), more than one word of another
        # drawing's file name does ("bearing_sleeve").
        paired = 0
        if src.fields and q_pairs:
            src_terms = terms(src.text)
            paired = len(q_pairs & set(pairwise(src_terms)))
        # A term that names the drawing (its number, its title) identifies it more than one in its
        # text; of two files both named "Aufspannung…", the one the question names whole wins.
        stem = terms(PurePosixPath(public_name(src.source)).stem.replace("_", " "))
        whole = sum(t in q_terms for t in stem) / len(stem) if stem else 0.0
        scored.append(
            (
                sum(term_matches(t, text_terms) + 2 * term_matches(t, ident) for t in q_terms)
                + 0.5 * whole
                + 2 * paired,
                src,
            )
        )
    best = max(score for score, _ in scored)
    if best == 0:
        return list(sources)
    # The question is about a drawing, not about one slice of it: the notes of the drawing whose
    # title block it names are that drawing's too ("3. Paint RAL 7035" for "the motor mount
    # plate's colour").
    pages = {(src.source, src.page) for score, src in scored if score == best}
    return [src for src in sources if (src.source, src.page) in pages]


#: Parts a drawing's part may be joined with (their material is not the part's).
COMPONENTS = frozenset(
    [
        "seal",
        "gasket",
        "o-ring",
        "oring",
        "bolt",
        "screw",
        "nut",
        "washer",
        "spring",
        "bearing",
        "bushing",
        "insert",
        "pin",
        "sleeve",
        "hose",
        "cable",
        "wire",
        "coating",
        "filler",
        "weld",
    ]
)


def of_a_component(question: str, phrase: str, src: Source) -> bool:
    """ "What seal material do the ports use?": the material of another part than the drawing's,
    unless the drawing is that part (its title or number says "seal")."""
    before = re.search(r"([\w-]+)\s+" + re.escape(phrase), question.lower())
    if before is None or before.group(1) not in COMPONENTS:
        return False
    return not term_matches(normalise(before.group(1)), identity_terms(src))


def names_file(question: str, src: Source) -> bool:
    name = PurePosixPath(public_name(src.source)).name.lower()
    return (
        "." in name
        and re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", question.lower()) is not None
    )


#: Up to four words after "the" or "drawing", to the end of the clause.
_NAMING = re.compile(r"\b(?:the|drawing)\s+((?:[^\W_][\w.-]*\s+){0,3}[^\W_][\w.-]*)")
#: Words of a question that name no drawing or part: how it is asked, not what about.
_ASKING_WORDS = frozenset(
    [
        "required",
        "require",
        "requires",
        "need",
        "needs",
        "needed",
        "apply",
        "applies",
        "applied",
        "use",
        "uses",
        "used",
        "specified",
        "specify",
        "given",
        "give",
        "called",
        "call",
        "shown",
        "show",
        "shows",
        "drawn",
        "draw",
        "made",
        "make",
        "get",
        "gets",
        "take",
        "takes",
        "part",
        "parts",
        "piece",
        "component",
        "item",
        "drawing",
        "drawings",
        "say",
        "says",
        "stated",
        "state",
        "states",
        "written",
        "mean",
        "means",
        "put",
        "go",
        "goes",
        "value",
        "values",
        "here",
        "please",
        "tell",
        "know",
    ]
)


def names_absent(question: str, phrase: str, sources: Sequence[Source]) -> bool:
    """Whether the question names something (besides the field it asks) that none of the sources
    is or mentions: "the material of the crankshaft drawing" when no drawing says crankshaft."""
    asked = question.lower().replace(phrase, " ") if phrase else question.lower()
    # A drawing is named after "the" or "drawing" ("the crankshaft drawing", "drawing A-1025");
    # words that say how the question is put ("does the part need") name nothing.
    named = " ".join(m.group(1) for m in _NAMING.finditer(asked))
    words = [t for t in terms(named) if t not in _ASKING_WORDS]
    if not words:
        return False
    for src in sources:
        # The English sense of a Swedish, German or Chinese word counts as its own ("Oberfläche").
        said = set(terms(src.text)) | set(terms(translate(src.text))) | identity_terms(src)
        # A code as a recogniser writes it ("A1024") names "A-1024" too.
        said |= {compact_code(t) for t in said}
        said |= {compact_code(n) for n in (src.drawing_number, src.title) if n}
        # "The pin bore" is the "Bolzenbohrung" (bolt hole): a word's glossary synonyms count.
        if names_file(question, src) or any(
            term_matches(w, said) for t in words for w in (t, *synonyms(t))
        ):
            return False
    return True


def compact_code(text: str) -> str:
    """Letters and digits only, lower case: "A-1024" and "A1024" alike."""
    return re.sub(r"[\W_]+", "", text.lower())


def names_something(question: str, phrase: str) -> bool:
    """Whether the question has words besides the field's own (a drawing's name, a part)."""
    asked = question.lower().replace(phrase, " ") if phrase else question
    return bool(terms(asked))
