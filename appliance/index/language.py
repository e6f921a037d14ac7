"""Which language a drawing is written in, for questions that name a drawing by it ("the German
guide plate", "the Swedish base plate", "the Chinese flange"): of several drawings a question's
words name alike, the ones written in the language it says.

A drawing's language is read from its own text: Chinese by its characters, German and Swedish by
the title-block labels and note words each writes and the other does not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from appliance.index.identity import NamedSource

#: How fully a drawing's name must be said to be taken when its language picks it: half, as
#: "the Swedish fixture base plate" says "base plate" after a word the Bottenplatta's name lacks.
LANGUAGE_MIN_SCORE = 0.5
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
    kept = [n for n in named if written_in([text_of(n)]) == language]
    if not kept:
        kept = [n for n in wider() if written_in([text_of(n)]) == language]
    return kept or list(named)
