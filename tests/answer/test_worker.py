"""The supervised worker with a real model (SmolLM2, or the one OPENCLAW_ANSWER__LLM_MODEL names):
streaming, states, the warm prompt prefix, broken models, crashes, hangs, malformed messages and
over-long prompts."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from appliance.answer import protocol
from appliance.answer.errors import (
    WorkerCrashed,
    WorkerProtocolError,
    WorkerRequestError,
    WorkerTimeout,
    WorkerUnavailable,
)
from appliance.answer.settings import AnswerSettings, worker_memory_limit_mb
from appliance.answer.worker import (
    WORKER_COMMAND,
    AnswerWorker,
    WorkerState,
    fixed_prompt_turns,
    scrubbed_environment,
)
from appliance.errors import ModelError
from appliance.models.manifest import load_manifest
from tests.answer.conftest import TEST_MODEL, fault_command

pytestmark = pytest.mark.slow

HELLO = [{"role": "user", "content": "Say hello."}]


async def collect(worker: AnswerWorker, messages: list[dict[str, str]], max_tokens: int = 8) -> str:
    return "".join([piece async for piece in worker.generate(messages, max_tokens=max_tokens)])


async def test_streams_tokens_and_reports_states(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    states: list[str] = []
    worker = AnswerWorker(
        answer_settings, models_dir=models_dir, on_state=lambda s: states.append(str(s.state))
    )
    await worker.start()
    try:
        pieces = [p async for p in worker.generate(HELLO, max_tokens=6)]
        assert len(pieces) >= 1 and "".join(pieces).strip()
        assert worker.last_stats is not None and worker.last_stats.tokens == len(pieces)
        assert worker.last_stats.finish in ("stop", "length")
        assert (
            worker.status.load_s > 0 and worker.status.verify_s > 0 and worker.status.n_ctx == 1024
        )
    finally:
        await worker.close()
    assert states == ["starting", "ready", "busy", "ready", "stopped"]


async def test_prompt_longer_than_context_is_refused_and_worker_lives(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    async with AnswerWorker(answer_settings, models_dir=models_dir) as worker:
        question = "how tight is the bolt " * 5000  # 110,000 characters
        assert len(question) >= 100_000
        with pytest.raises(WorkerRequestError) as err:
            await collect(worker, [{"role": "user", "content": question}])
        assert err.value.code == "prompt_too_long"
        assert worker.state is WorkerState.READY
        assert (await collect(worker, HELLO)).strip()


async def test_killed_mid_answer_raises_and_restarts(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    async with AnswerWorker(answer_settings, models_dir=models_dir) as worker:
        first_pid = worker.status.pid
        assert first_pid is not None
        with pytest.raises(WorkerCrashed) as err:
            async for _piece in worker.generate(HELLO, max_tokens=20):
                os.kill(first_pid, signal.SIGKILL)
        assert "SIGKILL" in str(err.value)
        assert await worker.wait_ready(600)
        assert worker.status.pid != first_pid
        assert worker.status.restarts == 1
        assert worker.status.last_error_code == "worker_crashed"
        assert (await collect(worker, HELLO)).strip()


async def test_hung_worker_times_out_and_is_replaced(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    settings = replace(answer_settings, timeout_s=1.0)
    worker = AnswerWorker(settings, models_dir=models_dir, command=fault_command("hang"))
    await worker.start()
    try:
        hung_pid = worker.status.pid
        with pytest.raises(WorkerTimeout):
            await collect(worker, HELLO)
        assert worker.status.last_error_code == "worker_timeout"
        # The hung process is gone, and a new one (hanging again: same command) was started.
        assert hung_pid is not None and not Path(f"/proc/{hung_pid}").exists()
        assert await worker.wait_ready(600)
        assert worker.status.restarts == 1 and worker.status.pid != hung_pid
    finally:
        await worker.close()


async def test_malformed_frame_from_worker_is_a_protocol_error(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    worker = AnswerWorker(answer_settings, models_dir=models_dir, command=fault_command("garbage"))
    await worker.start()
    try:
        with pytest.raises(WorkerProtocolError):
            await collect(worker, HELLO)
        assert worker.status.last_error_code == "worker_protocol"
        assert await worker.wait_ready(600)
    finally:
        await worker.close()


async def test_request_cpu_limit_stops_a_runaway_worker(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    worker = AnswerWorker(answer_settings, models_dir=models_dir, command=fault_command("cpu-hog"))
    await worker.start()
    try:
        with pytest.raises(WorkerCrashed) as err:
            await collect(worker, HELLO)
        assert "SIGXCPU" in str(err.value)  # the kernel stopped it, not the parent's timeout
        assert await worker.wait_ready(600)
    finally:
        await worker.close()


async def test_address_space_limit_refuses_a_huge_allocation(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    worker = AnswerWorker(
        answer_settings, models_dir=models_dir, command=fault_command("memory-hog")
    )
    await worker.start()
    try:
        with pytest.raises(WorkerRequestError) as err:
            await collect(worker, HELLO)
        assert err.value.code == "probe_result"
        assert err.value.message == "MemoryError"
    finally:
        await worker.close()


def _manifest(
    tmp_path: Path, file_name: str, data: bytes | None, *, size: int, sha256: str
) -> Path:
    """A manifest naming one GGUF under models_dir/test-llm/<file_name>."""
    models = tmp_path / "models"
    (models / "test-llm").mkdir(parents=True, exist_ok=True)
    if data is not None:
        (models / "test-llm" / file_name).write_bytes(data)
    path = tmp_path / "manifest.toml"
    path.write_text(
        '[[model]]\nname = "test-llm"\nkind = "llm"\nlicence = "Apache-2.0"\ndescription = "t"\n'
        f'[[model.files]]\nrole = "gguf"\npath = "{file_name}"\nsize = {size}\nsha256 = "{sha256}"\n',
        encoding="utf-8",
    )
    return path


async def _start_expecting(settings: AnswerSettings, tmp_path: Path, manifest: Path) -> ModelError:
    worker = AnswerWorker(
        replace(settings, llm_model="test-llm"),
        models_dir=tmp_path / "models",
        manifest_path=manifest,
    )
    with pytest.raises(ModelError) as err:
        await worker.start()
    # A broken model file is permanent: the worker stays dead instead of restarting in a loop.
    assert worker.state is WorkerState.DEAD
    assert worker.status.restarts == 0
    with pytest.raises(WorkerUnavailable):
        await collect(worker, HELLO)
    await worker.close()
    return err.value


async def test_truncated_gguf_is_refused(
    answer_settings: AnswerSettings, gguf_path: Path, tmp_path: Path
) -> None:
    with gguf_path.open("rb") as fh:
        data = fh.read(1_000_000)
    # The manifest matches the cut file, so the checksum passes and llama.cpp itself meets the damage.
    manifest = _manifest(
        tmp_path, "cut.gguf", data, size=len(data), sha256=hashlib.sha256(data).hexdigest()
    )
    err = await _start_expecting(answer_settings, tmp_path, manifest)
    assert err.code == "model_load_failed"
    assert str(tmp_path) not in err.message


async def test_non_gguf_file_is_refused(answer_settings: AnswerSettings, tmp_path: Path) -> None:
    data = b"this is a text file, not a GGUF model\n" * 100
    manifest = _manifest(
        tmp_path, "fake.gguf", data, size=len(data), sha256=hashlib.sha256(data).hexdigest()
    )
    err = await _start_expecting(answer_settings, tmp_path, manifest)
    assert err.code == "model_load_failed"


async def test_checksum_mismatch_is_refused_before_loading(
    answer_settings: AnswerSettings, gguf_path: Path, tmp_path: Path
) -> None:
    data = bytearray(gguf_path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte in the weights; size unchanged
    manifest = _manifest(
        tmp_path,
        "flipped.gguf",
        bytes(data),
        size=len(data),
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",  # the real file's
    )
    err = await _start_expecting(answer_settings, tmp_path, manifest)
    assert err.code == "model_checksum"
    assert "checksum-mismatch" in err.message


async def test_missing_model_is_reported(answer_settings: AnswerSettings, tmp_path: Path) -> None:
    manifest = _manifest(tmp_path, "absent.gguf", None, size=10, sha256="0" * 64)
    err = await _start_expecting(answer_settings, tmp_path, manifest)
    assert err.code == "model_missing"


def _raw_worker(models_dir: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        list(WORKER_COMMAND),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=scrubbed_environment(1),
        cwd="/",
    )
    assert proc.stdin is not None
    start = {
        "type": "start",
        "model": TEST_MODEL,
        "models_dir": str(models_dir),
        "context_tokens": 512,
        "threads": 1,
    }
    proc.stdin.write(protocol.encode(start))
    proc.stdin.flush()
    assert _read(proc)["type"] == "ready"
    return proc


def _read(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    header = proc.stdout.read(protocol.HEADER_BYTES)
    return dict(json.loads(proc.stdout.read(protocol.frame_length(header))))


def _write(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.flush()


def test_worker_answers_malformed_requests_with_codes_and_survives(models_dir: Path) -> None:
    proc = _raw_worker(models_dir)
    try:
        cases = [
            (b"\x00\x00\x00\x09{not json", "protocol_bad_json"),
            (protocol.encode({"type": "launch-missiles"}), "protocol_unknown_type"),
            (b"\x00\x00\x00\x02[]", "protocol_bad_message"),
            (
                protocol.encode(
                    {"type": "generate", "id": 1, "messages": [], "max_tokens": 5, "temperature": 0}
                ),
                "protocol_bad_field",
            ),
            (
                protocol.encode(
                    {
                        "type": "generate",
                        "id": 2,
                        "messages": [{"role": "root", "content": "x"}],
                        "max_tokens": 5,
                        "temperature": 0,
                    }
                ),
                "protocol_bad_field",
            ),
            (
                protocol.encode(
                    {
                        "type": "generate",
                        "id": 3,
                        "messages": HELLO,
                        "max_tokens": True,
                        "temperature": 0,
                    }
                ),
                "protocol_bad_field",
            ),
            (
                protocol.encode(
                    {
                        "type": "generate",
                        "id": 4,
                        "messages": HELLO,
                        "max_tokens": 10**9,
                        "temperature": 0,
                    }
                ),
                "protocol_bad_field",
            ),
        ]
        for frame, code in cases:
            _write(proc, frame)
            reply = _read(proc)
            assert (reply["type"], reply["code"]) == ("error", code), frame
        # Still alive and serving.
        _write(
            proc,
            protocol.encode(
                {
                    "type": "generate",
                    "id": 9,
                    "messages": HELLO,
                    "max_tokens": 3,
                    "temperature": 0.0,
                }
            ),
        )
        while (reply := _read(proc))["type"] == "token":
            assert reply["id"] == 9
        assert reply["type"] == "done"
        # A length the protocol can never have: the framing is lost, so the worker leaves (status 4).
        _write(proc, b"\xff\xff\xff\xff")
        reply = _read(proc)
        assert reply["code"] == "protocol_bad_frame_length"
        assert proc.wait(timeout=600) == 4
    finally:
        proc.kill()
        proc.wait()


def test_protocol_rejects_oversized_and_truncated_frames() -> None:
    with pytest.raises(protocol.ProtocolViolation) as err:
        protocol.encode({"type": "generate", "prompt": "x" * (protocol.MAX_FRAME_BYTES + 1)})
    assert err.value.code == "frame_too_large"
    with pytest.raises(protocol.ProtocolViolation) as err:
        protocol.frame_length(b"\x00\x00")
    assert err.value.code == "truncated_frame"
    with pytest.raises(protocol.ProtocolViolation) as err:
        protocol.frame_length(b"\x00\x00\x00\x00")
    assert err.value.code == "bad_frame_length"
    message = {"type": "token", "id": 1, "text": "Ø24 H9 \n ±0.1"}
    frame = protocol.encode(message)
    assert protocol.decode(frame[protocol.HEADER_BYTES :], protocol.WORKER_TYPES) == message
    with pytest.raises(protocol.ProtocolViolation):
        protocol.decode(frame[protocol.HEADER_BYTES :], protocol.PARENT_TYPES)


def test_worker_dies_with_its_parent(models_dir: Path) -> None:
    """An appliance killed with SIGKILL cannot reap its worker; PR_SET_PDEATHSIG does it instead."""
    program = (
        "import asyncio, sys, time\n"
        "from pathlib import Path\n"
        "from appliance.answer.settings import AnswerSettings\n"
        "from appliance.answer.worker import AnswerWorker\n"
        "async def main():\n"
        "    settings = AnswerSettings(llm_model=sys.argv[2], threads=1, start_timeout_s=600)\n"
        "    w = AnswerWorker(settings, models_dir=Path(sys.argv[1]))\n"
        "    await w.start()\n"
        "    print(w.status.pid, flush=True)\n"
        "    await asyncio.sleep(3600)\n"
        "asyncio.run(main())\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", program, str(models_dir), TEST_MODEL],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdout is not None
    worker_pid = int(parent.stdout.readline())
    assert Path(f"/proc/{worker_pid}").exists()
    parent.kill()
    parent.wait()
    # The kernel delivers SIGKILL to the orphan, which init then reaps. The generous bound only keeps a
    # broken build from hanging the suite; nothing about speed is asserted.
    deadline = time.monotonic() + 300
    while _alive(worker_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(worker_pid)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


async def test_the_fixed_prompt_prefix_stays_in_the_kv_cache(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    """The warm-up evaluates the turns every prompt begins with, so a question computes only its own
    part; a prompt that starts differently has to compute its whole length."""
    fixed = fixed_prompt_turns(answer_settings)
    question = {
        "role": "user",
        "content": "Sources:\n[1] drawing A-1\nScale: 1:2\n\nQuestion: scale?",
    }
    async with AnswerWorker(answer_settings, models_dir=models_dir) as worker:
        assert worker.status.warm_tokens > 0
        await collect(worker, [*fixed, question], max_tokens=2)
        warm = worker.last_stats
        other = {"role": "system", "content": "Reply in French. " + fixed[0]["content"]}
        await collect(worker, [other, *fixed[1:], question], max_tokens=2)
        cold = worker.last_stats
    assert warm is not None and cold is not None
    assert 0 < warm.prompt_evaluated < cold.prompt_evaluated


async def test_malformed_warm_messages_are_refused(
    answer_settings: AnswerSettings, models_dir: Path
) -> None:
    worker = AnswerWorker(
        answer_settings, models_dir=models_dir, warm_messages=[{"role": "root", "content": "x"}]
    )
    try:
        with pytest.raises(WorkerUnavailable) as err:
            await worker.start()
        assert err.value.code == "protocol_bad_field"
    finally:
        await worker.close()


def test_memory_limit_is_sized_from_the_model_file(tmp_path: Path) -> None:
    settings = AnswerSettings()
    assert settings.memory_limit_for(1_117_320_768) == 2 * 1066 + 1024
    assert replace(settings, memory_limit_mb=4000).memory_limit_for(10**9) == 4000
    for name in ("smollm2-135m-instruct-q4_1", "qwen2.5-coder-0.5b-instruct-q4_k_m"):
        size = load_manifest().get(name).file("gguf").size
        named = replace(settings, llm_model=name)
        assert worker_memory_limit_mb(named) == named.memory_limit_for(size)
    # An unknown model gets a fixed limit; the worker reports the unknown name itself.
    assert worker_memory_limit_mb(replace(settings, llm_model="nope")) == 2048
