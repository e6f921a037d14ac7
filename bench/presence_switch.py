"""Time to switch the active namespaces when the room changes, with many slices indexed.

Builds (once, cached under ``bench/out/``) an index of N slices spread over several namespaces by
inserting :class:`SourceDocument` s through ``IndexStore.replace_source``. Slice texts are sentences
of the SciFact and Cranfield corpora in ``../shared/data/retrieval``. Then it opens the index with the
real ONNX embedder and times :meth:`NamespaceActivator.activate` (warm the new room's namespaces with a
first search, release the old) over a cycle of room changes. Baselines in the same process: the same
search over ``global`` only, and over every namespace at once (no partition pruning).

Embedding 100k passages with the real model takes most of an hour on two busy cores, so by default the
*passage* vectors are built with a hashing embedder (token feature hashing into the real model's 384
dimensions, normalised): the SQL, FTS5 and vec0 work per search is the same as with real vectors, and
every *query* still goes through the real ONNX model. ``--real-embeddings`` builds with the real model.

    .venv/bin/python bench/presence_switch.py                  # 10,000 slices
    .venv/bin/python bench/presence_switch.py --slices 100000  # the figure in the issue
    .venv/bin/python bench/presence_switch.py --slices 100000 --prewarm  # rooms warmed at start
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appliance.document import DocumentSlice, SourceDocument  # noqa: E402
from appliance.index.embedder import Embedder  # noqa: E402
from appliance.index.search import search  # noqa: E402
from appliance.index.store import IndexStore  # noqa: E402
from appliance.presence.activator import NamespaceActivator  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "retrieval"
OUT = REPO / "bench" / "out"
MODEL = "all-minilm-l6-v2-int8"
NAMESPACES = ["shop", "electronics", "assembly", "paint", "stores", "office", "lab2", "yard"]
SLICES_PER_SOURCE = 50


class HashingEmbedder:
    """Passage vectors by token feature hashing (fast); queries by the real model."""

    def __init__(self, real: Embedder) -> None:
        self.real = real
        self.name = real.name
        self.dimensions = real.dimensions
        self.tokens = real.tokens  # the store sizes slices by the real model's tokens

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in re.findall(r"\w+", text.lower()):
                digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
                index = int.from_bytes(digest[:4], "little") % self.dimensions
                out[row, index] += 1.0 if digest[4] & 1 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.clip(norms, 1e-9, None)

    def embed_query(self, text: str) -> np.ndarray:
        return self.real.embed_query(text)


def sentences() -> Iterator[str]:
    """Sentences of SciFact and Cranfield, forever (later passes pair neighbours up)."""
    texts: list[str] = []
    for name in ("scifact_beir", "cranfield"):
        with (DATA / name / "corpus.jsonl").open(encoding="utf-8") as handle:
            for line in handle:
                doc = json.loads(line)
                for sentence in re.split(r"(?<=[.!?])\s+", doc.get("text", "")):
                    if len(sentence) >= 40:
                        texts.append(sentence.strip())
    round_ = 0
    while True:
        for i, text in enumerate(texts):
            yield text if round_ == 0 else f"{text} {texts[(i + round_) % len(texts)]}"
        round_ += 1


def build(path: Path, count: int, embedder: object) -> None:
    partial = path.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    source = sentences()
    started = time.perf_counter()
    with IndexStore.open_path(partial, embedder=embedder) as store:  # type: ignore[arg-type]
        made = 0
        doc_no = 0
        while made < count:
            n = min(SLICES_PER_SOURCE, count - made)
            slices = tuple(DocumentSlice(text=next(source)) for _ in range(n))
            namespace = NAMESPACES[doc_no % len(NAMESPACES)] if doc_no % 10 else "global"
            store.replace_source(
                SourceDocument(f"bench/{doc_no:06d}.md", namespace, f"h{doc_no}", slices)
            )
            made += n
            doc_no += 1
            if doc_no % 200 == 0:
                rate = made / (time.perf_counter() - started)
                print(f"  built {made}/{count} slices ({rate:.0f}/s)", flush=True)
    partial.rename(path)
    print(f"built {count} slices in {time.perf_counter() - started:.0f} s -> {path.name}")


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000.0


def summary(label: str, values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return (
        f"{label}: median {statistics.median(values):.1f} ms, p95 {p95:.1f} ms, "
        f"max {values[-1]:.1f} ms (n={len(values)})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="namespace switch time with many slices indexed")
    parser.add_argument("--slices", type=int, default=10_000)
    parser.add_argument("--switches", type=int, default=30)
    parser.add_argument("--real-embeddings", action="store_true")
    parser.add_argument(
        "--prewarm",
        action="store_true",
        help="call NamespaceActivator.prewarm with every room's namespaces first (start-up)",
    )
    args = parser.parse_args(argv)
    real = Embedder.from_manifest(MODEL, Path("/nonexistent-models-dir"), threads=1)
    kind = "real" if args.real_embeddings else "hashed"
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"presence_index_{args.slices}_{kind}.sqlite3"
    if not path.exists():
        build(path, args.slices, real if args.real_embeddings else HashingEmbedder(real))
    with IndexStore.open_path(path, embedder=real) as store:
        total = store.db.execute("SELECT count(*) FROM slices").fetchone()[0]
        per = dict(store.db.execute("SELECT namespace, count(*) FROM slices GROUP BY namespace"))
        print(f"index: {total} slices; per namespace: {per}")
        activator = NamespaceActivator(store, warm_query="torque of the mounting bracket bolts")
        rooms = [["shop"], ["electronics"], ["assembly", "shop"], []]
        if args.prewarm:
            every = sorted({n for room in rooms for n in room})
            warm_up = activator.prewarm(every)
            print(f"prewarm at start-up ({', '.join(warm_up.warmed)}): {warm_up.switch_ms:.1f} ms")
        cold = activator.activate(rooms[0])
        print(f"first switch after opening (query not cached, pages cold): {cold.switch_ms:.1f} ms")
        warm: list[float] = []
        for i in range(args.switches):
            result = activator.activate(rooms[(i + 1) % len(rooms)])
            if result.warmed:
                warm.append(result.switch_ms)
        print(summary("room switch (warming search, product's fixed warm query)", warm))
        fresh: list[float] = []
        for i in range(args.switches):
            activator.warm_query = f"what is the coefficient of sample {i} in room {i % 7}"
            result = activator.activate(rooms[(i + 1) % len(rooms)])
            if result.warmed:
                fresh.append(result.switch_ms)
        print(summary("room switch with a new query each time (query embedding included)", fresh))
        query = "torque of the mounting bracket bolts"
        only_global = [timed(lambda: search(store, query, [])) for _ in range(args.switches)]
        print(summary("baseline: the same search over global only", only_global))
        everything = [timed(lambda: search(store, query, NAMESPACES)) for _ in range(args.switches)]
        print(summary("baseline: the same search over all namespaces", everything))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"target: a room switch <= 50 ms with 100k slices indexed (load average {load})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
