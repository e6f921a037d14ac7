"""Answering a question from the index: retrieve, decide, extract or generate, check, cite.

The stages, in the order :func:`stream_answer` runs them (the service calls it or
:func:`answer_question`):

1. the question is cleaned and capped (``answer.max_question_chars``);
2. hybrid search in the active namespaces (plus ``global``);
3. weak retrieval -> a plain "the documents do not say", naming where it looked and offering the
   namespaces it did not search;
4. numbered sources within a token budget (:mod:`appliance.answer.context`);
5. the extract, once (:func:`appliance.answer.finding.find_extract`): a table cell, a dimension, a
   field or a line; a sure one is the answer at once (the fast path, :func:`is_sure`);
6. otherwise, with a ready worker: an acknowledgement, the role's prompt, a streamed answer, and
   the check that every number and identifier it states is in a source it cites
   (:mod:`appliance.answer.verify`); a failed check, a model too slow to its first sentence, a dead
   or hung worker, or no model at all -> the extract of step 5.

Every answer has a full text form with ``[n]`` citations (status page, CLI) and a short spoken form.
The module is longer than the house's ~600 lines because the streamed loop, its deadline and the
sentence check share the answer's state; splitting them would pass that state between modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from appliance.answer import extractive, finding, grammar, verify, wording
from appliance.answer.context import HitLike, Source, build_sources, within_budget
from appliance.answer.errors import QuestionError
from appliance.answer.fitting import about_hand, found_cover, read_as
from appliance.answer.in_hand import InHand, held_for_it, points_at_it
from appliance.answer.prompts import format_messages
from appliance.answer.which_drawing import (
    asks_for_drawings,
    fits_drawings_alike,
    is_drawing,
    listed_drawings,
    named_alike,
    which_question,
)
from appliance.document import Box, Citation
from appliance.errors import AnswerError

if TYPE_CHECKING:
    from appliance.answer.settings import AnswerSettings
    from appliance.answer.worker import AnswerWorker
    from appliance.config import Config
    from appliance.index.identity import NamedSource
    from appliance.index.store import IndexStore, SourceInfo

Mode = Literal["llm", "extractive", "abstained", "asked"]

#: Cosine similarity of the best hit under which a hit without any shared term counts as unrelated.
_WEAK_COSINE = 0.35
#: What may follow a full stop while its citation is still arriving: nothing, or "[", "[1", "[1,".
_CITATION_START = re.compile(r"\s*(?:\[[\d,\s]*)?")
_SENTENCE_END = re.compile(r"(?<!\d)[.!?](?:\s*\[\d{1,2}(?:\s*,\s*\d{1,2})*\])*\.?(?=\s|$)|\n")


@dataclass(frozen=True)
class Answer:
    """An answer in both forms, with its citations and how it was made."""

    #: The question as answered (cleaned, possibly cut).
    question: str
    #: Full text form with ``[n]`` citations.
    text: str
    #: Short form for the speaker (no brackets, one or two sentences, names its source).
    spoken: str
    #: The sources cited, by number.
    citations: tuple[Citation, ...]
    #: ``llm``, ``extractive``, ``abstained`` or ``asked`` (which drawing the question is about:
    #: :mod:`appliance.answer.which_drawing`).
    mode: Mode
    #: Namespaces searched.
    namespaces: tuple[str, ...]
    #: Why the model's answer was not used ("" when it was, or when none was asked for).
    fallback_reason: str = ""
    #: Numbers and identifiers of a rejected model answer that no cited source contains.
    unsupported: tuple[str, ...] = ()
    #: The model's raw answer when it was rejected (for the status page's "why").
    rejected_text: str = ""
    #: Whether the question was cut to ``answer.max_question_chars``.
    question_truncated: bool = False
    #: Seconds per stage: retrieve, generate, first_token.
    timings: dict[str, float] = field(default_factory=dict)
    #: The drawing in hand the question was searched on first, as ``namespace/source`` ("" when
    #: the question named a drawing or none was in hand; :mod:`appliance.answer.in_hand`).
    in_hand: str = ""
    #: (namespace, source) of the drawing the question named in full, if it named one: the drawing
    #: the conversation is about next, whichever drawing the answer quoted.
    named: tuple[str, str] | None = None
    #: (namespace, source) of the drawings a question back named, in the order said ("the
    #: second one" is the second); empty when it named none.
    listed: tuple[tuple[str, str], ...] = ()
    #: Whether the answer is an extract sure enough for the fast path (:func:`is_sure`): a field,
    #: dimension or table cell of the drawing, or a line matching most of the question.
    sure: bool = False

    def to_json(self) -> dict[str, Any]:
        """The JSON form of ``openclaw ask --json`` and the status page."""
        return {
            "question": self.question,
            "text": self.text,
            "spoken": self.spoken,
            "mode": self.mode,
            "citations": [c.to_json() for c in self.citations],
            "namespaces": list(self.namespaces),
            "fallback_reason": self.fallback_reason,
            "unsupported": list(self.unsupported),
            "rejected_text": self.rejected_text,
            "question_truncated": self.question_truncated,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "in_hand": self.in_hand,
            "named": "/".join(self.named) if self.named else "",
            "listed": ["/".join(d) for d in self.listed],
            "sure": self.sure,
        }


@dataclass(frozen=True)
class AnswerEvent:
    """One step of a streamed answer: an acknowledgement, a checked sentence, or the final answer."""

    #: ``ack`` (the model is asked: say this at once, it is not part of the answer), ``sentence``
    #: (speak it now) or ``answer`` (the final :class:`Answer`, always last).
    kind: Literal["ack", "sentence", "answer"]
    #: The acknowledgement or the sentence's spoken form.
    text: str = ""
    #: The final answer (for ``answer``).
    answer: Answer | None = None


# ------------------------------------------------------------------------------------ helpers
def clean_question(question: str, max_chars: int) -> tuple[str, bool]:
    """Whitespace collapsed, control characters dropped, cut at a word boundary to ``max_chars``."""
    text = "".join(ch if ch.isprintable() else " " for ch in question)
    text = " ".join(text.split())
    if not text:
        raise QuestionError("the question is empty")
    if len(text) <= max_chars:
        return text, False
    cut = text[:max_chars]
    space = cut.rfind(" ")
    return (cut[:space] if space > max_chars // 2 else cut), True


def citation_for(
    src: Source, quote: str = "", number: int | None = None, box: Box | None = None
) -> Citation:
    """The citation of a numbered source (renumbered when ``number`` is given); ``box`` narrows
    it to the quoted item (a dimension) inside the source's region."""
    if box is None:
        box = src.box
    return Citation(
        number=src.number if number is None else number,
        slice_ids=tuple(src.slice_ids),
        source=src.source,
        namespace=src.namespace,
        title=src.title,
        page=src.page,
        box=box.to_list() if box else None,
        drawing_number=src.drawing_number,
        revision=src.revision,
        label=src.label(),
        quote=quote or src.text[:200],
    )


def spoken_form(text: str, sources: Sequence[Source], max_chars: int) -> str:
    """One or two sentences without brackets, ending with the name of the first cited source."""
    cited = [s for n in verify.citations(text) for s in sources if s.number == n]
    plain = verify.strip_citations(text)
    sentences = re.split(r"(?<=[.!?])\s+", plain)
    spoken = ""
    for sentence in sentences:
        if spoken and len(spoken) + len(sentence) + 1 > max_chars:
            break
        spoken = f"{spoken} {sentence}".strip()
        if len(spoken) >= max_chars // 2:
            break
    if len(spoken) > max_chars:
        spoken = spoken[: max_chars - 1].rsplit(" ", 1)[0] + "…"
    if cited:
        spoken = spoken.rstrip(".") + f". Source: {cited[0].label()}."
    return spoken


def _vector_similarity(hit: HitLike) -> float:
    vector = getattr(hit, "vector", None)
    raw = getattr(vector, "raw", None)
    return float(raw) if isinstance(raw, int | float) else 0.0


def retrieval_is_weak(
    question: str,
    hits: Sequence[HitLike],
    sources: Sequence[Source],
    min_score: float,
    also: str = "",
) -> bool:
    """Whether the documents evidently do not answer: nothing found, or nothing that shares the
    question's distinctive terms and nothing close in meaning either.

    Fused scores alone cannot decide this: reciprocal-rank fusion gives the best hit a high score
    whatever it is, so a question about torque over three drawings that never mention torque would
    still "find" one. Term coverage and the raw cosine similarity are absolute. ``also``: words
    every source counts as having (those that named a drawing among them).
    """
    if not hits or not sources:
        return True
    best_cover = max(extractive.coverage(question, f"{read_as(s)}\n{also}") for s in sources)
    best_cosine = max(_vector_similarity(h) for h in hits)
    if best_cover >= 0.5:
        return False
    return best_cover < min_score and best_cosine < _WEAK_COSINE


#: Words of the question said back in a spoken abstention.
ECHO_WORDS = 12


def heard_as(question: str) -> str:
    """The question said back, cut to ECHO_WORDS words: 'You asked: "what is ..."'."""
    words = question.split()
    said = " ".join(words[:ECHO_WORDS]).rstrip("?.!,;:")
    if len(words) > ECHO_WORDS:
        said += " ..."
    return f'You asked: "{said}".'


#: The first sentence of an abstention's text.
NOTHING_FOUND = "I found nothing in the documents that answers this."


def abstention(
    question: str,
    searched: Sequence[str],
    others: Iterable[str],
    truncated: bool,
    retrieve_s: float,
) -> Answer:
    """The plain "the documents do not say" answer, naming where it looked."""
    where = ", ".join(searched)
    others = [ns for ns in others if ns not in searched]
    text = f"{NOTHING_FOUND} I searched: {where}."
    if "global" not in searched:
        text += " Ask again to search the global documents too."
    elif others:
        text += f" Other document sets I did not search: {', '.join(others)}."
    # What was asked comes back first: a spoken question reaches here through a recogniser, and
    # a listener who hears "the Star Alenap" knows to ask again, where "do not say" alone reads as
    # a fact about the drawings.
    spoken = f"{heard_as(question)} The documents I searched ({where}) do not say."
    return Answer(
        question=question,
        text=text,
        spoken=spoken,
        citations=(),
        mode="abstained",
        namespaces=tuple(searched),
        question_truncated=truncated,
        timings={"retrieve": retrieve_s},
    )


def extractive_answer(
    question: str,
    sources: Sequence[Source],
    *,
    searched: Sequence[str],
    others: Iterable[str],
    truncated: bool,
    timings: dict[str, float],
    spoken_max_chars: int,
    reason: str = "",
    rejected: str = "",
    unsupported: Sequence[str] = (),
    found: extractive.Extract | Literal["find"] | None = "find",
) -> Answer:
    """The best field or line, quoted with its citation; an abstention when nothing fits.

    ``found`` is the extract when the caller has looked for it already (None: nothing qualified).
    """
    if found == "find":
        found = finding.find_extract(question, sources)
    if found is None:
        answer = abstention(question, searched, others, truncated, timings.get("retrieve", 0.0))
        return Answer(
            **{
                **answer.__dict__,
                "fallback_reason": reason,
                "rejected_text": rejected,
                "unsupported": tuple(unsupported),
            }
        )
    src = next(s for s in sources if s.number == found.source_number)
    if found.section:
        src = dataclasses.replace(src, section=found.section)
    elif not found.field and found.box is None and (region := src.region_of(found.quote)):
        # A line is cited where it is written: its own slice's region and box, not the region of
        # the slice that led the merged source.
        src = dataclasses.replace(src, section=region.section, box=region.box or src.box)
    # An extractive answer quotes one source: it is [1] whatever its rank among the candidates.
    if found.field:
        text = f"{found.sentence()} [1]."
        said = found.sentence()
    else:
        text = f"{src.label()} says: “{found.quote}” [1]"
        said = found.quote
    # The value first, its source after: a listener waits through no citation to hear the answer,
    # and a long line is shortened before its source, which is always said.
    source = f" Source: {src.label()}."
    said = said.rstrip(". ")
    room = max(spoken_max_chars - len(source) - 1, spoken_max_chars // 2)
    if len(said) > room:
        said = said[: room - 1].rsplit(" ", 1)[0] + "…"
    spoken = f"{said}{'' if said.endswith('…') else '.'}{source}"
    return Answer(
        question=question,
        text=text,
        spoken=spoken,
        citations=(citation_for(src, found.quote, number=1, box=found.box),),
        mode="extractive",
        namespaces=tuple(searched),
        fallback_reason=reason,
        unsupported=tuple(unsupported),
        rejected_text=rejected,
        question_truncated=truncated,
        timings=timings,
    )


def _split_sentences(buffer: str) -> tuple[list[str], str]:
    """Complete sentences at the front of ``buffer`` (citations after the full stop stay with it)."""
    out: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(buffer):
        end = match.end()
        # A full stop at the end of the buffer, or followed only by the start of a citation
        # ("… 4 N·m. [" while "1]" is still being generated), may still get its citation.
        if buffer[match.start()] != "\n" and _CITATION_START.fullmatch(buffer[end:]):
            break
        sentence = buffer[start:end].strip()
        if sentence:
            out.append(sentence)
        start = end
    return out, buffer[start:]


# -------------------------------------------------------------------------------- the pipeline
@dataclass
class _Prepared:
    question: str
    #: The question as the finder reads it: a drawing named by another word for its title
    #: ("the fork head") called by the title the drawing carries ("Gabelkopf").
    find_text: str
    truncated: bool
    searched: list[str]
    others: list[str]
    sources: list[Source]
    weak: bool
    timings: dict[str, float]
    #: The drawing in hand searched first (``namespace/source``), or "".
    in_hand: str = ""
    #: (namespace, source) of the drawing the question named in full, or None.
    named: tuple[str, str] | None = None
    #: The drawings the question may point at, when it points at one with none in hand: it is
    #: asked back, not searched.
    ask_which: tuple[SourceInfo, ...] = ()


def _text_of(store: IndexStore, namespace: str, source: str) -> str:
    """A source's indexed text, every slice of it."""
    return "\n".join(s.text for s in store.source_slices(namespace, source))


def _prepare(
    question: str,
    *,
    store: IndexStore,
    config: Config,
    namespaces: Iterable[str] | None,
    heard: bool = False,
    in_hand: InHand | None = None,
) -> _Prepared:
    from appliance.index.identity import by_title
    from appliance.index.qualifiers import WIDER_MIN_SCORE, as_titled, naming_words, qualified
    from appliance.index.search import SearchOptions, scope, search

    settings = config.answer
    text, truncated = clean_question(question, settings.max_question_chars)
    text = wording.as_read(text, heard)
    searched = scope(namespaces)
    t0 = time.perf_counter()
    # A question that names a drawing (its number, title, file name or their English sense)
    # searches that drawing first; one that names none is an ordinary search.
    named: list[NamedSource] = []
    if config.index.focus_named:
        names = store.names.names(searched)
        text = names.split_compounds(text)
        named = names.match(text, heard=heard)
        # "The German guide plate", "the black anodized adapter plate", "the base plate of the
        # fixture base": what the question says besides the name picks among the drawings named.
        named, text = qualified(
            text,
            named,
            lambda n: _text_of(store, n.namespace, n.source),
            lambda: names.match(text, min_score=WIDER_MIN_SCORE, heard=heard),
        )
        if (
            named
            and in_hand
            and points_at_it(text)
            and not names.match(text, soundalike_names=False)
        ):
            # "this drawing", said plainly, beats a drawing named only by how some words sound
            # ("hole table" heard as the belt pulley's name).
            named = []
    alike = named_alike(text, named)
    if alike and in_hand:
        # "The guide plate", of two, with one of them in hand: the one in hand.
        mine = [n for n in alike if (n.namespace, n.source) == (in_hand.namespace, in_hand.source)]
        named, alike = (mine, []) if mine else (named, alike)
    if alike and settings.ask_which_s > 0 and not asks_for_drawings(text):
        # "The guide plate", of two guide plates: the search would only pick one of them. A
        # note or an older revision that shares a drawing's name is searched with it.
        infos = [store.source_info(n.namespace, n.source) for n in alike]
        drawings = [i for i in infos if i is not None and is_drawing(i) and not i.superseded]
        if len(drawings) > 1:
            return _asked_back(text, truncated, searched, drawings, time.perf_counter() - t0)
    focus = tuple(n.id for n in named)
    # A question that names no drawing is about the drawing in hand, if one is.
    held = _held_source(store, in_hand, searched) if not named and in_hand else None
    if held is not None:
        focus = (held.id,)
    elif not named and settings.ask_which_s > 0 and points_at_it(text):
        # "What is it made of?" with nothing in hand: any drawing's answer would be a guess.
        drawings = _drawings(store, searched)
        if len(drawings) > 1:
            return _asked_back(text, truncated, searched, drawings, time.perf_counter() - t0)
    options = SearchOptions.from_settings(
        config.index,
        max_results=max(config.index.max_results, settings.max_sources * 2),
        focus_sources=focus,
        whole_focus=True,
    )
    hits = search(store, text, searched, options=options)
    if held is not None:
        # The question is about the drawing in hand: an answer from another drawing would be
        # about another part ("What revision is this drawing?" of one that has none).
        own = [h for h in hits if h.focused]
        if held_for_it(in_hand) or about_hand(text, hits):
            hits = own
        else:
            held = None
            unfocused = dataclasses.replace(options, focus_sources=())
            hits = search(store, text, searched, options=unfocused)
    if not named and held is None and settings.ask_which_s > 0:
        # "What's the scale?" with nothing in hand: every drawing has one, so the search would
        # only pick which drawing's to say.
        drawings = _drawings(store, searched)
        keys = {(d.namespace, d.source) for d in drawings}
        if len(drawings) > 1 and fits_drawings_alike(text, found_cover(text, hits, keys)):
            return _asked_back(text, truncated, searched, drawings, time.perf_counter() - t0)
    sources = build_sources(
        hits, budget_tokens=settings.context_budget_tokens, max_sources=settings.max_sources
    )
    retrieve_s = time.perf_counter() - t0
    if heard:
        # A transcript's codes as the retrieved drawings write them ("the G-062002" heard for
        # DG-0620-02): the naming found the drawing by a near match, and its words must count
        # as the drawing's own when judging whether anything was found.
        text = finding.as_named(text, sources)
    # The words that named a drawing were matched already: they count as found.
    said = " ".join([*(t for n in named for t in n.said), *naming_words(text, named)])
    asked = text
    if held is not None:
        # "How long is this part?" about the drawing in hand is read as if it had named it.
        said = held.title or held.drawing_number
        asked = f"{text} {said}"
    weak = retrieval_is_weak(asked, hits, sources, settings.min_retrieval_score, also=said)
    try:
        others = [ns for ns in store.namespaces() if ns not in searched]
    except Exception:  # listing is a courtesy; the answer does not depend on it
        others = []
    titles, texts = {s.source: s.title for s in sources}, {s.source: s.text for s in sources}
    find_text = by_title(as_titled(text, named, titles, texts), named, titles, texts)
    return _Prepared(
        text,
        find_text,
        truncated,
        searched,
        others,
        sources,
        weak,
        {"retrieve": retrieve_s},
        in_hand=f"{in_hand.namespace}/{in_hand.source}" if held is not None and in_hand else "",
        named=(named[0].namespace, named[0].source) if named and named[0].score >= 1.0 else None,
    )


def _drawings(store: IndexStore, searched: Sequence[str]) -> list[SourceInfo]:
    """The current drawings of the searched namespaces (no text notes, no superseded revisions)."""
    return [
        s
        for namespace in searched
        for s in store.list_sources(namespace)
        if is_drawing(s) and not s.superseded
    ]


def _asked_back(
    text: str, truncated: bool, searched: list[str], drawings: Sequence[SourceInfo], took: float
) -> _Prepared:
    """A question asked back ("Which drawing do you mean?"): nothing searched is kept."""
    return _Prepared(
        question=text,
        find_text=text,
        truncated=truncated,
        searched=searched,
        others=[],
        sources=[],
        weak=True,
        timings={"retrieve": took},
        ask_which=tuple(drawings),
    )


def _held_source(store: IndexStore, in_hand: InHand, searched: Sequence[str]) -> SourceInfo | None:
    """The drawing in hand as indexed, if it is in a searched namespace."""
    if in_hand.namespace not in searched:
        return None
    return store.source_info(in_hand.namespace, in_hand.source)


def _fallback(
    p: _Prepared,
    config: Config,
    reason: str,
    rejected: str = "",
    unsupported: Sequence[str] = (),
    found: extractive.Extract | Literal["find"] | None = "find",
) -> Answer:
    if found == "find":
        found = finding.find_extract(p.find_text, p.sources)
    answer = extractive_answer(
        p.question,
        p.sources,
        searched=p.searched,
        others=p.others,
        truncated=p.truncated,
        timings=p.timings,
        spoken_max_chars=config.answer.spoken_max_chars,
        reason=reason,
        rejected=rejected,
        unsupported=unsupported,
        found=found,
    )
    if answer.mode == "extractive" and is_sure(found, config.answer.fast_path_min_score):
        answer = dataclasses.replace(answer, sure=True)
    return _on_the_drawing(answer, p)


def _on_the_drawing(answer: Answer, p: _Prepared) -> Answer:
    """An abstention about a drawing the question named (or the one in hand) says which drawing
    was looked at: the person hears which sheet to read themselves, not "the documents"."""
    looked_at = _drawing_looked_at(p)
    if answer.mode != "abstained" or not looked_at:
        return answer
    return dataclasses.replace(
        answer,
        spoken=f"{heard_as(p.question)} I could not find that on {looked_at}.",
        text=answer.text.replace(NOTHING_FOUND, f"I could not find that on {looked_at}.", 1),
    )


def _drawing_looked_at(p: _Prepared) -> str:
    """The drawing the question named in full, or the one in hand it was asked about, as a person
    says it ("drawing A-1024"); "" when neither is among the sources."""
    wanted = p.named
    if wanted is None and p.in_hand:
        namespace, _, source = p.in_hand.partition("/")
        wanted = (namespace, source)
    src = next((s for s in p.sources if (s.namespace, s.source) == wanted), None)
    if src is None:
        return ""
    if src.drawing_number:
        return f"drawing {src.drawing_number}"
    return f"the drawing {src.title}" if src.title else ""


def is_sure(found: extractive.Extract | None, min_score: float) -> bool:
    """Whether an extract answers the question surely enough to be spoken without the model.

    A title-block field or a typed dimension of the drawing the question names is the drawing's own
    statement; a quoted line is sure when it matches enough of the question's weighted terms.
    """
    return found is not None and (bool(found.field) or found.score >= min_score)


def _no_model_reason(config: Config, worker: AnswerWorker | None, extractive_only: bool) -> str:
    if extractive_only:
        return "extractive_requested"
    if not config.answer.llm_model:
        # Answering without a model is the configured way, not a fallback: nothing to report.
        return ""
    if worker is None:
        return "no_worker"
    from appliance.answer.worker import WorkerState

    if worker.state is not WorkerState.READY:
        return f"worker_{worker.state}" + (
            f":{worker.status.last_error_code}" if worker.status.last_error_code else ""
        )
    return ""


async def stream_answer(
    question: str,
    *,
    store: IndexStore,
    config: Config,
    namespaces: Iterable[str] | None = None,
    role: str | None = None,
    worker: AnswerWorker | None = None,
    extractive_only: bool = False,
    heard: bool = False,
    in_hand: InHand | None = None,
) -> AsyncIterator[AnswerEvent]:
    """Answer sentence by sentence: each checked sentence is yielded as soon as it is complete.

    ``heard``: the question is a speech recogniser's transcript, whose codes may be heard a little
    wrong (:func:`~appliance.answer.finding.find_extract`). ``in_hand``: the drawing a question
    that names none is about (:mod:`appliance.answer.in_hand`).

    The fast path comes first: a field, a dimension or a line that answers the question surely
    (:func:`is_sure`) is spoken at once and the model is not asked. Otherwise a ready model is asked;
    an ``ack`` event comes first so the bench hears at once that the question was taken. A model
    sentence is released only when every number and identifier in it is in a source cited so far;
    the first sentence that fails stops the model. If nothing was released yet, the extract found
    before the model was asked (or an abstention) replaces it; otherwise the answer ends with the
    sentences already checked. The last event is always the final :class:`Answer`.
    """
    p = _prepare(
        question, store=store, config=config, namespaces=namespaces, heard=heard, in_hand=in_hand
    )
    settings = config.answer
    if p.ask_which:
        asked = which_answer(p)
        yield AnswerEvent("sentence", text=asked.spoken)
        yield _final(asked, p)
        return
    if p.weak:
        declined = abstention(p.question, p.searched, p.others, p.truncated, p.timings["retrieve"])
        declined = _on_the_drawing(declined, p)
        # Said like every other answer: a listener who hears nothing thinks the question was lost.
        yield AnswerEvent("sentence", text=declined.spoken)
        yield _final(declined, p)
        return
    t_extract = time.perf_counter()
    found = finding.find_extract(p.find_text, p.sources, heard=heard)
    p.timings["extract"] = time.perf_counter() - t_extract
    reason = _no_model_reason(config, worker, extractive_only)
    sure = settings.fast_path and is_sure(found, settings.fast_path_min_score)
    if reason or worker is None or sure:
        answer = _fallback(p, config, reason, found=found)
        yield AnswerEvent("sentence", text=answer.spoken)
        yield _final(answer, p)
        return
    agree_with: str | None = None
    if settings.llm_must_agree:
        if found is None:
            # Nothing in the sources answers by the extractive evidence: the model is not asked (a
            # small model cites someone else's true number rather than say it does not know).
            answer = _fallback(p, config, "no_evidence", found=found)
            yield AnswerEvent("sentence", text=answer.spoken)
            yield _final(answer, p)
            return
        agree_with = found.quote
    if settings.acknowledgement:
        yield AnswerEvent("ack", text=settings.acknowledgement)
    fmt = settings.llm_format
    shown = sources_for_model(p.sources, found if settings.llm_must_agree else None, settings)
    messages = format_messages(fmt, role or settings.role, p.question, shown)
    rules = _grammar_for(fmt, shown)
    texts = {s.number: f"{s.label()}\n{s.text}" for s in p.sources}
    released: list[str] = []
    pending: list[str] = []
    informative = False
    raw = ""
    buffer = ""
    failure = ""
    unsupported: tuple[str, ...] = ()
    t0 = time.perf_counter()
    first_token: float | None = None
    cited_so_far: list[int] = []

    def deadline() -> float | None:
        # Only the first checked sentence is waited for against the clock: a model that has not
        # said anything usable by then is not worth more of the bench's time than the extract.
        return None if released else t0 + settings.first_sentence_timeout_s

    generated = worker.generate(messages, max_tokens=settings.max_answer_tokens, grammar=rules)
    try:
        pieces = _until(generated, deadline)
        tokens = _as_cited_sentence(pieces) if fmt == "extract" else pieces
        async for piece in tokens:
            if first_token is None:
                first_token = time.perf_counter() - t0
            raw += piece
            buffer += piece
            sentences, buffer = _split_sentences(buffer)
            for sentence in sentences:
                failure, unsupported = _check_sentence(
                    sentence, texts, cited_so_far, p.question, agree_with
                )
                if failure:
                    break
                pending.append(sentence)
                informative = informative or _adds_information(sentence, p.question)
                # Nothing is spoken before the answer has cited a source and said something the
                # question did not: an uncited or empty opening ("The documents do not say.",
                # "The material of the holder is the material...") may yet be replaced by the
                # extractive answer.
                if cited_so_far and informative:
                    for ready in pending:
                        released.append(ready)
                        yield AnswerEvent("sentence", text=verify.strip_citations(ready))
                    pending.clear()
            if failure:
                break
        if not failure and buffer.strip():
            last = buffer.strip()
            failure, unsupported = _check_sentence(
                last, texts, cited_so_far, p.question, agree_with
            )
            informative = informative or _adds_information(last, p.question)
            if not failure and cited_so_far and informative:
                for ready in [*pending, last]:
                    released.append(ready)
                    yield AnswerEvent("sentence", text=verify.strip_citations(ready))
    except AnswerError as err:
        failure = err.code
    finally:
        # The worker is told to stop in the background: the listener hears the extract now, not
        # after the worker has finished the prompt it is computing (the next question waits for it).
        _close_later(generated)
    timings = {**p.timings, "generate": time.perf_counter() - t0}
    if first_token is not None:
        timings["first_token"] = first_token
    p.timings = timings
    if not released:
        reason = failure or ("no_citation" if not cited_so_far else "no_new_information")
        answer = _fallback(
            p, config, reason, rejected=raw.strip(), unsupported=unsupported, found=found
        )
        yield AnswerEvent("sentence", text=answer.spoken)
        yield _final(answer, p)
        return
    yield _final(_llm_answer(p, " ".join(released), config, failure, raw, unsupported), p)


def sources_for_model(
    sources: Sequence[Source], agree_with: extractive.Extract | None, settings: AnswerSettings
) -> list[Source]:
    """The sources the model is shown, within ``answer.prompt_budget_tokens``.

    When the model must agree with an extract, only the extract's own source: no claim drawn from
    another could pass that check, and every token of the prompt is time before the first word.
    """
    if agree_with is not None:
        own = [s for s in sources if s.number == agree_with.source_number]
        if own:
            return within_budget(own, settings.prompt_budget_tokens)
    return within_budget(sources, settings.prompt_budget_tokens)


def _grammar_for(fmt: str, sources: Sequence[Source]) -> str | None:
    """The GBNF grammar of an answer format, built for this request's sources (None: unconstrained)."""
    if fmt in ("grammar", "fewshot"):
        return grammar.citation_grammar([s.number for s in sources])
    if fmt == "extract":
        return grammar.extraction_grammar(sources)
    return None


#: Abandoned generations being stopped in the background (a reference keeps each task alive).
_CLOSING: set[asyncio.Task[None]] = set()


def _in_background(coro: Any) -> None:
    task = asyncio.get_running_loop().create_task(coro)
    _CLOSING.add(task)
    task.add_done_callback(_CLOSING.discard)


def _close_later(generated: AsyncIterator[str]) -> None:
    """Close a generation without waiting for it: the worker is told to stop in the background."""
    if getattr(generated, "ag_running", False):
        return  # still being stopped by :func:`_until`, which closes it when that is done
    closer = getattr(generated, "aclose", None)
    if closer is not None:
        _in_background(closer())


async def _until(
    pieces: AsyncIterator[str], deadline: Callable[[], float | None]
) -> AsyncIterator[str]:
    """The pieces, ending in ``model_too_slow`` when ``deadline()`` (perf_counter) passes first.

    The piece being waited for is not cancelled in the foreground: cancelling it runs the worker's
    clean-up (asking it to stop, waiting for it) before the caller could speak the extract.
    """
    while True:
        limit = deadline()
        step: asyncio.Future[str] = asyncio.ensure_future(anext(pieces))
        if limit is not None:
            await asyncio.wait({step}, timeout=max(0.0, limit - time.perf_counter()))
            if not step.done():
                _in_background(_abandon(step, pieces))
                raise AnswerError(
                    "the model had no checked sentence in time", code="model_too_slow"
                )
        try:
            piece = await step
        except StopAsyncIteration:
            return
        yield piece


async def _abandon(step: asyncio.Future[str], pieces: AsyncIterator[str]) -> None:
    step.cancel()
    with contextlib.suppress(BaseException):
        await step
    closer = getattr(pieces, "aclose", None)
    if closer is not None:
        with contextlib.suppress(Exception):
            await closer()


_PICKED = re.compile(r"^\s*\[(\d{1,2})\]\s*(.+?)\s*$", re.S)


async def _as_cited_sentence(pieces: AsyncIterator[str]) -> AsyncIterator[str]:
    """Format ``extract``: the model's "[n] copied line" rewritten as one sentence "line [n]."

    The whole pick is collected first (it is one short line); the rewritten sentence then goes
    through the same claim check as any model sentence.
    """
    raw = "".join([piece async for piece in pieces])
    match = _PICKED.match(raw)
    if match is None:
        yield raw
        return
    line = match.group(2).rstrip(".")
    yield f"{line} [{match.group(1)}]."


def _check_sentence(
    sentence: str,
    texts: dict[int, str],
    cited_so_far: list[int],
    question: str,
    agree_with: str | None = None,
) -> tuple[str, tuple[str, ...]]:
    """(reason, unsupported claims): reason "" when the sentence may be spoken.

    Claims are numbers, identifiers, scales, dates and names (see :func:`verify.claims`); each must be
    in a source the answer has cited by now. A sentence stating a claim before any citation fails:
    the model must cite (SmolLM2 rarely does; attributing sources on its behalf was measured to let
    wrong answers through, see docs/decisions/0011-answer-checking.md).
    """
    for n in verify.citations(sentence):
        if n not in texts:
            return "bad_citation", (f"[{n}]",)
        if n not in cited_so_far:
            cited_so_far.append(n)
    # Repeating a name from the question is not a claim; numbers are checked even then (a model that
    # repeats "Ø21.5" must be answering about a source that has it).
    asked = {w.lower() for w in verify.names(question)}
    stated = [c for c in verify.claims(sentence) if not (c.isalpha() and c.lower() in asked)]
    if not stated:
        return "", ()
    if not cited_so_far:
        return "uncited_claim", tuple(stated)
    missing = verify.supported(stated, "\n".join(texts[n] for n in cited_so_far))
    if missing:
        return "unsupported_claim", tuple(missing)
    if agree_with is not None:
        # Stricter than support: the claim must be the extractive evidence itself, so a cited number
        # of another field of the same drawing is refused too.
        missing = verify.supported(stated, agree_with)
        if missing:
            return "disagrees_with_evidence", tuple(missing)
    return "", ()


def _adds_information(sentence: str, question: str) -> bool:
    """Whether a sentence states a claim the question did not already contain."""
    asked = {c.lower() for c in verify.claims(question)}
    return any(c.lower() not in asked for c in verify.claims(sentence))


def _llm_answer(
    p: _Prepared, text: str, config: Config, failure: str, raw: str, unsupported: Sequence[str]
) -> Answer:
    by_number = {s.number: s for s in p.sources}
    cited = [by_number[n] for n in verify.citations(text) if n in by_number]
    return Answer(
        question=p.question,
        text=text,
        spoken=spoken_form(text, p.sources, config.answer.spoken_max_chars),
        citations=tuple(citation_for(s) for s in cited),
        mode="llm",
        namespaces=tuple(p.searched),
        fallback_reason=failure,
        unsupported=tuple(unsupported),
        rejected_text=raw.strip() if failure else "",
        question_truncated=p.truncated,
        timings=p.timings,
    )


def which_answer(p: _Prepared) -> Answer:
    """The question back: which drawing the question points at."""
    said = which_question(p.ask_which)
    return Answer(
        listed=tuple((d.namespace, d.source) for d in listed_drawings(p.ask_which)),
        question=p.question,
        text=said,
        spoken=said,
        citations=(),
        mode="asked",
        namespaces=tuple(p.searched),
        question_truncated=p.truncated,
        timings=p.timings,
    )


def _final(answer: Answer, p: _Prepared) -> AnswerEvent:
    if p.in_hand or p.named:
        answer = dataclasses.replace(answer, in_hand=p.in_hand, named=p.named)
    return AnswerEvent("answer", answer=answer)


async def answer_question(
    question: str,
    *,
    store: IndexStore,
    config: Config,
    namespaces: Iterable[str] | None = None,
    role: str | None = None,
    worker: AnswerWorker | None = None,
    extractive_only: bool = False,
    in_hand: InHand | None = None,
) -> Answer:
    """The whole answer at once (the streamed answer, collected)."""
    final: Answer | None = None
    async for event in stream_answer(
        question,
        store=store,
        config=config,
        namespaces=namespaces,
        role=role,
        worker=worker,
        extractive_only=extractive_only,
        in_hand=in_hand,
    ):
        if event.answer is not None:
            final = event.answer
    assert final is not None  # stream_answer always ends with the final answer
    return final
