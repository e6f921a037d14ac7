"""Search latency (p50/p95, query embedding included), indexing throughput and index size.

    .venv/bin/python bench/index_latency.py [--sizes 10000,100000] [--types float32] [--queries 150]

Vectors for the large indexes are real MiniLM embeddings of SciFact abstracts (taken from the index
that bench/index_retrieval.py builds, or embedded here), repeated with small Gaussian noise up to the
wanted size, and the slice texts are the real abstracts: the KNN and BM25 work is what a real index
of that size costs. Each query is a real SciFact query, embedded for every search (cache off).
Every index is searched in the same process in four configurations:

- ``sqlite-vec + full BM25``: the baseline, sqlite-vec's KNN and FTS5 scoring every matching row;
- ``matrix + budget, parallel``: session 2's default: the namespace's vectors in memory (numpy
  top-k), FTS5 scoring at most ``--budget`` rows for the rare words, the keyword channel in a
  worker thread beside the query embedding and the in-memory ranking;
- ``matrix + memory BM25, par.``: the keyword channel adding in-memory phrase shares
  (appliance/index/postings.py), in a worker thread;
- ``int8 pass + memory BM25, par.``: the default, the same with a large namespace's vectors first
  scored in int8 and only the rows its error bound cannot rule out rescored in float32
  (appliance/index/matrix.py). Stage medians are those of the sequential parts.

Before the timed searches the phrase cache loads its common words (the time and memory are
printed); a query whose phrases are not all in memory falls back to the budgeted FTS5 path, and the
bench prints how many did.

It prints p50/p95 of whole searches, the median of each stage (query embedding, vector channel
without embedding, keyword channel), whether the in-memory top 10 equals sqlite-vec's, whether the
in-memory BM25 equals FTS5's full BM25 score for score, how often the budgeted FTS5 result was
provably the full one, the load average (other work on the machine inflates every figure) and the
embedder's cache hits (0: every query was embedded).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.document import DocumentSlice, SourceDocument
from appliance.index.embedder import Embedder
from appliance.index.fts import WORDS
from appliance.index.keyword import keyword_channel, ranked, words_phrases
from appliance.index.search import SearchOptions, scope, search, sqlite_vec_knn, vector_channel
from appliance.index.settings import IndexSettings
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
    started = time.perf_counter()
    store = IndexStore.open_path(path, embedder=fake, vector_type=vector_type)
    if time.perf_counter() - started > 5:
        print(f"  opened {path.name} in {time.perf_counter() - started:.0f} s (migrations applied)")
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


@dataclass(frozen=True)
class Setup:
    """One configuration of the search path (the defaults are the product's)."""

    #: Namespace vectors in memory (else sqlite-vec's KNN).
    matrix: bool = True
    #: keyword_budget_rows of the FTS5 path.
    budget: int = SearchOptions().keyword_budget_rows
    #: Keyword channel in a worker thread.
    parallel: bool = True
    #: In-memory BM25 (else FTS5 ranks every query).
    phrases: bool = True
    #: int8 first pass on large namespaces (else one float32 product).
    first_pass: bool = True

    def apply(self, store: IndexStore, cache_bytes: int, phrase_bytes: int) -> None:
        store.vectors.max_bytes = cache_bytes if self.matrix else 0
        store.vectors.first_pass = self.first_pass
        store.phrases.max_bytes = phrase_bytes if self.phrases else 0


def timed_searches(
    store: IndexStore,
    queries: list[str],
    namespace: str,
    configs: dict[str, Setup],
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall and CPU milliseconds of every search per configuration, interleaved query by query.

    Each query runs under every configuration in turn, starting with a different one for each
    query, so a burst of load from other work and the word counts the first run caches fall on all
    configurations alike. CPU time is the whole process's (every thread, including onnxruntime's
    and OpenBLAS's, which spin while waiting): it hardly grows with other work on the machine.
    """
    cache_bytes, phrase_bytes = store.vectors.max_bytes, store.phrases.max_bytes
    names = list(configs)
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}

    def once(name: str, q: str) -> tuple[float, float]:
        setup = configs[name]
        setup.apply(store, cache_bytes, phrase_bytes)
        opts = SearchOptions(
            max_results=10, keyword_budget_rows=setup.budget, parallel_channels=setup.parallel
        )
        t0, c0 = time.perf_counter(), time.process_time()
        search(store, q, [namespace], options=opts)
        return 1000 * (time.perf_counter() - t0), 1000 * (time.process_time() - c0)

    for q in queries[:5]:
        for name in names:
            once(name, q)  # warm the page cache and the matrix
    store.keyword_stats.clear()
    fallbacks, lookups = store.phrases.fallbacks, store.phrases.lookups
    for i, q in enumerate(queries):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            wall, used = once(name, q)
            times[name].append(wall)
            cpu[name].append(used)
    Setup().apply(store, cache_bytes, phrase_bytes)
    print(
        f"  memory BM25 fell back to FTS5 for {store.phrases.fallbacks - fallbacks} of"
        f" {store.phrases.lookups - lookups} keyword rankings (words, identifiers) of the timed runs"
    )
    return times, cpu


def stage_times(
    store: IndexStore, queries: list[str], namespace: str, budget: int
) -> dict[str, float]:
    """Median milliseconds of each stage of a search, measured separately on the same queries."""
    spaces = scope([namespace])
    stages: dict[str, list[float]] = {"embed": [], "vector": [], "keyword": []}
    for q in queries:
        t0 = time.perf_counter()
        store.embedder.embed_query(q)
        t1 = time.perf_counter()
        vector_channel(store, q, spaces, 50)
        t2 = time.perf_counter()
        keyword_channel(store, q, spaces, 50, 60, budget_rows=budget)
        t3 = time.perf_counter()
        stages["embed"].append(1000 * (t1 - t0))
        # The vector channel embeds the query again (cache off): its own share is the difference.
        stages["vector"].append(max(0.0, 1000 * (t2 - t1) - stages["embed"][-1]))
        stages["keyword"].append(1000 * (t3 - t2))
    return {k: percentile(v, 50) for k, v in stages.items()}


def same_top10(store: IndexStore, queries: list[str], namespace: str) -> float:
    """Share of queries whose in-memory top 10 ids equal sqlite-vec's KNN top 10, in order."""
    same = 0
    for q in queries:
        vector = store.embedder.embed_query(q)
        matrix = store.vectors.matrix(namespace)
        assert matrix is not None
        mine = [i for i, _ in matrix.top_k(vector, 10)]
        theirs = [i for i, _ in sqlite_vec_knn(store, vector, namespace, 10)]
        same += mine == theirs
    return same / len(queries)


def keyword_agreement(
    store: IndexStore, queries: list[str], namespace: str, budget: int
) -> tuple[float, float, float]:
    """(share of in-memory rankings equal to FTS5's full BM25 score for score, share of budgeted
    FTS5 results provably exact, mean share of the full BM25 top-10 scores they kept), words index.
    """
    exact, kept, same, in_memory = 0, [], 0, 0
    spaces = scope([namespace])
    phrase_bytes = store.phrases.max_bytes
    for q in queries:
        phrases = words_phrases(q)
        memory = ranked(store, WORDS, phrases, spaces, 50, budget_rows=budget)
        store.phrases.max_bytes = 0
        full = ranked(store, WORDS, phrases, spaces, 50)
        mine = ranked(store, WORDS, phrases, spaces, 50, budget_rows=budget)
        store.phrases.max_bytes = phrase_bytes
        if memory.in_memory:
            in_memory += 1
            # Scores must be equal; ids of equal scores may differ only inside a tie.
            same += [s for _, s in memory.rows] == [s for _, s in full.rows]
        exact += mine.exact
        # Compared by score: the bench corpus repeats each abstract, so ids of equal rows differ.
        want = [round(s, 6) for _, s in full.rows[:10]]
        got = [round(s, 6) for _, s in mine.rows[:10]]
        kept.append(sum(1 for s in got if s in want) / max(1, len(want)))
    return same / max(1, in_memory), exact / len(queries), float(np.mean(kept))


def query_embedding_threads(queries: list[str]) -> None:
    """Query embedding p50/p95 with one and with two onnxruntime threads, interleaved."""
    embedders = {
        n: Embedder.from_manifest(
            "all-minilm-l6-v2-int8", Path("/nonexistent"), threads=2, cache_size=0, query_threads=n
        )
        for n in (1, 2)
    }
    times: dict[int, list[float]] = {n: [] for n in embedders}
    for q in queries:
        for n, e in embedders.items():
            t0 = time.perf_counter()
            e.embed_query(q)
            times[n].append(1000 * (time.perf_counter() - t0))
    print(
        "query embedding alone, p50 / p95 ms: "
        + ", ".join(
            f"{n} thread{'s' if n > 1 else ''} {percentile(v, 50):.1f} / {percentile(v, 95):.1f}"
            for n, v in times.items()
        )
        + f"; {load_text()}"
    )


def load_text() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--types", default="float32")
    parser.add_argument("--namespaces", default="1,10")
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--budget", type=int, default=SearchOptions().keyword_budget_rows)
    parser.add_argument(
        "--query-threads",
        type=int,
        default=IndexSettings().embed_query_threads,
        help="index.embed_query_threads for the searches (0: the passage session's 2 threads)",
    )
    args = parser.parse_args()
    real = Embedder.from_manifest(
        "all-minilm-l6-v2-int8",
        Path("/nonexistent"),
        cache_size=0,
        query_threads=args.query_threads,
    )
    _, queries, _ = load("scifact")
    qs = list(queries.values())[: args.queries]
    print(f"{len(qs)} distinct SciFact queries; {load_text()}")
    query_embedding_threads(qs)
    pool(real)
    b = args.budget
    configs = {
        "sqlite-vec + full BM25": Setup(False, 0, False, False, False),
        f"matrix + budget {b}, parallel": Setup(True, b, True, False, False),
        "matrix + memory BM25, par.": Setup(True, b, True, True, False),
        "int8 pass + memory BM25, par.": Setup(True, b, True, True, True),
    }
    for size in [int(s) for s in args.sizes.split(",")]:
        for namespaces in [int(n) for n in args.namespaces.split(",")]:
            for vtype in args.types.split(","):
                store = build(real, size, namespaces, vtype)
                ns = "room0" if namespaces > 1 else "shop"
                mb = (store.path.stat().st_size if store.path else 0) / 1e6 / (size / 1000)
                t0 = time.perf_counter()
                cache_bytes = store.vectors.max_bytes
                store.vectors.warm([ns])
                took = time.perf_counter() - t0
                held = store.vectors.held_bytes() / 1e6
                print(
                    f"\n{size} slices, {namespaces} namespaces, {vtype} ({mb:.2f} MB/1k slices"
                    f" on disk); searching {ns}: matrix read in {took:.1f} s, {held:.1f} MB"
                    f" in memory; {load_text()}"
                )
                t0 = time.perf_counter()
                store.phrases.warm()
                store.phrases.wait_idle(3600)
                print(
                    f"  memory BM25: common words loaded in {time.perf_counter() - t0:.1f} s,"
                    f" {store.phrases.held_bytes() / 1e6:.1f} MB"
                )
                print(f"  same top 10 as sqlite-vec: {same_top10(store, qs, ns):.3f} of queries")
                same, exact, kept = keyword_agreement(store, qs, ns, args.budget)
                print(
                    f"  memory BM25 equal to FTS5's full BM25, score for score: {same:.3f} of"
                    f" in-memory rankings; budget {args.budget}: provably the full BM25 result for"
                    f" {exact:.3f} of queries, full BM25 top-10 kept {kept:.3f}"
                )
                times, cpu = timed_searches(store, qs, ns, configs)
                print(
                    f"  {'configuration':<30} {'p50 ms':>7} {'p95 ms':>7} {'CPU p50':>8}"
                    f" {'CPU p95':>8}   median embed / vector / keyword ms"
                    f"   ({load_text()} after the searches)"
                )
                phrase_bytes = store.phrases.max_bytes
                for name, setup in configs.items():
                    setup.apply(store, cache_bytes, phrase_bytes)
                    st = stage_times(store, qs[:50], ns, setup.budget)
                    print(
                        f"  {name:<30} {percentile(times[name], 50):7.1f}"
                        f" {percentile(times[name], 95):7.1f} {percentile(cpu[name], 50):8.1f}"
                        f" {percentile(cpu[name], 95):8.1f}"
                        f"   {st['embed']:.1f} / {st['vector']:.1f} / {st['keyword']:.1f}"
                    )
                Setup().apply(store, cache_bytes, phrase_bytes)
                print(f"  embedder cache hits: {store.embedder.cache_hits}")
                store.close()


if __name__ == "__main__":
    main()
