"""Does the first source of a question's search name the drawing the question is about?

Indexes drawings with the real pipeline (vision path for images, text path for PDFs) into an index
folder (kept and reused with --index-dir), then runs every question's retrieval exactly as the
answer stage does (same options, same namespaces) twice: as an ordinary search, and with the drawings
the question names searched first (appliance.index.identity). Prints accuracy@1 and @3 of the
expected drawing among the distinct sources of the hits, the MRR, how many questions named a
drawing and how many of those named the right one, and the time naming and searching took.

    .venv/bin/python bench/index_naming.py [--set questions|tuning] [--index-dir DIR] [-v]

``questions``: the 35 questions of bench/data/answer_questions.toml over ../shared/data/drawings-edocr2.
``tuning``: the tuning split of the evaluation set (bench/data/answer_eval/, drawings listed there);
the dev and held-out splits are never read.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appliance.config import Config, load_config  # noqa: E402
from appliance.errors import public_name  # noqa: E402
from appliance.index.search import SearchOptions, scope, search  # noqa: E402
from appliance.index.store import IndexStore  # noqa: E402
from appliance.ingest.pipeline import ingest_path  # noqa: E402

SHARED = REPO.parent / "shared" / "data" / "drawings-edocr2"
QUESTIONS = REPO / "bench" / "data" / "answer_questions.toml"


@dataclass(frozen=True)
class Case:
    """One question with the drawing it is about."""

    #: Question id.
    qid: str
    #: The question.
    text: str
    #: File name of the expected drawing.
    source: str


def shared_files() -> list[tuple[Path, str]]:
    """The 7 raster drawings and 3 SolidWorks PDFs of the shared data, with their source names."""
    samples = SHARED / "test_samples"
    files = [*sorted(samples.glob("*.jpg")), *sorted(samples.glob("*.png"))]
    return [(f, f.name) for f in [*files, *sorted(SHARED.glob("*.PDF"))]]


def question_cases() -> list[Case]:
    """The answerable questions of answer_questions.toml (the unanswerable ones name no source)."""
    data = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["question"]
    return [Case(q["id"], q["question"], q["source"]) for q in data if q.get("source")]


def tuning_cases() -> tuple[list[Case], list[tuple[Path, str]]]:
    """The tuning split's questions that name a source file, and every drawing of the set
    (the held-out questions are dropped as they are read)."""
    from bench.answer_eval import clean_files
    from bench.answer_eval_set import load_set

    cases = [Case(q.qid, q.text, q.source) for q in load_set() if q.split == "tuning" and q.source]
    return cases, clean_files()


def build(config: Config, files: list[tuple[Path, str]]) -> float:
    """Index every (file, source name) into ``global`` (unchanged sources are skipped)."""
    t0 = time.perf_counter()
    with IndexStore.open(config) as store:
        have = {s.source for s in store.list_sources("global")}
        for path, name in files:
            if name in have:
                continue
            report = ingest_path(store, path, "global", config=config, source=name)
            for failed, err in report.failures:
                print(f"  index failure {failed}: {err}")
    return time.perf_counter() - t0


def rank_of(sources: list[str], expected: str) -> int | None:
    """1-based place of the expected file among the hits' distinct sources."""
    for i, s in enumerate(dict.fromkeys(sources), 1):
        if public_name(s) == expected:
            return i
    return None


def run(config: Config, cases: list[Case], *, focus: bool, verbose: bool) -> None:
    options = SearchOptions.from_settings(
        config.index,
        max_results=max(config.index.max_results, config.answer.max_sources * 2),
    )
    spaces = scope(None)
    ranks: list[int | None] = []
    named_right = named_any = 0
    times: list[float] = []
    with IndexStore.open(config) as store:
        search(store, "warm up", spaces, options=options)
        for case in cases:
            t0 = time.perf_counter()
            named = store.names.named(case.text, spaces) if focus else []
            opts = replace(options, focus_sources=tuple(n.id for n in named))
            hits = search(store, case.text, spaces, options=opts)
            times.append(time.perf_counter() - t0)
            rank = rank_of([h.source for h in hits], case.source)
            ranks.append(rank)
            if named:
                named_any += 1
                named_right += any(public_name(n.source) == case.source for n in named)
            if verbose:
                names = ", ".join(f"{public_name(n.source)} {n.score:.2f}" for n in named)
                print(f"  {case.qid:28} rank {rank or '-':>2}  named: {names or '-'}")
    n = len(cases)
    at1 = sum(r == 1 for r in ranks)
    at3 = sum(r is not None and r <= 3 for r in ranks)
    mrr = sum(1 / r for r in ranks if r) / max(n, 1)
    label = "named drawings first" if focus else "ordinary search"
    print(
        f"{label:<22} accuracy@1 {at1}/{n} = {at1 / max(n, 1):.3f}   accuracy@3 {at3}/{n} ="
        f" {at3 / max(n, 1):.3f}   MRR {mrr:.3f}"
    )
    if focus:
        print(
            f"  questions naming a drawing: {named_any}/{n}; naming the expected one: {named_right}"
        )
    ms = sorted(1000 * t for t in times)
    print(
        f"  naming + search ms: median {statistics.median(ms):.1f}, p95"
        f" {ms[min(len(ms) - 1, int(0.95 * len(ms)))]:.1f}, max {ms[-1]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("questions", "tuning"), default="questions")
    parser.add_argument("--index-dir", type=Path, help="keep the index here and reuse it")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.set == "questions":
        cases, files = question_cases(), shared_files()
    else:
        cases, files = tuning_cases()
    root = args.index_dir or Path(tempfile.mkdtemp(prefix="index-naming-"))
    root.mkdir(parents=True, exist_ok=True)
    cfg = root / "openclaw.toml"
    cfg.write_text(
        f'[paths]\ndata_dir = "{root / "data"}"\nmodels_dir = "{root / "models"}"\n',
        encoding="utf-8",
    )
    config = load_config(cfg, environ={})
    print(f"indexing {len(files)} drawings ... {build(config, files):.1f} s")
    print(f"questions: {len(cases)} ({args.set})")
    for focus in (False, True):
        run(config, cases, focus=focus, verbose=args.verbose)


if __name__ == "__main__":
    main()
