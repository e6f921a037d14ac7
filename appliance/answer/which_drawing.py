"""Which drawing? A question that points at a drawing when none is in hand is asked back.

"What is this part made of?", asked with nothing scanned, named or quoted a while before, has no
drawing to point at. Searched on its own it is answered from whichever drawing the search ranks
first, most often another drawing's material, said as surely as a right answer. So the appliance
asks back ("Which drawing do you mean? …"), holds the question for ``answer.ask_which_s`` seconds,
and listens for the reply without the wake phrase. A reply that is only a drawing's name ("the
adapter plate", "drawing FL-3306") puts that drawing in hand and the held question is answered
about it. A reply in which no drawing's name is heard is said back once, asking for the number; a
reply that asks something is a question of its own.

A question that names no drawing and does not point at one is asked back too when its words do
not tell the drawings apart: "what's the scale?" fits every drawing with a scale as well as any
other, and the search would only pick one of them. It is asked back when two or more drawings
found hold its words as fully as any source found does (at least half of them), and no text note
does; a question that asks for drawings ("which part is made of S235?", "how many drawings …")
is searched, since the drawings are its answer, and so is one that calls a drawing by a name the
index does not know ("the crankshaft drawing"), which is then declined.

A question that names two drawings alike is asked back the same way: "the guide plate", with a
Chinese and a German guide plate indexed, names both in full, and the search would only pick one.
When the drawing in hand is one of them, the question is about it.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from appliance import drawing_terms
from appliance.answer.in_hand import InHand
from appliance.index.identity import question_words

if TYPE_CHECKING:
    from appliance.index.identity import NamedSource, SourceNames
    from appliance.index.store import IndexStore, SourceInfo

#: Chinese characters, which the voice does not say.
_HAN = re.compile(r"[\u3400-\u9fff]")

#: How many drawings the question back names when there are only a few to choose from.
MAX_LISTED = 3

#: Words that ask something: a reply holding one is a question of its own ("the adapter plate,
#: what's its scale?"), not only a drawing's name.
_ASKING = frozenset(
    """what whats how which who whom whose when where why does do did can could should would tell
    give show wie was welche welcher welches wer wo warum vad hur vilken vem var""".split()  # noqa: SIM905
)


#: A question that asks for drawings rather than about one: "which part is made of S235?", "how
#: many drawings are in A3?", "list every part in aluminium".
_ASKS_FOR_DRAWINGS = re.compile(
    r"\b(?:which|what)\s+(?:drawings?|parts?|sheets?|ones?)\b"
    r"|\b(?:drawings|parts|sheets)\b|\bhow many\b|\b(?:all|every|each|any|list)\b",
    re.IGNORECASE,
)

#: "The crankshaft drawing", "the Siemens example part": a drawing called by a name (one to three
#: words before "drawing", "part" or "sheet"). When the naming found no drawing by it, the drawing
#: is not here, and the question is declined, not asked back.
_CALLED = re.compile(r"\bthe\s+((?:[\w-]+\s+){1,3}?)(?:drawing|part|sheet)\b", re.IGNORECASE)
#: Words that do not name a drawing before "drawing" or "part" ("the same part", "the other one").
_NOT_A_NAME = frozenset(
    """of on in at for from with and or this that these those same other whole first second
    third last next previous""".split()  # noqa: SIM905
)

#: Share of a question's words the drawings alike must hold for it to be asked back: below it the
#: question is mostly about something no drawing found states, and is searched (and most often
#: declined) as before.
ALIKE_MIN_COVER = 0.5


def asks_for_drawings(question: str) -> bool:
    """Whether a question asks which drawings (or how many) fit, not about one drawing."""
    return _ASKS_FOR_DRAWINGS.search(question) is not None


def calls_a_drawing(question: str) -> bool:
    """Whether a question calls a drawing by a name of its own ("the crankshaft drawing")."""
    return any(
        not {w.lower() for w in m.group(1).split()} & _NOT_A_NAME
        for m in _CALLED.finditer(question)
    )


def fits_drawings_alike(question: str, found: Iterable[tuple[str, bool, float]]) -> bool:
    """Whether ``question`` does not tell the drawings apart: two or more drawings found hold as
    many of its words as the best source found, at least :data:`ALIKE_MIN_COVER` of them, and no
    text note does. ``found``: for each source found, its key, whether it is a current drawing and
    the share of the question's words it holds."""
    if asks_for_drawings(question) or calls_a_drawing(question):
        return False
    best: dict[str, tuple[bool, float]] = {}
    for key, drawing, cover in found:
        if key not in best or cover > best[key][1]:
            best[key] = (drawing, cover)
    top = max((cover for _, cover in best.values()), default=0.0)
    if top < ALIKE_MIN_COVER:
        return False
    alike = [drawing for drawing, cover in best.values() if cover >= top - 1e-9]
    return len(alike) >= 2 and all(alike)


def named_alike(question: str, named: Sequence[NamedSource]) -> list[NamedSource]:
    """The drawings a question names in full and alike ("the guide plate" of two guide plates),
    when it names more than one so; else none. A name said in the plural ("which guide plates
    are hardened?", "both guide plates") means them all: none is asked for."""
    full = {n.id: n for n in named if n.score >= 1.0}
    words = {w.folded for w in question_words(question)}
    said = {t for n in full.values() for t in n.said}
    if any(f"{t}s" in words or f"{t}es" in words for t in said):
        return []
    return list(full.values()) if len(full) > 1 else []


def is_drawing(source: SourceInfo) -> bool:
    """Whether an indexed source is a drawing (a PDF, an image, a capture), not a text note."""
    return not source.media_type.startswith("text/")


def spoken_title(source: SourceInfo) -> str:
    """A drawing as the question back names it: its title and number, or its file name (said with
    spaces for the underscores). A title in Chinese is said by its English sense, which the voice
    can say ("guide plate DX-3105-02"), or left out."""
    title = source.title
    if title and _HAN.search(title):
        title = drawing_terms.english(title) or ""
        title = "" if _HAN.search(title) else title
    parts = [p for p in (title, source.drawing_number) if p]
    if not parts:
        name = source.source.rsplit("/", 1)[-1]
        parts = [name.rsplit(".", 1)[0] if "." in name else name]
    elif len(parts) == 2 and parts[1].lower() in parts[0].lower():
        parts = parts[:1]
    return " ".join(parts).replace("_", " ")


def listed_drawings(drawings: Sequence[SourceInfo]) -> Sequence[SourceInfo]:
    """The drawings the question back names, in the order it says them (none when there are
    more than :data:`MAX_LISTED`)."""
    return drawings if 1 < len(drawings) <= MAX_LISTED else ()


def which_question(drawings: Sequence[SourceInfo]) -> str:
    """What the appliance says back: the drawings by name when there are a few, else how to name one."""
    if listed_drawings(drawings):
        titles = [spoken_title(d) for d in drawings]
        listed = ", ".join(titles[:-1]) + " or " + titles[-1]
        return f"Which drawing do you mean: {listed}?"
    return (
        f"Which drawing do you mean? I have {len(drawings)} here: "
        "say its number or its title, or scan it."
    )


def reply_names(
    reply: str, names: SourceNames, heard: bool = False, only_name: bool = False
) -> NamedSource | None:
    """The drawing a reply to "which drawing?" names, if the reply is only its name ("the adapter
    plate", "I mean drawing FL-3306"); None for a reply that names none or asks something (a
    question of its own). ``only_name``: no word but the name's and a few of
    :data:`_BESIDE_A_NAME` either ("the shaft coupling's scale" is a question)."""
    if asks_something(reply):
        return None
    named = names.match(reply, heard=heard)
    if not named or (only_name and not _only_the_name(reply, named[0])):
        return None
    return named[0]


#: Words said around a drawing's name when correcting which drawing is meant ("no, I mean the
#: shaft coupling, please").
_BESIDE_A_NAME = frozenset(
    """no not nope nah i mean meant the a an one drawing part sheet please sorry actually that
    this is was wrong other instead rather than on about for of and oh um uh er well yes german
    swedish chinese english ansi iso png jpg jpeg pdf tif tiff""".split()  # noqa: SIM905
)


def _only_the_name(reply: str, named: NamedSource) -> bool:
    """Whether every word of ``reply`` is the name's, or one said around a name."""

    def of_the_name(word: str, forms: frozenset[str]) -> bool:
        # A code's parts ("b", "2040") are said apart from the code the name holds ("b2040").
        return bool(forms & named.said) or any(word in said for said in named.said)

    return all(
        w.folded in _BESIDE_A_NAME or of_the_name(w.folded, w.forms) for w in question_words(reply)
    )


#: Words that pick one of the drawings the question back named, by its place: "the second one".
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}


def chosen_by_place(reply: str, listed: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The drawing of ``listed`` (namespace, source; in the order the question back said them) a
    reply picks by its place ("the first one", "the last"), if it picks one."""
    words = [w.folded for w in question_words(reply)]
    picked = [_ORDINALS[w] for w in words if w in _ORDINALS]
    if "last" in words or "latter" in words:
        picked.append(len(listed) - 1)
    if "former" in words:
        picked.append(0)
    if len(set(picked)) != 1 or not 0 <= picked[0] < len(listed):
        return None
    return listed[picked[0]]


def asks_something(reply: str) -> bool:
    """Whether a reply asks something of its own ("what's its scale?"): a question word in it."""
    return any(w.folded in _ASKING for w in question_words(reply))


def drawing_in_reply(
    reply: str,
    *,
    store: IndexStore,
    namespaces: Iterable[str] | None,
    heard: bool = False,
    only_name: bool = False,
    listed: Sequence[tuple[str, str]] = (),
) -> InHand | None:
    """The drawing a reply to "which drawing?" names, to put in hand (None: the reply is not only
    a name). ``heard``: the reply is a recogniser's transcript, read as a spoken question is;
    ``only_name``: see :func:`reply_names`; ``listed``: the drawings the question back named
    (namespace, source), of which a reply may pick one by its language ("the German one")."""
    from appliance.answer import wording
    from appliance.index.search import scope

    names = store.names.names(scope(namespaces))
    read = names.split_compounds(wording.as_read(reply, heard))
    named = reply_names(read, names, heard, only_name)
    if named is not None:
        return InHand(named.namespace, named.source, "chosen", time.monotonic())
    picked = chosen_by_language(read, listed, store)
    return None if picked is None else InHand(*picked, "chosen", time.monotonic())


def chosen_by_language(
    reply: str, listed: Sequence[tuple[str, str]], store: IndexStore
) -> tuple[str, str] | None:
    """The one drawing of ``listed`` written in the language a reply says ("the German one",
    "the Chinese drawing"), if the reply asks nothing and exactly one is."""
    from appliance.index.qualifiers import asked_language, written_in

    language = asked_language(reply)
    if language is None or asks_something(reply):
        return None
    fits = [
        (namespace, source)
        for namespace, source in listed
        if written_in(s.text for s in store.source_slices(namespace, source)) == language
    ]
    return fits[0] if len(fits) == 1 else None


@dataclass(frozen=True)
class AskedBack:
    """A question the appliance asked back about: which drawing it points at."""

    #: The question as it was asked.
    question: str
    #: When it was asked back (``time.monotonic()``).
    since: float
    #: Replies so far that named no drawing (each said back: "I did not catch …").
    tries: int = 0
    #: (namespace, source) of the drawings the question back named, in the order said.
    listed: tuple[tuple[str, str], ...] = ()


class PendingQuestion:
    """The question waiting for its drawing (the service keeps one; thread-safe).

    ``hold_s`` is how long a reply is waited for; 0 turns asking back off (a question that points
    at no drawing is searched on its own).
    """

    def __init__(self, hold_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.hold_s = hold_s
        self._clock = clock
        self._asked: AskedBack | None = None
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        """Whether questions are asked back at all."""
        return self.hold_s > 0

    def ask(self, question: str, tries: int = 0, listed: Sequence[tuple[str, str]] = ()) -> None:
        """Hold ``question`` until its drawing is named (``tries``: replies so far that named none;
        ``listed``: the drawings the question back named, in order)."""
        if self.hold_s <= 0:
            return
        with self._lock:
            self._asked = AskedBack(question, self._clock(), tries, tuple(listed))

    def current(self) -> AskedBack | None:
        """The question waiting, if its reply is still awaited."""
        with self._lock:
            if self._asked is not None and self._clock() - self._asked.since > self.hold_s:
                self._asked = None
            return self._asked

    def drop(self) -> None:
        """Wait no longer (a reply came, or "stop")."""
        with self._lock:
            self._asked = None
