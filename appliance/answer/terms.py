"""The terms of a question or a line, and when two terms are the same word.

Every extractive rule compares words through these: lower case, decimal comma as a point, umlauts and
their "ae" spellings folded, stopwords dropped, a plural or verb ending and an irregular verb form
taken back to the plain word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_]+(?:[.,][0-9]+)?", re.UNICODE)
_NUMERIC = re.compile(r"^[0-9]+(?:[.,][0-9]+)?$")


#: Words that say nothing about which line answers the question.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "could",
        "do",
        "does",
        "for",
        "from",
        "give",
        "go",
        "goes",
        "going",
        "has",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "please",
        "say",
        "show",
        "tell",
        "that",
        "the",
        "their",
        "there",
        "these",
        "this",
        "those",
        "to",
        "was",
        "we",
        "what",
        "whats",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "about",
        "much",
        "many",
        "any",
        "drawing",
        "drawings",
        "part",
        "parts",
        "document",
        "documents",
        "page",
        "value",
        "number",
        "written",
        "stated",
        "given",
        "listed",
    ]
)


def normalise(token: str) -> str:
    """Lower-case, decimal comma to point, ``ß`` folded, a diameter sign dropped, umlauts and
    their spellings "ae", "oe", "ue" folded to the plain vowel (a file name writes "fuehrungsschiene"
    where the drawing says "Führungsschiene" and OCR reads "Fuhrungsschiene"): how terms compare."""
    norm = token.lower().replace(",", ".").replace("ß", "ss")
    if norm[:1] in ("ø", "⌀") and _NUMERIC.match(norm[1:]):
        return norm[1:]  # "Ø24.0" in a question is the number 24.0 of a "⌀24.0" callout
    if not norm.isascii():
        norm = "".join(
            ch for ch in unicodedata.normalize("NFKD", norm) if not unicodedata.combining(ch)
        )
    return _UMLAUT_SPELLING.sub(lambda m: m.group(0)[0], norm)


#: "ae", "oe", "ue" after a consonant: how an umlaut is spelt without it ("fuehrung").
_UMLAUT_SPELLING = re.compile(r"(?<=[b-df-hj-np-tv-z])[aou]e")


def terms(text: str) -> list[str]:
    """Normalised content terms of a text (stopwords dropped, numbers kept)."""
    out = []
    for tok in _WORD.findall(text):
        norm = normalise(tok)
        if tok.lower() in STOPWORDS or (len(norm) < 2 and not norm.isdigit()):
            continue
        out.append(norm)
    return out


def term_matches(term: str, unit_terms: Iterable[str]) -> bool:
    if _NUMERIC.match(term):
        value = float(term)
        return any(_NUMERIC.match(u) and float(u) == value for u in unit_terms)
    for u in unit_terms:
        if u == term:
            return True
        # A shared stem of five letters ("tolerance" / "tolerances", "holder" / "holders").
        if len(term) >= 5 and len(u) >= 5 and u[:5] == term[:5]:
            return True
        # A short word and its inflection ("mark" / "marked", "pin" / "pins").
        if term.isalpha() and u.isalpha() and stem(term) == stem(u):
            return True
    return False


#: Irregular English verb forms a question uses where a note has the verb's plain form ("edges
#: broken" / "BREAK EDGES", "ground" / "GRIND").
_IRREGULAR = {
    "broken": "break",
    "broke": "break",
    "ground": "grind",
    "bent": "bend",
    "drawn": "draw",
    "held": "hold",
    "made": "make",
    "worn": "wear",
    "wound": "wind",
    "given": "give",
    "shown": "show",
    "built": "build",
    "hung": "hang",
    "struck": "strike",
    "sawn": "saw",
    "spun": "spin",
}


def stem(word: str) -> str:
    """A word without an English verb or plural ending, when at least three letters stay; an
    irregular verb form as its plain form."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for ending in ("ing", "ed", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word
