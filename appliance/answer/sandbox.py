"""The answer worker's confinement: no-new-privileges, Landlock, two seccomp filters, resource limits.

The worker is confined in two steps because llama.cpp needs more of the kernel to load a model than to
run it:

1. :func:`enter_loading_sandbox` before the GGUF file is opened: ``PR_SET_NO_NEW_PRIVS``, resource
   limits (no file may grow, few descriptors, no new processes), Landlock where the kernel has it
   (reading only below the Python installation, the model's folder and the manifest; nothing written
   anywhere; no signal to another process), and a deny-list filter (default allow) that refuses network
   sockets, executing programs, new processes, ptrace, opening files for writing, changing any file,
   signalling other processes, executable memory and the calls that change the system. A malicious GGUF
   therefore meets a sandbox already while it is parsed.
2. :func:`lock_down` after the model is loaded and warmed up: an allow-list filter whose default action
   kills the whole process. It permits reading the request pipe, writing the response pipe and stderr,
   memory management, futexes, thread creation (never a new process), clocks and the few calls the
   interpreter needs between tokens. The list was found empirically with ``strace -f`` over loading,
   warm-up and long generations (see docs/answer.md); files cannot be opened at all.

Both filters are synchronised to every thread of the process (``SECCOMP_FILTER_FLAG_TSYNC``): llama.cpp
starts its compute threads while loading, and a filter installed on one thread alone would leave them
free. Filters stack, so the loading filter and Landlock stay in force under the strict filter.

The filters are built with the libseccomp project's own Python bindings (``import seccomp``, Debian and
Raspberry Pi OS ``python3-seccomp``) where the system has them, else with ``pyseccomp``, a ctypes
re-implementation of the same interface; :data:`BACKEND` says which.
"""

from __future__ import annotations

import ctypes
import errno
import importlib
import os
import resource
import signal
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from appliance.answer import landlock

_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_PDEATHSIG = 1
_CLONE_THREAD = 0x00010000
_PROT_EXEC = 0x4
#: open(2) flags that write, create or empty a file (the same values on x86_64 and aarch64).
_WRITE_FLAGS = (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC)
_AUDIT_ARCH_X86_64 = 0xC000003E
_AUDIT_ARCH_AARCH64 = 0xC00000B7
#: Calls newer than the libseccomp of Debian 12 (2.5.4), which cannot name them. Since Linux 5.1 new
#: calls get one number on every architecture but alpha, so on x86_64 and aarch64 they are denied by it.
_UNNAMED_SYSCALLS = {
    "lsm_set_self_attr": 460,
    "setxattrat": 463,
    "removexattrat": 466,
    "open_tree_attr": 467,
    "file_setattr": 469,
}

#: The libseccomp bindings the sandbox can use, best first: the libseccomp project's own, then the
#: ctypes re-implementation of its interface.
BACKENDS: tuple[str, ...] = ("seccomp", "pyseccomp")


def seccomp_backend(name: str | None = None) -> ModuleType:
    """The named bindings (``"seccomp"`` or ``"pyseccomp"``), or the best one installed."""
    if name is not None:
        if name not in BACKENDS:
            raise ValueError(f"unknown seccomp bindings {name!r}; known: {', '.join(BACKENDS)}")
        return importlib.import_module(name)
    for candidate in BACKENDS:
        try:
            return importlib.import_module(candidate)
        except ImportError:
            continue
    raise ImportError("no libseccomp bindings: install python3-seccomp (Debian) or pyseccomp")


#: The bindings the worker's filters are built with (imported now: nothing is loaded after lock-down).
BACKEND: ModuleType = seccomp_backend()

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
    # running other programs, inspecting or steering other processes
    "execve",
    "execveat",
    "uselib",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "process_madvise",
    "process_mrelease",
    "move_pages",
    "migrate_pages",
    "kcmp",
    "pidfd_open",
    "pidfd_getfd",
    "pidfd_send_signal",
    # memory that can be mapped executable without a file on disk
    "memfd_create",
    "memfd_secret",
    # creating, changing or removing files (opening for writing is refused by its flags, below)
    "creat",
    "open_by_handle_at",
    "name_to_handle_at",
    "chmod",
    "fchmod",
    "fchmodat",
    "fchmodat2",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "unlink",
    "unlinkat",
    "rmdir",
    "rename",
    "renameat",
    "renameat2",
    "mkdir",
    "mkdirat",
    "mknod",
    "mknodat",
    "symlink",
    "symlinkat",
    "link",
    "linkat",
    "truncate",
    "ftruncate",
    "fallocate",
    "utime",
    "utimes",
    "utimensat",
    "futimesat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "setxattrat",
    "removexattrat",
    "file_setattr",
    "fanotify_init",
    "quotactl",
    "quotactl_fd",
    "acct",
    # changing the system or the process's view of it
    "mount",
    "umount2",
    "open_tree",
    "open_tree_attr",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
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
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "syslog",
    "iopl",
    "ioperm",
    "vhangup",
    "lsm_set_self_attr",
)

#: Calls that get ENOSYS while the model loads: their arguments live in memory a filter cannot read,
#: and ENOSYS makes glibc fall back to the older call the filter can inspect (clone, openat).
LOADING_NOSYS: tuple[str, ...] = ("clone3", "openat2")

#: Calls refused while loading unless their first argument names the worker itself: signals only to
#: itself (``kill(getpid())``, ``raise()``), never to the parent or any other process.
LOADING_SELF_ONLY: tuple[str, ...] = (
    "kill",
    "tkill",
    "tgkill",
    "rt_sigqueueinfo",
    "rt_tgsigqueueinfo",
)

#: Calls refused while loading unless their first argument is 0 (this process): limits and scheduling
#: of other processes are not the worker's to change.
LOADING_SELF_ZERO: tuple[str, ...] = (
    "prlimit64",
    "sched_setaffinity",
    "sched_setscheduler",
    "sched_setparam",
    "sched_setattr",
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
    #: Highest descriptor number plus one (RLIMIT_NOFILE): loading holds about eight at once (pipes,
    #: /dev/null twice, their saved copies, the model file, a module being imported).
    open_files: int = 32
    #: Tasks (processes or threads) the worker may add to its user's count (RLIMIT_NPROC counts every
    #: task of the user, the appliance's own threads included, so the limit is set above that count).
    new_tasks: int = 32


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


def _user_tasks() -> int:
    """Tasks of this process's user now, as RLIMIT_NPROC counts them."""
    uid = os.getuid()
    count = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid == uid:
                count += len(os.listdir(f"/proc/{entry.name}/task"))
        except OSError:  # the process ended meanwhile
            continue
    return count


def _thread_count() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return 0


def apply_limits(limits: SandboxLimits) -> None:
    """Resource limits (hard limits: the process can only lower them)."""
    resource.setrlimit(resource.RLIMIT_AS, (limits.address_space_bytes, limits.address_space_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_lifetime_s, limits.cpu_lifetime_s))
    # A crashing worker must not leave a core file (it would hold model memory and user text).
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # No regular file may grow: a write that gets past every other layer fails with EFBIG (Python
    # ignores SIGXFSZ). Pipes are not files, so the frames still flow.
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
    tasks = _user_tasks() + limits.new_tasks
    resource.setrlimit(resource.RLIMIT_NPROC, (tasks, tasks))


def set_request_cpu_limit(seconds: int) -> None:
    """Let the next request use at most ``seconds`` more CPU time (SIGXCPU, then SIGKILL at hard)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = int(usage.ru_utime + usage.ru_stime) + 1
    _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = used + seconds
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def python_paths() -> list[Path]:
    """The folders the interpreter imports from (standard library, extension modules, site-packages)
    and the appliance package's own folder: all the worker needs to read of the Python installation."""
    folders = [Path(p) for p in sys.path if p and Path(p).is_dir()]
    folders.append(Path(__file__).resolve().parents[1])
    return folders


#: Files and folders every llama.cpp load reads besides the model: the CPU's description (ggml reads
#: /proc/cpuinfo for the core count; on ARM the feature registers under /sys).
SYSTEM_READ_PATHS: tuple[Path, ...] = (Path("/proc/cpuinfo"), Path("/sys/devices/system/cpu"))


def _syscall_number(sc: ModuleType, name: str) -> int | None:
    # Arch.NATIVE (0), not system_arch(): python-seccomp takes the architecture as a C int, which the
    # audit value of x86_64 or aarch64 (above 2**31) overflows.
    number = int(sc.resolve_syscall(sc.Arch.NATIVE, name))
    if number >= 0:
        return number
    if name in _UNNAMED_SYSCALLS and sc.system_arch() in (_AUDIT_ARCH_X86_64, _AUDIT_ARCH_AARCH64):
        return _UNNAMED_SYSCALLS[name]
    # Not a call of this architecture (``select`` and ``poll`` on aarch64): nothing to allow or deny.
    return None


def _add(sc: ModuleType, flt: Any, action: int, name: str, *args: Any) -> None:
    number = _syscall_number(sc, name)
    if number is not None:
        flt.add_rule(action, number, *args)


def _new_filter(sc: ModuleType, default_action: int) -> Any:
    # A binding that cannot name calls would silently build a filter without rules.
    if _syscall_number(sc, "read") is None:
        raise OSError(errno.ENOSYS, f"{sc.__name__} cannot resolve system call names")
    flt = sc.SyscallFilter(default_action)
    flt.set_attr(sc.Attr.CTL_NNP, 1)
    flt.set_attr(sc.Attr.CTL_TSYNC, 1)
    return flt


def loading_filter(sc: ModuleType, pid: int) -> Any:
    """The loading phase's deny-list filter (default allow) for process ``pid``, not yet loaded."""
    flt = _new_filter(sc, sc.ALLOW)
    eperm = sc.ERRNO(errno.EPERM)
    for name in LOADING_DENIED:
        _add(sc, flt, eperm, name)
    for name in LOADING_NOSYS:
        _add(sc, flt, sc.ERRNO(errno.ENOSYS), name)
    for name in LOADING_SELF_ONLY:
        _add(sc, flt, eperm, name, sc.Arg(0, sc.NE, pid))
    for name in LOADING_SELF_ZERO:
        _add(sc, flt, eperm, name, sc.Arg(0, sc.NE, 0))
    # setpriority(PRIO_PROCESS, 0, n) is this process; any other "which" or "who" reaches others.
    _add(sc, flt, eperm, "setpriority", sc.Arg(0, sc.NE, 0))
    _add(sc, flt, eperm, "setpriority", sc.Arg(1, sc.NE, 0))
    # Files are opened for reading only: any of these flags writes, creates or empties one.
    for flag in _WRITE_FLAGS:
        _add(sc, flt, eperm, "open", sc.Arg(1, sc.MASKED_EQ, flag, flag))
        _add(sc, flt, eperm, "openat", sc.Arg(2, sc.MASKED_EQ, flag, flag))
    # Only threads, never a second process: a clone without CLONE_THREAD is a fork.
    _add(sc, flt, eperm, "clone", sc.Arg(0, sc.MASKED_EQ, _CLONE_THREAD, 0))
    for name in ("fork", "vfork"):
        _add(sc, flt, eperm, name)
    # Nothing new becomes executable: llama.cpp and Python are loaded, and code a hostile file
    # smuggled into memory must stay data.
    for name in ("mmap", "mprotect", "pkey_mprotect"):
        _add(sc, flt, eperm, name, sc.Arg(2, sc.MASKED_EQ, _PROT_EXEC, _PROT_EXEC))
    return flt


def enter_loading_sandbox(
    limits: SandboxLimits, *, read_paths: Iterable[Path], backend: ModuleType | None = None
) -> int:
    """Step 1, before the model file is opened: no new privileges, limits, Landlock, the deny-list.

    ``read_paths`` are the folders (and single files) the worker may read besides the Python
    installation and the CPU's description: the model's folder and the manifest. Landlock's
    restriction reaches only the calling thread and those it starts later, so the process must have
    one thread here. Returns the Landlock ABI version in force, or 0 when the kernel has no Landlock
    (reads are then not confined; everything else still holds).
    """
    sc = backend or BACKEND
    threads = _thread_count()
    if threads != 1:
        raise OSError(errno.EBUSY, f"the worker has {threads} threads before its sandbox, not 1")
    set_no_new_privs()
    apply_limits(limits)
    abi = landlock.restrict_to_reading([*python_paths(), *SYSTEM_READ_PATHS, *read_paths])
    loading_filter(sc, os.getpid()).load()
    return abi


def lock_down(
    *,
    read_fds: Iterable[int] = (0,),
    write_fds: Iterable[int] = (1, 2),
    backend: ModuleType | None = None,
) -> None:
    """Step 2, after warm-up: the allow-list filter; anything else kills the process.

    ``read_fds`` and ``write_fds`` are the only descriptors ``read`` and ``write`` may touch: the
    request pipe, the response pipe and stderr. No call that opens, creates or names a file is allowed,
    so the worker can neither read the user's files nor write anywhere but its pipes.
    """
    sc = backend or BACKEND
    set_no_new_privs()
    flt = _new_filter(sc, sc.KILL_PROCESS)
    for name in STRICT_ALLOWED:
        _add(sc, flt, sc.ALLOW, name)
    for fd in read_fds:
        _add(sc, flt, sc.ALLOW, "read", sc.Arg(0, sc.EQ, fd))
    for fd in write_fds:
        _add(sc, flt, sc.ALLOW, "write", sc.Arg(0, sc.EQ, fd))
    # New memory may be readable and writable but never executable: no code can be injected.
    for name in ("mmap", "mprotect"):
        _add(sc, flt, sc.ALLOW, name, sc.Arg(2, sc.MASKED_EQ, _PROT_EXEC, 0))
    # Threads only: clone must carry CLONE_THREAD. clone3 passes its flags in memory, which a filter
    # cannot inspect, so it gets ENOSYS and glibc falls back to clone.
    _add(sc, flt, sc.ALLOW, "clone", sc.Arg(0, sc.MASKED_EQ, _CLONE_THREAD, _CLONE_THREAD))
    _add(sc, flt, sc.ERRNO(errno.ENOSYS), "clone3")
    # The per-request CPU limit: only RLIMIT_CPU of this process may be changed (and never above the
    # hard limit, which only root could raise).
    _add(
        sc,
        flt,
        sc.ALLOW,
        "prlimit64",
        sc.Arg(0, sc.EQ, 0),
        sc.Arg(1, sc.EQ, resource.RLIMIT_CPU),
    )
    flt.load()
