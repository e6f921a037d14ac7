"""Which drawing a spoken question names, read as typed and as heard, and what the naming costs.

Reads the transcripts a spoken run of bench/answer_eval.py wrote (``--spoken``: question id ->
what the recogniser heard) and, on the index that run used, names drawings in each transcript
twice in the same process (and the question as written, for comparison): as a typed question (spelled names, and names a few letters off) and
as a heard one (the same, then names the words *sound* like; appliance.index.soundalike). For
each it prints how many questions that are about one drawing named it first, named another, or
named none; how many named some drawing although they are about none; and the time a naming took.

    .venv/bin/python bench/answer_named_heard.py --heard bench/out/answer_eval/heard-clean-whisper-base-piper.json \
        --index-dir /work/main/bench/out/answer_eval-s55h/clean --split dev [-v]

``-v`` lists the questions whose naming differs between the two readings (refused on heldout).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appliance.errors import public_name  # noqa: E402
from appliance.index.search import scope  # noqa: E402
from appliance.index.store import IndexStore  # noqa: E402
from bench.answer_eval import open_config  # noqa: E402
from bench.answer_eval_set import load_set  # noqa: E402


def verdict(named: list[str], drawing: str) -> str:
    """How a naming went for a question about ``drawing`` ("" when it is about none)."""
    if not drawing:
        return "about none, named one" if named else "about none, named none"
    if not named:
        return "none"
    return "right" if named[0] == drawing else "another"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--heard", type=Path, required=True, help="transcripts (JSON)")
    parser.add_argument("--index-dir", type=Path, required=True, help="one condition's index")
    parser.add_argument("--split", choices=("tuning", "dev", "heldout"), required=True)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.verbose and args.split == "heldout":
        parser.error("held-out questions are not read one by one")
    heard = json.loads(args.heard.read_text())
    questions = [q for q in load_set() if q.split == args.split and q.qid in heard]
    config = open_config(args.index_dir, None)
    counts: dict[bool, Counter[str]] = {False: Counter(), True: Counter()}
    seconds: dict[bool, list[float]] = {False: [], True: []}
    written: Counter[str] = Counter()
    with IndexStore.open(config) as store:
        names = store.names.names(scope(None))
        for q in questions:
            drawing = q.drawing
            as_written = [public_name(n.source) for n in names.match(q.text)]
            written[verdict(as_written, drawing)] += 1
            found: dict[bool, list[str]] = {}
            for as_heard in (False, True):
                t0 = time.perf_counter()
                named = names.match(heard[q.qid], heard=as_heard)
                seconds[as_heard].append(time.perf_counter() - t0)
                found[as_heard] = [public_name(n.source) for n in named]
                counts[as_heard][verdict(found[as_heard], drawing)] += 1
            if args.verbose and found[False] != found[True]:
                print(f"  {q.qid:34} {found[False][:2]} -> {found[True][:2]} | {heard[q.qid]!r}")
    about = sum(1 for q in questions if q.drawing)
    print(
        f"{args.split}: {len(questions)} transcripts ({about} about one drawing) from {args.heard}"
    )
    w = written
    print(
        f"  the questions as written: named first {w['right']}/{about}, another {w['another']}, "
        f"none {w['none']}"
    )
    for as_heard, label in ((False, "heard, read as typed"), (True, "heard, read as heard")):
        c = counts[as_heard]
        ms = [1000 * s for s in seconds[as_heard]]
        p95 = statistics.quantiles(ms, n=20)[-1] if len(ms) >= 20 else max(ms)
        print(
            f"  {label}: named first {c['right']}/{about}, another {c['another']}, none "
            f"{c['none']}; about no drawing but named one "
            f"{c['about none, named one']}/{len(questions) - about}; "
            f"naming p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms"
        )


if __name__ == "__main__":
    main()
