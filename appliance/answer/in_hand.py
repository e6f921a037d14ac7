"""The drawing in hand: what a question that names no drawing is about.

At a bench a person names a drawing once and then asks on ("and what is it made of?"), or holds a
drawing under the camera, scans it and asks about it. A question that names no drawing therefore
searches the drawing in hand first: the one just scanned, or the one the last answer quoted (the
drawing the listener last heard named as a source), or, when that answer quoted none, the one its
question named. It is held for a while (``answer.in_hand_s``) and only within the namespaces being
searched, so a room change lets it go. A question that names a drawing goes to that one.

A question that names no drawing and does not point at one ("it", "this part", "the drawing") is
about the drawing in hand when at least half its words are that drawing's ("what's the scale?") or
no other source found holds more of them (``appliance.answer.fitting``); "what's the torque for
the M6 screws?", which a note answers, is searched on its own.
The spoken answer always begins with the drawing it quotes, so a listener hears which drawing was
taken.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from appliance.document import Citation

#: Why a drawing is in hand.
Why = Literal["scanned", "named", "quoted", "chosen"]

#: Words by which a question points at the drawing in hand ("what is it made of?", "how long is
#: this part?", "its weight", "what scale is the drawing?": one drawing, the one talked about).
#: "The drawing number", "the part number", "the sheet size" name a field, not a drawing ("the
#: drawing number of the Siemens example"); "the part on drawing …" goes on to name it. "This
#: note" points at a note, which its words find ("what torque does this note give?").
_POINTING = re.compile(
    r"\b(?:this(?!\s+(?:notes?|memo|reminder)\b)|it|its|itself)\b"
    r"|\bthe (?:drawing|part|sheet|piece|component)\b"
    r"(?!\s+(?:numbers?|no|nr|size|format|revision|rev|title|list|count|on|of|in|from)\b)",
    re.IGNORECASE,
)

#: Share of a question's words (appliance.answer.terms) the drawing in hand must hold for a
#: question that does not point at it to be about it whatever else is found ("what's the scale?");
#: below it, a source found that holds more of them wins (appliance.answer.fitting).
IN_HAND_MIN_COVER = 0.5


def points_at_it(question: str) -> bool:
    """Whether ``question`` points at a drawing in hand ("this part", "it")."""
    return _POINTING.search(question) is not None


@dataclass(frozen=True)
class InHand:
    """The drawing a conversation is about."""

    #: Its namespace.
    namespace: str
    #: Its source identifier, as indexed (a file under the inbox, or ``capture:<id>``).
    source: str
    #: ``scanned`` (just captured by the camera), ``named`` (the last question named it),
    #: ``quoted`` (the last answer quoted it) or ``chosen`` (the person named it for the question
    #: being answered, in reply to "which drawing?" or to correct an answer: that question is about
    #: it, whatever its words).
    why: Why
    #: When it was taken in hand (``time.monotonic()``).
    since: float


def held_for_it(held: InHand | None) -> bool:
    """Whether the drawing in hand was named for the question being answered (``chosen``)."""
    return held is not None and held.why == "chosen"


class DrawingInHand:
    """The drawing in hand between questions (the service keeps one; thread-safe).

    ``hold_s`` is how long it stays in hand after it was last scanned, named or quoted; 0 turns
    the drawing in hand off (every question is searched on its own).
    """

    def __init__(self, hold_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.hold_s = hold_s
        self._clock = clock
        self._held: InHand | None = None
        self._lock = threading.Lock()

    def take(self, namespace: str, source: str, why: Why) -> None:
        """Put a drawing in hand now."""
        if self.hold_s <= 0:
            return
        with self._lock:
            self._held = InHand(namespace, source, why, self._clock())

    def after_answer(
        self, citations: Sequence[Citation], named: tuple[str, str] | None = None
    ) -> None:
        """After an answer: the one drawing it quoted is in hand, the drawing the listener just
        heard named as its source. An answer that quoted none (the documents do not say) puts in
        hand the drawing its question ``named`` (namespace, source), if it named one: the person
        goes on asking about it. One that quoted several, or named and quoted none, leaves the
        hand as it was."""
        quoted = {(c.namespace, c.source) for c in citations}
        if len(quoted) == 1:
            namespace, source = quoted.pop()
            self.take(namespace, source, "quoted")
        elif not quoted and named is not None:
            self.take(*named, "named")
        elif (held := self.current()) is not None and held.why == "chosen":
            # Chosen for the question just answered: the next one is about it as about a drawing
            # named.
            self.take(held.namespace, held.source, "named")

    def current(self) -> InHand | None:
        """The drawing in hand, if it is still held. (Whether it is in a namespace being searched
        is the answer's to check: a room change lets it go without forgetting it.)"""
        with self._lock:
            if self._held is not None and self._clock() - self._held.since > self.hold_s:
                self._held = None
            return self._held

    def left_s(self) -> float:
        """Seconds until the drawing in hand is let go (0 when none is held)."""
        held = self.current()
        return max(0.0, held.since + self.hold_s - self._clock()) if held else 0.0

    def drop(self) -> None:
        """Let the drawing go (nothing is in hand)."""
        with self._lock:
            self._held = None
