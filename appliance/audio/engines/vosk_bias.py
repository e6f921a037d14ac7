"""The index's names heard by Vosk: a grammar-limited decode spliced into the free one.

Vosk cannot bias a free recogniser: its language model is compiled into the model, and the only
vocabulary control at run time is a grammar, which turns every word outside it into ``[unk]``. So
a question is decoded twice from the same audio: free, and with a grammar of the index's names,
the words of drawing questions and ``[unk]`` (a name then has to beat "some other word" to be
heard). Where the grammar decode heard a whole name, each of its words at least
:data:`NAME_MIN_CONFIDENCE`, over words of the free decode, the name as the index writes it
replaces those words; everything else is what the free decode heard.

Pure functions over :class:`~appliance.audio.base.Word` lists; the decodes are in ``vosk.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from appliance.audio.base import Word
from appliance.audio.bias import spoken_term

#: Lowest confidence of every word of a name for it to replace the free decode's words. A grammar
#: decode chooses among few paths, so its posteriors run high: with no garbage word the Korean
#: model gave 1.0 to grammar words forced onto speech that was none of them. Only a name the
#: lattice all but agrees on (against ``[unk]`` and the question words) overrides the free decode;
#: the value is a choice, not measured on English speech (no English Vosk model here).
NAME_MIN_CONFIDENCE = 0.9

#: Vosk's word for "none of the grammar's phrases" (the small English model has it).
GARBAGE = "[unk]"

_DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TOKEN = re.compile(r"[^\W\d_]+|\d")
#: Letters of a code this short are said one by one ("HM-30518" -> "h m three ...").
_SPELLED_LETTERS = 3


def spoken_words(term: str) -> tuple[str, ...]:
    """A term as words a Vosk lexicon holds: lower case, each digit a word, the short letter runs
    of a code spelled ("HM-30518" -> h m three zero five one eight; "Gearbox cover" -> gearbox
    cover). Digits are spelled in English, the Pi's model's language."""
    words: list[str] = []
    for chunk in spoken_term(term).lower().split():
        code = any(c.isdigit() for c in chunk)
        for token in _TOKEN.findall(chunk):
            if token.isdigit():
                words.append(_DIGITS[int(token)])
            elif code and len(token) <= _SPELLED_LETTERS:
                words.extend(token)
            else:
                words.append(token)
    return tuple(words)


@dataclass(frozen=True)
class NameGrammar:
    """The grammar decode's phrases and the names they stand for."""

    #: The grammar as Vosk takes it: the names' phrases, the competitors', then ``[unk]``.
    phrases: tuple[str, ...]
    #: A name's words, as the grammar decode writes them -> the name as the index writes it.
    names: Mapping[tuple[str, ...], str]


def name_grammar(
    names: Iterable[str], competitors: Iterable[str], known: Callable[[str], bool]
) -> NameGrammar:
    """The grammar of ``names`` and ``competitors`` (question and command words, which are heard
    but never spliced), keeping only phrases whose every word the model ``known``: Vosk drops an
    unknown word from a phrase and keeps the rest, which would make a fragment of a name a name.
    ``[unk]`` ends the grammar when the model has it."""
    spoken: dict[tuple[str, ...], str] = {}
    for name in names:
        words = spoken_words(name)
        if words and words not in spoken and all(known(w) for w in words):
            spoken[words] = spoken_term(name)
    phrases = [" ".join(words) for words in spoken]
    for competitor in competitors:
        words = spoken_words(competitor)
        phrase = " ".join(words)
        if words and words not in spoken and phrase not in phrases and all(map(known, words)):
            phrases.append(phrase)
    if known(GARBAGE):
        phrases.append(GARBAGE)
    return NameGrammar(tuple(phrases), spoken)


def heard_names(
    heard: Sequence[Word],
    names: Mapping[tuple[str, ...], str],
    threshold: float = NAME_MIN_CONFIDENCE,
) -> list[Word]:
    """The names in the grammar decode's words: each run of words that spells a whole name (the
    longest first), every word at or above ``threshold``, as one word spanning the run whose text
    is the name as written and whose confidence is the run's lowest."""
    longest = max((len(words) for words in names), default=0)
    found: list[Word] = []
    i = 0
    while i < len(heard):
        for n in range(min(longest, len(heard) - i), 0, -1):
            run = heard[i : i + n]
            name = names.get(tuple(w.text for w in run))
            if name is not None and all(w.confidence >= threshold for w in run):
                found.append(Word(name, run[0].start, run[-1].end, min(w.confidence for w in run)))
                i += n
                break
        else:
            i += 1
    return found


def splice(free: Sequence[Word], names: Sequence[Word]) -> tuple[Word, ...]:
    """The free decode's words with each name in place of the free words whose middle lies in the
    name's span (a word merely touching the span's edge keeps its place). A name over no free
    word adds nothing: the free decode heard no speech there."""
    out: list[Word] = []
    placed: set[int] = set()
    for word in free:
        middle = (word.start + word.end) / 2
        over = next((i for i, n in enumerate(names) if n.start <= middle <= n.end), None)
        if over is None:
            out.append(word)
        elif over not in placed:
            placed.add(over)
            out.append(names[over])
    return tuple(out)
