"""Questions read by whisper with a greedy decoder against a beam search, on the same audio.

Each question of a split is said once by its test voice (espeak-ng, the voice and rate
``answer_eval.py --spoken`` gives it at its place in the split; no added noise) and transcribed by
the question recogniser as the service builds it (whisper base, the 10-s context, the index's
names as the prompt and heard again), once per beam size, the order rotating per question so load
falls on all alike. Printed per beam size: right question (every content word heard), the heard
question answered right with its citation or rightly declined (extractive, from
``answer_eval.py``'s clean index), and the seconds to transcribe, p50 / p95 / max. Held-out prints
totals only.

    .venv/bin/python bench/studies/whisper_beam.py --split dev --beams 1,5 \
        --index-dir /work/main/bench/out/answer_eval-s61
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from appliance.audio.bias import index_names
from appliance.audio.build import build_recogniser
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.heard_names import choose_name_in_question
from appliance.index.store import IndexStore
from bench.answer_eval import ask, bias_words, open_config, say, score
from bench.answer_eval_set import load_set, question_heard
from bench.common import percentile


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=["tuning", "dev", "heldout"], default="dev")
    parser.add_argument("--beams", default="1,5", help="beam sizes, comma-separated")
    parser.add_argument("--limit", type=int, default=0, help="the first N questions (0: all)")
    parser.add_argument("--index-dir", type=Path, required=True, help="answer_eval's index root")
    args = parser.parse_args()
    beams = [int(b) for b in args.beams.split(",")]
    questions = [q for q in load_set() if q.split == args.split]
    if args.limit:
        questions = questions[: args.limit]
    config = open_config(args.index_dir / "clean", None)
    recogniser = build_recogniser(config, "whisper")
    assert isinstance(recogniser, WhisperRecogniser)
    heard_right = dict.fromkeys(beams, 0)
    answered_right = dict.fromkeys(beams, 0)
    seconds: dict[int, list[float]] = {b: [] for b in beams}
    with IndexStore.open(config) as store:
        vocabulary = bias_words(config, store)
        names = index_names(store.list_sources())
        for i, q in enumerate(questions):
            audio = say(q.text, i)
            for k in range(len(beams)):
                beam = beams[(i + k) % len(beams)]
                recogniser.beam_size = beam
                t0 = time.perf_counter()
                text = recogniser.transcribe(audio, vocabulary=vocabulary).text.strip()
                seconds[beam].append(time.perf_counter() - t0)
                choice = choose_name_in_question(recogniser, audio, text, text, names)
                if choice is not None:
                    text = choice.text
                heard_right[beam] += question_heard(q.text, text)
                answer, *_ = await ask(text, store, config, None, "extractive", heard=True)
                answered_right[beam] += score(q, answer)
            if args.split != "heldout" and (i + 1) % 25 == 0:
                print(f"  {i + 1}/{len(questions)}", file=sys.stderr, flush=True)
    n = len(questions)
    print(f"{n} questions of the {args.split} part, espeak-ng test voices, no added noise")
    for beam in beams:
        t = seconds[beam]
        print(
            f"  beam {beam}: right question {heard_right[beam]}/{n}, answered right or rightly "
            f"declined {answered_right[beam]}/{n}; transcription p50 {percentile(t, 50):.2f} s, "
            f"p95 {percentile(t, 95):.2f} s, max {max(t):.2f} s"
        )


if __name__ == "__main__":
    asyncio.run(main())
