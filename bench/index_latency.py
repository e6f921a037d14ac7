"""Search latency (p50/p95, query embedding included), indexing throughput and index size.

    .venv/bin/python bench/index_latency.py [--sizes 10000,100000] [--types float32,int8,bit]

Vectors for the large indexes are real MiniLM embeddings of SciFact abstracts (taken from the index
that bench/index_retrieval.py builds, or embedded here), repeated with small Gaussian noise up to the
wanted size, and the slice texts are the real abstracts: the KNN and BM25 work is what a real index
of that size costs. Each query is a real SciFact query, embedded for every search (cache off).
Reported for float32, int8 and binary vectors so the storage type is chosen by measurement; int8 and
bit also report recall@10 against exact float32 search on the same queries.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.index.embedder import Embedder
from appliance.index.search import SearchOptions, search
from appliance.index.slices import DocumentSlice, SourceDocument
from appliance.index.store import IndexStore
from bench.common import out_dir, percentile
from bench.index_retrieval import load


class PrecomputedEmbedder(Embedder):
    """Hands out prepared passage vectors; queries still go through the real model."""

    def __init__(self, real: Embedder) -> None:
        self.__dict__.update(real.__dict__)
        self.pending: np.ndarray | None = None

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        assert self.pending is not None and len(self.pending) == len(texts)
        out, self.pending = self.pending, None
        return out


def pool(real: Embedder, limit: int = 2000) -> tuple[list[str], np.ndarray]:
    corpus, _, _ = load("scifact")
    texts = list(corpus.values())[:limit]
    cache = out_dir("latency") / f"pool-{limit}.npy"
    if cache.exists():
        return texts, np.load(cache)
    t0 = time.perf_counter()
    vectors = real.embed_passages(texts)
    took = time.perf_counter() - t0
    print(f"indexing throughput (embedding, real abstracts): {len(texts) / took:.1f} slices/s")
    np.save(cache, vectors)
    return texts, vectors


def build(real: Embedder, size: int, namespaces: int, vector_type: str) -> IndexStore:
    path = out_dir("latency") / f"idx-{size}-{namespaces}ns-{vector_type}.sqlite3"
    fake = PrecomputedEmbedder(real)
    store = IndexStore.open_path(path, embedder=fake, vector_type=vector_type)
    have = store.db.execute("SELECT count(*) FROM slices").fetchone()[0]
    if have >= size:
        return store
    texts, vectors = pool(real)
    rng = np.random.default_rng(7)
    t0 = time.perf_counter()
    batch = 500
    for start in range(have, size, batch):
        n = min(batch, size - start)
        idx = [(start + i) % len(texts) for i in range(n)]
        vecs = vectors[idx] + rng.normal(0, 0.02, (n, vectors.shape[1])).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        ns = f"room{(start // batch) % namespaces}" if namespaces > 1 else "shop"
        fake.pending = vecs
        slices = tuple(DocumentSlice(text=texts[j]) for j in idx)
        store.replace_source(SourceDocument(f"doc{start}", ns, f"h{start}", slices))
    took = time.perf_counter() - t0
    print(
        f"  built {path.name}: {size - have} slices in {took:.0f} s ({(size - have) / took:.0f} inserts/s)"
    )
    return store


def run(
    store: IndexStore, queries: list[str], namespace: str
) -> tuple[list[float], list[list[int]]]:
    opts = SearchOptions(max_results=10)
    for q in queries[:5]:
        search(store, q, [namespace], options=opts)  # warm the page cache
    times, results = [], []
    for q in queries:
        t0 = time.perf_counter()
        hits = search(store, q, [namespace], options=opts)
        times.append(1000 * (time.perf_counter() - t0))
        results.append([h.id for h in hits])
    return times, results


def stage_times(store: IndexStore, queries: list[str], namespace: str) -> dict[str, float]:
    """Median milliseconds of each stage of a search, measured separately on the same queries."""
    from appliance.index.search import keyword_channel, scope, vector_channel

    spaces = scope([namespace])
    stages: dict[str, list[float]] = {"embed": [], "vector": [], "keyword": []}
    for q in queries:
        t0 = time.perf_counter()
        store.embedder.embed_query(q)
        t1 = time.perf_counter()
        vector_channel(store, q, spaces, 50)
        t2 = time.perf_counter()
        keyword_channel(store, q, spaces, 50, 60)
        t3 = time.perf_counter()
        stages["embed"].append(1000 * (t1 - t0))
        # The vector channel embeds the query again (cache off): its KNN share is the difference.
        stages["vector"].append(max(0.0, 1000 * (t2 - t1) - stages["embed"][-1]))
        stages["keyword"].append(1000 * (t3 - t2))
    return {k: percentile(v, 50) for k, v in stages.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--types", default="float32,int8,bit")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    real = Embedder.from_manifest("all-minilm-l6-v2-int8", Path("/nonexistent"), cache_size=0)
    _, queries, _ = load("scifact")
    qs = list(queries.values())[: args.queries]
    pool(real)
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(
        f"{'index':<34} {'p50 ms':>7} {'p95 ms':>7} {'MB/1k slices':>13} {'recall@10 vs f32':>17}"
    )
    sizes = [int(s) for s in args.sizes.split(",")]
    for size in sizes:
        for namespaces in (1, 10):
            baseline = None
            for vtype in args.types.split(","):
                if vtype != "float32" and namespaces != 1:
                    continue
                store = build(real, size, namespaces, vtype)
                ns = "room0" if namespaces > 1 else "shop"
                times, _results = run(store, qs, ns)
                mb = (store.path.stat().st_size if store.path else 0) / 1e6 / (size / 1000)
                if vtype == "float32":
                    # Vector-only exact ranking as the reference for quantised types.
                    _, baseline = run_vector_only(store, qs, ns)
                    recall = "ref"
                else:
                    _, mine = run_vector_only(store, qs, ns)
                    recall = f"{np.mean([len(set(a) & set(b)) / max(1, len(b)) for a, b in zip(mine, baseline or [], strict=False)]):.3f}"
                label = f"{size} slices, {namespaces} ns, {vtype}"
                stages = stage_times(store, qs[:50], ns)
                print(
                    f"{label:<34} {percentile(times, 50):7.1f} {percentile(times, 95):7.1f}"
                    f" {mb:13.2f} {recall:>17}   (p50 embed {stages['embed']:.1f},"
                    f" knn {stages['vector']:.1f}, keyword {stages['keyword']:.1f})"
                )
                store.close()


def run_vector_only(
    store: IndexStore, queries: list[str], namespace: str
) -> tuple[list[float], list[list[int]]]:
    opts = SearchOptions(max_results=10, channels=("vector",))
    results = []
    for q in queries:
        results.append([h.id for h in search(store, q, [namespace], options=opts)])
    return [], results


if __name__ == "__main__":
    main()
