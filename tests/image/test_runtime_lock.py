"""The locks are hash-checked: every pin carries the sha256 of the files pip may install for it, and
the files pip takes match them.

No network: the files checked are those already on this machine, the wheels the clean-root test
downloaded (``pip download`` run here, so the files pip picks on x86_64 CPython 3.11) and the files
``image-build/lock_hashes.py`` hashed for both platforms. A folder that is not there is skipped,
with the command that makes it.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Collection
from pathlib import Path

import pytest

from tests.image.locks import DEV_LOCK, RUNTIME_LOCK, lock_hashes

CLEAN_ROOT_WHEELS = (
    Path(os.environ.get("OPENCLAW_CLEAN_ROOT_CACHE", Path.home() / ".cache/openclaw/clean-root"))
    / "wheels-x86_64"
)
#: Only the development lock may name these: they never reach the device.
DEV_TOOLS = {"pytest", "pytest-asyncio", "mypy", "ruff", "playwright", "hypothesis"}


@pytest.mark.parametrize("lock", [RUNTIME_LOCK, DEV_LOCK], ids=lambda p: p.name)
def test_every_requirement_is_an_exact_pin_with_hashes(lock: Path) -> None:
    # pip's hash-checking mode is all or nothing for one install: a single unhashed or unpinned
    # line would make the whole install fail, so every line is a comment, -r, or a hashed pin.
    lines = [
        line.strip()
        for line in lock_hashes.logical_lines(lock.read_text(encoding="utf-8"))
        if line.strip() and not line.strip().startswith("#")
    ]
    pins = lock_hashes.read_pins(lock)
    assert pins
    assert len(lines) == len(pins) + sum(line.startswith("-r ") for line in lines), lines
    for pin in pins:
        assert pin.hashes, f"{lock.name}: {pin.name}=={pin.version} has no --hash"
        assert len(set(pin.hashes)) == len(pin.hashes), f"{pin.name}: a hash twice"
    keys = [pin.key for pin in pins]
    assert len(keys) == len(set(keys)), "a project pinned twice"


def test_the_runtime_lock_pins_llama_cpp_python_and_no_development_tool() -> None:
    runtime = {pin.key for pin in lock_hashes.read_pins(RUNTIME_LOCK)}
    dev = {pin.key for pin in lock_hashes.read_pins(DEV_LOCK)}
    assert "llama-cpp-python" in runtime
    assert not runtime & DEV_TOOLS
    assert dev >= DEV_TOOLS
    assert not runtime & dev, "the development lock repeats a runtime pin"
    assert "-r requirements-runtime.lock" in DEV_LOCK.read_text(encoding="utf-8").splitlines()


def _check_folder(folder: Path, locks: list[Path], exempt: Collection[str] = ()) -> None:
    """Every file of ``folder`` that belongs to a pin has one of the pin's hashes; skip if the
    folder holds none (or not all) of them."""
    if not folder.is_dir():
        pytest.skip(f"{folder} does not exist")
    missing, checked = [], 0
    for lock in locks:
        for pin in lock_hashes.read_pins(lock):
            if pin.key in exempt:
                continue
            found = lock_hashes.files_for(pin, folder)
            if not found:
                missing.append(f"{pin.name}=={pin.version}")
            for path in found:
                digest = lock_hashes.sha256(path)
                assert digest in pin.hashes, f"{path.name}: sha256 {digest} is not in {lock.name}"
                checked += 1
    if missing:
        pytest.skip(f"checked {checked} files; {folder} lacks {', '.join(missing)}")


def test_the_files_pip_takes_here_match_the_runtime_lock() -> None:
    """The wheels (and sdists) the clean-root test downloaded with pip on this machine, x86_64
    CPython 3.11, which install.sh installs with --require-hashes. llama-cpp-python's wheel there is
    the one ./bootstrap.sh compiled (its bytes are this machine's), so it is left out."""
    if platform.machine() != "x86_64" or sys.version_info[:2] != (3, 11):
        pytest.skip("the folder holds what pip takes on x86_64 CPython 3.11; this is not one")
    if not CLEAN_ROOT_WHEELS.is_dir():
        pytest.skip(f"no {CLEAN_ROOT_WHEELS}: image-build/test-clean-root.sh downloads it")
    _check_folder(CLEAN_ROOT_WHEELS, [RUNTIME_LOCK], exempt={"llama-cpp-python"})


@pytest.mark.parametrize("target", ["x86_64", "aarch64", "sdist"])
def test_the_files_the_lock_was_hashed_from_match_it(target: str) -> None:
    """Both platforms' wheels and the sdists that lock_hashes.py downloaded: the lock still gives
    their hashes (a version changed by hand without running the tool shows up here)."""
    folder = lock_hashes.CACHE / target
    if not folder.is_dir():
        pytest.skip(f"no {folder}: .venv/bin/python image-build/lock_hashes.py downloads it")
    if target == "sdist":
        # Only the pins with no wheel somewhere have their sdist there.
        pins = [p for lock in (RUNTIME_LOCK, DEV_LOCK) for p in lock_hashes.read_pins(lock)]
        with_sdist = [p for p in pins if lock_hashes.files_for(p, folder)]
        assert with_sdist, f"{folder} holds no sdist of a pin"
        for pin in with_sdist:
            for path in lock_hashes.files_for(pin, folder):
                assert lock_hashes.sha256(path) in pin.hashes, path.name
        return
    # The pins with no wheel for a platform (llama-cpp-python, sdnotify, srt) have their sdist instead.
    pins = [p for lock in (RUNTIME_LOCK, DEV_LOCK) for p in lock_hashes.read_pins(lock)]
    sdist_only = {p.key for p in pins if lock_hashes.files_for(p, lock_hashes.CACHE / "sdist")}
    _check_folder(folder, [RUNTIME_LOCK, DEV_LOCK], exempt=sdist_only)
