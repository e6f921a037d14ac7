"""Landlock: confine the answer worker's file access to a few folders, read-only.

Landlock is the kernel's unprivileged access control (Linux 5.13 and later, when the kernel enables
it). A process builds a ruleset naming the folders it may still use and how, then restricts itself;
the restriction is inherited by every thread it starts afterwards and can never be lifted. Unlike a
seccomp filter, which sees only a path's address, Landlock judges the file actually opened, so it can
say "read below these folders, nothing else".

The worker uses it while llama.cpp parses the model: reads are limited to the Python installation, the
model's folder and the manifest; nothing may be written, created, removed or renamed anywhere; with ABI
4 or later no TCP port may be bound or connected, and with ABI 6 or later no signal may be sent to a
process outside the worker and no abstract UNIX socket reached.

The system calls are made through ``ctypes``: Python has no binding, and the numbers (444-446) are the
same on every architecture the appliance runs on.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

_SYS_CREATE_RULESET = 444
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1 << 0
_RULE_PATH_BENEATH = 1

# File-system access rights, by the ABI version that introduced them.
ACCESS_EXECUTE = 1 << 0
ACCESS_WRITE_FILE = 1 << 1
ACCESS_READ_FILE = 1 << 2
ACCESS_READ_DIR = 1 << 3
_ACCESS_FS_V1 = (1 << 13) - 1  # execute .. make_sym
_ACCESS_REFER = 1 << 13  # ABI 2
_ACCESS_TRUNCATE = 1 << 14  # ABI 3
_ACCESS_IOCTL_DEV = 1 << 15  # ABI 5
_ACCESS_NET_BIND_TCP = 1 << 0  # ABI 4
_ACCESS_NET_CONNECT_TCP = 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
_SCOPE_SIGNAL = 1 << 1

#: What a folder on the read list grants: open its files for reading and list it.
READ_FOLDER = ACCESS_READ_FILE | ACCESS_READ_DIR
#: What a single file on the read list grants.
READ_FILE = ACCESS_READ_FILE


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is packed: 12 bytes
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def abi_version() -> int:
    """The Landlock ABI the kernel offers; 0 when it has none (too old, or Landlock not enabled)."""
    version = int(_libc.syscall(_SYS_CREATE_RULESET, None, 0, _CREATE_RULESET_VERSION))
    if version < 0:
        err = ctypes.get_errno()
        if err in (errno.ENOSYS, errno.EOPNOTSUPP, errno.EPERM):
            return 0
        raise OSError(err, "landlock_create_ruleset(VERSION) failed")
    return version


def _handled_fs(abi: int) -> int:
    rights = _ACCESS_FS_V1
    if abi >= 2:
        rights |= _ACCESS_REFER
    if abi >= 3:
        rights |= _ACCESS_TRUNCATE
    if abi >= 5:
        rights |= _ACCESS_IOCTL_DEV
    return rights


def restrict_to_reading(paths: Iterable[Path]) -> int:
    """Restrict this process to reading below ``paths`` (folders) or exactly ``paths`` (files).

    Paths that do not exist are skipped. Requires ``PR_SET_NO_NEW_PRIVS`` (or CAP_SYS_ADMIN) and applies
    to the calling thread and everything it starts later, so call it while the process has one thread.
    Returns the ABI version used, or 0 when the kernel has no Landlock (nothing is restricted then).
    """
    abi = abi_version()
    if abi == 0:
        return 0
    attr = _RulesetAttr(
        handled_access_fs=_handled_fs(abi),
        handled_access_net=_ACCESS_NET_BIND_TCP | _ACCESS_NET_CONNECT_TCP if abi >= 4 else 0,
        scoped=_SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 else 0,
    )
    ruleset = int(_libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        for path in dict.fromkeys(paths):  # in order, once each
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            try:
                folder = stat.S_ISDIR(os.fstat(fd).st_mode)
                rule = _PathBeneathAttr(
                    allowed_access=READ_FOLDER if folder else READ_FILE, parent_fd=fd
                )
                if _libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0):
                    raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path.name}")
            finally:
                os.close(fd)
        if _libc.syscall(_SYS_RESTRICT_SELF, ruleset, 0):
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)
    return abi
