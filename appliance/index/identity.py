"""Which indexed drawings a question names: by number, title, file name, or a translation of them.

A person names a drawing the way it reads to them: "drawing 2022001", "LIU0010", "the candle
holder" for a title block that says "Ljushållare", "the adapter plate" for ``Adapterplatte.jpg``.
Each source has names: its drawing number and title (the sources table and the title-block fields
kept in its metadata) and its file name. Every name is broken into *terms*: words folded (case,
accents, ``ß``), English plurals made singular, camel case and ``_`` split, and German or Swedish
compounds given their English sense from the drawing glossary (:mod:`appliance.drawing_terms`), so
"Adapterplatte" is also "adapter plate". Identifiers (a term with a digit) are compared without
their punctuation: "LiU-0010", "liu 0010" and "LIU0010" are one.

A name matches a question by how much of it the question says, weighted by how rare each term is
among the names of the index (a word in every title, such as "holder" in several, counts for
little): an identifier said in full scores 1, "candle holder" against "Ljushållare HT2022" scores
1 through its English sense without the identifier. Of two matches where one's words are a part of
the other's ("holder" against "candle holder"), the longer one wins.

The names of a set of namespaces are read once and kept until the index changes (the store's
namespace generations), so matching costs a tokenisation and a few dictionary lookups per question.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import threading
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from appliance import drawing_terms
from appliance.index import db as dbmod
from appliance.index import soundalike
from appliance.index.connection import IndexConnection
from appliance.spelling import fold

#: A name matching at least this share of its (rarity-weighted) terms names its drawing.
MIN_SCORE = 0.75
#: Score of an identifier heard one or two edits off (an exact one scores 1).
SOUNDALIKE_SCORE = 0.8
#: Highest nearness of a name word said by sound alone (below a spelled one, above MIN_SCORE).
SOUNDED_SCORE = 0.95
#: Share of the score a name said by its head noun alone keeps ("the pulley" for a belt pulley):
#: above :data:`MIN_SCORE`, below any name said in full.
HEAD_SCORE = 0.8
#: Letters of the shorter part of a word read as two name words run together ("hub" + "cap").
MIN_COMPOUND_PART = 3

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CAMEL = re.compile(r"(?<=[a-zäöüåéß])(?=[A-ZÄÖÜÅ])")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{2,5}$")
#: A drawing number written in a name: letters, then digits in groups ("MM-2207-3", "SP-4471").
_CODE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{1,4}[-_ ]?\d{2,}(?:[-_.]\d+)*(?![A-Za-z0-9])")
#: Digit groups said as one number ("118-03", "5012-00", "2024.11").
_DIGIT_RUN = re.compile(r"\d+(?:[-_./]\d+)*")
#: Words that never name a particular drawing on their own.
_GENERIC = frozenset(
    [
        "a",
        "an",
        "and",
        "at",
        "by",
        "de",
        "der",
        "die",
        "das",
        "for",
        "from",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "the",
        "to",
        "with",
        "drawing",
        "drawings",
        "dwg",
        "part",
        "parts",
        "sheet",
        "page",
        "pages",
        "file",
        "scan",
        "capture",
        "copy",
        "no",
        "nr",
        "number",
        "rev",
        "revision",
        "title",
        "jpg",
        "jpeg",
        "png",
        "pdf",
        "tif",
        "tiff",
        "mm",
        "cm",
        "kg",
        "inch",
    ]
)


def singular(word: str) -> str:
    """An English plural made singular ("holders" -> "holder", "bodies" -> "body", "housings",
    "boxes"); the same rule on both sides, so a miss only costs a match."""
    if len(word) <= 3 or not word.isalpha() or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def is_identifier(term: str) -> bool:
    """A term with a digit, three characters or more: compared without punctuation."""
    return len(term) >= 3 and any(ch.isdigit() for ch in term)


def _raw_words(text: str) -> list[str]:
    return _WORD.findall(_CAMEL.sub(" ", text))


def terms(text: str) -> list[str]:
    """The comparable terms of a text, in order: folded, singular, generic words left out."""
    out = []
    for word in _raw_words(text):
        term = singular(fold(word))
        # One letter (a revision "B", the "A" of "A-1024") names nothing on its own.
        if len(term) > 1 and term not in _GENERIC:
            out.append(term)
    return out


def _english_terms(text: str) -> list[str]:
    """Terms of the English sense of a foreign drawing name ("Ljushållare" -> candle, holder)."""
    found: list[str] = []
    for word in _raw_words(text):
        if word.isalpha():
            sense = drawing_terms.english(word)
            # An English word the glossary also lists ("block", "base") is no translation: taken
            # alone it would make one word of an English title a full name of the drawing.
            if sense and fold(sense) != fold(word):
                found.extend(terms(sense))
    return found


def _english_variants(text: str) -> list[list[str]]:
    """The English sense of a foreign drawing name told with another name a person uses for one
    of its words ("Gabelkopf": clevis -> fork head; "Druckstück": thrust pad -> pressure pad)."""
    senses = [
        (word, sense)
        for word in _raw_words(text)
        if word.isalpha() and (sense := drawing_terms.english(word)) and fold(sense) != fold(word)
    ]
    variants = []
    for i, (_, sense) in enumerate(senses):
        for other in drawing_terms.synonyms(sense):
            told = [s if j != i else other for j, (_, s) in enumerate(senses)]
            variants.append([t for part in told for t in terms(part)])
    return variants


def _identifier_pieces(words: list[str], identifiers: set[str]) -> set[str]:
    """Words that are only pieces of a drawing number: "yb" and "05" of "yaban_YB-2312-05"."""
    return {
        w
        for w in words
        if (len(w) <= 3 or w.isdigit()) and any(w in ident for ident in identifiers if ident)
    }


def _said_in(word: str, said: frozenset[str]) -> bool:
    """Whether a word of the question is one of the name terms it was matched by."""
    found = set(terms(word))
    return compact(word) in said or (bool(found) and found <= said)


#: A title of words only ("Gabelkopf", "Druckstück", "压板", "LAGER DECKEL").
_WORD_TITLE = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)*")


def by_title(
    question: str, named: Sequence[NamedSource], titles: dict[str, str], texts: dict[str, str]
) -> str:
    """The question with the words that named one drawing by something its text does not say
    ("the fork head", "the pressure pad") replaced by its title ("the Gabelkopf"), so that what
    reads the drawing finds its name there. The question as it was when it names no drawing, or
    several, or names it by its number, its file name or words its title or text has."""
    if len(named) != 1 or fold(file_stem(named[0].source)) in fold(question):
        return question  # a file name says which drawing to the finder as it is
    title = titles.get(named[0].source, "").replace("_", " ")  # a file-name title, as words
    said = frozenset(t for t in named[0].said if not is_identifier(t))
    written = set(terms(title)) | set(terms(texts.get(named[0].source, "")))
    if not _WORD_TITLE.fullmatch(title) or not said or said <= written:
        return question  # a title with a code in it would be read as a designation asked
    out: list[str] = []
    in_name = False
    for word in question.split():
        if not _said_in(word, said):
            out.append(word)
            in_name = False
            continue
        # The title once for a run of name words, keeping what ended the run ("head?").
        ending = word[len(word.rstrip("?.,!;:")) :]
        if in_name:
            out[-1] += ending
        else:
            out.append(title + ending)
        in_name = True
    return " ".join(out)


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def compact(text: str) -> str:
    """An identifier without case or punctuation ("LiU-0010" -> "liu0010")."""
    return "".join(ch for ch in fold(text) if ch.isalnum())


@dataclass(frozen=True)
class NamedSource:
    """An indexed source that a question names."""

    #: Source row id (what :class:`~appliance.index.search.SearchOptions` focuses on).
    id: int
    #: Its namespace.
    namespace: str
    #: Its source identifier (file path in the inbox or ``capture:<id>``).
    source: str
    #: How fully the question says the name, 0..1 (1: an identifier, or every word of a title).
    score: float
    #: The name that matched, as the index has it.
    name: str
    #: The terms of its names the question said (folded; an identifier compacted).
    said: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Name:
    """One name of one source, as terms."""

    #: Source row id.
    source_id: int
    #: The name as written.
    text: str
    #: Its terms (an identifier name has one, compacted).
    terms: frozenset[str]
    #: True for a drawing number or an identifier in a title or file name.
    identifier: bool
    #: True for the head noun of a name of several words, alone ("pulley" of "belt pulley").
    head: bool = False
    #: True for the words of a name run together ("motormountplate").
    glued: bool = False


@dataclass(frozen=True)
class _SourceRow:
    """What the names are read from."""

    #: Row id.
    id: int
    #: Namespace.
    namespace: str
    #: Source identifier.
    source: str
    #: Title.
    title: str
    #: Drawing number.
    drawing_number: str
    #: Title-block titles and numbers found in the source's and its slices' metadata.
    extra_names: tuple[str, ...]


def file_stem(source: str) -> str:
    """The file name of a source without folder or extension ("" for a capture)."""
    if source.startswith("capture:"):
        return ""
    return _EXTENSION.sub("", source.replace("\\", "/").rsplit("/", 1)[-1])


def names_of(row: _SourceRow) -> list[_Name]:
    """Every name of one source: identifiers, and the word names with their English senses."""
    out: list[_Name] = []
    spelled = [row.title, file_stem(row.source), *row.extra_names]
    identifiers = {compact(row.drawing_number)} if row.drawing_number else set()
    for text in dict.fromkeys(t.strip() for t in spelled if t and t.strip()):
        words = terms(text)
        identifiers.update(compact(w) for w in _raw_words(text) if is_identifier(fold(w)))
        # A number written in groups is one identifier too, however its groups are heard
        # ("MM-22073" for MM-2207-3), not only its longest group.
        identifiers.update(compact(m.group()) for m in _CODE.finditer(text))
        # A file named "yaban_YB-2312-05" is named "yaban" alone: the number's pieces are no words.
        pieces = _identifier_pieces(words, identifiers)
        plain = [w for w in words if not is_identifier(w) and w not in pieces]
        english = [w for w in _english_terms(text) if not is_identifier(w)]
        groups = [words, plain, english, plain + english, *_english_variants(text)]
        for group in groups:
            # Two-letter words alone ("MM" of "MM-2207-3", "BM") are prefixes, not names.
            if any(len(t) > 2 for t in group):
                out.append(_Name(row.id, text, frozenset(group), identifier=False))
        if len(plain) >= 2 and all(w.isalpha() for w in plain):
            # The name's words run together, as a recogniser writes a file name it heard
            # ("motormountplate.png").
            glued = frozenset(["".join(plain)])
            out.append(_Name(row.id, text, glued, identifier=False, glued=True))
        # A part is named by its head noun alone ("the pulley" of a 皮带轮, belt pulley): the
        # last word of its English sense, or of its title when that is English.
        sense = [w for w in english or plain if w.isalpha()]
        if len(sense) >= 2 and len(sense[-1]) > 2:
            out.append(_Name(row.id, text, frozenset(sense[-1:]), identifier=False, head=True))
    for ident in identifiers - {""}:
        if is_identifier(ident):
            out.append(_Name(row.id, ident, frozenset([ident]), identifier=True))
    # A group that is also a full name is no head-only name ("holder" of "Halter").
    full = {n.terms for n in out if not n.head}
    return list(
        {(n.terms, n.identifier): n for n in out if not (n.head and n.terms in full)}.values()
    )


@dataclass(frozen=True)
class _Word:
    """One word of a question with every form it may name a drawing by."""

    #: The word folded.
    folded: str
    #: Its term, its English sense's terms, and identifiers joined from it and the next words.
    forms: frozenset[str]


#: Words that may stand before a drawing's name without making it a different thing.
_LEAD_WORDS = _GENERIC | frozenset(
    [
        "what",
        "which",
        "whose",
        "how",
        "does",
        "do",
        "are",
        "was",
        "my",
        "our",
        "this",
        "that",
        "same",
        "your",
        "about",
        "say",
        "says",
        "show",
        "tell",
        "me",
        "give",
        "read",
        # Words that join a sentence to a name, not parts that qualify it: "the screws that go
        # into bottenplatta_kompl", "what do we need for the guide plate".
        "into",
        "onto",
        "inside",
        "under",
        "over",
        "through",
        "per",
        "as",
        "all",
        "each",
        "every",
        "its",
        "their",
        "we",
        "you",
        "they",
        "go",
        "goes",
        "get",
        "gets",
        "need",
        "needs",
        "have",
        "has",
        "be",
        "can",
        "should",
        "must",
        "will",
        "there",
        "where",
        "when",
        "who",
        "after",
        "before",
        "during",
        # The language a drawing is written in describes the drawing, not another part: "the
        # German bearing cover" is the Lagerdeckel.
        "german",
        "swedish",
        "chinese",
        "english",
        "deutsch",
        "deutsche",
        "deutschen",
        "svensk",
        "svenska",
    ]
)


#: Two-word names of the parts of a drawing sheet, whose second word alone could name a part.
_SHEET_PARTS = frozenset({("title", "block"), ("parts", "list"), ("revision", "block")})
#: The same, as the English sense of one foreign word.
_SHEET_PART_SENSES = frozenset(" ".join(pair) for pair in _SHEET_PARTS)


def question_words(question: str) -> list[_Word]:
    """The question's words with their forms: the term, its English sense ("Adapterplatte" ->
    adapter, plate), its one-word synonyms ("cap" -> cover, lid), and identifiers joined across a
    space or a dash ("LiU 0010")."""
    raw = _raw_words(question)
    folded = [fold(w) for w in raw]
    out = []
    for i, word in enumerate(raw):
        if i and (folded[i - 1], folded[i]) in _SHEET_PARTS:
            # "the title block of JJ-4820-00" is a part of the sheet, not a part called a block.
            out.append(_Word(folded[i], frozenset()))
            continue
        forms = {singular(folded[i])}
        if word.isalpha():
            sense = drawing_terms.english(word)
            if sense and fold(sense) in _SHEET_PART_SENSES:
                sense = ""  # "Titelblock" says title block: no part is named by it either
            if sense:
                forms.update(terms(sense))
            # A person says "cap" for a title the glossary gives as "end cover" (端盖).
            forms.update(w for w in drawing_terms.synonyms(singular(folded[i])) if " " not in w)
        for n in (1, 2, 3):
            joined = "".join(folded[i : i + n])
            if i + n <= len(raw) and is_identifier(joined):
                forms.add(compact(joined))
        out.append(_Word(folded[i], frozenset(forms)))
    return out


#: A past participle ("hardened", "anodised", "painted"), not a noun naming another part.
_PARTICIPLE = re.compile(r"[a-z]{3,}ed")


def _qualified(words: list[_Word], name: frozenset[str]) -> bool:
    """True when the word just before the name's first word in the question is a content word
    that is not part of the name: "the tower holder" does not name a drawing called "holder"."""
    positions = [i for i, w in enumerate(words) if w.forms & name]
    if not positions or positions[0] == 0:
        return False
    before = words[positions[0] - 1]
    return (
        before.folded.isalpha()
        and len(before.folded) > 1
        and before.folded not in _LEAD_WORDS
        # A treatment said of the part ("the case-hardened Druckstück") is no other part.
        and not _PARTICIPLE.fullmatch(before.folded)
        and not before.forms & name
    )


class SourceNames:
    """The names of the sources of some namespaces, indexed by term."""

    def __init__(self, rows: Iterable[_SourceRow]) -> None:
        self._rows = {r.id: r for r in rows}
        self._by_term: dict[str, list[_Name]] = defaultdict(list)
        sources_of: dict[str, set[int]] = defaultdict(set)
        #: Every term of each source's names, and its identifiers.
        self._terms_of: dict[int, set[str]] = defaultdict(set)
        self._identifiers_of: dict[int, set[str]] = defaultdict(set)
        for row in self._rows.values():
            for name in names_of(row):
                self._terms_of[row.id].update(name.terms)
                if name.identifier:
                    self._identifiers_of[row.id].update(name.terms)
                for term in name.terms:
                    self._by_term[term].append(name)
                    sources_of[term].add(row.id)
        n = max(1, len(self._rows))
        #: Rarity of each term among the sources' names (a term of every name weighs little).
        self._weight = {t: math.log(1 + n / len(ids)) for t, ids in sources_of.items()}
        names = [name for listed in self._by_term.values() for name in listed]
        #: Identifier names and the words of word names, for matching what was nearly heard.
        self._identifiers = sorted({t for n in names if n.identifier for t in n.terms})
        self._word_terms = frozenset(
            t for n in names if not n.identifier for t in n.terms if t.isalpha()
        )
        #: Name words that are a name's words run together: split where a question runs them.
        self._glued_terms = frozenset(t for n in names if n.glued for t in n.terms)
        #: Each name of several words run together ("kolvcykelpump"), with its terms: an
        #: English voice says it as one, and a recogniser writes it by ear ("call of cycle pump").
        self._spoken_names: dict[str, frozenset[str]] = {}
        for name in names:
            said = [t for t in terms(name.text) if t in name.terms and t.isalpha()]
            if not name.identifier and not name.head and 2 <= len(said) == len(name.terms):
                self._spoken_names["".join(said)] = name.terms

    def __len__(self) -> int:
        return len(self._rows)

    def match(
        self,
        question: str,
        *,
        min_score: float = MIN_SCORE,
        soundalike_names: bool = True,
        heard: bool = False,
    ) -> list[NamedSource]:
        """The sources the question names, best first (empty when it names none).

        With ``soundalike_names``, a question that names no source exactly may name one by words
        or an identifier nearly as written (a typing slip or a recogniser's mishearing;
        :mod:`soundalike`); such a match scores below an exact one. A ``heard`` question (a
        recogniser's transcript) may also name the one source whose name its words sound like,
        and the words heard for a name count among those that said it.
        """
        words = question_words(question)
        found = [n for n in self._match(words, min_score) if not self._other_number(n, question)]
        if found and heard:
            # "Felon pan FL-3306": the number named it, and the words heard for its title are
            # its name too, not words the drawing must contain.
            folded = [w.folded for w in words]
            own = set().union(*(self._terms_of[n.id] for n in found))
            heard_as = self._sounded(folded, own)[1]
            return [self._with_heard(n, folded, heard_as) for n in found]
        if found or not soundalike_names:
            return found
        return self._match_soundalike(words, min_score, heard)

    def _match(
        self,
        words: list[_Word],
        min_score: float,
        close: dict[str, float] | None = None,
        close_identifiers: frozenset[str] = frozenset(),
    ) -> list[NamedSource]:
        said = frozenset().union(*(w.forms for w in words)) if words else frozenset()
        close = close or {}
        looked_up = said | close_identifiers
        candidates = {id(name): name for t in looked_up for name in self._by_term.get(t, ())}
        best: dict[int, tuple[float, frozenset[str], str]] = {}
        in_full: set[int] = set()  # sources named by more than a head noun
        for name in candidates.values():
            if name.identifier:
                # An identifier heard nearly right names its drawing less surely than one said.
                score = 1.0 if name.terms & said else SOUNDALIKE_SCORE
                matched = name.terms
            else:
                matched = name.terms & said
                # fsum: a set's order changes with the process's string hashing, and a plain
                # sum's last bit with it ("named in full" scored 0.9999999999999999 in one run).
                total = math.fsum(self._weight[t] for t in name.terms)
                weight = math.fsum(self._weight[t] * close.get(t, 1.0) for t in matched)
                score = weight / total if total else 0.0
                if _qualified(words, name.terms):
                    score /= 2
                if name.head:
                    score *= HEAD_SCORE
            if score < min_score:
                continue
            if not name.head:
                in_full.add(name.source_id)
            held = best.get(name.source_id)
            if held is None:
                best[name.source_id] = (score, matched, name.text)
                continue
            # The source's best name, and every word any of its names matched.
            top = (score, len(matched)) > (held[0], len(held[1]))
            best[name.source_id] = (
                max(score, held[0]),
                held[1] | matched,
                name.text if top else held[2],
            )
        # A match whose words are all inside another source's match names less than it does.
        winners = {
            sid: found
            for sid, found in best.items()
            if not any(found[1] < other[1] for o, other in best.items() if o != sid)
        }
        if in_full & winners.keys():
            # "The flange" names the drawing titled Flange, not every drawing of a flange.
            winners = {sid: found for sid, found in winners.items() if sid in in_full}
        out = [
            NamedSource(sid, self._rows[sid].namespace, self._rows[sid].source, score, text, said)
            for sid, (score, said, text) in winners.items()
        ]
        out.sort(key=lambda m: (-m.score, m.source))
        return out

    def split_compounds(self, question: str) -> str:
        """The question with each word that is two name words run together written as the two
        ("the hubcap" for a title's "hub cap"), as a recogniser or a person may write it; other
        words as they were."""

        def split(m: re.Match[str]) -> str:
            word = m.group(0)
            text = fold(word)
            known = text in self._word_terms and text not in self._glued_terms
            if len(text) != len(word) or not text.isalpha() or known:
                return word
            for k in range(MIN_COMPOUND_PART, len(text) - MIN_COMPOUND_PART + 1):
                if text[:k] in self._word_terms and text[k:] in self._word_terms:
                    return f"{word[:k]} {word[k:]}"
            return word

        return _WORD.sub(split, question)

    def _match_soundalike(
        self, words: list[_Word], min_score: float, heard: bool
    ) -> list[NamedSource]:
        """Names the question comes close to: name words a few letters off, identifiers one or
        two edits off or said by their tail; failing those, the one source whose name words a
        run of question words sounds like."""
        folded = [w.folded for w in words]
        close: dict[str, float] = {}
        heard_as: dict[int, set[str]] = defaultdict(set)
        for term in self._word_terms:
            nearness, positions = soundalike.closeness(term, folded)
            if nearness:
                close[term] = nearness
                for i in positions:
                    heard_as[i].add(term)
        pieces = {compact(p) for p in soundalike.heard_pieces(folded)}
        identifiers = frozenset(soundalike.close_identifiers(self._identifiers, pieces))
        found = (
            self._match(self._heard(words, heard_as), min_score, close, identifiers)
            if close or identifiers
            else []
        )
        if not heard:
            return found  # typed: a slip of the keys, not of the ear
        if found:
            return [self._with_heard(n, folded, heard_as) for n in found]
        close, heard_as = self._sounded(folded)
        if not close:
            return []
        found = self._match(self._heard(words, heard_as), min_score, close)
        # A sound is a weaker sign than letters: two drawings sounding alike name neither. A
        # name matched by its words alone ("bracket") is no rival to one the sounds said.
        sounded = [n for n in found if n.said & close.keys()]
        return [self._with_heard(sounded[0], folded, heard_as)] if len(sounded) == 1 else []

    def _sounded(
        self, folded: list[str], among: set[str] | None = None
    ) -> tuple[dict[str, float], dict[int, set[str]]]:
        """Name words (of all names, or only those ``among`` these terms) that a run of the
        question's words sounds like, by nearness, and the positions of the words that said
        them."""
        spans = soundalike.sound_spans(folded, _LEAD_WORDS)
        close: dict[str, float] = {}
        heard_as: dict[int, set[str]] = defaultdict(set)

        def near(terms_said: Iterable[str], nearness: float, positions: tuple[int, ...]) -> None:
            for term in terms_said:
                # A sound, however exact, is a weaker sign than the name spelled out.
                close[term] = max(close.get(term, 0.0), min(nearness, SOUNDED_SCORE))
                for i in positions:
                    heard_as[i].add(term)

        for term in self._word_terms if among is None else self._word_terms & among:
            nearness, positions = soundalike.sound_closeness(term, spans)
            if nearness:
                near([term], nearness, positions)
        for said, name_terms in self._spoken_names.items():
            if among is not None and not name_terms <= among:
                continue
            nearness, positions = soundalike.sound_closeness(said, spans)
            if nearness:
                near(name_terms, nearness, positions)
        return close, heard_as

    def _other_number(self, named: NamedSource, question: str) -> bool:
        """Whether the source was named only by a group of its drawing number ("118" of
        PB-118-4) that the question says as part of another number ("118-03", "KS-118-03")."""
        groups = {t for t in named.said if t.isdigit()}
        if not groups or named.said - groups - _GENERIC:
            return False
        digits = [_digits(i) for i in self._identifiers_of[named.id] if i not in groups]
        for m in _DIGIT_RUN.finditer(question):
            said = _digits(m.group())
            if said in groups or not any(g in said for g in groups):
                continue
            if not any(said in d or d in said for d in digits):
                return True
        return False

    def _with_heard(
        self, named: NamedSource, folded: list[str], heard_as: dict[int, set[str]]
    ) -> NamedSource:
        """The match with the question words heard for any of its source's name words among
        what said it, so that the question is read with the name in their place
        (:func:`by_title`), not with "eyedler" for "idler"."""
        own = self._terms_of[named.id]
        heard = {folded[i] for i, terms_heard in heard_as.items() if terms_heard & own}
        return dataclasses.replace(named, said=named.said | heard) if heard else named

    @staticmethod
    def _heard(words: list[_Word], heard_as: dict[int, set[str]]) -> list[_Word]:
        # Each word also says the name words it nearly is, so a nearly heard word is part of the
        # name and not a word qualifying it ("the mountain bracket").
        return [_Word(w.folded, w.forms | heard_as.get(i, set())) for i, w in enumerate(words)]


#: The first line of a title-block slice (appliance.vision.slicing), not a label.
_TITLE_BLOCK_MARK = "Title block."


def title_block_names(text: str) -> list[str]:
    """Titles and drawing numbers written in a title block's text: after their label on the same
    line, or on the line below a label that stands alone ("Benämning" / "Hjulnav")."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    out = []
    for i, line in enumerate(lines):
        found = drawing_terms.split_label(line) if line != _TITLE_BLOCK_MARK else None
        if found is None or found.field not in ("title", "drawing_number"):
            continue
        value = found.rest
        if not value and i + 1 < len(lines) and drawing_terms.split_label(lines[i + 1]) is None:
            value = lines[i + 1]
        if value and len(value) <= 60 and any(ch.isalnum() for ch in value):
            out.append(value)
    return out


def _extra_names(extra: dict[str, Any]) -> list[str]:
    block = extra.get("title_block")
    if not isinstance(block, dict):
        return []
    return [str(block[k]) for k in ("title", "drawing_number") if block.get(k)]


def read_rows(db: dbmod.Connection, namespaces: Sequence[str]) -> list[_SourceRow]:
    """The naming facts of every current source in the namespaces."""
    marks = ",".join("?" * len(namespaces))
    rows = db.execute(
        f"SELECT id, namespace, source, title, drawing_number, extra FROM sources"
        f" WHERE namespace IN ({marks}) AND superseded = 0",
        list(namespaces),
    ).fetchall()
    # Title-block fields of the slices (a title block read on page 2 of a PDF, say).
    # Title-block fields and lines of the slices (a title block read on page 2 of a PDF, a
    # title whose label and value sit in cells one above the other).
    blocks = db.execute(
        f"SELECT s.source_id, s.extra, s.text FROM slices s JOIN sources src ON src.id = s.source_id"
        f" WHERE src.namespace IN ({marks}) AND s.kind = 'title-block'",
        list(namespaces),
    ).fetchall()
    slice_names: dict[int, list[str]] = defaultdict(list)
    for source_id, extra, text in blocks:
        slice_names[int(source_id)].extend(_extra_names(json.loads(extra)))
        slice_names[int(source_id)].extend(title_block_names(text))
    out = []
    for r in rows:
        extra_names = _extra_names(json.loads(r[5])) + slice_names.get(int(r[0]), [])
        out.append(_SourceRow(int(r[0]), r[1], r[2], r[3], r[4], tuple(dict.fromkeys(extra_names))))
    return out


class NameCache:
    """The :class:`SourceNames` of recently searched namespace sets, read again after any change
    to one of their namespaces."""

    def __init__(self, conn: IndexConnection, *, max_sets: int = 8) -> None:
        self._conn = conn
        self._lock = threading.Lock()
        self._sets: dict[tuple[str, ...], tuple[tuple[int, ...], SourceNames]] = {}
        self._max_sets = max_sets
        #: Times the names were read from the database (tests check the cache with it).
        self.loads = 0

    def names(self, namespaces: Sequence[str]) -> SourceNames:
        """The names of the sources in these namespaces, current as of the last commit."""
        key = tuple(sorted(set(namespaces)))
        generations = self._conn.generations()
        stamp = tuple(generations.get(ns, 0) for ns in key)
        with self._lock:
            held = self._sets.get(key)
            if held is not None and held[0] == stamp:
                return held[1]
        names = SourceNames(read_rows(self._conn.db, key))
        with self._lock:
            self.loads += 1
            if len(self._sets) >= self._max_sets:
                self._sets.pop(next(iter(self._sets)))
            self._sets[key] = (stamp, names)
        return names

    def named(self, question: str, namespaces: Sequence[str]) -> list[NamedSource]:
        """The sources of these namespaces the question names, best first."""
        return self.names(namespaces).match(question)
