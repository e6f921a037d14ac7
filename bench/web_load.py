"""Load on the status page: N concurrent clients for a while against a real ``openclaw run`` on 127.0.0.1.

The service runs as its own process with the sample drawings indexed and spoken questions replayed from
WAV files in real time, so questions are being answered (and the live state changing) under the load.
Clients poll ``/api/state`` (most), load the page and ``/healthz``, and a tenth of them hold live
event streams. The run is bounded in clients and seconds and stops by itself; it reports errors,
throughput and latency percentiles (p50/p95/p99) per endpoint.

    .venv/bin/python -m bench.web_load --clients 200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx

from appliance.demo import speak_question
from appliance.service.samples import write_samples
from bench.e2e_latency import QUESTIONS

HOST = "127.0.0.1"  # never anything but loopback


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1)] if ordered else 0.0


class _Connection:
    """A minimal keep-alive HTTP/1.1 client connection (the load generator must cost less than the
    server it measures; httpx's pool dominated the figures at 200 concurrent clients)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> int:
        """One GET; returns the status code (the body is read and dropped)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = 0
        close = False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "connection" and value.strip().lower() == "close":
                close = True
        await self.reader.readexactly(length)
        if close:
            self.close()
        return status

    def close(self) -> None:
        """Drop the connection."""
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def _poller(
    url: str,
    until: float,
    think_s: float,
    stats: dict[str, list[float]],
    errors: dict[str, int],
) -> None:
    rng = random.Random()
    host, port = url.removeprefix("http://").split(":")
    conn = _Connection(host, int(port))
    try:
        while time.monotonic() < until:
            roll = rng.random()
            path = "/api/state" if roll < 0.8 else ("/" if roll < 0.9 else "/healthz")
            t0 = time.perf_counter()
            try:
                ok = await asyncio.wait_for(conn.get(path), 30) == 200
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as err:
                ok = False
                errors[type(err).__name__] += 1
                conn.close()
            if ok:
                stats[path].append(time.perf_counter() - t0)
            else:
                errors[path] += 1
            await asyncio.sleep(rng.uniform(0, 2 * think_s))
    finally:
        conn.close()


async def _streamer(client: httpx.AsyncClient, until: float, counts: dict[str, int]) -> None:
    try:
        async with client.stream(
            "GET", "/api/events", timeout=httpx.Timeout(30, read=None)
        ) as stream:
            async for line in stream.aiter_lines():
                if line.startswith("event: state"):
                    counts["events"] += 1
                if time.monotonic() >= until:
                    return
    except httpx.HTTPError as err:
        counts[f"error:{type(err).__name__}"] += 1


async def _load(url: str, clients: int, seconds: float, think_s: float) -> dict[str, object]:
    limits = httpx.Limits(max_connections=clients + 10, max_keepalive_connections=clients + 10)
    stats: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    counts: dict[str, int] = defaultdict(int)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        before = (await client.get("/api/state")).json()["counters"]["questions"]
        until = time.monotonic() + seconds
        streams = max(1, clients // 10)
        tasks = [asyncio.create_task(_streamer(client, until, counts)) for _ in range(streams)]
        tasks += [
            asyncio.create_task(_poller(url, until, think_s, stats, errors))
            for _ in range(clients - streams)
        ]
        started = time.monotonic()
        # Streams end at their next event after the deadline; a quiet stream is cut after 5 s more.
        _done, pending = await asyncio.wait(tasks, timeout=seconds + 5)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        elapsed = time.monotonic() - started
        final = (await client.get("/api/state")).json()
        after = final["counters"]["questions"]
    return {
        "loop": final.get("loop", {}),
        "stats": stats,
        "errors": errors,
        "counts": counts,
        "elapsed": elapsed,
        "answered": after - before,
        "streams": streams,
    }


def _phase(tmp: Path, wavs: list[Path], clients: int, seconds: float, think: float) -> None:
    """Start a service (hearing ``wavs``, replayed in real time), load it, stop it, print the figures."""
    data = tmp / "data"
    port = _free_port()
    config = tmp / "openclaw.toml"
    config.write_text(
        f'[paths]\ndata_dir = "{data}"\n[web]\nhost = "{HOST}"\nport = {port}\n'
        f'[answer]\nllm_model = ""\n'
        f'[audio]\nsource = "wav"\nwav_realtime = true\nsink = "wav"\n'
        f"wav_files = {json.dumps([str(w) for w in wavs])}\n",
        encoding="utf-8",
    )
    env = {**os.environ, "OPENCLAW_CONFIG": str(config)}
    with open(tmp / "service.log", "ab") as log:
        proc = subprocess.Popen(
            [str(Path(sys.executable).with_name("openclaw")), "run"], env=env, stderr=log
        )
        url = f"http://{HOST}:{port}"
        try:
            _wait_ready(url, proc)
            print(f"service up at {url} (pid {proc.pid}); {clients} clients for {seconds:.0f} s")
            result = asyncio.run(_load(url, clients, seconds, think))
            hwm = _vm_hwm(proc.pid)
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(60)
    _print(result)
    loop = result.get("loop") or {}
    print(f"event-loop lag, worst of the last minute: {loop.get('max_1m_ms', '?')} ms")  # type: ignore[union-attr]
    print(f"service peak RSS (VmHWM): {hwm:.0f} MB; exit code after SIGTERM: {code}")


def _wait_ready(url: str, proc: subprocess.Popen[bytes]) -> None:
    """Until /healthz answers and the start-up indexing is done (bounded)."""
    for _ in range(900):
        try:
            state = httpx.get(url + "/api/state", timeout=2).json()
            healthy = httpx.get(url + "/healthz", timeout=2).status_code == 200
            sources = httpx.get(url + "/api/sources", timeout=2).json()
            if healthy and not state["indexing"] and len(sources.get("global", [])) >= 3:
                return
        except (httpx.HTTPError, ValueError):
            pass
        if proc.poll() is not None:
            raise SystemExit("openclaw run exited during start-up")
        time.sleep(0.2)
    raise SystemExit("openclaw run did not become ready")


def _vm_hwm(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _print(result: dict[str, object]) -> None:
    stats: dict[str, list[float]] = result["stats"]  # type: ignore[assignment]
    every = [v for values in stats.values() for v in values]
    errors: dict[str, int] = result["errors"]  # type: ignore[assignment]
    elapsed = float(result["elapsed"])  # type: ignore[arg-type]
    print(
        f"requests: {len(every)} ok, {sum(errors.values())} errors {dict(errors) or ''}; "
        f"{len(every) / elapsed:.0f} req/s"
    )
    print(f"{'endpoint':<12}{'n':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for path, values in [*sorted(stats.items()), ("all", every)]:
        if values:
            print(
                f"{path:<12}{len(values):>7}{_pct(values, 50) * 1000:>9.1f}"
                f"{_pct(values, 95) * 1000:>9.1f}{_pct(values, 99) * 1000:>9.1f}"
                f"{max(values) * 1000:>9.1f}"
            )
    counts: dict[str, int] = result["counts"]  # type: ignore[assignment]
    errors_streams = sum(v for k, v in counts.items() if k.startswith("error"))
    print(
        f"live streams: {result['streams']}, state events received: {counts.get('events', 0)}, "
        f"stream errors: {errors_streams}; questions answered during the load: {result['answered']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200, help="concurrent clients (max 500)")
    parser.add_argument("--seconds", type=float, default=60.0, help="duration (max 600)")
    parser.add_argument("--think", type=float, default=0.5, help="mean pause between requests (s)")
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the idle baseline phase (no questions)"
    )
    args = parser.parse_args()
    clients = max(2, min(args.clients, 500))
    seconds = max(1.0, min(args.seconds, 600.0))
    with tempfile.TemporaryDirectory(prefix="openclaw-load-") as name:
        tmp = Path(name)
        write_samples(tmp / "data" / "inbox" / "global")
        wavs = []
        for i, (question, _a, _d) in enumerate(QUESTIONS):
            wav = tmp / "data" / "questions" / f"q{i}.wav"
            asyncio.run(speak_question(question, wav))
            wavs.append(wav)
        if not args.no_baseline:
            print("== baseline: the same service idle (no questions)")
            _phase(tmp, [], clients, max(5.0, seconds / 3), args.think)
        print("== while spoken questions are answered")
        _phase(tmp, wavs * max(1, math.ceil(seconds / 20)), clients, seconds, args.think)


if __name__ == "__main__":
    main()
