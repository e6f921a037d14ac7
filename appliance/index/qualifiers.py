"""What a question says of a drawing besides its name: the language it is written in ("the German
guide plate", "the Swedish base plate") or what the part is made of or finished with ("the black
anodized adapter plate", "the aluminium bracket"). Of several drawings a question's words name
alike, the ones the qualifier fits.

A drawing's language is read from its own text: Chinese by its characters, German and Swedish by
the title-block labels and note words each writes and the other does not. A material or finish
is found in the drawing's text in any of the ways drawings write it ("6061-T6" is aluminium).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence

from appliance import drawing_terms
from appliance.index.identity import NamedSource, compact, is_identifier, terms
from appliance.spelling import edit_distance, fold

#: How fully a drawing's name must be said to be taken when a qualifier picks it: half, as "the
#: Swedish fixture base plate" says "base plate" after a word the Bottenplatta's name lacks.
WIDER_MIN_SCORE = 0.5
#: Letters a foreign word must have for one OCR slip in a name to still be that word
#: ("Fihrungsplatte" written for "Führungsplatte").
SLIP_MIN_LETTERS = 8
#: The language a question names a drawing by ("the German ...").
_ASKED = re.compile(r"\b(german|deutsch\w*|swedish|svensk\w*|chinese)\b", re.I)

#: Words written only in that language's drawings (labels and common note words).
_MARKS: dict[str, re.Pattern[str]] = {
    "chinese": re.compile(r"[\u3400-\u9fff]"),
    "german": re.compile(
        r"\b(?:werkstoff|benennung|ma(?:ß|ss)stab|gezeichnet|gepr[üu]ft|zeichnungs\w*|zeichn|"
        r"oberfl[äa]che\w*|anmerkungen?|st[üu]ckliste|bemerkung|allgemeintol\w*|freigegeben|"
        r"blatt|gewicht|masse|änderung|kanten|gebrochen|nicht)\b",
        re.I,
    ),
    "swedish": re.compile(
        r"\b(?:ben[äa]mning|ritningsnummer|ritad|granskad|godk[äa]nd|skala|vikt|ytbehandling|"
        r"blad|anm[äa]rkningar|stycklista|utg[åa]va|toleranser|ej|gradas|enligt)\b",
        re.I,
    ),
}


def asked_language(question: str) -> str | None:
    """The language the question names a drawing by ("chinese", "german", "swedish"), or None."""
    found = _ASKED.search(question)
    if found is None:
        return None
    word = found.group(1).lower()
    if word.startswith("deutsch"):
        return "german"
    if word.startswith("svensk"):
        return "swedish"
    return word


def written_in(texts: Iterable[str]) -> str | None:
    """The language a drawing's texts are written in, by the marks each language leaves; None
    when none leaves any (an English drawing)."""
    text = "\n".join(texts)
    if _MARKS["chinese"].search(text):
        return "chinese"
    counts = {lang: len(_MARKS[lang].findall(text)) for lang in ("german", "swedish")}
    best = max(counts, key=lambda lang: counts[lang])
    if counts[best] == 0 or counts["german"] == counts["swedish"]:
        return None
    return best


def in_language(
    question: str,
    named: Sequence[NamedSource],
    text_of: Callable[[NamedSource], str],
    wider: Callable[[], Sequence[NamedSource]] = lambda: (),
) -> list[NamedSource]:
    """The named drawings written in the language the question names them by. When none of them
    is, the ``wider`` matches (names said less fully: "the Swedish fixture base plate" of a
    Bottenplatta) written in it; all of ``named`` when the question names no language or no
    drawing in it is named at all."""
    language = asked_language(question)
    if language is None:
        return list(named)
    kept = _fitting(named, wider, lambda n: written_in([text_of(n)]) == language)
    return kept or list(named)


def _fitting(
    named: Sequence[NamedSource],
    wider: Callable[[], Sequence[NamedSource]],
    fits: Callable[[NamedSource], bool],
) -> list[NamedSource]:
    """The named drawings that fit, or when none does the ``wider`` matches that do."""
    return [n for n in named if fits(n)] or [n for n in wider() if fits(n)]


def _alternation(words: Iterable[str]) -> str:
    """A regex alternation of the words of letters, longest first ("" when there are none)."""
    alpha = sorted((w for w in words if w.isalpha()), key=len, reverse=True)
    return "|".join(re.escape(w) for w in alpha)


#: Materials and finishes a person describes a part by: the words a question says them with, and
#: how a drawing writes them (grades, other languages).
_DESCRIPTIONS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (re.compile(said, re.I), re.compile(written, re.I))
    for said, written in (
        (
            r"alumin(?:i?um)|alu\b",
            r"alumin|\b(?:6061|6082|7075|5083)\b|\bAlMg|\bAlSi|EN AW|\baluminium|铝",
        ),
        (
            r"stainless",
            r"stainless|rostfri|nichtrostend|\b1\.4[34]\d\d\b|\b30[34]\b|\b316L?\b|不锈钢",
        ),
        (r"brass", r"brass|mässing|messing|CuZn|黄铜"),
        (r"black", r"black|\bblk\b|svart|schwarz|发黑|黑色|brüniert"),
        (r"anodi[sz]ed", r"anodi[sz]|eloxiert|anodiserad|阳极氧化"),
        (r"zinc[- ]plated|galvani[sz]ed", r"zinc|galvani|förzink|verzinkt|镀锌"),
        (r"plastic", r"plastic|\bPOM\b|\bPA ?6\b|\bABS\b|nylon|PTFE|\bPE\b"),
        (r"cast[- ]iron", r"cast iron|gjutjärn|EN-GJ[LS]|\bGG ?\d|\bHT ?\d{3}|铸铁"),
    )
)


def described_as(
    question: str,
    named: Sequence[NamedSource],
    text_of: Callable[[NamedSource], str],
    wider: Callable[[], Sequence[NamedSource]] = lambda: (),
) -> tuple[list[NamedSource], str]:
    """The named drawings whose part is what the question describes it as, said right before its
    name ("the black anodized adapter plate": of two adapter plates, the one anodized black), and
    the question without the describing words, which name the drawing and ask nothing. When none
    of ``named`` fits, the ``wider`` matches that do; ``named`` and the question as they were when
    the question describes nothing or no drawing fits."""
    words = _alternation({w for n in named for w in n.said})
    if not words:
        return list(named), question
    described = []
    spans = []
    for asked, written in _DESCRIPTIONS:
        found = re.search(
            rf"\b(?:{asked.pattern})(?=\W+(?:[a-z]+\W+){{0,3}}?(?:{words}))", question, re.I
        )
        if found:
            described.append(written)
            spans.append(found.span())
    if not described:
        return list(named), question

    def fits(n: NamedSource) -> bool:
        text = text_of(n)
        return all(w.search(text) for w in described)

    kept = _fitting(named, wider, fits)
    if not kept:
        return list(named), question
    for start, end in sorted(spans, reverse=True):
        question = question[:start] + question[end:]
    return kept, re.sub(r"\s{2,}", " ", question)


def the_whole(question: str, named: Sequence[NamedSource]) -> list[NamedSource]:
    """Of a part named "of" another drawing ("the base plate of the fixture base"), the drawing it
    belongs to: the part is a component of the whole, which is the drawing asked about. The
    named drawings as they were when none is said that way."""
    if len({n.id for n in named}) < 2:
        return list(named)

    parts = set()
    for part in named:
        for whole in named:
            # Each by the words only its name has: "the fixture base of the base plate" shares
            # "base", which says neither.
            mine, its = _alternation(part.said - whole.said), _alternation(whole.said - part.said)
            if part.id == whole.id or not mine or not its:
                continue
            pattern = (
                rf"\b(?:{mine})\w*(?:\s+\w+){{0,2}}?\s+of\s+(?:the\s+|a\s+)?"
                rf"(?:\w+\s+){{0,2}}?(?:{its})\b"
            )
            if re.search(pattern, question, re.I):
                parts.add(part.id)
    kept = [n for n in named if n.id not in parts]
    return kept or list(named)


def by_number(named: Sequence[NamedSource]) -> list[NamedSource]:
    """Of drawings named alike, the one named by its drawing number said in full ("the base plate
    底板 in JJ-4820-00" names JJ-4820-00, not a drawing titled base plate): a number names one
    drawing only. The named drawings as they were unless exactly one is named so."""
    numbered = [n for n in named if is_identifier(compact(n.name)) and compact(n.name) in n.said]
    return numbered if len({n.id for n in numbered}) == 1 else list(named)


def _foreign_words(question: str) -> list[tuple[str, str]]:
    """The question's words that the glossary gives an English sense for, with that sense:
    ("Führungsplatte", "guide plate"), ("Vorgelegewelle", "counter shaft")."""
    found = []
    for word in re.findall(r"[^\W\d_]{4,}", question):
        sense = drawing_terms.english(word)
        if sense and fold(sense) != fold(word):
            found.append((word, sense))
    return found


def naming_words(question: str, named: Sequence[NamedSource]) -> list[str]:
    """The foreign words of the question that named a drawing by their English sense
    ("Führungsplatte" for a drawing whose name says guide plate): found, as the name's own words
    are, though the drawing's text may write them otherwise."""
    said = frozenset().union(*(n.said for n in named)) if named else frozenset()
    return [
        word
        for word, sense in _foreign_words(question)
        if (meant := set(terms(sense))) and meant <= said
    ]


def as_titled(
    question: str, named: Sequence[NamedSource], titles: dict[str, str], texts: dict[str, str]
) -> str:
    """The question with each foreign word that named its one drawing by its sense, and that the
    drawing's text does not write, written as the drawing's title writes it ("Führungsplatte" ->
    "Fihrungsplatte", as OCR read it), so that what reads the drawing finds the name there."""
    if len(named) != 1:
        return question
    title = titles.get(named[0].source, "")
    # A word of the file name ("the Aufspannung drawing") says which drawing as it is.
    written = fold(f"{named[0].source}\n{title}\n{texts.get(named[0].source, '')}")
    for word in naming_words(question, named):
        if title and fold(word) not in written:
            question = re.sub(rf"\b{re.escape(word)}\b", title, question)
    return question


def _holds_word(name: str, word: str) -> bool:
    """Whether a drawing's name holds ``word`` as written, or with one letter read wrong in a long
    word ("Fihrungsplatte" for "Führungsplatte")."""
    for written in re.findall(r"[^\W\d_]+", fold(name)):
        if word in written:
            return True
        if len(word) >= SLIP_MIN_LETTERS and edit_distance(word, written, 1) <= 1:
            return True
    return False


def in_own_words(question: str, named: Sequence[NamedSource]) -> list[NamedSource]:
    """Of drawings named alike, the ones whose name holds the foreign words the question says
    ("who drew the Führungsplatte?" names the German guide plate, not the Chinese one whose name
    has the same English sense). The named drawings as they were when the question says no
    foreign word, or none or all of them hold it."""
    foreign = [fold(word) for word, _ in _foreign_words(question)]
    if not foreign or len({n.id for n in named}) < 2:
        return list(named)
    kept = [
        n
        for n in named
        if any(_holds_word(f"{n.name} {n.source.rsplit('/', 1)[-1]}", w) for w in foreign)
    ]
    return kept or list(named)


def qualified(
    question: str,
    named: Sequence[NamedSource],
    text_of: Callable[[NamedSource], str],
    wider: Callable[[], Sequence[NamedSource]] = lambda: (),
) -> tuple[list[NamedSource], str]:
    """The named drawings the question's qualifiers pick (:func:`described_as`, :func:`the_whole`,
    :func:`by_number`, :func:`in_own_words`, :func:`in_language`), and the question without its describing words. ``text_of`` gives a
    drawing's indexed text; ``wider`` the names said at least :data:`WIDER_MIN_SCORE`."""
    # Each drawing's text is read, and the wider names matched, once for all the qualifiers.
    text_of = functools.cache(text_of)
    wider = functools.cache(wider)
    kept, question = described_as(question, named, text_of, wider)
    kept = in_own_words(question, by_number(the_whole(question, kept)))
    kept = with_revision(question, kept, text_of, wider)
    return in_language(question, kept, text_of, wider), question


#: A revision said in a question: "rev B", "revision C", "index b".
_REVISION_SAID = re.compile(r"\b(?:rev(?:ision)?|index)\.?\s+([A-Z]|\d{1,2})\b", re.I)


def with_revision(
    question: str,
    named: Sequence[NamedSource],
    text_of: Callable[[NamedSource], str],
    wider: Callable[[], Sequence[NamedSource]],
) -> list[NamedSource]:
    """Of the drawings a name fits, the ones that have the revision the question says ("what
    changed in rev B of the adapter plate": the adapter plate with a revision B, where the one
    named in full has none). The named drawings as they were when one of them has it, or none of
    the drawings named at least half does."""
    said = _REVISION_SAID.search(question)
    if said is None or not named:
        return list(named)
    letter = re.escape(said.group(1))
    row = re.compile(rf"^Revision(?::)? {letter}\b", re.I | re.M)

    def has_it(n: NamedSource) -> bool:
        return row.search(text_of(n)) is not None

    if any(has_it(n) for n in named):
        return list(named)
    others = [n for n in wider() if has_it(n)]
    return others or list(named)
