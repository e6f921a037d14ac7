"""The appliance's side of the answer worker: start, supervise, restart, and stream answers.

Longer than the house's ~600 lines because :class:`AnswerWorker` is one state machine around one
child process: starting, restarting, reading its frames and generating share the process, its pipes
and the pending request, and a split would pass that state between modules.

:class:`AnswerWorker` owns one child process (:mod:`appliance.answer.worker_main`). It is started with
only its three standard pipes (``close_fds``), a scrubbed environment and ``/`` as its working folder,
through ``python -I`` so no environment variable or writable folder can change what it imports.

States (shown on the status page): ``starting`` -> ``ready`` <-> ``busy``; a worker that dies or hangs
becomes ``dead``, then ``restarting`` after a back-off that doubles with each consecutive failure, then
``starting`` again. A worker whose model is missing or fails its checksum stays ``dead``: restarting
cannot fix a file, and answers are extractive until the model is reinstalled.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import logging
import os
import signal
import sys
import time
from collections import deque
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from appliance.answer import protocol
from appliance.answer.errors import (
    WorkerCrashed,
    WorkerProtocolError,
    WorkerRequestError,
    WorkerTimeout,
    WorkerUnavailable,
)
from appliance.answer.protocol import ProtocolViolation
from appliance.answer.settings import AnswerSettings, worker_memory_limit_mb
from appliance.errors import ModelError

log = logging.getLogger(__name__)

#: The worker's command line: isolated mode ignores PYTHON* variables, the user's site-packages and
#: the working folder; -B keeps it from trying to write bytecode.
WORKER_COMMAND: tuple[str, ...] = (sys.executable, "-I", "-B", "-m", "appliance.answer.worker_main")
#: Failures no restart can cure: the model file or its manifest entry is wrong, or the kernel refuses
#: the sandbox. The worker then stays ``dead`` until the appliance restarts it on purpose.
PERMANENT_CODES = frozenset(
    {
        "model_missing",
        "model_checksum",
        "model_unknown",
        "model_manifest",
        "model_load_failed",
        "sandbox_failed",
    }
)
#: Seconds to wait for a cancelled request's ``done`` before the worker is killed instead. The
#: worker reads the cancel only between tokens: a prompt being computed (several seconds for a long
#: one on a shared core) must be let finish, or every abandoned answer costs a restart and a model
#: load. Nobody waits for this but the next question to the model.
_CANCEL_GRACE_S = 30.0
#: stderr lines of the worker kept for diagnostics.
_STDERR_LINES = 50


class WorkerState(enum.StrEnum):
    """Life-cycle state of the answer worker."""

    STARTING = "starting"
    READY = "ready"
    BUSY = "busy"
    DEAD = "dead"
    RESTARTING = "restarting"
    STOPPED = "stopped"


@dataclass(frozen=True)
class WorkerStatus:
    """A snapshot of the worker for the status page and ``doctor``."""

    #: Current state.
    state: WorkerState
    #: Process id while a process exists.
    pid: int | None = None
    #: Manifest name of the model.
    model: str = ""
    #: How many times the worker was restarted.
    restarts: int = 0
    #: Code of the last failure ("" when none).
    last_error_code: str = ""
    #: Message of the last failure ("" when none).
    last_error: str = ""
    #: Seconds the last start took to verify the model file.
    verify_s: float = 0.0
    #: Seconds the last start took to load the model.
    load_s: float = 0.0
    #: Seconds of the last warm-up generation.
    warmup_s: float = 0.0
    #: Context window of the loaded model.
    n_ctx: int = 0
    #: Address-space limit the worker runs under, in MiB (0 before the first start).
    memory_limit_mb: int = 0
    #: Tokens in the model's KV cache after the warm-up: the fixed prompt prefix (system turn, worked
    #: example) the first question reuses, the warm-up's own short question and its reply.
    warm_tokens: int = 0
    #: The libseccomp bindings the worker built its filters with (``seccomp`` or ``pyseccomp``).
    seccomp_bindings: str = ""
    #: Landlock ABI version confining the worker's loading phase (0: the kernel has no Landlock, so
    #: reads were not confined while the model loaded).
    landlock_abi: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "state": str(self.state),
            "pid": self.pid,
            "model": self.model,
            "restarts": self.restarts,
            "last_error_code": self.last_error_code,
            "last_error": self.last_error,
            "verify_s": self.verify_s,
            "load_s": self.load_s,
            "warmup_s": self.warmup_s,
            "n_ctx": self.n_ctx,
            "memory_limit_mb": self.memory_limit_mb,
            "warm_tokens": self.warm_tokens,
            "seccomp_bindings": self.seccomp_bindings,
            "landlock_abi": self.landlock_abi,
        }


@dataclass(frozen=True)
class GenerationStats:
    """What the worker reported at the end of one generation."""

    #: Tokens generated.
    tokens: int
    #: Tokens of the prompt (approximate: contents without the chat template).
    prompt_tokens: int
    #: ``stop``, ``length`` or ``cancelled``.
    finish: str
    #: Prompt tokens the model computed for this request; the rest of the prompt was already in its
    #: KV cache (the fixed prefix, and whatever else the previous prompt shared with this one).
    prompt_evaluated: int = 0


def scrubbed_environment(threads: int) -> dict[str, str]:
    """The whole environment the worker gets: nothing of the parent's (no tokens, no paths)."""
    return {
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        # One malloc arena per thread would reserve 64 MiB of address space each, which the address
        # space limit would count.
        "MALLOC_ARENA_MAX": "2",
        "OMP_NUM_THREADS": str(threads),
        # numpy's OpenBLAS would start its own threads at import; the worker never uses it, and it must
        # be single-threaded when it enters the sandbox (Landlock confines the calling thread only).
        "OPENBLAS_NUM_THREADS": "1",
    }


def fixed_prompt_turns(settings: AnswerSettings) -> list[dict[str, str]]:
    """The turns every prompt of this format and role begins with (all but the question's turn)."""
    from appliance.answer.prompts import format_messages

    return [dict(t) for t in format_messages(settings.llm_format, settings.role, "", [])[:-1]]


def describe_exit(returncode: int | None) -> str:
    """A human description of how the worker process ended."""
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        if name == "SIGSYS":
            return "was killed by its sandbox (SIGSYS: a forbidden system call)"
        if name == "SIGXCPU":
            return "was stopped by its CPU time limit (SIGXCPU)"
        return f"was killed by {name}"
    return f"exited with status {returncode}"


class AnswerWorker:
    """The supervised, sandboxed llama.cpp worker process.

    Use as ``async with AnswerWorker(settings, models_dir=...) as worker:`` or call :meth:`start` and
    :meth:`close`. ``async for text in worker.generate(messages, max_tokens=...)`` streams an answer;
    one request runs at a time. ``command`` replaces the worker's command line (tests start a worker
    entry of their own that installs the same sandbox and then misbehaves on purpose).

    ``warm_messages`` are the chat turns every prompt begins with; the worker evaluates them while it
    warms up, so the first question finds them in the KV cache (llama.cpp reuses the longest common
    token prefix of the previous evaluation, so later questions keep them too). By default they are
    the fixed turns of ``settings.llm_format`` and ``settings.role``, as answering builds them.
    """

    def __init__(
        self,
        settings: AnswerSettings,
        *,
        models_dir: Path,
        manifest_path: Path | None = None,
        command: Sequence[str] | None = None,
        on_state: Callable[[WorkerStatus], None] | None = None,
        warm_messages: Sequence[dict[str, str]] | None = None,
    ) -> None:
        self.settings = settings
        self.warm_messages = (
            fixed_prompt_turns(settings) if warm_messages is None else list(warm_messages)
        )
        self.models_dir = models_dir
        self.manifest_path = manifest_path
        self.command = tuple(command or WORKER_COMMAND)
        self.on_state = on_state
        self._status = WorkerStatus(WorkerState.STOPPED, model=settings.llm_model)
        self._proc: asyncio.subprocess.Process | None = None
        self._inbox: asyncio.Queue[dict[str, Any] | ProtocolViolation | None] = asyncio.Queue()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._request_lock = asyncio.Lock()
        self._ids = itertools.count(1)
        self._closing = False
        self._backoff = settings.restart_backoff_s
        self._restart_task: asyncio.Task[None] | None = None
        self._ready_event = asyncio.Event()
        self._failed_event = asyncio.Event()
        self.stderr_tail: deque[str] = deque(maxlen=_STDERR_LINES)
        #: Stats of the last finished generation.
        self.last_stats: GenerationStats | None = None

    # ----------------------------------------------------------------- state
    @property
    def status(self) -> WorkerStatus:
        """The current status snapshot."""
        return self._status

    @property
    def state(self) -> WorkerState:
        """The current state."""
        return self._status.state

    def _set(self, state: WorkerState, **changes: Any) -> None:
        self._status = replace(self._status, state=state, **changes)
        if state is WorkerState.READY:
            self._ready_event.set()
        else:
            self._ready_event.clear()
        if self.on_state is not None:
            try:
                self.on_state(self._status)
            except Exception:  # a broken observer must not take the worker down
                log.exception("answer worker state observer failed")

    # ------------------------------------------------------------- lifecycle
    async def __aenter__(self) -> AnswerWorker:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Start the worker and wait until it is ready.

        Raises :class:`~appliance.errors.ModelError` when the model is missing, corrupt or unloadable
        (the worker then stays ``dead``) and :class:`WorkerUnavailable` when it fails to start for
        another reason (it is then restarted in the background).
        """
        self._closing = False
        await self._launch()

    async def wait_ready(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the ``ready`` state; whether it was reached."""
        try:
            await asyncio.wait_for(self._ready_event.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def wait_failed(self) -> WorkerStatus:
        """Wait until the worker has failed for good (a code in :data:`PERMANENT_CODES`: it is not
        restarted); its status then, with the code and message of the failure."""
        await self._failed_event.wait()
        return self._status

    async def close(self) -> None:
        """Ask the worker to exit, kill it if it does not, and stop supervising."""
        self._closing = True
        if self._restart_task is not None:
            self._restart_task.cancel()
            # Wait for it to unwind: a cancelled start kills the process it had begun.
            await asyncio.gather(self._restart_task, return_exceptions=True)
        proc = self._proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(Exception):
                await self._send({"type": "shutdown"})
            try:
                await asyncio.wait_for(proc.wait(), 3.0)
            except TimeoutError:
                await self._kill()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._set(WorkerState.STOPPED, pid=None)

    async def _launch(self) -> None:
        self._inbox = asyncio.Queue()
        self._failed_event.clear()
        self._set(WorkerState.STARTING, pid=None)
        proc = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=scrubbed_environment(self.settings.threads),
            cwd="/",
            close_fds=True,
            start_new_session=True,  # a Ctrl-C in the terminal is the parent's to handle, not the worker's
        )
        self._proc = proc
        self._status = replace(self._status, pid=proc.pid)
        self._spawn(self._read_frames(proc))
        self._spawn(self._drain_stderr(proc))
        limit_mb = worker_memory_limit_mb(self.settings, self.manifest_path)
        self._status = replace(self._status, memory_limit_mb=limit_mb)
        start = {
            "type": "start",
            "model": self.settings.llm_model,
            "models_dir": str(self.models_dir),
            "manifest": str(self.manifest_path) if self.manifest_path else None,
            "context_tokens": self.settings.context_tokens,
            "threads": self.settings.threads,
            "memory_limit_mb": limit_mb,
            "warm_messages": self.warm_messages,
            "cpu_per_request_s": self.settings.cpu_per_request_s,
            "cpu_lifetime_s": self.settings.cpu_lifetime_s,
            "parent_pid": os.getpid(),
        }
        try:
            await self._send(start)
            message = await asyncio.wait_for(self._inbox.get(), self.settings.start_timeout_s)
        except asyncio.CancelledError:
            await self._kill()  # closing while starting: leave no orphan behind
            raise
        except TimeoutError:
            await self._kill()
            self._died("worker_start_timeout", "the worker did not become ready in time")
            raise WorkerUnavailable(
                "the answer worker did not start in time", code="worker_start_timeout"
            ) from None
        except (BrokenPipeError, ConnectionResetError):
            message = None
        if isinstance(message, dict) and message.get("type") == "ready":
            self._set(
                WorkerState.READY,
                pid=proc.pid,
                verify_s=float(message.get("verify_s", 0.0)),
                load_s=float(message.get("load_s", 0.0)),
                warmup_s=float(message.get("warmup_s", 0.0)),
                n_ctx=int(message.get("n_ctx", 0)),
                warm_tokens=int(message.get("warm_tokens", 0)),
                seccomp_bindings=str(message.get("seccomp", "")),
                landlock_abi=int(message.get("landlock_abi", 0)),
            )
            self._spawn(self._watch_exit(proc))
            return
        if isinstance(message, dict) and message.get("type") == "fatal":
            code = str(message.get("code", "model_error"))
            text = str(message.get("message", "the worker could not load its model"))
            await self._reap(proc)
            self._died(code, text)
            if code.startswith("model_"):
                raise ModelError(text, code=code)
            raise WorkerUnavailable(text, code=code)
        await self._reap(proc)
        if isinstance(message, ProtocolViolation):
            await self._kill()
            self._died("worker_protocol", f"malformed start-up message ({message.code})")
        else:
            self._died(
                "worker_start_failed", f"the worker {describe_exit(proc.returncode)} while starting"
            )
        raise WorkerUnavailable(self._status.last_error, code=self._status.last_error_code)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reap(self, proc: asyncio.subprocess.Process, timeout: float = 3.0) -> None:
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            proc.kill()
            await proc.wait()

    async def _kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()

    def _died(self, code: str, message: str) -> None:
        """Record a death and schedule a restart unless it is permanent or the worker is closing."""
        self._set(WorkerState.DEAD, pid=None, last_error_code=code, last_error=message)
        log.warning("answer worker dead: [%s] %s", code, message)
        if code in PERMANENT_CODES:
            self._failed_event.set()
            return
        if self._closing:
            return
        if self._restart_task is None or self._restart_task.done():
            self._restart_task = asyncio.get_running_loop().create_task(self._restart())

    async def _restart(self) -> None:
        while not self._closing:
            delay = self._backoff
            self._backoff = min(self._backoff * 2, self.settings.restart_backoff_max_s)
            self._set(WorkerState.RESTARTING)
            await asyncio.sleep(delay)
            if self._closing:
                return
            self._status = replace(self._status, restarts=self._status.restarts + 1)
            try:
                await self._launch()
                return
            except ModelError:
                return  # permanent: stays dead
            except WorkerUnavailable as err:
                if err.code in PERMANENT_CODES:
                    return  # the sandbox cannot be entered: stays dead too
                continue  # _died() saw the restart task still running; loop with a longer delay

    async def _watch_exit(self, proc: asyncio.subprocess.Process) -> None:
        returncode = await proc.wait()
        # Whoever notices a death first (this watcher, or a request reading its pipe) claims it by
        # clearing self._proc, so it is recorded and restarted once.
        if self._proc is proc and not self._closing:
            self._proc = None
            self._died("worker_crashed", f"the worker {describe_exit(returncode)}")

    # -------------------------------------------------------------------- io
    async def _send(self, message: dict[str, Any]) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None or proc.returncode is not None:
            raise BrokenPipeError("the worker is not running")
        proc.stdin.write(protocol.encode(message))
        await proc.stdin.drain()

    async def _read_frames(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        inbox = self._inbox
        try:
            while True:
                try:
                    header = await proc.stdout.readexactly(protocol.HEADER_BYTES)
                except asyncio.IncompleteReadError as err:
                    if err.partial:
                        inbox.put_nowait(
                            ProtocolViolation("truncated_frame", "pipe closed inside a header")
                        )
                    break
                try:
                    length = protocol.frame_length(header)
                    payload = await proc.stdout.readexactly(length)
                    inbox.put_nowait(protocol.decode(payload, protocol.WORKER_TYPES))
                except ProtocolViolation as err:
                    inbox.put_nowait(err)
                    break  # nothing after a broken frame can be trusted
                except asyncio.IncompleteReadError:
                    inbox.put_nowait(
                        ProtocolViolation("truncated_frame", "pipe closed inside a frame")
                    )
                    break
        finally:
            inbox.put_nowait(None)

    async def _drain_stderr(self, proc: asyncio.subprocess.Process) -> None:
        # llama.cpp logs to stderr; a full pipe would block the worker, so it is always read.
        assert proc.stderr is not None
        # Read in chunks, not lines: a worker writing one endless line must not stop the draining.
        pending = b""
        while chunk := await proc.stderr.read(4096):
            *lines, pending = (pending + chunk).split(b"\n")
            pending = pending[-4096:]
            for line in lines:
                self.stderr_tail.append(line.decode("utf-8", "replace").rstrip()[:500])

    # ------------------------------------------------------------ generation
    async def generate(
        self,
        messages: Sequence[dict[str, str]],
        *,
        max_tokens: int,
        temperature: float | None = None,
        stop: Sequence[str] = (),
        grammar: str | None = None,
    ) -> AsyncGenerator[str, None]:
        """Stream the answer to chat ``messages`` piece by piece.

        ``grammar`` (llama.cpp GBNF, at most :data:`protocol.MAX_GRAMMAR_CHARS`) constrains what the
        model may write; one that does not parse is refused with code ``grammar_invalid``.

        Raises :class:`WorkerUnavailable` when the worker is not ready, :class:`WorkerTimeout` when it
        takes longer than ``answer.timeout_s`` of waiting (it is killed and restarted),
        :class:`WorkerCrashed` when it dies mid-answer (restarted), :class:`WorkerProtocolError` on a
        malformed message (killed, restarted) and :class:`WorkerRequestError` when it refuses the
        request (prompt too long). Leaving the loop early cancels the generation in the worker.
        """
        async with self._request_lock:
            if self.state is not WorkerState.READY:
                raise WorkerUnavailable(
                    f"the answer worker is {self.state}"
                    + (f" ({self._status.last_error})" if self._status.last_error else "")
                )
            request_id = next(self._ids)
            request = {
                "type": "generate",
                "id": request_id,
                "messages": [dict(m) for m in messages],
                "max_tokens": int(max_tokens),
                "temperature": float(
                    self.settings.temperature if temperature is None else temperature
                ),
                "stop": list(stop),
            }
            if grammar is not None:
                request["grammar"] = grammar
            self._set(WorkerState.BUSY)
            finished = False
            try:
                try:
                    await self._send(request)
                except (BrokenPipeError, ConnectionResetError):
                    raise await self._crashed() from None
                # The timeout counts only time spent waiting for the worker, not time the caller
                # spends with each piece (speaking a sentence, for example).
                budget = self.settings.timeout_s
                while True:
                    waited = time.monotonic()
                    try:
                        message = await asyncio.wait_for(self._inbox.get(), max(budget, 0.001))
                    except TimeoutError:
                        await self._kill_for("worker_timeout", "the worker did not answer in time")
                        raise WorkerTimeout(
                            f"the answer worker did not answer within {self.settings.timeout_s:g} s; "
                            "it was stopped and is restarting"
                        ) from None
                    budget -= time.monotonic() - waited
                    if message is None:
                        raise await self._crashed()
                    if isinstance(message, ProtocolViolation):
                        await self._kill_for(
                            "worker_protocol", f"malformed message ({message.code})"
                        )
                        raise WorkerProtocolError(
                            f"the answer worker sent a malformed message ({message.code}); it is restarting"
                        )
                    if message.get("id") != request_id:
                        continue  # a late message of an earlier, cancelled request
                    kind = message["type"]
                    if kind == "token":
                        text = message.get("text")
                        if not isinstance(text, str):
                            await self._kill_for("worker_protocol", "token without text")
                            raise WorkerProtocolError("the answer worker sent a token without text")
                        yield text
                    elif kind == "done":
                        finished = True
                        self.last_stats = GenerationStats(
                            tokens=int(message.get("tokens", 0)),
                            prompt_tokens=int(message.get("prompt_tokens", 0)),
                            finish=str(message.get("finish", "stop")),
                            prompt_evaluated=int(message.get("prompt_evaluated", 0)),
                        )
                        self._backoff = self.settings.restart_backoff_s
                        return
                    elif kind == "error":
                        finished = True
                        raise WorkerRequestError(
                            str(message.get("message", "the worker refused the request")),
                            code=str(message.get("code", "worker_request")),
                        )
                    else:
                        await self._kill_for("worker_protocol", f"unexpected {kind!r} message")
                        raise WorkerProtocolError(
                            f"the answer worker sent an unexpected {kind!r} message"
                        )
            finally:
                if not finished and self.state is WorkerState.BUSY:
                    await self._cancel(request_id)
                if self.state is WorkerState.BUSY:
                    self._set(WorkerState.READY)

    async def _crashed(self) -> WorkerCrashed:
        proc = self._proc
        how = "died"
        if proc is not None:
            await self._reap(proc)
            how = describe_exit(proc.returncode)
            if self._proc is proc:
                self._proc = None
                self._died("worker_crashed", f"the worker {how}")
        else:
            how = self._status.last_error.removeprefix("the worker ") or how
        return WorkerCrashed(f"the answer worker {how} while answering; it is restarting")

    async def _kill_for(self, code: str, message: str) -> None:
        proc = self._proc
        self._proc = None  # so the exit watcher does not report this death a second time
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        self._died(code, message)

    async def _cancel(self, request_id: int) -> None:
        """Stop an abandoned generation; kill the worker if it does not stop in time."""
        try:
            await self._send({"type": "cancel", "id": request_id})
            deadline = time.monotonic() + _CANCEL_GRACE_S
            while (remaining := deadline - time.monotonic()) > 0:
                message = await asyncio.wait_for(self._inbox.get(), remaining)
                if message is None or isinstance(message, ProtocolViolation):
                    break
                if message.get("id") == request_id and message.get("type") in ("done", "error"):
                    return
        except (TimeoutError, BrokenPipeError, ConnectionResetError):
            pass
        await self._kill_for("worker_cancel_failed", "the worker did not stop a cancelled answer")
