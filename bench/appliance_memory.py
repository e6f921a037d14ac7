"""Memory of the running appliance: a real ``openclaw run`` (development backends) that indexes the demo
drawings and answers a spoken question (through the answer model when one is named), measured from
/proc the way smem does it.

For the service process and the answer worker it prints, after the answer:
- RSS (VmRSS) split into anonymous and file-backed pages (RssAnon, RssFile: the GGUF and the ONNX
  models are mapped files, which the kernel can drop and read again), and the peak RSS (VmHWM);
- PSS (``/proc/PID/smaps_rollup``): each shared page divided among the processes that map it, so the
  two processes' PSS add up to what the appliance really occupies;
- USS (private clean + private dirty): what would be freed if the process ended.
It also samples the two processes' PSS every second during the run and prints the highest sum.

The question's WAV starts with ``--lead-s`` seconds of silence so that the service has indexed the
drawings before it is heard (the bench checks that it had, and says so if not). The fast path is off
so the answer comes from the model.

``--model none`` (or no ``--model`` with the default configuration, which names no answer model)
measures the appliance without a worker.

    .venv/bin/python -m bench.appliance_memory --model none \
        --model qwen2.5-coder-0.5b-instruct-q4_k_m --model qwen2.5-coder-1.5b-instruct-q4_k_m
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np

from appliance.audio.wavio import read_wav, write_wav
from appliance.demo import speak_question
from appliance.service.samples import write_samples

QUESTION = "open claw, what torque do the M8 bolts on the mounting bracket take?"
OPENCLAW = str(Path(sys.executable).with_name("openclaw"))
WORKER_MODULE = "appliance.answer.worker_main"
#: The checkout's models folder (models joined by ``openclaw models install``).
MODELS = Path(__file__).resolve().parents[1] / "var" / "models"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def status_mb(pid: int) -> dict[str, float]:
    """VmRSS, VmHWM, RssAnon, RssFile, RssShmem of a process, in MB."""
    out: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem"):
            out[key] = int(value.split()[0]) / 1024
    return out


def rollup_mb(pid: int) -> dict[str, float]:
    """Pss (and its anonymous and file parts) and USS from smaps_rollup, in MB."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, _, value = line.partition(":")
        parts = value.split()
        if parts and parts[-1] == "kB":
            fields[key] = int(parts[0])
    return {
        "Pss": fields.get("Pss", 0) / 1024,
        "Pss_Anon": fields.get("Pss_Anon", 0) / 1024,
        "Pss_File": fields.get("Pss_File", 0) / 1024,
        "USS": (fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)) / 1024,
    }


def worker_pid(service: int) -> int | None:
    """The answer worker among the service's children."""
    for task in Path(f"/proc/{service}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            try:
                cmdline = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if WORKER_MODULE.encode() in cmdline:
                return int(child)
    return None


def _state(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/state", timeout=10) as response:
        return dict(json.loads(response.read()))


def _question_wav(path: Path, lead_s: float) -> None:
    asyncio.run(speak_question(QUESTION, path))
    audio, _ = read_wav(path)
    write_wav(path, np.concatenate([np.zeros(int(lead_s * 16000), np.int16), audio]))


def _config(data: Path, port: int, model: str | None) -> Path:
    lines = [
        "[paths]",
        f'data_dir = "{data}"',
        f'models_dir = "{MODELS}"',
        "[web]",
        'host = "127.0.0.1"',
        f"port = {port}",
        "[audio]",
        'source = "wav"',
        'wav_files = ["questions/q.wav"]',
        "wav_realtime = true",
        'sink = "wav"',
        "[answer]",
        "fast_path = false",
    ]
    if model:
        lines.append(f'llm_model = "{"" if model == "none" else model}"')
    path = data.parent / "openclaw.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def measure(model: str | None, lead_s: float, timeout_s: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="appliance-memory-") as tmp:
        data = Path(tmp) / "data"
        write_samples(data / "inbox" / "global")
        _question_wav(data / "questions" / "q.wav", lead_s)
        port = _free_port()
        config = _config(data, port, model)
        named = model or os.environ.get("OPENCLAW_ANSWER__LLM_MODEL") or "none"
        with_worker = named != "none"
        env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
        if model:
            env.pop("OPENCLAW_ANSWER__LLM_MODEL", None)
        proc = subprocess.Popen(
            [OPENCLAW, "--config", str(config), "run"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        url = f"http://127.0.0.1:{port}"
        started = time.monotonic()
        indexed_at: float | None = None
        peak_pss = 0.0
        record: dict[str, Any] | None = None
        worker: int | None = None
        try:
            while time.monotonic() - started < timeout_s:
                time.sleep(1.0)
                if proc.poll() is not None:
                    raise SystemExit(f"openclaw run exited with {proc.returncode}")
                try:
                    state = _state(url)
                except OSError:
                    continue
                try:
                    worker = worker_pid(proc.pid)  # a worker that was replaced has a new pid
                    pss = rollup_mb(proc.pid)["Pss"] + (rollup_mb(worker)["Pss"] if worker else 0.0)
                except FileNotFoundError:  # the worker ended between the two reads
                    continue
                peak_pss = max(peak_pss, pss)
                jobs = state.get("jobs", [])
                settled = all(j["state"] in ("done", "failed") for j in jobs)
                if indexed_at is None and jobs and settled and not state.get("indexing"):
                    indexed_at = time.monotonic() - started
                answered = [q for q in state.get("questions", []) if q.get("mode")]
                if answered:
                    record = answered[0]
                    break
            else:
                raise SystemExit(f"no answer within {timeout_s:.0f} s")
            time.sleep(2.0)  # the answer spoken, the worker back to idle
            worker = worker_pid(proc.pid)
            if worker is None and with_worker:
                parts = {c["name"]: c for c in _state(url)["components"]}
                raise SystemExit(f"no answer worker running: {parts.get('answer')}; {record}")
            result = {
                "model": named,
                "answered_at_s": round(time.monotonic() - started, 1),
                "indexed_at_s": None if indexed_at is None else round(indexed_at, 1),
                "mode": record["mode"],
                "fallback": (record.get("extra") or {}).get("fallback_reason"),
                "answer": record["answer"],
                "citations": [c.get("source") for c in record.get("citations", [])],
                "service": status_mb(proc.pid) | rollup_mb(proc.pid),
                "worker": status_mb(worker) | rollup_mb(worker) if worker else {},
                "peak_pss_sum": peak_pss,
            }
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return result


def _report(r: dict[str, Any]) -> None:
    why = f", the model's answer not taken: {r['fallback']}" if r["fallback"] else ""
    print(f"model {r['model']}: answered ({r['mode']}{why}) at {r['answered_at_s']} s, ", end="")
    if r["indexed_at_s"] is None or r["indexed_at_s"] > r["answered_at_s"]:
        print("BEFORE the drawings were indexed: raise --lead-s")
    else:
        print(f"drawings indexed at {r['indexed_at_s']} s")
    print(f"  answer: {r['answer'][:120]!r} citing {r['citations']}")
    head = f"  {'process':8s} {'RSS':>7s} {'anon':>7s} {'file':>7s} {'peak':>7s} {'PSS':>7s} {'USS':>7s}"
    print(head + "   (MB; peak = VmHWM)")
    total = {"VmRSS": 0.0, "Pss": 0.0, "USS": 0.0}
    for name in ("service", "worker"):
        m = r[name]
        if not m:
            print(f"  {name:8s} (none: no answer model)")
            continue
        print(
            f"  {name:8s} {m['VmRSS']:7.0f} {m['RssAnon']:7.0f} {m['RssFile']:7.0f} "
            f"{m['VmHWM']:7.0f} {m['Pss']:7.0f} {m['USS']:7.0f}"
        )
        for key in total:
            total[key] += m[key]
    print(
        f"  {'both':8s} {total['VmRSS']:7.0f} {'':7s} {'':7s} {'':7s} {total['Pss']:7.0f} "
        f"{total['USS']:7.0f}"
    )
    print(f"  highest PSS of the two together, sampled every second: {r['peak_pss_sum']:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", action="append", help="answer model (repeat for several)")
    parser.add_argument("--lead-s", type=float, default=150.0, help="silence before the question")
    parser.add_argument("--timeout-s", type=float, default=1200.0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    for model in args.model or [None]:
        result = measure(model, args.lead_s, args.timeout_s)
        _report(result)
        if args.json:
            print(json.dumps(result))


if __name__ == "__main__":
    main()
