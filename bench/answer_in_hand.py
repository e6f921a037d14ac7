"""Follow-up questions that name no drawing, answered with and without the drawing in hand.

At a bench a person names a drawing once and asks on ("what is it made of?"), or scans a drawing
and asks about "this drawing". This benchmark makes such follow-ups from the evaluation set
(bench/data/answer_eval): every question that names its drawing plainly (the typed naming of
appliance.index.identity names that drawing first) has the words that named it replaced by "this
drawing" or "this part"; a follow-up that still names some drawing is left out (counted). Each
follow-up is then answered under each condition in the same process, on the same index:

  named      (for comparison) the question as written, naming its drawing;
  searched   nothing in hand, asking back off (answer.ask_which_s = 0): the question is searched
             on its own (what the appliance did before it asked back);
  alone      nothing in hand: "Which drawing do you mean?" (counted) or an answer;
  replied    nothing in hand, asked back, and the reply is the words that named the drawing in
             the question as written ("the Lagerdeckel drawing"): the held question is answered
             about the drawing the reply names, as the pipeline does;
  corrected  as replied, and an answer that quotes another drawing, or declines, is corrected
             once: the person says the drawing's name (as they would on hearing the source said
             with the answer) and the question is answered again about the drawing named;
  after      the previous question about the same drawing (the next one for the first) was asked
             first, as written, and the drawing its answer quoted is in hand (none, or the wrong
             one, when that answer was wrong or declined; asked back, the reply is given);
  talk       one conversation through the split in the set's order: a question that turns to
             another drawing is asked as written, the rest as follow-ups, and every answer
             (right, wrong or declined) updates the drawing in hand, as the pipeline does;
  scanned    the drawing itself is in hand, as just after "open claw, scan this".

Besides the right answers it counts, per condition, the answers given that were wrong (not an
abstention, not a question back: what misleads a listener) and the questions asked back. And,
as the cost, every question of the split that names no drawing (about none, or a trap) is
answered alone and with the previous question's drawing in hand. Scores are those of
bench/answer_eval.py (right with the right citation; traps declined), by split and class.

    .venv/bin/python bench/answer_in_hand.py --split tuning|dev|heldout \\
        --index-dir /work/main/bench/out/answer_eval-s57 [--condition clean|photo]
        [--pointer this|the|none] [--spoken piper|espeak [--heard-named T.json]] [-v]

``--pointer none`` drops the name instead of pointing ("What is the scale of the shaft
coupling?" is asked "What is the scale?"); a name that is the sentence's subject is left in and
the question left out (counted).

With ``--heard T.json`` (transcripts a spoken run of bench/answer_eval.py wrote, qid -> text) it
answers instead every spoken question about a drawing as heard, with nothing in hand, with the
drawing of the question before it in hand, and with another drawing in hand: what the drawing in
hand gives and costs when the recogniser loses or mistakes a drawing's name.

With ``--spoken piper|espeak`` each follow-up is said by the test voices and answered as whisper
heard it (bench/answer_eval.py's ``hear``: the index's bias, its names heard again); with
``--heard-named T.json`` the "named" column answers the stored transcripts of the questions as
written, so both columns are spoken. The reply to a question back is said and heard too.

The index is one bench/answer_eval.py built (its ``<index-dir>/<condition>``). ``-v`` prints each
follow-up and its three verdicts (refused on heldout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appliance.answer.answering import Answer  # noqa: E402
from appliance.answer.in_hand import DrawingInHand, InHand  # noqa: E402
from appliance.answer.which_drawing import asks_something, drawing_in_reply  # noqa: E402
from appliance.config import Config  # noqa: E402
from appliance.errors import public_name  # noqa: E402
from appliance.index.identity import SourceNames, compact  # noqa: E402
from appliance.index.search import scope  # noqa: E402
from appliance.index.store import IndexStore  # noqa: E402
from appliance.spelling import fold  # noqa: E402
from bench.answer_eval import ask, open_config, score  # noqa: E402
from bench.answer_eval_set import Question, load_set  # noqa: E402
from bench.common import percentile  # noqa: E402

#: A word of a question: letters and digits, with the dashes, dots and slashes inside codes and
#: file names ("HM-30518", "Gripper.jpg").
_WORD = re.compile(r"\w(?:[\w.\-/]*\w)?")
#: Words taken with the name: "the", "drawing", "part" and the drawing's language or style
#: before it ("the German Druckstück drawing").
_AROUND_BEFORE = frozenset(
    {"the", "drawing", "part", "german", "swedish", "chinese", "english", "ansi", "iso"}
)
_AROUND_AFTER = frozenset({"drawing", "part", "drawings"})
#: Small words a name's span may hold without ending it ("Aufspannung Ecke", "end of shaft").
_INSIDE = frozenset({"of", "and", "the", "for"})
CONDITIONS = ("named", "searched", "alone", "replied", "corrected", "after", "talk", "scanned")


def _names_word(word: str, said: frozenset[str]) -> bool:
    folded = fold(word)
    stem = folded.rsplit(".", 1)[0] if "." in folded else folded
    return bool({folded, stem, compact(folded), compact(stem)} & said) or any(
        t in said for t in re.split(r"[-_/.]", stem) if len(t) > 2 and t.isalpha()
    )


def follow_up(text: str, said: frozenset[str], pointer: str = "this") -> tuple[str, str] | None:
    """``text`` with the words that named its drawing replaced by "this drawing" or "this part"
    (``pointer``: "the" for "the drawing", "the part"; "none" drops them: "what is the scale?"),
    and those words (the reply to "which
    drawing do you mean?"); None when they are not one run of words."""
    words = list(_WORD.finditer(text))
    hits = [i for i, m in enumerate(words) if _names_word(m.group(), said)]
    if not hits:
        return None
    first, last = hits[0], hits[-1]
    inside = {fold(words[i].group()) for i in range(first, last + 1) if i not in hits}
    if inside - _INSIDE:
        return None
    while first > 0 and fold(words[first - 1].group()) in _AROUND_BEFORE:
        first -= 1
    while last + 1 < len(words) and fold(words[last + 1].group()) in _AROUND_AFTER:
        last += 1
    taken = {fold(words[i].group()) for i in range(first, last + 1)}
    said_as = (
        f"{pointer} drawing" if "drawing" in taken or "drawings" in taken else f"{pointer} part"
    )
    start, end = words[first].start(), words[last].end()
    span = text[start:end]
    if pointer == "none":
        dropped = _without(text, start, end)
        return None if dropped is None else (dropped, span)
    return text[:start] + said_as + text[end:], span


#: A word that leads a drawing's name and goes with it when the name is dropped ("the scale *of*
#: the shaft coupling").
_LEADING = re.compile(r"\b(?:of|on|in|for|from|about)$", re.IGNORECASE)


def _without(text: str, start: int, end: int) -> str | None:
    """``text`` with the name at ``start:end`` dropped, the way a person asks who does not say
    which drawing: "the shaft coupling's material" is "the material", "the scale of the shaft
    coupling" is "the scale"; None where the name is the sentence's subject ("is the bracket
    made of …"), which cannot be dropped."""
    after = text[end:]
    possessive = re.match(r"['\u2019]s\b", after)
    if possessive:
        return text[:start] + "the" + after[possessive.end() :]
    before = text[:start].rstrip()
    leading = _LEADING.search(before)
    if leading is None:
        return None
    before = before[: leading.start()].rstrip()
    if not before:
        # "On the Lagerdeckel, what is the scale?"
        rest = after.lstrip(" ,")
        return rest[:1].upper() + rest[1:]
    joined = f"{before} {after.lstrip()}" if after[:1].isalnum() else before + after
    return re.sub(r"\s+([?.,!])", r"\1", joined)


def _source_of(store: IndexStore) -> dict[str, tuple[str, str]]:
    """Public file name -> (namespace, source) of every indexed drawing."""
    return {public_name(s.source): (s.namespace, s.source) for s in store.list_sources()}


async def _ask(
    text: str,
    store: IndexStore,
    config: Config,
    in_hand: InHand | None = None,
    heard: bool = False,
) -> Answer:
    answer, *_ = await ask(text, store, config, None, "extractive", heard=heard, in_hand=in_hand)
    return answer


async def _replied(
    text: str,
    replies: tuple[str, str],
    store: IndexStore,
    config: Config,
    in_hand: InHand | None,
    heard: bool,
    meant: tuple[str, str] | None = None,
) -> tuple[Answer, bool, bool, bool]:
    """The follow-up's answer, whether it was asked back, whether the first reply went unheard,
    and whether the person corrected the drawing. Asked back ("Which drawing do you mean?"), the
    person says the drawing's name and the question is answered about the drawing the reply
    names, as the pipeline does. A reply in which no drawing's name is heard is said back ("say
    its number, or its title") and the person says the second reply: the drawing's number.
    ``meant`` (namespace, source): the drawing the person means; an answer that quotes none of it
    (another drawing's line, or "the documents do not say") is corrected once by saying its name,
    and the question is answered again about that drawing, as the pipeline does."""
    answer = await _ask(text, store, config, in_hand, heard)
    if answer.mode != "asked":
        if meant is None or any((c.namespace, c.source) == meant for c in answer.citations):
            return answer, False, False, False
        held = drawing_in_reply(
            replies[0], store=store, namespaces=None, heard=heard, only_name=True
        )
        if held is None:
            return answer, False, False, False
        return await _ask(text, store, config, held, heard), False, False, True
    for tries, reply in enumerate(replies):
        held = drawing_in_reply(reply, store=store, namespaces=None, heard=heard)
        if held is not None:
            return await _ask(text, store, config, held, heard), True, tries > 0, False
        if asks_something(reply):
            break  # a question of its own, not a reply: nothing to say back
    return answer, True, True, False


class _Ear:
    """Says each follow-up with the test voices and hears it as the front end does (whisper with
    the index's bias, the index's names heard again): bench/answer_eval.py's ``hear``."""

    def __init__(self, config: Config, store: IndexStore, voices: str) -> None:
        from appliance.audio.bias import index_names
        from appliance.audio.engines.whisper import WhisperRecogniser
        from bench.answer_eval import bias_words

        self.voices = voices
        self.recogniser = WhisperRecogniser.from_manifest(
            config.audio.whisper_model, config.paths.models_dir
        )
        self.vocabulary = bias_words(config, store)
        self.names = index_names(store.list_sources())
        self.transcribe_s: list[float] = []
        self.ear_s: list[float] = []
        self.scored = 0

    def hear(self, text: str, i: int) -> str:
        from appliance.audio.heard_names import choose_name_in_question
        from bench.answer_eval import say

        audio = say(text, i, self.voices)
        started = time.perf_counter()
        heard = self.recogniser.transcribe(audio, vocabulary=self.vocabulary).text.strip()
        transcribed = time.perf_counter()
        choice = choose_name_in_question(self.recogniser, audio, heard, heard, self.names)
        self.transcribe_s.append(transcribed - started)
        self.ear_s.append(time.perf_counter() - transcribed)
        self.scored += choice is not None
        return choice.text if choice is not None else heard

    def report(self) -> str:
        """The hearing's time: transcription, and the names heard again by ear."""
        return (
            f"  hearing, ms p50 / p95: transcription {_ms(self.transcribe_s)}, names heard again "
            f"by ear {_ms(self.ear_s)} (names put forward for {self.scored} of "
            f"{len(self.ear_s)})"
        )


async def _corrected(
    q: Question, answer: Answer, text: str, store: IndexStore, config: Config, names: SourceNames
) -> Answer:
    """``answer`` to the heard question ``text``, corrected once by the words that named its
    drawing in the question as written, when it quotes no line of that drawing (as the pipeline
    takes a name said after an answer to a question that named none, or after a question back)."""
    if any(public_name(c.source) == q.drawing for c in answer.citations) or answer.named:
        return answer
    typed = names.match(q.text, soundalike_names=False)
    made = follow_up(q.text, typed[0].said) if typed else None
    if made is not None:
        said = made[1]
    else:
        # Named in a way the index does not know ("the Beyond Mech part"): its number is said.
        namespace, source = _source_of(store)[q.drawing]
        info = store.source_info(namespace, source)
        said = "drawing " + ((info.drawing_number or info.title) if info else q.drawing)
    held = drawing_in_reply(said, store=store, namespaces=None, only_name=answer.mode != "asked")
    if held is None:
        return answer
    return await _ask(text, store, config, held, heard=True)


def _ms(seconds: list[float]) -> str:
    return f"{1000 * statistics.median(seconds):.0f} / {1000 * percentile(seconds, 95):.0f}"


async def run_heard(
    split: str, config: Config, heard: dict[str, str], verbose: bool = False
) -> None:
    """Spoken questions as heard, each about a drawing it names (perhaps misheard): answered with
    nothing in hand, with the drawing of the question before it in hand (the same drawing: the
    set asks about one drawing at a time), and with another drawing in hand (the last one asked
    about before this drawing's questions: the person turned to this drawing and the recogniser
    lost its name); and "corrected": as "another drawing", and when the answer quotes no line of
    the drawing meant (or asks which drawing), the person says the words that named it in the
    question as written, or its number where those words name no drawing (typed, not heard: what
    a correction gives at best)."""
    questions = [q for q in load_set() if q.split == split and q.drawing and q.qid in heard]
    conditions = ("alone", "same drawing", "another drawing", "corrected")
    right: dict[str, Counter[str]] = {c: Counter() for c in conditions}
    asked_back: Counter[str] = Counter()
    total: Counter[str] = Counter()
    with IndexStore.open(config) as store:
        names = store.names.names(scope(None))
        sources = _source_of(store)
        for k, q in enumerate(questions):
            earlier = questions[:k][::-1]
            same = next((e for e in earlier if e.drawing == q.drawing), None)
            other = next((e for e in earlier if e.drawing != q.drawing), None)
            named = names.match(heard[q.qid], heard=True)
            naming = (
                "named none"
                if not named
                else "named it"
                if public_name(named[0].source) == q.drawing
                else "named another"
            )
            hands: dict[str, InHand | None] = {"alone": None}
            for label, before in (("same drawing", same), ("another drawing", other)):
                hand = None
                if before is not None and before.drawing in sources:
                    hand = InHand(*sources[before.drawing], "quoted", 0.0)
                hands[label] = hand
            hands["corrected"] = hands["another drawing"]
            verdicts = []
            for label, hand in hands.items():
                answer = await _ask(heard[q.qid], store, config, hand, heard=True)
                if label == "corrected":
                    answer = await _corrected(q, answer, heard[q.qid], store, config, names)
                asked_back[label] += answer.mode == "asked"
                ok = score(q, answer)
                right[label]["all"] += ok
                right[label][naming] += ok
                verdicts.append("RIGHT" if ok else "asked" if answer.mode == "asked" else "wrong")
            if verbose and naming == "named none":
                print(f"  {q.qid:30} {' '.join(verdicts):20} | {heard[q.qid]}")
            total["all"] += 1
            total[naming] += 1
    print(f"{split}: {total['all']} spoken questions about a drawing, as heard")
    print(f"  {'':24} " + " ".join(f"{c:>16}" for c in conditions))
    for kind in ("all", "named it", "named another", "named none"):
        cells = " ".join(f"{right[c][kind]:>8}/{total[kind]:<7}" for c in conditions)
        print(f"  {kind:24} {cells}")
    cells = " ".join(f"{asked_back[c]:>8}/{total['all']:<7}" for c in conditions)
    print(f"  {'asked which drawing':24} {cells}")


async def run(
    split: str,
    config: Config,
    verbose: bool,
    voices: str = "",
    heard_named: dict[str, str] | None = None,
    pointer: str = "this",
) -> None:
    questions = [q for q in load_set() if q.split == split]
    by_drawing: dict[str, list[Question]] = defaultdict(list)
    for q in questions:
        if q.drawing:
            by_drawing[q.drawing].append(q)
    right: dict[str, Counter[str]] = {
        c: Counter() for c in (*CONDITIONS, "none alone", "none after")
    }
    #: Answers given that were not right: what a person hears wrong, where declining was the
    #: honest answer.
    misled: dict[str, Counter[str]] = {c: Counter() for c in CONDITIONS}
    #: Follow-ups asked back ("Which drawing do you mean?"), and replies said back ("I did not
    #: catch a drawing's name in …").
    asked_back: Counter[str] = Counter()
    said_back: Counter[str] = Counter()
    #: Answers from another drawing (or declined) that the person corrected by naming theirs.
    corrected: Counter[str] = Counter()
    #: "searched": the appliance without asking back, every follow-up searched on its own.
    searching = replace(config, answer=replace(config.answer, ask_which_s=0.0))
    total: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    seconds: dict[str, list[float]] = defaultdict(list)
    with IndexStore.open(config) as store:
        names: SourceNames = store.names.names(scope(None))
        sources = _source_of(store)
        answers: dict[str, Answer] = {}
        ear = _Ear(config, store, voices) if voices else None

        async def answer_of(q: Question) -> Answer:
            if q.qid not in answers:
                answers[q.qid] = await _ask(q.text, store, config)
            return answers[q.qid]

        async def answer_named(q: Question) -> Answer:
            if heard_named is None:
                return await answer_of(q)
            return await _ask(heard_named.get(q.qid, ""), store, config, heard=True)

        def hand_after(answer: Answer) -> InHand | None:
            hand = DrawingInHand(hold_s=3600.0)
            hand.after_answer(answer.citations, answer.named)
            return hand.current()

        # "talk": one conversation through the split in the set's order. A question that turns to
        # another drawing than the one before it is asked as written (a person names the drawing
        # they turn to); the rest are asked as follow-ups where one could be made. Every answer
        # updates the drawing in hand, as the pipeline does.
        talk = DrawingInHand(hold_s=3600.0)
        previous_drawing = ""

        async def as_written_in_talk(q: Question) -> None:
            answer = await answer_of(q)
            talk.after_answer(answer.citations, answer.named)

        for q in questions:
            peers = by_drawing.get(q.drawing, [])
            turned = q.drawing != previous_drawing
            previous_drawing = q.drawing
            if not q.drawing:
                await as_written_in_talk(q)
                # The cost: a question about no drawing, asked after a question about one.
                before = questions[max(0, questions.index(q) - 1)]
                total["none"] += 1
                alone = await _ask(q.text, store, config)
                after = await _ask(q.text, store, config, hand_after(await answer_of(before)))
                right["none alone"]["all"] += score(q, alone)
                right["none after"]["all"] += score(q, after)
                continue
            named = names.match(q.text, soundalike_names=False)
            if not named or public_name(named[0].source) != q.drawing:
                skipped["not named plainly"] += 1
                await as_written_in_talk(q)
                continue
            made = follow_up(q.text, named[0].said, pointer)
            if made is None:
                skipped["name not one run of words (none: the subject)"] += 1
                await as_written_in_talk(q)
                continue
            text, reply = made
            if names.match(text):
                skipped["follow-up still names a drawing"] += 1
                await as_written_in_talk(q)
                continue
            if q.drawing not in sources or len(peers) < 2:
                skipped["no other question about the drawing"] += 1
                await as_written_in_talk(q)
                continue
            k = peers.index(q)
            before = peers[k - 1] if k else peers[1]
            namespace, source = sources[q.drawing]
            # The second reply, when the first named no drawing: as the appliance asks, its
            # number (or its title, for a drawing without one).
            info = store.source_info(namespace, source)
            number = "drawing " + (
                (info.drawing_number or info.title) if info else q.drawing.rsplit(".", 1)[0]
            )
            hands: dict[str, InHand | None] = {
                "named": None,
                "searched": None,
                "alone": None,
                "replied": None,
                "corrected": None,
                "after": hand_after(await answer_of(before)),
                "talk": talk.current(),
                "scanned": InHand(namespace, source, "scanned", 0.0),
            }
            kinds = ("answerable" if q.answerable else "trap", *q.classes)
            total["answerable" if q.answerable else "trap"] += 1
            verdicts = []
            if ear is not None:
                text = ear.hear(text, total["answerable"] + total["trap"])
                reply = ear.hear(reply, total["answerable"] + total["trap"] + 1)
                number = ear.hear(number, total["answerable"] + total["trap"] + 2)
            for condition, hand in hands.items():
                # "named": the question as written (or as heard, with --heard-named), naming its
                # drawing: what the follow-up would score if the drawing were said again.
                started = time.perf_counter()
                heard = ear is not None
                asked = False
                if condition == "named" or (condition == "talk" and turned):
                    answer = await answer_named(q)
                elif condition == "searched":
                    answer = await _ask(text, store, searching, hand, heard)
                elif condition == "alone":
                    answer = await _ask(text, store, config, hand, heard)
                    asked = answer.mode == "asked"
                else:
                    meant = (namespace, source) if condition == "corrected" else None
                    answer, asked, again, fixed = await _replied(
                        text, (reply, number), store, config, hand, heard, meant
                    )
                    said_back[condition] += again
                    corrected[condition] += fixed
                asked_back[condition] += asked
                seconds[condition].append(time.perf_counter() - started)
                if condition == "talk":
                    talk.after_answer(answer.citations, answer.named)
                ok = score(q, answer)
                verdicts.append("RIGHT" if ok else "asked" if asked else "wrong")
                for kind in kinds:
                    right[condition][kind] += ok
                misled[condition][kinds[0]] += not ok and answer.mode not in ("abstained", "asked")
            for kind in q.classes:
                total[f"class {kind}"] += 1
            if verbose:
                print(f"  {q.qid:30} {' '.join(verdicts):20} | {text}")
    print(
        f"{split}: {len(questions)} questions; follow-ups made of "
        f"{total['answerable'] + total['trap']}, left out {dict(skipped)}"
    )
    print(f"  {'':28} " + " ".join(f"{c:>9}" for c in CONDITIONS))
    for kind in ("answerable", "trap"):
        cells = " ".join(f"{right[c][kind]:>4}/{total[kind]:<4}" for c in CONDITIONS)
        print(f"  follow-ups, {kind:16} {cells}")
    for kind in ("answerable", "trap"):
        cells = " ".join(f"{misled[c][kind]:>4}/{total[kind]:<4}" for c in CONDITIONS)
        print(f"  answered wrong, {kind:12} {cells}")
    n_all = total["answerable"] + total["trap"]
    cells = " ".join(f"{asked_back[c]:>4}/{n_all:<4}" for c in CONDITIONS)
    print(f"  asked which drawing         {cells}")
    cells = " ".join(f"{said_back[c]:>4}/{n_all:<4}" for c in CONDITIONS)
    print(f"  reply said back, number     {cells}")
    cells = " ".join(f"{corrected[c]:>4}/{n_all:<4}" for c in CONDITIONS)
    print(f"  corrected by the drawing    {cells}")
    for key in sorted(k for k in total if k.startswith("class ")):
        kind = key.removeprefix("class ")
        cells = " ".join(f"{right[c][kind]:>4}/{total[key]:<4}" for c in CONDITIONS)
        print(f"    by class {kind:17} {cells}")
    n = total["none"]
    print(
        f"  about no drawing, right or declined: alone {right['none alone']['all']}/{n}, "
        f"with the previous question's drawing in hand {right['none after']['all']}/{n}"
    )
    timing = ", ".join(
        f"{c} {1000 * statistics.median(seconds[c]):.0f} / {1000 * percentile(seconds[c], 95):.0f}"
        for c in CONDITIONS
        if seconds[c]
    )
    print(f"  ms to the answer, p50 / p95 (the question's text to its final answer): {timing}")
    if ear is not None and ear.ear_s:
        print(ear.report())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("tuning", "dev", "heldout"), required=True)
    parser.add_argument("--index-dir", type=Path, required=True, help="bench/answer_eval.py's")
    parser.add_argument("--condition", choices=("clean", "photo"), default="clean")
    parser.add_argument("--heard", type=Path, help="transcripts (JSON qid -> text) to answer")
    parser.add_argument(
        "--spoken",
        choices=("piper", "espeak"),
        help="say each follow-up with these voices and answer what whisper hears",
    )
    parser.add_argument(
        "--heard-named",
        type=Path,
        help="with --spoken: the questions as written, as heard (JSON qid -> text), for 'named'",
    )
    parser.add_argument(
        "--pointer",
        choices=("this", "the", "none"),
        default="this",
        help='follow-ups say "this drawing" / "this part" (default) or "the drawing" / "the part",'
        " or (none) only what is asked: the name dropped",
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.verbose and args.split == "heldout":
        parser.error("held-out questions are not read one by one")
    root = args.index_dir / args.condition
    if not (root / "indexed.json").exists():
        parser.error(f"no index in {root}: build it with bench/answer_eval.py --index-dir")
    config = open_config(root, None)
    if args.heard:
        heard = json.loads(args.heard.read_text())
        asyncio.run(run_heard(args.split, config, heard, args.verbose))
    else:
        heard_named = json.loads(args.heard_named.read_text()) if args.heard_named else None
        asyncio.run(
            run(args.split, config, args.verbose, args.spoken or "", heard_named, args.pointer)
        )


if __name__ == "__main__":
    main()
