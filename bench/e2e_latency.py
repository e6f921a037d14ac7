"""End-to-end latency per pipeline stage, from a spoken WAV question to the first audio of the answer,
and the peak RSS of the whole appliance (service process + answer worker) with the development models.

Runs the real appliance in this process: sample drawings indexed through vision OCR, questions spoken
with espeak-ng into WAV files and replayed through the voice front end (wake word, capture, whisper
transcription), answered (extractive baseline first, then the sandboxed llama.cpp worker), spoken into
WAV files by espeak-ng.

    .venv/bin/python -m bench.e2e_latency --questions 4
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from appliance.config import Config, load_config
from appliance.demo import speak_question
from appliance.events import EventBus
from appliance.latency import STAGES
from appliance.service.appliance import Appliance
from appliance.service.parts import AnswerWorkerComponent, VoiceAdapter, build_parts
from appliance.service.samples import write_samples
from bench.common import CANDIDATE_MODEL

#: (spoken question, a string the right answer contains, the drawing it must cite)
QUESTIONS = [
    ("open claw, what material is drawing A-1024?", "6061-T6", "A-1024"),
    ("open claw, what torque do the M8 bolts on the mounting bracket take?", "25", "A-1024"),
    ("open claw, what material is the shaft coupling?", "316", "B-2040"),
    ("open claw, what is the wall thickness of the sensor cover plate?", "2.0", "C-3310"),
]


def _config(data: Path, llm: bool, wavs: tuple[Path, ...]) -> Config:
    base = load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(data)})
    answer = dataclasses.replace(base.answer, llm_model=CANDIDATE_MODEL if llm else "")
    audio = dataclasses.replace(
        base.audio, source="wav", wav_files=wavs, wav_realtime=False, sink="wav"
    )
    web = dataclasses.replace(base.web, host="127.0.0.1", port=0)
    return dataclasses.replace(base, answer=answer, audio=audio, web=web)


def _vm_hwm(pid: str) -> float:
    """Peak resident set size of a live process in MB (VmHWM counts only after its exec)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _run_mode(
    data: Path, llm: bool, wavs: list[Path], peaks: dict[str, float]
) -> list[dict[str, Any] | None]:
    from appliance.audio.build import build_frontend

    config = _config(data, llm, tuple(wavs))
    quiet = dataclasses.replace(config, audio=dataclasses.replace(config.audio, wav_files=()))
    bus = EventBus(queue_size=2048)
    parts = build_parts(quiet, bus)
    appliance = Appliance(quiet, parts, bus=bus)
    bus.bind(asyncio.get_running_loop())
    runner = asyncio.create_task(appliance.run())
    records: list[dict[str, Any] | None] = []
    try:
        await appliance.started()
        t0 = time.perf_counter()
        await appliance.inbox.reconciled.wait()
        await appliance.queue.drained()
        print(f"  indexing/reconcile: {time.perf_counter() - t0:.1f} s")
        for component, _critical in parts.components:
            if isinstance(component, AnswerWorkerComponent):
                t0 = time.perf_counter()
                ready = await component.worker.wait_ready(300)
                print(f"  answer worker ready: {ready} after {time.perf_counter() - t0:.1f} s")
        for wav in wavs:
            # One front end per question, so a missed wake word is attributed to its question.
            one = dataclasses.replace(
                config, audio=dataclasses.replace(config.audio, wav_files=(wav,))
            )
            voice = VoiceAdapter(build_frontend(one, bus=bus))
            appliance.pipeline.speaker = voice
            heard = None
            async for utterance in voice.utterances():
                heard = await appliance.pipeline.handle(utterance)
                break
            records.append(heard)
        peaks["service"] = max(peaks.get("service", 0.0), _vm_hwm("self"))
        for component, _critical in parts.components:
            if isinstance(component, AnswerWorkerComponent) and component.worker.status.pid:
                peaks["worker"] = max(
                    peaks.get("worker", 0.0), _vm_hwm(str(component.worker.status.pid))
                )
    finally:
        appliance.request_stop()
        await runner
    return records


def _report(
    name: str, heard: list[dict[str, Any] | None], expected: list[tuple[str, str, str]]
) -> None:
    print(f"\n{name}: {len(heard)} questions")
    records = [r for r in heard if r is not None]
    for rec, (question, answer, drawing) in zip(heard, expected, strict=True):
        if rec is None:
            print(f"  BAD wake word not heard in {question!r}")
            continue
        cited = [c["drawing_number"] for c in rec["citations"]]
        ok = answer in rec["answer"] and drawing in cited
        fallback = (rec.get("extra") or {}).get("fallback_reason", "")
        if rec.get("error"):
            fallback = f"{rec['error']['code']}: {rec['error']['message']}"
        print(
            f"  {'OK ' if ok else 'BAD'} [{rec['mode']}{'/' + fallback if fallback else ''}] "
            f"heard {rec['question']!r} -> {rec['answer'][:70]!r} cites {cited}"
        )
    print(f"  {'stage':<14}{'p50 s':>9}{'max s':>9}{'n':>4}")
    for stage in STAGES:
        values = [r["latency"][stage] for r in records if stage in r["latency"]]
        if values:
            print(
                f"  {stage:<14}{statistics.median(values):>9.3f}{max(values):>9.3f}{len(values):>4}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=4, help="questions per mode (default 4)")
    parser.add_argument("--no-llm", action="store_true", help="only the extractive baseline")
    args = parser.parse_args()
    expected = [QUESTIONS[i % len(QUESTIONS)] for i in range(args.questions)]
    with tempfile.TemporaryDirectory(prefix="openclaw-e2e-") as tmp:
        data = Path(tmp) / "data"
        write_samples(data / "inbox" / "global")
        wavs = []
        for i, (question, _a, _d) in enumerate(expected):
            wav = data / "questions" / f"q{i}.wav"
            asyncio.run(speak_question(question, wav))
            wavs.append(wav)
        print("extractive baseline (no model):")
        peaks: dict[str, float] = {}
        baseline = asyncio.run(_run_mode(data, False, wavs, peaks))
        _report("extractive", baseline, expected)
        if not args.no_llm:
            print("\nwith the sandboxed llama.cpp worker (development model):")
            llm = asyncio.run(_run_mode(data, True, wavs, peaks))
            _report("llm", llm, expected)
    service = max(
        peaks.get("service", 0.0), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    )
    worker = peaks.get("worker", 0.0)
    print(
        f"\npeak RSS: service process {service:.0f} MB (VmHWM), answer worker {worker:.0f} MB (VmHWM)"
    )
    print(f"          whole appliance at most {service + worker:.0f} MB")


if __name__ == "__main__":
    main()
