"""The index's names heard again in the question's audio: a misheard drawing name put right by ear.

Whisper's prompt holds only the names its budget keeps (about fifteen, :mod:`appliance.audio.bias`),
so a question about any other drawing is decoded without its name in view, and a name said in
another language comes back as English words ("span pratsy" for Spannpratze, "felon pan" for
falanpan). Reading the transcript alone, the index can only guess from its letters or sounds
(:mod:`appliance.index.soundalike`); the audio can settle it.

After the free decode, the words of the question are compared with every name of the index (titles
as they are said, drawing numbers), and the few spans of one to four words that come nearest by
letters or by sound are put forward, each with a name in its place. The recogniser then scores
each whole sentence against the audio, as the command grammar does
(no prompt, every text forced from the start), beside the free transcript, each against a quiet
room of the same length (:meth:`EvidenceScorer.texts_evidence`). A sentence with a name in it that
the audio supports nearly as well as what was heard, or better, is what was said.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Protocol, runtime_checkable

import numpy as np

from appliance.audio.base import Samples
from appliance.audio.bias import spoken_term
from appliance.audio.commands import CommandKind, parse_command
from appliance.audio.phrases import word_spans
from appliance.spelling import fold, sound_key

#: Sentences with a name in them scored beside the free transcript: one batched decoder call.
MAX_CANDIDATES = 8
#: How alike (0-1, letters or sound keys) a span of the question must be to a name to be put
#: forward at all; the audio decides among those.
MIN_LIKENESS = 0.55
#: Spans of the question put forward for one name.
SPANS_PER_NAME = 2
#: Most words of a question span that may stand for one name.
MAX_SPAN_WORDS = 4
#: Shortest name (letters and digits) put forward: shorter ones are other words too often.
MIN_NAME_CHARS = 5
#: Shortest sound key of a name compared by sound: shorter keys are said by too many words.
MIN_KEY_CHARS = 4
#: Words of asking about a drawing ("what", "this", "drawing", "scale", "approved"): a run of
#: question words made only of these is not a name heard wrong.
_PLAIN_TEXT = (
    "a an the of on in at to for by with from and or is are was were be been it its this that "
    "these those there here what whats which who whom whose when where why how much many long "
    "wide high thick heavy big small large do does did done made make drawn drew draw give gives "
    "get gets go goes say says said part parts drawing drawings sheet page piece component one "
    "scale material tolerance tolerances revision diameter thread surface finish weight weigh "
    "size format date number title general changed change approved checked signed reviewed fit "
    "overall hole holes bore centre center radius angle length width height thickness dimension "
)
PLAIN_WORDS = frozenset(_PLAIN_TEXT.split())
#: How much less probable (natural log) than the free transcript a sentence with a name may be and
#: still be taken.
MARGIN = 1.0

#: The quiet each text is also scored against: faint noise (about -60 dBFS), fixed.
QUIET_LEVEL = 30.0
QUIET_SEED = 0

_ALNUM = re.compile(r"[^0-9a-z]+")


@runtime_checkable
class EvidenceScorer(Protocol):
    """A recogniser that can say how much better texts fit some audio than a baseline (whisper)."""

    def texts_evidence(
        self, audio: Samples, texts: Sequence[str], baseline: Samples
    ) -> list[float]:
        """Each whole text's natural-log probability for ``audio`` less that for ``baseline``."""
        ...


@dataclass(frozen=True)
class NameCandidate:
    """A span of the question put forward as a name of the index."""

    #: The name as it is said ("Aufspannung Ecke", "HM-30518").
    name: str
    #: Character span of the question's words it would replace.
    start: int
    end: int
    #: How alike the span and the name are (0-1).
    likeness: float


@dataclass(frozen=True)
class NameChoice:
    """What the audio said of the names put forward for one question."""

    #: The question with the chosen name in place (the question as heard when none was taken).
    text: str
    #: The most probable candidate (None when none was put forward).
    best: NameCandidate | None
    #: Its log-probability less the free transcript's (0 when none).
    lead: float
    #: Whether it replaced the free text.
    taken: bool


def _folded(text: str) -> str:
    """Letters and digits only, without accents ("Druckstück" -> "druckstuck")."""
    return _ALNUM.sub("", fold(text))


def _sounds(words: Sequence[str]) -> str:
    return "".join(sound_key(w) for w in words)


def _likeness(a: str, b: str) -> float:
    """How alike two strings are (difflib's ratio), 0 for a pair that cannot reach
    :data:`MIN_LIKENESS`: the cheap upper bounds settle most of the index's names at once, and a
    question is compared with every one of them."""
    # The ratio is at most twice the shorter length over the two together (difflib's
    # real_quick_ratio), checked before a matcher is made.
    if not a or not b or 2 * min(len(a), len(b)) < MIN_LIKENESS * (len(a) + len(b)):
        return 0.0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.quick_ratio() < MIN_LIKENESS:
        return 0.0
    return matcher.ratio()


@functools.lru_cache(maxsize=4096)
def _name_forms(raw: str) -> tuple[str, str, tuple[str, ...], str]:
    """A name as it is said, folded, its folded words and its sound key ("" for a code, whose
    sound key is a letter or two): the same for every question, so made once."""
    name = spoken_term(raw)
    folded = _folded(name)
    words = tuple(w for w in (_folded(w) for w in re.split(r"[\s_-]+", name)) if w)
    return name, folded, words, "" if any(c.isdigit() for c in folded) else _sounds(words)


def name_candidates(
    question: str, names: Sequence[str], limit: int = MAX_CANDIDATES
) -> list[NameCandidate]:
    """The spans of ``question`` nearest to each name of ``names``, nearest first, at most
    :data:`SPANS_PER_NAME` per name and ``limit`` in all. A name the question already says (its
    letters and digits in a row) is not put forward, and neither is any other once one is: the
    question names its drawing.
    """
    spans = word_spans(question)
    said = _folded(question)
    # Each run of question words folded and as sounds, made once for all the names:
    # (words, start, end, letters, sound key).
    runs = [
        (size, spans[i][1], spans[i + size - 1][2], _folded("".join(w)), _sounds(w))
        for i in range(len(spans))
        for size in range(1, min(MAX_SPAN_WORDS, len(spans) - i) + 1)
        for w in [[word for word, _, _ in spans[i : i + size]]]
    ]
    found: dict[str, list[NameCandidate]] = {}
    for raw in names:
        name, folded, name_words, name_sound = _name_forms(raw)
        if len(folded) < MIN_NAME_CHARS or folded in found:
            continue
        if folded in said:
            return []
        longest = min(MAX_SPAN_WORDS, len(name_words) + 1)
        by_sound = len(name_sound) >= MIN_KEY_CHARS
        for size, start, end, letters, span_sound in runs:
            if size > longest:
                continue
            likeness = _likeness(letters, folded)
            if by_sound and len(span_sound) >= MIN_KEY_CHARS - 1:
                likeness = max(likeness, _likeness(span_sound, name_sound))
            if likeness >= MIN_LIKENESS:
                found.setdefault(folded, []).append(NameCandidate(name, start, end, likeness))
    # The spans nearest each name: the nearest by letters is not always the one the name was
    # said as ("cycle pump" against "cow and cycle pump" for Kolv Cykelpump); the audio decides.
    nearest: list[NameCandidate] = []
    for spans_of_name in found.values():
        ranked = sorted(spans_of_name, key=lambda c: (-c.likeness, c.start))[:SPANS_PER_NAME]
        nearest += ranked
        # Two near spans that overlap may each hold part of the name ("pan-pressed" and "pressed
        # seed" for Spannpratze): the two together are put forward as well.
        if len(ranked) == 2 and _overlap(*ranked):
            first, second = ranked
            nearest.append(
                NameCandidate(
                    first.name,
                    min(first.start, second.start),
                    max(first.end, second.end),
                    min(first.likeness, second.likeness),
                )
            )
    nearest = sorted(nearest, key=lambda c: (-c.likeness, c.start, c.name))[:limit]
    # A run of plain question words ("who drew it", "this drawing") was heard as said: no name is
    # put forward in its place, and a follow-up such as "what is it made of?" costs nothing. (Cut
    # after the nearest are chosen, so that no other span takes its place.)
    return [c for c in nearest if not _plain(question[c.start : c.end])]


def _plain(span: str) -> bool:
    return all(_folded(word) in PLAIN_WORDS for word in span.split())


def _overlap(a: NameCandidate, b: NameCandidate) -> bool:
    return a.start < b.end and b.start < a.end and (a.start, a.end) != (b.start, b.end)


def with_name(question: str, candidate: NameCandidate) -> str:
    """``question`` with the candidate's name in place of its span."""
    return question[: candidate.start] + candidate.name + question[candidate.end :]


def choose_name(
    scorer: EvidenceScorer,
    audio: Samples,
    heard: str,
    after: str,
    names: Sequence[str],
    *,
    margin: float = MARGIN,
) -> NameChoice | None:
    """The question ``audio`` says with a name of the index in it, if one is nearly as probable as
    what was heard; None when no name was put forward (nothing scored).

    ``heard`` is the free transcript of the whole capture and ``after`` its words after the wake
    phrase (the question). Every sentence is scored whole: the words before the question as heard,
    then the question with one candidate name in place.
    """
    candidates = name_candidates(after, names)
    if not candidates:
        return None
    cut = heard.rfind(after)
    lead_in = heard[:cut].strip() if cut >= 0 else ""
    texts = [heard.strip()]
    texts += [f"{lead_in} {with_name(after, c)}".strip() for c in candidates]
    evidence = scorer.texts_evidence(audio, texts, quiet(len(audio)))
    free, rest = evidence[0], evidence[1:]
    k = max(range(len(candidates)), key=rest.__getitem__)
    lead = rest[k] - free
    taken = lead >= -margin
    text = with_name(after, candidates[k]) if taken else after
    return NameChoice(text, candidates[k], lead, taken)


def choose_name_in_question(
    scorer: EvidenceScorer, audio: Samples, heard: str, after: str, names: Sequence[str]
) -> NameChoice | None:
    """:func:`choose_name` for a question; None for a command ("switch to the machine shop"),
    whose words are the command grammar's to correct."""
    if not names or parse_command(after).kind != CommandKind.QUESTION:
        return None
    return choose_name(scorer, audio, heard, after, names)


def quiet(samples: int) -> Samples:
    """A room's quiet (faint noise, the same every time) as long as the question: what the
    recogniser expects of each text when nothing is said."""
    rng = np.random.default_rng(QUIET_SEED)
    return (rng.standard_normal(samples) * QUIET_LEVEL).astype(np.int16)
