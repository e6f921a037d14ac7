"""Would the local model, asked to reword a declined question into the drawing terms the extractive
path knows, let that path answer it?

The held-out misses are mostly ways of asking the rules were never shown ("how heavy", "what goes
on after", "okayed by"). A model reads wording well even where it cannot be trusted with facts. Here
it sees only the question, never a source, so it cannot invent a value: it rewrites the question,
and the extractive path answers the rewrite or declines it as before.

For every question of a split the extractive path declines, the model (llama.cpp, greedy) rewrites
it once and the rewrite is answered. Printed: answerable questions declined, and of them now right /
now wrong / still declined; traps declined, and of them now answered; seconds per rewrite.

Run on the tuning or dev part only (held-out answers are not read question by question):

    .venv/bin/python bench/studies/answer_rewrite.py --index-dir /work/main/bench/out/answer_eval-s57 \
        [--split tuning|dev] [--model qwen2.5-coder-1.5b-instruct-q4_k_m] [-v]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from appliance.index.store import IndexStore
from bench.answer_eval import ask, open_config, score
from bench.answer_eval_set import load_set

SYSTEM = (
    "You reword questions about engineering drawings. Rewrite the question as one short plain "
    "question that uses the usual drawing term for what is asked: material, weight, scale, sheet "
    "size, surface treatment, surface roughness, general tolerance, heat treatment, hardness, "
    "drawing number, title, revision, date, drawn by, checked by, approved by, projection, units, "
    "thread, diameter, length, width, height, depth, radius, chamfer, number of holes, note. "
    "Keep every name, number and file name of the drawing exactly as written. Do not answer the "
    "question and do not add anything it does not ask. Reply with the question only."
)
#: Worked examples on drawings that are not in any set.
EXAMPLES = (
    ("How heavy is the motor bracket?", "What is the weight of the motor bracket?"),
    ("What's the clamp arm made out of?", "What is the material of the clamp arm?"),
    ("Who okayed drawing KX-1100?", "Who approved drawing KX-1100?"),
    (
        "How smooth does the bore of the pulley need to be?",
        "What is the surface roughness of the bore of the pulley?",
    ),
    ("What coating goes on the hinge plate?", "What is the surface treatment of the hinge plate?"),
    ("How big a sheet is the Lagerbock drawn on?", "What is the sheet size of the Lagerbock?"),
)


def messages(question: str) -> list[dict[str, str]]:
    turns = [{"role": "system", "content": SYSTEM}]
    for asked, reworded in EXAMPLES:
        turns += [{"role": "user", "content": asked}, {"role": "assistant", "content": reworded}]
    return [*turns, {"role": "user", "content": question}]


async def _study(root: Path, split: str, model: str, verbose: bool) -> None:
    from llama_cpp import Llama

    repo = Path(__file__).resolve().parents[2]
    llm = Llama(
        model_path=str(repo / "var/models" / model / f"{model}.gguf"),
        n_ctx=1024,
        n_threads=2,
        verbose=False,
    )
    config = open_config(root, None)
    questions = [q for q in load_set() if q.split == split]
    counts = {"declined": 0, "right": 0, "wrong": 0, "traps": 0, "answered": 0}
    seconds: list[float] = []
    with IndexStore.open(config) as store:
        for q in questions:
            answer, *_ = await ask(q.text, store, config, None, "extractive")
            if answer.mode != "abstained":
                continue
            t0 = time.perf_counter()
            out = llm.create_chat_completion(
                messages=messages(q.text),  # type: ignore[arg-type]
                temperature=0.0,
                max_tokens=48,
                stop=["\n"],
            )
            seconds.append(time.perf_counter() - t0)
            reworded = str(out["choices"][0]["message"]["content"]).strip()  # type: ignore[index]
            again, *_ = await ask(reworded, store, config, None, "extractive")
            if q.answerable:
                counts["declined"] += 1
                verdict = (
                    "right"
                    if score(q, again)
                    else ("declined" if again.mode == "abstained" else "wrong")
                )
                if verdict != "declined":
                    counts[verdict] += 1
            else:
                counts["traps"] += 1
                verdict = "declined" if again.mode == "abstained" else "ANSWERED"
                counts["answered"] += verdict == "ANSWERED"
            if verbose:
                print(f"  {q.qid:34} {verdict:9} {q.text!r} -> {reworded!r}", flush=True)
    print(f"{split}, {model}:")
    print(
        f"  answerable declined {counts['declined']}: now right {counts['right']}, "
        f"now wrong {counts['wrong']}"
    )
    print(f"  traps declined {counts['traps']}: now answered {counts['answered']}")
    if seconds:
        ordered = sorted(seconds)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(f"  seconds per rewrite: p50 {statistics.median(seconds):.2f}, p95 {p95:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--split", choices=("tuning", "dev"), default="tuning")
    parser.add_argument("--condition", choices=("clean", "photo"), default="clean")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct-q4_k_m")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    asyncio.run(_study(args.index_dir / args.condition, args.split, args.model, args.verbose))


if __name__ == "__main__":
    main()
