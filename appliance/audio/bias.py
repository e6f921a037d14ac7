"""The recogniser's bias: the words of what the appliance knows, written as whisper reads a prompt.

Whisper takes its initial prompt as the text said before the audio, and imitates it: a prompt of
upper-case titles ("GEARBOX COVER, HYDRAULIC MANIFOLD BLOCK") makes it write the question in upper
case and misspell it ("WAT IS THE ROYING UMBER"), and file-name spellings ("Weird_Gripper_Cam_
Adapter") are not how anyone says them. So each term is written as it is said (underscores as
spaces, an all-capitals title in sentence case, a file ending dropped), repeats go, and the list
stops at a budget well inside whisper's prompt (223 tokens; codes take a token for every two or
three characters). The index's terms come from the service's vocabulary (refreshed from the index
at most once a minute), so a drawing indexed now is in the prompt a minute later.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

#: Characters of prompt: whisper keeps at most 223 tokens of it, and codes cost about one token
#: per two or three characters.
PROMPT_BUDGET = 400

#: The words questions about drawings are made of, after the commands and before the index's
#: names: said in nearly every question and misheard without them ("which shit is the drying").
QUESTION_WORDS = (
    "drawing",
    "sheet",
    "scale",
    "material",
    "tolerance",
    "revision",
    "diameter",
    "thread",
    "surface finish",
    "weight",
)

_LATIN = re.compile(r"[A-Za-z0-9]")
_FILE_END = re.compile(r"\.(png|jpe?g|pdf|tiff?|md)$", re.I)


def spoken_term(term: str) -> str:
    """A term written the way a person says it: "GEARBOX COVER" -> "Gearbox cover",
    "Weird_Gripper_Cam_Adapter" -> "Weird Gripper Cam Adapter"; codes are kept as written."""
    text = _FILE_END.sub("", term.strip())
    text = re.sub(r"[_\s]+", " ", text).strip()
    letters = [c for c in text if c.isalpha()]
    # An all-capitals phrase of words (not a code such as "HM-30518"): sentence case.
    if letters and all(c.isupper() for c in letters) and " " in text:
        text = text[0] + text[1:].lower()
    return text


def bias_prompt(terms: Iterable[str], budget: int = PROMPT_BUDGET) -> str:
    """The terms as one prompt: said-as-written, without repeats, within ``budget`` characters."""
    seen: set[str] = set()
    kept: list[str] = []
    used = 0
    for term in terms:
        text = spoken_term(term)
        key = text.lower()
        if not text or key in seen:
            continue
        cost = len(text) + (2 if kept else 0)
        if used + cost > budget:
            break
        seen.add(key)
        kept.append(text)
        used += cost
    return ", ".join(kept)


class NamedSource(Protocol):
    """What the bias reads of an indexed source (``appliance.index.store.SourceInfo`` has it)."""

    @property
    def drawing_number(self) -> str:
        """The drawing number ("" when none)."""
        ...

    @property
    def title(self) -> str:
        """The title ("" when none)."""
        ...

    @property
    def namespace(self) -> str:
        """The namespace it is indexed in (a room's, or global)."""
        ...

    @property
    def indexed_at(self) -> float:
        """When it was indexed (UNIX seconds)."""
        ...


#: Most index names offered to the prompt (the budget keeps fewer).
MAX_INDEX_NAMES = 500


def index_names(sources: Iterable[NamedSource], first: Sequence[str] = ()) -> list[str]:
    """The drawing numbers and titles of the indexed sources, without repeats, in the order the
    prompt's budget should keep them: the sources of the namespaces in ``first`` (the active
    room's own, then global), in that order, before the others, and within each, the newest first.

    The budget keeps about fifteen names, so with hundreds of drawings the order decides which are
    heard right: the room's own drawings are the ones asked about there, and a drawing just scanned
    or dropped in is the one the next question is likely to name.
    """
    rank = {namespace: i for i, namespace in reversed(list(enumerate(first)))}
    ordered = sorted(
        sources,
        key=lambda s: (rank.get(s.namespace, len(rank)), -s.indexed_at, s.drawing_number),
    )
    names: list[str] = []
    seen: set[str] = set()
    for source in ordered:
        for name in (source.drawing_number, source.title):
            # A name without a Latin letter or digit (a Chinese title) cannot come out of an
            # English transcription: it would only take the budget from names that can.
            if name and name not in seen and _LATIN.search(name):
                seen.add(name)
                names.append(name)
    return names[:MAX_INDEX_NAMES]


def question_prompt(
    commands: Iterable[str],
    configured: Iterable[str],
    index_terms: Iterable[str],
    *,
    phrase: str | None = None,
) -> str:
    """The prompt for a question after the wake phrase: the phrase when the capture holds it,
    the command words, the words of drawing questions, the configured words, then the index's
    names, within the budget."""
    return bias_prompt(
        [*([phrase] if phrase else []), *commands, *QUESTION_WORDS, *configured, *index_terms]
    )
