"""The answer worker process: verifies, loads and runs the GGUF model inside the sandbox.

Started by :class:`appliance.answer.worker.AnswerWorker` as ``python -I -B -m
appliance.answer.worker_main`` with only its three standard pipes and a scrubbed environment. The order
of events is the security argument, so it is spelled out in :func:`boot`:

1. import everything the worker will ever need (nothing may be loaded lazily after lock-down: that would
   mean opening files);
2. read the ``start`` message, enter the loading sandbox (no new privileges, resource limits, reads
   confined to Python and the model's folder by Landlock, no writes, no network, no exec, no new
   process, no signal to another process, no executable memory);
3. verify the model file against the manifest's size and sha256 and only then load it;
4. run one warm-up generation so every lazy allocation and thread start has happened; it begins with the
   fixed turns every prompt begins with (``warm_messages``), which then stay in the KV cache;
5. lock down with the allow-list filter, then report ``ready``.

After that the worker serves ``generate`` requests one at a time, streaming tokens, until ``shutdown``
or the end of its input.
"""

from __future__ import annotations

import os
import resource
import select
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

# Step 1 of the boot sequence: llama_cpp pulls in numpy, jinja2 (chat templates) and its shared
# libraries here, at import time, while opening files is still allowed.
import llama_cpp
from llama_cpp import Llama, LlamaGrammar

from appliance.answer import protocol, sandbox
from appliance.answer.protocol import ProtocolViolation
from appliance.answer.settings import AnswerSettings, worker_memory_limit_mb
from appliance.errors import ModelError
from appliance.models.manifest import REPO_MANIFEST, ModelSpec, load_manifest
from appliance.models.store import candidate_paths, locate

#: Exit status when the model cannot be served (missing, corrupt, unloadable).
EXIT_FATAL = 3
#: Exit status when the request pipe's framing is broken beyond recovery.
EXIT_PROTOCOL = 4

#: The turn the warm-up asks after the fixed prefix (its answer is discarded).
_WARMUP_TURN = {"role": "user", "content": "Say OK."}
#: Most fixed turns a start message may carry (a system turn and a worked example need three).
_MAX_WARM_TURNS = 8


class Channel:
    """Blocking framed JSON over two file descriptors (the worker's end of its pipes)."""

    def __init__(self, fd_in: int = 0, fd_out: int = 1) -> None:
        self.fd_in = fd_in
        self.fd_out = fd_out

    def _read_exact(self, size: int) -> bytes:
        chunks: list[bytes] = []
        remaining = size
        while remaining:
            chunk = os.read(self.fd_in, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)

    def receive(self) -> dict[str, Any] | None:
        """The next message, or None at a clean end of input; ProtocolViolation when malformed."""
        header = self._read_exact(protocol.HEADER_BYTES)
        if not header:
            return None
        length = protocol.frame_length(header)
        payload = self._read_exact(length)
        if len(payload) != length:
            raise ProtocolViolation("truncated_frame", "the pipe closed inside a frame")
        return protocol.decode(payload, protocol.PARENT_TYPES)

    def pending(self) -> bool:
        """Whether a message is waiting (polled between tokens, without blocking)."""
        readable, _, _ = select.select([self.fd_in], [], [], 0)
        return bool(readable)

    def send(self, message: dict[str, Any]) -> None:
        """Write one whole frame."""
        data = protocol.encode(message)
        view = memoryview(data)
        while view:
            written = os.write(self.fd_out, view)
            view = view[written:]


@dataclass
class LoadedModel:
    """The model the worker serves, and what loading it cost."""

    #: The llama_cpp.Llama instance.
    llm: Any
    #: Manifest name.
    name: str
    #: Context window in tokens.
    n_ctx: int
    #: Seconds to load the model (after verification).
    load_s: float
    #: Seconds to verify the file against the manifest.
    verify_s: float
    #: Seconds of the warm-up generation.
    warmup_s: float


def _fatal(channel: Channel, code: str, message: str) -> NoReturn:
    channel.send({"type": "fatal", "code": code, "message": message})
    sys.exit(EXIT_FATAL)


def _limits(start: dict[str, Any]) -> sandbox.SandboxLimits:
    limit_mb = int(start.get("memory_limit_mb") or 0)
    if not limit_mb:  # not given: sized from the manifest's file size, as the parent would
        manifest = start.get("manifest")
        limit_mb = worker_memory_limit_mb(
            AnswerSettings(llm_model=str(start.get("model", ""))),
            Path(manifest) if manifest else None,
        )
    return sandbox.SandboxLimits(
        address_space_bytes=limit_mb * 1024 * 1024,
        cpu_lifetime_s=int(start.get("cpu_lifetime_s", 86400)),
    )


def warm_messages(start: dict[str, Any]) -> list[Any]:
    """The warm-up's chat turns: the start message's fixed prefix, checked, then one short question."""
    turns = start.get("warm_messages") or []
    if (
        not isinstance(turns, list)
        or len(turns) > _MAX_WARM_TURNS
        or not all(
            isinstance(t, dict)
            and t.get("role") in protocol.CHAT_ROLES
            and isinstance(t.get("content"), str)
            for t in turns
        )
    ):
        raise ProtocolViolation(
            "bad_field", f"'warm_messages' must be up to {_MAX_WARM_TURNS} chat turns"
        )
    return [{"role": t["role"], "content": t["content"]} for t in turns] + [dict(_WARMUP_TURN)]


@dataclass
class Loading:
    """What the worker knows once it is inside the loading sandbox, before the model is opened."""

    #: The parent's ``start`` message.
    start: dict[str, Any]
    #: The warm-up's chat turns (checked).
    warmup: list[Any]
    #: The manifest's entry for the model to load.
    spec: ModelSpec
    #: The folder of installed models.
    models_dir: Path
    #: Landlock ABI version in force (0: the kernel has none, reads are not confined).
    landlock_abi: int


def model_read_paths(spec: ModelSpec, models_dir: Path, manifest: Path) -> list[Path]:
    """What the loading sandbox lets the worker read besides Python: the folders the model file may
    be in, and the manifest file."""
    try:
        candidates = candidate_paths(spec, spec.file("gguf"), models_dir)
    except ModelError:  # no gguf entry: locate() reports it
        candidates = []
    return [path.parent for path in candidates] + [manifest]


def enter_loading(channel: Channel) -> Loading:
    """Steps 1-2: read and check the ``start`` message, then enter the loading sandbox."""
    # 1. Everything is imported at module level (llama_cpp included, below); warnings would open source
    #    files to show a line of code, which the locked worker cannot do.
    warnings.simplefilter("ignore")
    try:
        start = channel.receive()
    except ProtocolViolation as err:
        _fatal(channel, "protocol_" + err.code, err.message)
    if start is None:
        sys.exit(0)
    if start.get("type") != "start":
        _fatal(channel, "protocol_expected_start", "the first message must be 'start'")
    try:
        warmup = warm_messages(start)
    except ProtocolViolation as err:
        _fatal(channel, "protocol_" + err.code, err.message)
    sandbox.die_with_parent(int(start.get("parent_pid") or os.getppid()))
    # The manifest is the appliance's own file, read before the sandbox: the sandbox's read list needs
    # the folders the model file may be in. The model file itself is opened only inside it.
    manifest_path = Path(start["manifest"]) if start.get("manifest") else REPO_MANIFEST
    models_dir = Path(str(start.get("models_dir", ".")))
    try:
        spec = load_manifest(manifest_path).get(str(start.get("model", "")))
    except ModelError as err:
        _fatal(channel, err.code, err.message)
    except Exception as err:  # the manifest itself is broken (ConfigError) or unreadable
        _fatal(channel, "model_manifest", f"{err.__class__.__name__}: {err}")
    # 2. The loading sandbox goes on before the model file is touched.
    try:
        abi = sandbox.enter_loading_sandbox(
            _limits(start), read_paths=model_read_paths(spec, models_dir, manifest_path)
        )
    except OSError as err:
        _fatal(channel, "sandbox_failed", f"the loading sandbox could not be entered ({err})")
    return Loading(start=start, warmup=warmup, spec=spec, models_dir=models_dir, landlock_abi=abi)


def load_model(channel: Channel, loading: Loading) -> tuple[Any, float, float]:
    """Step 3, inside the loading sandbox: verify the file, then load it; (llm, verify_s, load_s)."""
    t0 = time.perf_counter()
    try:
        path = locate(loading.spec, "gguf", loading.models_dir)
    except ModelError as err:
        _fatal(channel, err.code, err.message)
    except OSError as err:
        # Landlock refuses a file outside the folders it may be in (a link to somewhere else).
        _fatal(
            channel,
            "model_load_failed",
            f"the model file cannot be read in the sandbox ({err.__class__.__name__}); "
            "it must lie in its model folder, not link elsewhere",
        )
    verify_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    threads = int(loading.start.get("threads", 2))
    try:
        llm = Llama(
            model_path=str(path),
            n_ctx=int(loading.start.get("context_tokens", 2048)),
            n_threads=threads,
            n_threads_batch=threads,
            verbose=False,
        )
    except Exception as err:
        # llama.cpp reports a truncated or foreign file as a ValueError; the path is not repeated.
        _fatal(
            channel,
            "model_load_failed",
            f"llama.cpp could not load the model ({err.__class__.__name__})",
        )
    return llm, verify_s, time.perf_counter() - t1


def close_other_descriptors(keep: set[int]) -> None:
    """Close every descriptor but ``keep`` (llama-cpp-python keeps /dev/null handles for silencing
    llama.cpp). RLIMIT_NOFILE bounds the numbers, so no listing of /proc is needed (Landlock forbids
    reading it)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    top = soft if soft != resource.RLIM_INFINITY and soft < 1 << 16 else 1 << 16
    low = 0
    for fd in [*sorted(keep), top]:
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1


def boot(channel: Channel) -> tuple[LoadedModel, dict[str, Any]]:
    """Steps 1-5: from a fresh process to a locked-down worker with a warm model; sends ``ready``."""
    loading = enter_loading(channel)
    # 3. Verify, then load.
    llm, verify_s, load_s = load_model(channel, loading)
    # 4. Warm-up: lazy allocations, thread pools, the chat template's compilation, and the fixed
    #    prompt prefix into the KV cache (the next request reuses the longest common token prefix).
    t2 = time.perf_counter()
    for _chunk in llm.create_chat_completion(messages=loading.warmup, max_tokens=4, stream=True):
        pass
    warmup_s = time.perf_counter() - t2
    # 5. Lock down, then announce. Descriptors the loader opened itself are closed first: only the
    #    pipes remain.
    close_other_descriptors({channel.fd_in, channel.fd_out, 2})
    sandbox.lock_down(read_fds=(channel.fd_in,), write_fds=(channel.fd_out, 2))
    start = loading.start
    model = LoadedModel(
        llm=llm,
        name=str(start.get("model")),
        n_ctx=int(llm.n_ctx()),
        load_s=load_s,
        verify_s=verify_s,
        warmup_s=warmup_s,
    )
    channel.send(
        {
            "type": "ready",
            "model": model.name,
            "n_ctx": model.n_ctx,
            "load_s": round(load_s, 4),
            "verify_s": round(verify_s, 4),
            "warmup_s": round(warmup_s, 4),
            "warm_tokens": int(llm.n_tokens),
            "pid": os.getpid(),
            "seccomp": sandbox.BACKEND.__name__,
            "landlock_abi": loading.landlock_abi,
        }
    )
    return model, start


def _prompt_tokens(model: LoadedModel, messages: list[dict[str, str]]) -> int:
    text = "\n".join(m["content"] for m in messages)
    return len(model.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))


def _prompt_tokens_evaluated(model: LoadedModel) -> int:
    """Prompt tokens llama.cpp has computed so far (its own counter; tokens found in the KV cache
    are not computed again, so the difference over a request shows what the cache saved)."""
    return int(llama_cpp.llama_perf_context(model.llm._ctx.ctx).n_p_eval)


def compile_grammar(model: LoadedModel, text: str) -> LlamaGrammar | None:
    """The request's GBNF grammar, checked by llama.cpp's own parser; None when it does not parse.

    llama-cpp-python hands the grammar text to llama.cpp only when sampling starts, and a grammar that
    fails to parse there yields a null sampler that would crash the chain. So the worker parses it
    first, through the same llama.cpp call, and frees the trial sampler.
    """
    trial = llama_cpp.llama_sampler_init_grammar(
        model.llm._model.vocab, text.encode("utf-8"), b"root"
    )
    if not trial:
        return None
    llama_cpp.llama_sampler_free(trial)
    return LlamaGrammar.from_string(text, verbose=False)


def generate(channel: Channel, model: LoadedModel, request: dict[str, Any], cpu_s: int) -> None:
    """Serve one ``generate`` request: stream tokens, then ``done`` (or ``error``)."""
    request_id = request["id"]
    # Rough pre-check so an over-long prompt is refused with a clear code instead of a llama.cpp error.
    prompt_tokens = _prompt_tokens(model, request["messages"])
    if prompt_tokens + request["max_tokens"] + 16 > model.n_ctx:
        channel.send(
            {
                "type": "error",
                "id": request_id,
                "code": "prompt_too_long",
                "message": f"prompt of about {prompt_tokens} tokens does not fit the "
                f"{model.n_ctx}-token context with {request['max_tokens']} tokens to answer",
            }
        )
        return
    sandbox.set_request_cpu_limit(cpu_s)
    grammar = None
    if request.get("grammar"):
        grammar = compile_grammar(model, request["grammar"])
        if grammar is None:
            channel.send(
                {
                    "type": "error",
                    "id": request_id,
                    "code": "grammar_invalid",
                    "message": "the grammar does not parse as llama.cpp GBNF with a 'root' rule",
                }
            )
            return
    evaluated_before = _prompt_tokens_evaluated(model)
    stream = model.llm.create_chat_completion(
        messages=request["messages"],
        max_tokens=request["max_tokens"],
        temperature=request["temperature"],
        stop=request["stop"] or None,
        grammar=grammar,
        stream=True,
    )
    tokens = 0
    finish = "stop"
    try:
        for chunk in stream:
            choice = chunk["choices"][0]
            text = choice.get("delta", {}).get("content")
            if text:
                tokens += 1
                channel.send({"type": "token", "id": request_id, "text": text})
            if choice.get("finish_reason"):
                finish = str(choice["finish_reason"])
            if channel.pending():
                try:
                    control = channel.receive()
                except ProtocolViolation as err:  # answered as between requests
                    if _refuse(channel, err):
                        os._exit(EXIT_PROTOCOL)
                    continue
                if control is None or control.get("type") == "shutdown":
                    os._exit(0)  # see main(): no interpreter shutdown under the strict filter
                if control.get("type") == "cancel" and control.get("id") == request_id:
                    finish = "cancelled"
                    break
                channel.send(
                    {
                        "type": "error",
                        "id": protocol.reply_id(control),
                        "code": "busy",
                        "message": "the worker answers one request at a time",
                    }
                )
    finally:
        stream.close()
    channel.send(
        {
            "type": "done",
            "id": request_id,
            "tokens": tokens,
            "prompt_tokens": prompt_tokens,
            "prompt_evaluated": _prompt_tokens_evaluated(model) - evaluated_before,
            "finish": finish,
        }
    )


def _refuse(channel: Channel, err: ProtocolViolation) -> bool:
    """Answer a malformed frame with its code; True when the framing is lost (the worker must go)."""
    channel.send(
        {"type": "error", "id": None, "code": "protocol_" + err.code, "message": err.message}
    )
    # After a bad length or a cut frame nothing that follows can be trusted.
    return err.code in ("bad_frame_length", "truncated_frame")


def serve(channel: Channel, model: LoadedModel, cpu_per_request_s: int) -> int:
    """The request loop; returns the process exit status."""
    while True:
        try:
            message = channel.receive()
        except ProtocolViolation as err:
            if _refuse(channel, err):
                return EXIT_PROTOCOL
            continue
        if message is None or message["type"] == "shutdown":
            return 0
        if message["type"] == "cancel":
            continue  # the request it meant has already finished
        if message["type"] != "generate":
            channel.send(
                {
                    "type": "error",
                    "id": protocol.reply_id(message),
                    "code": "protocol_unexpected",
                    "message": "unexpected message",
                }
            )
            continue
        try:
            request = protocol.check_generate(message)
        except ProtocolViolation as err:
            channel.send(
                {
                    "type": "error",
                    "id": protocol.reply_id(message),
                    "code": "protocol_" + err.code,
                    "message": err.message,
                }
            )
            continue
        try:
            generate(channel, model, request, cpu_per_request_s)
        except MemoryError:
            channel.send(
                {
                    "type": "error",
                    "id": request["id"],
                    "code": "out_of_memory",
                    "message": "the worker ran out of memory",
                }
            )
        except Exception as err:  # one request failed; the worker and its model are still usable
            channel.send(
                {
                    "type": "error",
                    "id": request["id"],
                    "code": "generation_failed",
                    "message": f"generation failed ({err.__class__.__name__})",
                }
            )


def main() -> NoReturn:
    """Entry point of the worker process."""
    channel = Channel()
    model, start = boot(channel)
    status = serve(channel, model, int(start.get("cpu_per_request_s", 120)))
    # Leave without the interpreter's shutdown sequence: it restores signal handlers and closes files,
    # calls the strict filter does not allow (and nothing is left to flush: frames go out unbuffered).
    os._exit(status)


if __name__ == "__main__":
    main()
