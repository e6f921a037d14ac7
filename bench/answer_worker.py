"""Benchmark of the sandboxed answer worker per model: start-up, first token cold and warm, tokens/s, RSS.

Every figure is measured through the product path: the sandboxed worker process, the real pipe
protocol, the model verified against the manifest before it is loaded. For each model and thread count:

- start-up: verify (sha256 of the file), load, warm-up (which also evaluates the fixed prompt turns);
- first token of a ~900-token prompt (four numbered drawing sources and a question), **warm**: the
  prompt begins with the same fixed turns the warm-up evaluated (the system turn and the worked
  example of ``answer.llm_format``), as every question does; and **cold**: the system turn is changed
  for each run, so nothing of the prompt is in the KV cache (what every question would pay if the
  prefix were not kept warm). Warm runs go first: a cold run replaces what the cache holds;
- the worker's CPU seconds to the first token, which the load of other work on shared cores stretches
  much less than the wall time (with one thread; two threads also spin while they wait);
- tokens/s of the streamed answer (pieces after the first over the time after the first), no grammar;
- the worker's peak RSS (VmHWM), its resident memory split into anonymous and file-backed pages (the
  mapped model file is file-backed: the kernel can drop those pages again), and its peak address space.

``--baseline`` adds the same model and prompt in this process without a sandbox, for the sandbox's cost.

    .venv/bin/python bench/answer_worker.py [--models a,b] [--threads 1,2] [--runs 2] [--max-tokens 32]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appliance.answer.settings import AnswerSettings  # noqa: E402
from appliance.answer.worker import AnswerWorker, fixed_prompt_turns  # noqa: E402
from appliance.config import load_config  # noqa: E402
from appliance.models.manifest import load_manifest  # noqa: E402
from appliance.models.store import locate  # noqa: E402

MODELS = (
    "smollm2-135m-instruct-q4_1",
    "qwen2.5-coder-0.5b-instruct-q4_k_m",
    "qwen2.5-coder-1.5b-instruct-q4_k_m",
)

_SOURCE = (
    "[{n}] drawing {dwg}-{run}{n}, revision C, page 1\n"
    "TITLE: Mounting bracket, left hand   MATERIAL: EN AW-6082 T6   SCALE: 1:2   SHEET: 1/1\n"
    "NOTES: 1. Break all sharp edges 0.2 x 45 deg. 2. General tolerances ISO 2768-mK.\n"
    "3. Tighten M8 bolts to 25 Nm. 4. Surface finish Ra 3.2 unless otherwise stated.\n"
    "Dimensions: 120.00 +/-0.10, 60.00 +/-0.10, 2x 8.40 H12, R11.30, 4x M8-6H THRU, 70.5 +0.03/0\n"
)
_QUESTIONS = (
    "What torque do the M8 bolts take?",
    "What is the surface treatment of the bracket?",
    "Which general tolerance standard applies?",
)


def prompt(run: int, *, cold: bool, settings: AnswerSettings) -> list[dict[str, str]]:
    """The chat turns of one run: the fixed turns (changed at the start when ``cold``) and a user
    turn of four sources and a question. Sources and question differ per run, so only the fixed
    turns can come from the KV cache."""
    turns = fixed_prompt_turns(settings)
    if cold:
        turns[0] = {"role": "system", "content": f"Run {run}. " + turns[0]["content"]}
    sources = "\n".join(_SOURCE.format(n=n, dwg="AB"[run % 2], run=run) for n in range(1, 5))
    question = _QUESTIONS[run % len(_QUESTIONS)]
    return [*turns, {"role": "user", "content": f"Sources:\n{sources}\nQuestion: {question}"}]


def _proc_kb(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmHWM", "VmPeak", "RssAnon", "RssFile"):
            out[key] = int(value.split()[0])
    return out


def _cpu_s(pid: int) -> float:
    """CPU seconds the process has used (user + system). On cores shared with other work the wall
    time stretches with the load; the CPU time of a single-threaded worker much less so."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _timed(
    worker: AnswerWorker, messages: list[dict[str, str]], max_tokens: int
) -> dict[str, float]:
    pid = worker.status.pid or 0
    cpu0 = _cpu_s(pid)
    start = time.perf_counter()
    stamps = []
    cpu_first = 0.0
    async for _piece in worker.generate(messages, max_tokens=max_tokens, temperature=0.0):
        stamps.append(time.perf_counter())
        if len(stamps) == 1:
            cpu_first = _cpu_s(pid) - cpu0
    stats = worker.last_stats
    assert stats is not None
    return {
        "ttft": stamps[0] - start,
        "ttft_cpu": cpu_first,
        "rate": (len(stamps) - 1) / (stamps[-1] - stamps[0]) if len(stamps) > 1 else 0.0,
        "prompt": stats.prompt_tokens,
        "evaluated": stats.prompt_evaluated,
    }


async def bench_worker(
    model: str, threads: int, runs: int, max_tokens: int, models_dir: Path
) -> dict[str, Any]:
    settings = replace(
        AnswerSettings(),
        llm_model=model,
        threads=threads,
        timeout_s=900,
        start_timeout_s=900,
        max_answer_tokens=max_tokens,
    )
    worker = AnswerWorker(settings, models_dir=models_dir)
    t0 = time.perf_counter()
    await worker.start()
    ready_s = time.perf_counter() - t0
    status = worker.status
    warm = [
        await _timed(worker, prompt(r, cold=False, settings=settings), max_tokens)
        for r in range(runs)
    ]
    cold = [
        await _timed(worker, prompt(r, cold=True, settings=settings), max_tokens)
        for r in range(runs)
    ]
    memory = _proc_kb(status.pid or 0)
    await worker.close()
    both = warm + cold
    return {
        "ready_s": ready_s,
        "verify_s": status.verify_s,
        "load_s": status.load_s,
        "warmup_s": status.warmup_s,
        "warm_tokens": status.warm_tokens,
        "limit_mb": status.memory_limit_mb,
        "warm_ttft": statistics.median(r["ttft"] for r in warm),
        "cold_ttft": statistics.median(r["ttft"] for r in cold),
        "warm_cpu": statistics.median(r["ttft_cpu"] for r in warm),
        "cold_cpu": statistics.median(r["ttft_cpu"] for r in cold),
        "warm_eval": statistics.median(r["evaluated"] for r in warm),
        "cold_eval": statistics.median(r["evaluated"] for r in cold),
        "prompt": statistics.median(r["prompt"] for r in both),
        "tok_s": statistics.median(r["rate"] for r in both),
        **{k: v / 1024 for k, v in memory.items()},
    }


def bench_in_process(
    model: str, threads: int, runs: int, max_tokens: int, models_dir: Path
) -> dict[str, float]:
    """The baseline: the same model and cold prompts in this process, no sandbox, no pipe."""
    from llama_cpp import Llama

    settings = replace(AnswerSettings(), llm_model=model)
    path = locate(load_manifest().get(model), "gguf", models_dir)
    t0 = time.perf_counter()
    llm = Llama(
        model_path=str(path), n_ctx=2048, n_threads=threads, n_threads_batch=threads, verbose=False
    )
    load_s = time.perf_counter() - t0
    ttfts, rates = [], []
    for run in range(runs):
        start = time.perf_counter()
        stamps = []
        for chunk in llm.create_chat_completion(
            messages=prompt(run, cold=True, settings=settings),  # type: ignore[arg-type]
            max_tokens=max_tokens,
            temperature=0.0,
            stream=True,
        ):
            if chunk["choices"][0]["delta"].get("content"):  # type: ignore[index]
                stamps.append(time.perf_counter())
        ttfts.append(stamps[0] - start)
        if len(stamps) > 1:
            rates.append((len(stamps) - 1) / (stamps[-1] - stamps[0]))
    del llm
    return {
        "load_s": load_s,
        "ttft_s": statistics.median(ttfts),
        "tok_s": statistics.median(rates) if rates else 0.0,
    }


def _loadavg() -> str:
    with open("/proc/loadavg") as fh:
        return fh.read().split()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated manifest names")
    parser.add_argument("--threads", default="1,2", help="comma-separated llama.cpp thread counts")
    parser.add_argument("--runs", type=int, default=2, help="warm and cold generations each")
    parser.add_argument("--max-tokens", type=int, default=32)
    parser.add_argument("--baseline", action="store_true", help="also run in-process, no sandbox")
    args = parser.parse_args()
    models_dir = load_config().paths.models_dir
    models = [m for m in args.models.split(",") if m]
    thread_counts = [int(t) for t in args.threads.split(",")]
    print(
        f"runs: {args.runs} warm + {args.runs} cold per row, max tokens {args.max_tokens}, medians"
    )
    print(f"load average at start: {_loadavg()} on {len(os.sched_getaffinity(0))} cores")
    header = (
        f"{'model':<36} {'thr':>3} {'verify':>6} {'load':>5} {'warmup':>6} {'prompt':>6} "
        f"{'warm 1st':>8} {'cold 1st':>8} {'cpu w/c':>11} {'eval w/c':>9} {'tok/s':>6} "
        f"{'peakRSS':>7} {'anon':>5} {'file':>5} {'VmPeak':>6} {'limit':>5}"
    )
    print(header)
    print("-" * len(header))
    for model in models:
        for threads in thread_counts:
            w = asyncio.run(bench_worker(model, threads, args.runs, args.max_tokens, models_dir))
            print(
                f"{model:<36} {threads:>3} {w['verify_s']:>5.2f}s {w['load_s']:>4.2f}s "
                f"{w['warmup_s']:>5.2f}s {w['prompt']:>6.0f} {w['warm_ttft']:>7.2f}s "
                f"{w['cold_ttft']:>7.2f}s {w['warm_cpu']:>5.2f}/{w['cold_cpu']:<5.2f} "
                f"{w['warm_eval']:>4.0f}/{w['cold_eval']:<4.0f} "
                f"{w['tok_s']:>6.1f} {w['VmHWM']:>6.0f}M {w['RssAnon']:>4.0f}M "
                f"{w['RssFile']:>4.0f}M {w['VmPeak']:>5.0f}M {w['limit_mb']:>5}",
                flush=True,
            )
            if args.baseline:
                b = bench_in_process(model, threads, args.runs, args.max_tokens, models_dir)
                print(
                    f"{'  in-process, no sandbox':<36} {threads:>3} {'':>6} {b['load_s']:>4.2f}s "
                    f"{'':>6} {'':>6} {'':>8} {b['ttft_s']:>7.2f}s {'':>9} {b['tok_s']:>6.1f}",
                    flush=True,
                )
    print(f"\nload average at end: {_loadavg()}")
    print(
        "prompt: tokens of the turns' text (the chat template adds a few); eval w/c: prompt tokens"
    )
    print(
        "computed, warm/cold (the rest came from the KV cache); cpu w/c: the worker's CPU seconds"
    )
    print(
        "to the first token, warm/cold (the load of other work stretches wall time, less so this);"
    )
    print("M = MiB")


if __name__ == "__main__":
    main()
