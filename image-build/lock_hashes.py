"""Write the sha256 hashes of every pin of a lock file, so pip installs it in hash-checking mode.

    .venv/bin/python image-build/lock_hashes.py requirements-runtime.lock requirements.lock

For each ``name==version`` line it hashes the files pip may install on the two machines the locks
serve, CPython 3.11 on Debian bookworm (glibc 2.36): the wheel pip picks for manylinux x86_64 (this
development machine) and for manylinux aarch64 (the Pi 5), and the sdist where a platform has no wheel
(llama-cpp-python, which is always compiled, sdnotify, srt). The files come from PyPI through
``pip download --no-deps`` and are kept in ``~/.cache/openclaw/lock-files/<x86_64|aarch64|sdist>/``
(a second run downloads nothing new; tests/image/test_runtime_lock.py checks them against the lock).
The file is rewritten in place: comments and ``-r`` lines stay, each pin is followed by its sorted
``--hash=sha256:`` lines. Change a version by editing its pin and running this again.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: The two targets, each with the manylinux tags pip accepts on bookworm (glibc 2.36), newest first as
#: pip prefers them (``--platform manylinux_2_36_x86_64`` alone would not take a manylinux_2_28 wheel).
PLATFORMS = {
    arch: [f"manylinux_2_{minor}_{arch}" for minor in range(36, 4, -1)]
    + [f"manylinux{alias}_{arch}" for alias in ("2014", "2010", "1")]
    for arch in ("x86_64", "aarch64")
}
PYTHON_VERSION = "3.11"
CACHE = Path(
    os.environ.get("OPENCLAW_LOCK_FILES", Path.home() / ".cache" / "openclaw" / "lock-files")
)
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
HASH = re.compile(r"--hash=sha256:([0-9a-f]{64})")


@dataclass(frozen=True)
class Pin:
    """One ``name==version`` requirement of a lock file."""

    name: str
    """The project name as the lock spells it."""
    version: str
    """The exact version."""
    hashes: tuple[str, ...]
    """The sha256 hex digests of the files pip may install for it (empty before the first run)."""

    @property
    def key(self) -> str:
        """The normalised project name (PEP 503), which file names also normalise to."""
        return normalise(self.name)


def normalise(name: str) -> str:
    """PEP 503 normalisation: case and runs of ``-_.`` do not matter in project names."""
    return re.sub(r"[-_.]+", "-", name).lower()


def logical_lines(text: str) -> list[str]:
    """The lines of a requirements file with backslash continuations joined, as pip reads them."""
    out: list[str] = []
    pending = ""
    for raw in text.splitlines():
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        out.append(pending + raw)
        pending = ""
    if pending:
        out.append(pending)
    return out


def read_pins(path: Path) -> list[Pin]:
    """The pins of one lock file (not of the files it includes with ``-r``), in file order."""
    pins = []
    for line in logical_lines(path.read_text(encoding="utf-8")):
        match = PIN.match(line.strip())
        if match:
            pins.append(Pin(match[1], match[2], tuple(HASH.findall(line))))
    return pins


def file_project(filename: str) -> tuple[str, str] | None:
    """(normalised name, version) of a wheel or sdist file name, or None for anything else."""
    if filename.endswith(".whl"):
        parts = filename[: -len(".whl")].split("-")
        return (normalise(parts[0]), parts[1]) if len(parts) >= 5 else None
    for suffix in (".tar.gz", ".zip"):
        if filename.endswith(suffix):
            name, _, version = filename[: -len(suffix)].rpartition("-")
            return (normalise(name), version) if name else None
    return None


def files_for(pin: Pin, folder: Path) -> list[Path]:
    """The files of ``folder`` that belong to this pin's release."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if file_project(p.name) == (pin.key, pin.version))


def sha256(path: Path) -> str:
    """The sha256 hex digest of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _pip_download(args: list[str], dest: Path) -> subprocess.CompletedProcess[str]:
    dest.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", str(dest)]
    return subprocess.run([*argv, *args], capture_output=True, text=True)


def _wheels(pins: list[Pin], platform: str) -> list[Pin]:
    """Download the wheel pip picks for each pin on one platform; return the pins that have none."""
    dest = CACHE / platform
    tags = [
        "--only-binary=:all:",
        *(f"--platform={tag}" for tag in PLATFORMS[platform]),
        f"--python-version={PYTHON_VERSION}",
        "--implementation=cp",
    ]
    wanted = [p for p in pins if not files_for(p, dest)]
    # One pip run for all of them; a pin pip finds no wheel for is named in its error, left out,
    # and the rest tried again.
    while wanted:
        proc = _pip_download([*tags, *(f"{p.name}=={p.version}" for p in wanted)], dest)
        if proc.returncode == 0:
            break
        failed = [
            p for p in wanted if f"distribution found for {p.name}=={p.version}" in proc.stderr
        ]
        if not failed:
            raise SystemExit(f"pip download ({platform}) failed:\n{proc.stderr}")
        wanted = [p for p in wanted if p not in failed]
    return [p for p in pins if not files_for(p, dest)]


def _sdist(pin: Pin) -> list[Path]:
    dest = CACHE / "sdist"
    if not files_for(pin, dest):
        proc = _pip_download(["--no-binary=:all:", f"{pin.name}=={pin.version}"], dest)
        if proc.returncode != 0:
            raise SystemExit(f"{pin.name}=={pin.version}: no wheel and no sdist:\n{proc.stderr}")
    found = files_for(pin, dest)
    return found


def hashes_for(pins: list[Pin]) -> dict[str, list[str]]:
    """Every pin's sorted sha256 digests over both platforms' wheels and the sdists needed."""
    files: dict[str, set[Path]] = {p.key: set() for p in pins}
    for platform in PLATFORMS:
        for pin in pins:
            files[pin.key].update(files_for(pin, CACHE / platform))
        for pin in _wheels(pins, platform):
            print(f"{pin.name}=={pin.version}: no {platform} wheel, the sdist", file=sys.stderr)
            files[pin.key].update(_sdist(pin))
        for pin in pins:
            files[pin.key].update(files_for(pin, CACHE / platform))
    return {key: sorted({sha256(f) for f in found}) for key, found in files.items()}


def rewrite(path: Path) -> None:
    """Write ``path`` again with the hashes of every pin (comments and ``-r`` lines kept)."""
    pins = read_pins(path)
    digests = hashes_for(pins)
    out = []
    for line in logical_lines(path.read_text(encoding="utf-8")):
        match = PIN.match(line.strip())
        if not match:
            out.append(line)
            continue
        pin = f"{match[1]}=={match[2]}"
        out.append(
            " \\\n".join([pin, *(f"    --hash=sha256:{h}" for h in digests[normalise(match[1])])])
        )
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"{path}: {len(pins)} pins hashed", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("locks", nargs="+", type=Path, help="lock files to rewrite with hashes")
    for lock in parser.parse_args().locks:
        rewrite(lock)


if __name__ == "__main__":
    main()
