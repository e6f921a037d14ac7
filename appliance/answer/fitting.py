"""Which drawing a question's words fit: the drawing in hand, one drawing found, or several alike.

A question that names no drawing is placed by its words. Each source found is read as the answer
reads it (its text, the text's English sense, and the words that ask for each field its title
block states) and the question's share of content words it holds is compared: with a drawing in
hand the question is about it unless another source holds more of its words ("what's the torque
for the M6 screws?" is about the note that says so); with none in hand, two or more drawings that
hold its words alike ("what's the scale?") leave the question asking which one.

A question whose only words ask for a title-block field ("what is the drawing number?") holds no
content words at all, yet fits every drawing that states the field: it counts as wholly held.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from appliance.answer import extractive
from appliance.answer.context import HitLike, Source, build_sources
from appliance.answer.fields import FIELD_WORDS, asked_field
from appliance.answer.in_hand import IN_HAND_MIN_COVER, points_at_it
from appliance.answer.terms import terms
from appliance.drawing_terms import translate

if TYPE_CHECKING:
    from appliance.index.search import Hit


def read_as(source: Source) -> str:
    """A source's title and text, their English sense, and the words that ask for each field
    its title block states: "Does the fork head get any coating?" shares its words with
    "Gabelkopf ... Oberfläche: verzinkt" only through the glossary and the field's words."""
    text = f"{source.title}\n{source.text}"
    stated = (" ".join(FIELD_WORDS.get(f, ())) for f, v in source.fields.items() if v.strip())
    return "\n".join([text, translate(text), *stated])


def cover(question: str, source: Source) -> float:
    """Share of the question's content words ``source`` holds (0..1); a question that only asks
    for a field the source states is wholly held."""
    if not terms(question):
        field, _ = asked_field(question)
        return 1.0 if field and source.fields.get(field, "").strip() else 0.0
    return extractive.coverage(question, read_as(source))


def _whole(hits: Sequence[HitLike]) -> list[Source]:
    return build_sources(hits, budget_tokens=10**6, max_sources=10**6)


def about_hand(question: str, hits: Sequence[Hit]) -> bool:
    """Whether a question that names no drawing is about the drawing in hand, given a search
    that put the drawing's slices first (``focused``): it points at it ("what is it made of?"), at
    least half its words are the drawing's ("what's the scale?"), or no other source found holds
    more of them ("what radius has the nose?"). A note that says what it asks ("the torque for the
    M6 screws") wins over the drawing in hand; so does another drawing found that holds more of
    the words of a name the recogniser half lost, but one it lost whole is taken to be about the
    drawing in hand (the spoken answer names the drawing it quotes)."""
    if points_at_it(question):
        return True
    own = _whole([h for h in hits if h.focused])
    if not own:
        return False
    held = max(cover(question, s) for s in own)
    if held >= IN_HAND_MIN_COVER:
        return True
    others = [cover(question, s) for s in _whole([h for h in hits if not h.focused])]
    return held >= max(others, default=0.0)


def found_cover(
    question: str, hits: Sequence[HitLike], drawings: Collection[tuple[str, str]]
) -> list[tuple[str, bool, float]]:
    """For each source the search found: its key, whether it is one of the current ``drawings``
    (namespace, source), and the share of the question's words its found slices hold
    (:func:`cover`)."""
    return [
        (f"{s.namespace}/{s.source}", (s.namespace, s.source) in drawings, cover(question, s))
        for s in _whole(hits)
    ]
