"""Answer quality on the drawings of ../shared/data/drawings-edocr2: exact answers, citations, abstention.

Indexes the 7 raster drawings (vision path: page correction, Tesseract OCR, title-block fields) and the
3 SolidWorks PDFs (text path) with the real pipeline into a fresh index, then asks the questions of
``bench/data/answer_questions.toml`` (answers read by a person from the drawings, not from our OCR).

Modes, reported separately:
  extractive  no model: the best title-block field or line, quoted
  llm         SmolLM2-135M in the sandboxed worker, every answer checked against its citations and
              replaced by the extractive answer when the check fails ("kept" counts the ones that passed);
              the raw model text is scored too, to show what the check removes. Uses the configured
              answer.llm_format (default in appliance/answer/settings.py).
  llm:FORMAT  the same with answer.llm_format = FORMAT: free (prompt only), grammar (GBNF forces a
              sentence and [n]), fewshot (grammar plus one worked example), extract (the model picks a
              source and copies one of its lines under a grammar).

Scores: exact = an expected form appears as a whole token in the answer's claim (the quoted value for
extractive answers, the text without citation markers for model answers; the source label is not
counted, or a drawing-number question would score itself); cited = the first citation is the expected
file; abstained = declined. Answerable and unanswerable questions are counted apart.

    .venv/bin/python bench/answer_quality.py [--modes extractive,llm,llm:free,llm:extract] [--limit N] [--index-dir DIR] [-v]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
import tomllib
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appliance.answer.answering import Answer, answer_question  # noqa: E402
from appliance.answer.verify import strip_citations  # noqa: E402
from appliance.answer.worker import AnswerWorker  # noqa: E402
from appliance.config import Config, load_config  # noqa: E402
from appliance.errors import public_name  # noqa: E402
from appliance.index.store import IndexStore  # noqa: E402
from appliance.ingest.pipeline import ingest_path  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "drawings-edocr2"
QUESTIONS = REPO / "bench" / "data" / "answer_questions.toml"


@dataclass
class Result:
    """One question answered in one mode."""

    qid: str
    answerable: bool
    answer: Answer
    exact: bool
    cited: bool
    raw_exact: bool
    seconds: float


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("⌀", "Ø")


def contains(text: str, expected: str) -> bool:
    """``expected`` appears in ``text`` as a whole token (case-insensitive beyond two characters)."""
    flags = re.I if len(expected) > 2 else 0
    pattern = r"(?<![A-Za-z0-9])" + re.escape(_norm(expected)) + r"(?![A-Za-z0-9])"
    return re.search(pattern, _norm(text), flags) is not None


def claim(answer: Answer) -> str:
    """What the answer asserts, without the label of its source."""
    if answer.mode == "extractive" and answer.citations:
        return answer.citations[0].quote
    if answer.mode == "llm":
        return strip_citations(answer.text)
    return ""


def build_index(config: Config, log: bool) -> float:
    t0 = time.perf_counter()
    files = sorted((DATA / "test_samples").glob("*.jpg")) + sorted(
        (DATA / "test_samples").glob("*.png")
    )
    files += sorted(DATA.glob("*.PDF"))
    with IndexStore.open(config) as store:
        for path in files:
            report = ingest_path(store, path, "global", config=config, source=path.name)
            for name, err in report.failures:
                print(f"  index failure {name}: {err}")
            if log:
                print(f"  indexed {path.name}")
    return time.perf_counter() - t0


async def run_mode(mode: str, config: Config, questions: list[dict[str, Any]]) -> list[Result]:
    worker: AnswerWorker | None = None
    if mode.startswith("llm:"):
        # llm:<format>: the same worker and check, with answer.llm_format set to <format>.
        fmt = mode.split(":", 1)[1]
        config = replace(config, answer=replace(config.answer, llm_format=fmt))
        config.answer.validate()
    if mode.startswith("llm"):
        worker = AnswerWorker(config.answer, models_dir=config.paths.models_dir)
        await worker.start()
    results = []
    try:
        with IndexStore.open(config) as store:
            for q in questions:
                t0 = time.perf_counter()
                answer = await answer_question(
                    q["question"],
                    store=store,
                    config=config,
                    worker=worker,
                    extractive_only=(mode == "extractive"),
                )
                seconds = time.perf_counter() - t0
                expect = q.get("expect", [])
                exact = any(contains(claim(answer), e) for e in expect)
                raw = answer.rejected_text or (answer.text if answer.mode == "llm" else "")
                raw_exact = any(contains(strip_citations(raw), e) for e in expect)
                cited = bool(answer.citations) and public_name(answer.citations[0].source) == q.get(
                    "source"
                )
                results.append(
                    Result(
                        q["id"], q.get("answerable", True), answer, exact, cited, raw_exact, seconds
                    )
                )
                if worker is not None and worker.state != "ready":
                    await worker.wait_ready(config.answer.start_timeout_s)
    finally:
        if worker is not None:
            await worker.close()
    return results


def report(mode: str, results: list[Result], verbose: bool) -> None:
    answerable = [r for r in results if r.answerable]
    unanswerable = [r for r in results if not r.answerable]
    print(f"\nmode: {mode}")
    if verbose:
        for r in results:
            a = r.answer
            flag = (
                ("EXACT" if r.exact else "wrong")
                if r.answerable
                else ("ok" if a.mode == "abstained" else "ANSWERED")
            )
            cite = public_name(a.citations[0].source) if a.citations else "-"
            reason = f" ({a.fallback_reason})" if a.fallback_reason else ""
            print(
                f"  {r.qid:18} {a.mode:10} {flag:8} cite={cite:20} {r.seconds:5.1f}s{reason} | {a.text[:90]!r}"
            )
            if a.rejected_text:
                print(f"  {'':18} rejected model text: {a.rejected_text[:110]!r}")
    n = len(answerable)
    answered = [r for r in answerable if r.answer.mode != "abstained"]
    exact = sum(r.exact for r in answerable)
    cited = sum(r.cited for r in answered)
    print(f"  answerable: {n}; exact answers {exact}/{n} = {exact / max(n, 1):.2f}")
    print(
        f"  citation correct (first citation is the expected file) {cited}/{len(answered)} answered"
        f" = {cited / max(len(answered), 1):.2f}"
    )
    print(f"  wrongly declined answerable: {n - len(answered)}/{n}")
    declined = sum(r.answer.mode == "abstained" for r in unanswerable)
    print(
        f"  unanswerable: {len(unanswerable)}; declined {declined}/{len(unanswerable)} = "
        f"{declined / max(len(unanswerable), 1):.2f}"
    )
    if mode.startswith("llm"):
        kept = sum(r.answer.mode == "llm" for r in results)
        raw_exact = sum(r.raw_exact for r in answerable)
        kept_exact = sum(r.exact for r in answerable if r.answer.mode == "llm")
        kept_answerable = sum(r.answer.mode == "llm" for r in answerable)
        print(
            f"  model answers kept after the check: {kept}/{len(results)} "
            f"(exact among kept answerable: {kept_exact}/{kept_answerable})"
        )
        print(
            f"  raw model text (before the check) exact: {raw_exact}/{n} = {raw_exact / max(n, 1):.2f}"
        )
        reasons: dict[str, int] = {}
        for r in results:
            if r.answer.fallback_reason:
                reasons[r.answer.fallback_reason] = reasons.get(r.answer.fallback_reason, 0) + 1
        print(f"  fallback reasons: {dict(sorted(reasons.items()))}")
    secs = sorted(r.seconds for r in results)
    print(f"  seconds per question: median {secs[len(secs) // 2]:.2f}, max {secs[-1]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="extractive,llm")
    parser.add_argument(
        "--limit", type=int, default=0, help="ask only the first N questions (0 = all)"
    )
    parser.add_argument(
        "--index-dir", type=Path, help="keep the index here and reuse it when present"
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    questions = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["question"]
    if args.limit:
        questions = questions[: args.limit]
    root = args.index_dir or Path(tempfile.mkdtemp(prefix="answer-quality-"))
    root.mkdir(parents=True, exist_ok=True)
    cfg = root / "openclaw.toml"
    cfg.write_text(
        f'[paths]\ndata_dir = "{root / "data"}"\nmodels_dir = "{root / "models"}"\n',
        encoding="utf-8",
    )
    config = load_config(cfg, environ={})
    config = replace(config, answer=replace(config.answer, timeout_s=900.0, start_timeout_s=900.0))
    if (root / "data" / config.index.db_file).exists() and args.index_dir:
        print(f"reusing the index in {root}")
    else:
        print(
            f"indexing 7 drawings (vision path) and 3 PDFs (text path) ... {build_index(config, args.verbose):.1f} s"
        )
    print(
        f"questions: {len(questions)} ({sum(q.get('answerable', True) for q in questions)} answerable)"
    )
    print(
        f"model: {config.answer.llm_model} (SmolLM2-135M, the only GGUF reachable here); threads {config.answer.threads}"
    )
    for mode in args.modes.split(","):
        report(mode, asyncio.run(run_mode(mode, config, questions)), args.verbose)


if __name__ == "__main__":
    main()
