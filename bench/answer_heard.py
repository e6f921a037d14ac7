"""Answers heard: is the value of a right answer in what the appliance's voice says?

The evaluation set scores the answer's text. A bench user hears it instead, through an English
voice that reads a Chinese character as "Chinese letter" and says nothing for a diameter sign.
This bench takes every answer of a split that is right in text (``bench/answer_eval.py``'s score,
extractive mode, on an index that bench built) and compares two ways of saying its spoken form, in
the same process on the same answers:

  as written  the spoken form handed to the voice unchanged (the appliance before
              ``appliance/audio/sayable.py``)
  sayable     the spoken form through ``sayable`` (Chinese in English or pinyin, marks in words)

Per answer it prints whether the spoken text holds characters the voice cannot say (Chinese, a
diameter sign). Every answer whose two forms differ is then spoken by the Piper voice (without
its two noises, so that the same text is heard the same way) and transcribed by whisper base
without a prompt; the value counts as heard when one expected form (itself made sayable, so
"镀锌" is looked for as "galvanised") is in the transcript, both with their words and numbers run
together, so that "SP-4471" is found in "SP4471" ("to", "of", "or", "and" are left out: the
transcriber writes "1 to 2" as "1-2"). Answers whose forms
are the same are heard the same either way and are counted, not spoken. Printed by the drawing's
style: answers, answers changed, cannot-say before/after, heard before/after, seconds of speech,
and transcripts with "Chinese letter" in them (what the voice says for a Chinese character).

--to-value prints instead, for every right answer, the seconds of speech before its value (the
sayable form synthesised up to where an expected form begins: what a listener waits through) and
the seconds the voice takes to synthesise the first clause (what the first audio waits for), for
the answer as spoken and for the same answer with a quoted line's source said first (the order
the appliance used before the value was put first), timed in turn in the same process.

    nice -n 5 .venv/bin/python bench/answer_heard.py --split tuning|dev|heldout \
        --condition clean|photo --index-dir /work/main/bench/out/answer_eval-s54 [-v] [--to-value]
        [--styles rendered-zh,shared-raster]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))  # audio_wer imports its neighbours by their bare names

from appliance.audio.sayable import sayable  # noqa: E402
from appliance.index.store import IndexStore  # noqa: E402
from bench.answer_eval import ask, open_config, score  # noqa: E402
from bench.answer_eval_set import load_set, normalise  # noqa: E402
from bench.audio_wer import number_words  # noqa: E402

#: What an English voice cannot say: Chinese characters and the diameter signs.
_CANNOT_SAY = re.compile(r"[\u3400-\u9fff⌀Øø∅Φφϕ]")
#: The voice without its two noises: the same text gives the same audio and the same transcript,
#: so a difference between the two forms is the text's, not the draw's (with the noises, the
#: same "ISO 2768-fH" was heard right once and "27608" the next time).
STILL = {"noise_scale": 0.0, "noise_w": 0.0}

#: Number words the transcriber writes for digits ("sheet one of one"), as bench/audio_wer.py
#: spells them.
_NUMBER_WORDS = {number_words(i)[0]: str(i) for i in range(20)}

#: What the voice says for a Chinese character, as the transcriber writes it.
_CHINESE_LETTER = re.compile(r"chinese[\s-]*l[ei]t+[eo]?r", re.IGNORECASE)


@dataclass
class Heard:
    """One right answer said both ways."""

    #: Question id.
    qid: str
    #: The drawing's style.
    style: str
    #: The answer's spoken form, as written.
    written: str
    #: The same through ``sayable``.
    said: str
    #: Whether the value was heard as written / as said (None: not spoken, the forms are equal).
    heard_written: bool | None = None
    heard_said: bool | None = None
    #: Seconds of speech as written / as said.
    seconds_written: float = 0.0
    seconds_said: float = 0.0
    #: The transcripts.
    transcript_written: str = ""
    transcript_said: str = ""
    #: The sayable form with a quoted line's source said first ("<source> says: <line>", the
    #: order before the value was put first); the same as ``said`` for a field's sentence.
    source_first: str = ""


def tokens(text: str) -> list[str]:
    """Lower-case words and numbers: letters and digits apart ("40h7" -> 40 h 7), thousands'
    commas out ("3,306" -> 3306), a decimal point kept."""
    text = normalise(text).lower().replace("ø", " diameter ")
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    text = re.sub(r"(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)", " ", text)
    words = re.findall(r"\d+(?:\.\d+)?|[a-z]+", text)
    return [_NUMBER_WORDS.get(w, w) for w in words if w not in _LINKS]


#: Words that join a value's parts and that the transcriber writes as a sign ("1 to 2" -> "1-2").
_LINKS = frozenset({"to", "of", "or", "and"})


def value_heard(expected: tuple[str, ...], transcript: str) -> bool:
    """Whether one expected form, made sayable, is in the transcript: its words and numbers run
    together ("SP-4471" and "S P, 4 4 7 1" are both "sp4471", as is "SP4471" heard) inside the
    transcript's; a form that is one word of one or two characters must be a whole word of it."""
    heard = tokens(transcript)
    joined = "".join(heard)
    for form in expected:
        wanted = tokens(sayable(form))
        compact = "".join(wanted)
        if len(wanted) == 1 and len(compact) <= 2:
            if compact in heard:
                return True
        elif compact in joined:
            return True
    return False


def speak_and_hear(voice: object, recogniser: object, text: str) -> tuple[str, float]:
    """The Piper voice says ``text``; whisper base transcribes it. (transcript, seconds)."""
    import numpy as np

    from appliance.audio.wavio import to_16k

    audio = voice.synthesize(text, **STILL)  # type: ignore[attr-defined]
    rate = voice.sample_rate  # type: ignore[attr-defined]
    pad = np.zeros(int(0.4 * 16000), dtype=np.int16)
    clip = np.concatenate([pad, to_16k(audio, rate), pad])
    transcript = recogniser.transcribe(clip)  # type: ignore[attr-defined]
    return transcript.text.strip(), len(audio) / rate


async def collect(split: str, root: Path) -> tuple[list[Heard], dict[str, tuple[str, ...]]]:
    """Every answer of the split that is right in text, with both spoken forms."""
    config = open_config(root, None)
    questions = [q for q in load_set() if q.answerable and (split == "all" or q.split == split)]
    out: list[Heard] = []
    expected: dict[str, tuple[str, ...]] = {}
    with IndexStore.open(config) as store:
        for q in questions:
            answer, *_ = await ask(q.text, store, config, None, "extractive")
            if not score(q, answer):
                continue
            row = Heard(q.qid, q.style, answer.spoken, sayable(answer.spoken))
            cited = answer.citations[0]
            quoted = answer.text.startswith(f"{cited.label} says:")
            row.source_first = sayable(f"{cited.label} says: {cited.quote}") if quoted else row.said
            out.append(row)
            expected[q.qid] = q.expect
    return out, expected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="dev", choices=["tuning", "dev", "heldout", "all"])
    parser.add_argument("--condition", default="clean", choices=["clean", "photo"])
    parser.add_argument("--index-dir", type=Path, required=True, help="bench/answer_eval.py's")
    parser.add_argument("-v", action="store_true", help="print each spoken answer")
    parser.add_argument(
        "--styles", default="", help="only these drawing styles (comma-separated, e.g. rendered-zh)"
    )
    parser.add_argument(
        "--to-value",
        action="store_true",
        help="only the seconds of speech before the value, for every right answer (sayable form)",
    )
    args = parser.parse_args()
    if args.split == "heldout" and args.v:
        parser.error("-v is refused on the held-out part: its answers are not to be read")
    root = args.index_dir.resolve() / args.condition
    if not (root / "data").exists():
        parser.error(f"no index in {root}: run bench/answer_eval.py with --index-dir first")
    rows, expected = asyncio.run(collect(args.split, root))
    if args.styles:
        rows = [r for r in rows if r.style in args.styles.split(",")]

    from appliance.audio.engines.whisper import WhisperRecogniser
    from appliance.audio.piper import PiperVoice

    models = REPO / "var" / "models"
    voice = PiperVoice.from_manifest(models, threads=1)
    if args.to_value:
        report_to_value(rows, expected, voice, f"{args.split}, {args.condition}")
        return
    recogniser = WhisperRecogniser.from_manifest("whisper-base", models)
    for row in rows:
        if row.written == row.said:
            continue
        row.transcript_written, row.seconds_written = speak_and_hear(voice, recogniser, row.written)
        row.transcript_said, row.seconds_said = speak_and_hear(voice, recogniser, row.said)
        row.heard_written = value_heard(expected[row.qid], row.transcript_written)
        row.heard_said = value_heard(expected[row.qid], row.transcript_said)
        if args.v:
            print(f"{row.qid}  expect {expected[row.qid]}")
            print(
                f"  written {row.seconds_written:4.1f}s heard={row.heard_written} {row.written!r}"
            )
            print(f"          -> {row.transcript_written!r}")
            print(f"  said    {row.seconds_said:4.1f}s heard={row.heard_said} {row.said!r}")
            print(f"          -> {row.transcript_said!r}", flush=True)
    report(rows, f"{args.split}, {args.condition}")


def value_offset(said: str, expected: tuple[str, ...]) -> int | None:
    """Where in the said text the value begins (the earliest expected form), or None."""
    low = said.lower()
    # A drawing number is read out where it is named as one ("the drawing number is F L, …").
    named = "the drawing number is "
    forms = [f for e in expected for f in (sayable(e), e, sayable(named + e)[len(named) :]) if f]
    found = [low.find(form.lower()) for form in forms]
    found = [i for i in found if i >= 0]
    return min(found) if found else None


def report_to_value(
    rows: list[Heard], expected: dict[str, tuple[str, ...]], voice: object, label: str
) -> None:
    """For the value first (as spoken now) and the source first: seconds of speech before the
    value, and seconds the voice takes to synthesise what is played first (the first clause, as
    the speaker cuts it), p50 / p95 by style. Both orders are timed answer by answer, in turn."""
    import time

    from appliance.audio.tts import first_clause
    from bench.common import percentile

    waits: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    missing = 0
    rate = voice.sample_rate  # type: ignore[attr-defined]
    for row in rows:
        for order, said in (("value first", row.said), ("source first", row.source_first)):
            at = value_offset(said, expected[row.qid])
            if at is None:
                missing += order == "value first"
                continue
            prefix = said[:at].strip()
            said_before = voice.synthesize(prefix, **STILL) if prefix else []  # type: ignore[attr-defined]
            before = len(said_before) / rate
            t0 = time.perf_counter()
            voice.synthesize(first_clause(said)[0])  # type: ignore[attr-defined]
            synth = time.perf_counter() - t0
            for style in (row.style, "ALL"):
                waits[style][f"{order} before"].append(before)
                waits[style][f"{order} synth"].append(synth)
    print(
        f"\n== right answers: seconds of speech before the value; seconds to synthesise the first clause ({label})"
    )
    columns = [f"{o} {k}" for k in ("before", "synth") for o in ("source first", "value first")]
    print(f"  {'style':16} {'n':>4} " + " ".join(f"{c + ' p50/p95':>28}" for c in columns))
    for style, series in sorted(waits.items(), key=lambda kv: (kv[0] == "ALL", kv[0])):
        cells = []
        for c in columns:
            values = series[c]
            cells.append(f"{percentile(values, 50):.2f} / {percentile(values, 95):.2f}")
        n = len(series["value first before"])
        print(f"  {style:16} {n:>4} " + " ".join(f"{cell:>28}" for cell in cells))
    print(f"  value not found in the said text: {missing} of {len(rows)}")


def report(rows: list[Heard], label: str) -> None:
    """One line per style and the total."""
    by_style: dict[str, list[Heard]] = defaultdict(list)
    for row in rows:
        by_style[row.style].append(row)
    by_style["ALL"] = rows
    print(f"\n== answers right in text, heard through the Piper voice ({label})")
    print(
        f"  {'style':16} {'right':>5} {'changed':>7} {'cannot say: written':>19} {'sayable':>7}"
        f" {'heard (changed): written':>24} {'sayable':>7} {'speech s: written':>17} {'sayable':>7}"
        f" {'Chinese letter: written':>23} {'sayable':>7}"
    )
    for style, group in sorted(by_style.items(), key=lambda kv: (kv[0] == "ALL", kv[0])):
        changed = [r for r in group if r.heard_said is not None]
        cannot_before = sum(bool(_CANNOT_SAY.search(r.written)) for r in group)
        cannot_after = sum(bool(_CANNOT_SAY.search(r.said)) for r in group)
        heard_before = sum(bool(r.heard_written) for r in changed)
        heard_after = sum(bool(r.heard_said) for r in changed)
        junk_before = sum(bool(_CHINESE_LETTER.search(r.transcript_written)) for r in changed)
        junk_after = sum(bool(_CHINESE_LETTER.search(r.transcript_said)) for r in changed)
        s_before = sum(r.seconds_written for r in changed)
        s_after = sum(r.seconds_said for r in changed)
        print(
            f"  {style:16} {len(group):>5} {len(changed):>7} {cannot_before:>19} {cannot_after:>7}"
            f" {f'{heard_before}/{len(changed)}':>24} {f'{heard_after}/{len(changed)}':>7}"
            f" {s_before:>17.0f} {s_after:>7.0f} {junk_before:>23} {junk_after:>7}"
        )


if __name__ == "__main__":
    main()
