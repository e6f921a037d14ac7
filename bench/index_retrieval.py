"""Retrieval quality of the index on BEIR SciFact: nDCG@10 and Recall@100 per channel.

    .venv/bin/python bench/index_retrieval.py [--limit-queries N] [--dataset scifact|cranfield]

Every abstract is indexed through the real pipeline pieces (chunking, real ONNX embeddings, SQLite +
sqlite-vec + FTS5); a document's score is its best slice's. Runs keyword only, vector only, and the
two fusions in the same process on the same index, so the comparison is like for like. The built
index is cached under bench/out/.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.document import SourceDocument
from appliance.index.embedder import Embedder
from appliance.index.search import SearchOptions, search
from appliance.index.store import IndexStore
from appliance.ingest.chunking import pack
from appliance.ingest.markdown import text_blocks
from appliance.ingest.settings import IngestSettings
from bench.common import SHARED_DATA, out_dir

DATASETS = {"scifact": "retrieval/scifact_beir", "cranfield": "retrieval/cranfield"}


def load(dataset: str) -> tuple[dict[str, str], dict[str, str], dict[str, dict[str, int]]]:
    root = SHARED_DATA / DATASETS[dataset]
    corpus = {}
    for line in (root / "corpus.jsonl").open():
        d = json.loads(line)
        corpus[d["_id"]] = (d.get("title", "") + "\n\n" + d["text"]).strip()
    queries = {}
    for line in (root / "queries.jsonl").open():
        d = json.loads(line)
        queries[d["_id"]] = d["text"]
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    qfile = root / "qrels" / "test.tsv"
    for line in qfile.open().read().splitlines()[1:]:
        qid, did, score = line.split("\t")[:3]
        if int(score) > 0:
            qrels[qid][did] = int(score)
    return corpus, {q: t for q, t in queries.items() if q in qrels}, qrels


def build(
    dataset: str,
    corpus: dict[str, str],
    embedder: Embedder,
    name: str = "",
    *,
    target: int = IngestSettings().chunk_tokens,
    overlap: int = IngestSettings().overlap_tokens,
) -> IndexStore:
    path = out_dir("retrieval") / f"{name or dataset}.sqlite3"
    store = IndexStore.open_path(path, embedder=embedder)
    have = store.db.execute("SELECT count(*) FROM sources").fetchone()[0]
    if have == len(corpus):
        return store
    started = time.perf_counter()
    n_slices = 0
    embedding = 0.0
    for i, (doc_id, text) in enumerate(corpus.items()):
        slices = pack(text_blocks(text), target=target, overlap=overlap, tokens=embedder.tokens)
        result = store.replace_source(SourceDocument(doc_id, "bench", doc_id, tuple(slices)))
        n_slices += result.slices
        embedding += result.embed_seconds
        if i % 500 == 0:
            print(f"  indexed {i}/{len(corpus)}", file=sys.stderr)
    took = time.perf_counter() - started
    print(
        f"built {dataset}: {len(corpus)} docs, {n_slices} slices in {took:.0f} s"
        f" ({n_slices / took:.1f} slices/s; embedding {embedding:.0f} s, chunking and writes"
        f" {took - embedding:.1f} s = {1000 * (took - embedding) / max(1, n_slices):.1f} ms/slice)"
    )
    return store


def length_report(store: IndexStore, embedder: Embedder) -> None:
    """How many tokens each slice feeds the embedder (special tokens included), against its
    max_length: a slice past it is cut and its tail is invisible to the vector channel."""
    texts = [r[0] for r in store.db.execute("SELECT text FROM slices").fetchall()]
    tokens = embedder.tokens
    seen = sorted(c + tokens.special + tokens.prefix for c in tokens.counts(texts))
    if not seen:
        return
    limit = tokens.max_length
    over = sum(n > limit for n in seen)

    def q(p: float) -> int:
        return seen[min(len(seen) - 1, int(p * len(seen)))]

    print(
        f"slices: {len(seen)}; embedder tokens (wordpieces + specials) min {seen[0]}, p10 {q(0.1)},"
        f" median {q(0.5)}, p90 {q(0.9)}, max {seen[-1]}; over max_length {limit}: {over}"
        f" ({100 * over / len(seen):.1f} %)"
    )


def ndcg_at(ranked: list[str], rel: dict[str, int], k: int) -> float:
    dcg = sum((2 ** rel.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(rel.values(), reverse=True)[:k]
    idcg = sum((2**r - 1) / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", choices=sorted(DATASETS), default="scifact")
    parser.add_argument(
        "--limit-queries", type=int, default=0, help="Evaluate only the first N queries."
    )
    parser.add_argument(
        "--index-name",
        default="",
        help="Cache file name under bench/out/retrieval (a new name builds afresh and prints the"
        " indexing throughput).",
    )
    parser.add_argument(
        "--keyword-budget",
        type=int,
        default=SearchOptions().keyword_budget_rows,
        help="index.keyword_budget_rows for every configuration (0: every matching row scored).",
    )
    parser.add_argument(
        "--limit-docs",
        type=int,
        default=0,
        help="Index only the first N documents (with a new --index-name: a quick throughput run).",
    )
    parser.add_argument(
        "--chunk-tokens",
        type=int,
        default=IngestSettings().chunk_tokens,
        help="ingest.chunk_tokens for a new index (embedder tokens per slice).",
    )
    parser.add_argument(
        "--overlap-tokens",
        type=int,
        default=IngestSettings().overlap_tokens,
        help="ingest.overlap_tokens for a new index.",
    )
    args = parser.parse_args()
    corpus, queries, qrels = load(args.dataset)
    if args.limit_docs:
        corpus = dict(list(corpus.items())[: args.limit_docs])
    embedder = Embedder.from_manifest("all-minilm-l6-v2-int8", Path("/nonexistent"), cache_size=0)
    store = build(
        args.dataset,
        corpus,
        embedder,
        args.index_name,
        target=args.chunk_tokens,
        overlap=args.overlap_tokens,
    )
    length_report(store, embedder)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    # The keyword channel ranks in memory once its common words are loaded (the service's steady
    # state); a query meeting a phrase not yet in memory takes the budgeted FTS5 path instead.
    store.phrases.warm()
    store.phrases.wait_idle(3600)
    items = list(queries.items())[: args.limit_queries or None]
    base = SearchOptions(candidates=100, max_results=100, keyword_budget_rows=args.keyword_budget)
    configs = {
        "keyword (BM25, FTS5)": replace(base, channels=("keyword",)),
        "vector (MiniLM int8)": replace(base, channels=("vector",)),
        "hybrid rrf": replace(base, fusion="rrf"),
        "hybrid weighted 0.5": replace(base, fusion="weighted"),
        # The answer stage's path: sources the query names (here: a document id) searched first.
        "hybrid rrf + names": replace(base, fusion="rrf"),
    }
    named_queries = 0
    print(
        f"{args.dataset}: {len(items)} queries, {len(corpus)} documents,"
        f" keyword budget {args.keyword_budget} rows"
    )
    print(f"{'channel':<24} {'nDCG@10':>8} {'Recall@100':>11} {'ms/query':>9}")
    fallbacks = store.phrases.fallbacks
    for name, opts in configs.items():
        ndcgs, recalls, times = [], [], []
        for qid, text in items:
            t0 = time.perf_counter()
            asked = opts
            if name.endswith("+ names"):
                named = store.names.named(text, ["bench"])
                named_queries += bool(named)
                asked = replace(opts, focus_sources=tuple(n.id for n in named))
            hits = search(store, text, ["bench"], options=asked, include_global=False)
            times.append(time.perf_counter() - t0)
            ranked = list(dict.fromkeys(h.source for h in hits))
            rel = qrels[qid]
            ndcgs.append(ndcg_at(ranked, rel, 10))
            recalls.append(len(set(ranked[:100]) & set(rel)) / len(rel))
        n = len(items)
        print(
            f"{name:<24} {sum(ndcgs) / n:8.3f} {sum(recalls) / n:11.3f} {1000 * sum(times) / n:9.1f}"
        )
    print(f"queries that name a document (searched first with names): {named_queries}")
    print(
        f"keyword rankings that fell back to FTS5 (a phrase not in memory yet):"
        f" {store.phrases.fallbacks - fallbacks} of {store.phrases.lookups}"
    )
    store.close()


if __name__ == "__main__":
    main()
