"""The answer worker's confinement: no-new-privileges, two seccomp filters, resource limits.

The worker is confined in two steps because llama.cpp needs more of the kernel to load a model than to
run it:

1. :func:`enter_loading_sandbox` before the GGUF file is opened: ``PR_SET_NO_NEW_PRIVS``, resource
   limits, and a deny-list filter (default allow) that refuses network sockets, executing programs,
   ptrace and the other calls a hostile model file could use to escape. A malicious GGUF therefore meets a
   sandbox already while it is parsed.
2. :func:`lock_down` after the model is loaded and warmed up: an allow-list filter whose default action
   kills the whole process. It permits reading the request pipe, writing the response pipe and stderr,
   memory management, futexes, thread creation (never a new process), clocks and the few calls the
   interpreter needs between tokens. The list was found empirically with ``strace -f`` over loading,
   warm-up and long generations (see docs/answer.md); files cannot be opened at all.

Both filters are synchronised to every thread of the process (``SECCOMP_FILTER_FLAG_TSYNC``): llama.cpp
starts its compute threads while loading, and a filter installed on one thread alone would leave them
free. Filters stack, so the loading filter stays in force under the strict one.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import signal
from collections.abc import Iterable
from dataclasses import dataclass

import pyseccomp

_PR_SET_NO_NEW_PRIVS = 38
_PR_GET_NO_NEW_PRIVS = 39
_PR_SET_PDEATHSIG = 1
_CLONE_THREAD = 0x00010000
_PROT_EXEC = 0x4

#: Calls refused while the model loads (errno EPERM, so the loader sees a clean failure).
LOADING_DENIED: tuple[str, ...] = (
    # network
    "socket",
    "socketpair",
    "connect",
    "bind",
    "listen",
    "accept",
    "accept4",
    # running other programs, inspecting other processes
    "execve",
    "execveat",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_open",
    "pidfd_getfd",
    # changing the system or the process's view of it
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "setns",
    "unshare",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "personality",
    "reboot",
    "swapon",
    "swapoff",
)

#: Calls the locked worker may make without argument conditions.
STRICT_ALLOWED: tuple[str, ...] = (
    # memory
    "brk",
    "munmap",
    "mremap",
    "madvise",
    # threads (llama.cpp's compute threads synchronise with futexes)
    "futex",
    "set_robust_list",
    "rseq",
    "sched_yield",
    "sched_getaffinity",
    "gettid",
    "getpid",
    # waiting for the next request or a cancel between tokens
    "select",
    "pselect6",
    "poll",
    "ppoll",
    # clocks and CPU accounting
    "clock_gettime",
    "clock_nanosleep",
    "nanosleep",
    "getrusage",
    "times",
    # randomness for sampling seeds
    "getrandom",
    # signals and leaving
    "rt_sigreturn",
    "rt_sigprocmask",
    "exit",
    "exit_group",
)


@dataclass(frozen=True)
class SandboxLimits:
    """Resource limits of the worker."""

    #: Address-space limit in bytes (RLIMIT_AS).
    address_space_bytes: int
    #: CPU seconds over the worker's whole life (RLIMIT_CPU hard limit).
    cpu_lifetime_s: int


def set_no_new_privs() -> None:
    """``PR_SET_NO_NEW_PRIVS``: no exec of a set-uid program can ever give this process more rights."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "prctl(PR_SET_NO_NEW_PRIVS) failed")


def die_with_parent(parent_pid: int) -> None:
    """``PR_SET_PDEATHSIG``: the worker is killed when the appliance dies, even mid-answer."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent_pid:  # the parent died before the request took effect
        os._exit(1)


def no_new_privs() -> bool:
    """Whether ``PR_SET_NO_NEW_PRIVS`` is in force for this process."""
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(_PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)


def apply_limits(limits: SandboxLimits) -> None:
    """Address-space and lifetime CPU limits (hard limits: the process can only lower them)."""
    resource.setrlimit(resource.RLIMIT_AS, (limits.address_space_bytes, limits.address_space_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_lifetime_s, limits.cpu_lifetime_s))
    # A crashing worker must not leave a core file (it would hold model memory and user text).
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def set_request_cpu_limit(seconds: int) -> None:
    """Let the next request use at most ``seconds`` more CPU time (SIGXCPU, then SIGKILL at hard)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = int(usage.ru_utime + usage.ru_stime) + 1
    _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = used + seconds
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _add(flt: pyseccomp.SyscallFilter, action: int, name: str, *args: pyseccomp.Arg) -> None:
    # libseccomp refuses (EINVAL) a call that does not exist on this architecture (``select`` and
    # ``poll`` on aarch64): there is nothing to allow or deny then.
    if pyseccomp.resolve_syscall(pyseccomp.system_arch(), name) < 0:
        return
    flt.add_rule(action, name, *args)


def _new_filter(default_action: int) -> pyseccomp.SyscallFilter:
    flt = pyseccomp.SyscallFilter(default_action)
    flt.set_attr(pyseccomp.Attr.CTL_NNP, 1)
    flt.set_attr(pyseccomp.Attr.CTL_TSYNC, 1)
    return flt


def enter_loading_sandbox(limits: SandboxLimits) -> None:
    """Step 1, before the model file is opened: no new privileges, limits, and the deny-list filter."""
    set_no_new_privs()
    apply_limits(limits)
    flt = _new_filter(pyseccomp.ALLOW)
    for name in LOADING_DENIED:
        _add(flt, pyseccomp.ERRNO(errno.EPERM), name)
    # Only threads, never a second process: a clone without CLONE_THREAD is a fork.
    _add(
        flt,
        pyseccomp.ERRNO(errno.EPERM),
        "clone",
        pyseccomp.Arg(0, pyseccomp.MASKED_EQ, _CLONE_THREAD, 0),
    )
    for name in ("fork", "vfork"):
        _add(flt, pyseccomp.ERRNO(errno.EPERM), name)
    flt.load()


def lock_down(*, read_fds: Iterable[int] = (0,), write_fds: Iterable[int] = (1, 2)) -> None:
    """Step 2, after warm-up: the allow-list filter; anything else kills the process.

    ``read_fds`` and ``write_fds`` are the only descriptors ``read`` and ``write`` may touch: the
    request pipe, the response pipe and stderr. No call that opens, creates or names a file is allowed,
    so the worker can neither read the user's files nor write anywhere but its pipes.
    """
    set_no_new_privs()
    flt = _new_filter(pyseccomp.KILL_PROCESS)
    for name in STRICT_ALLOWED:
        _add(flt, pyseccomp.ALLOW, name)
    for fd in read_fds:
        _add(flt, pyseccomp.ALLOW, "read", pyseccomp.Arg(0, pyseccomp.EQ, fd))
    for fd in write_fds:
        _add(flt, pyseccomp.ALLOW, "write", pyseccomp.Arg(0, pyseccomp.EQ, fd))
    # New memory may be readable and writable but never executable: no code can be injected.
    for name in ("mmap", "mprotect"):
        _add(flt, pyseccomp.ALLOW, name, pyseccomp.Arg(2, pyseccomp.MASKED_EQ, _PROT_EXEC, 0))
    # Threads only: clone must carry CLONE_THREAD. clone3 passes its flags in memory, which a filter
    # cannot inspect, so it gets ENOSYS and glibc falls back to clone.
    _add(
        flt,
        pyseccomp.ALLOW,
        "clone",
        pyseccomp.Arg(0, pyseccomp.MASKED_EQ, _CLONE_THREAD, _CLONE_THREAD),
    )
    _add(flt, pyseccomp.ERRNO(errno.ENOSYS), "clone3")
    # The per-request CPU limit: only RLIMIT_CPU of this process may be changed (and never above the
    # hard limit, which only root could raise).
    _add(
        flt,
        pyseccomp.ALLOW,
        "prlimit64",
        pyseccomp.Arg(0, pyseccomp.EQ, 0),
        pyseccomp.Arg(1, pyseccomp.EQ, resource.RLIMIT_CPU),
    )
    flt.load()
