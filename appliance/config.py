"""Configuration: one TOML file, frozen dataclasses per subsystem, environment overrides.

Resolution order for the file: ``--config`` > ``$OPENCLAW_CONFIG`` > ``/etc/openclaw/openclaw.toml``
(when it exists) > built-in defaults. Any key can be overridden from the environment as
``OPENCLAW_<SECTION>__<KEY>`` (for example ``OPENCLAW_INDEX__MAX_RESULTS=5``). Everything is validated
once, before any hardware is touched: a bad value raises :class:`ConfigError` with one line that names
the key and what is allowed.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from appliance.answer.settings import AnswerSettings
from appliance.audio.settings import AudioSettings
from appliance.errors import ConfigError
from appliance.gpio.settings import GpioSettings
from appliance.index.settings import IndexSettings
from appliance.ingest.settings import IngestSettings
from appliance.presence.settings import PresenceSettings
from appliance.vision.settings import VisionSettings
from appliance.web.settings import WebSettings

DEFAULT_CONFIG_PATH = Path("/etc/openclaw/openclaw.toml")
ENV_CONFIG = "OPENCLAW_CONFIG"
ENV_PREFIX = "OPENCLAW_"

T = TypeVar("T")


@dataclass(frozen=True)
class PathSettings:
    """Where the appliance keeps its state."""

    #: Root of everything the appliance writes: index, thumbnails, memory, inboxes, logs.
    data_dir: Path = Path("var")
    #: Directory holding installed model files (manifest locations are resolved against it).
    models_dir: Path = Path("var/models")


@dataclass(frozen=True)
class Config:
    """The whole validated configuration, one frozen section per subsystem."""

    #: Storage locations.
    paths: PathSettings = field(default_factory=PathSettings)
    #: Knowledge index and embedder.
    index: IndexSettings = field(default_factory=IndexSettings)
    #: Chunking and file ingestion.
    ingest: IngestSettings = field(default_factory=IngestSettings)
    #: Camera, page correction and OCR.
    vision: VisionSettings = field(default_factory=VisionSettings)
    #: Microphone, wake word, speech recognition and speech output.
    audio: AudioSettings = field(default_factory=AudioSettings)
    #: The sandboxed answer worker.
    answer: AnswerSettings = field(default_factory=AnswerSettings)
    #: BLE beacons and rooms.
    presence: PresenceSettings = field(default_factory=PresenceSettings)
    #: LEDs and buttons.
    gpio: GpioSettings = field(default_factory=GpioSettings)
    #: The status page.
    web: WebSettings = field(default_factory=WebSettings)
    #: Where this configuration came from ("<defaults>" or a file name).
    source: str = "<defaults>"

    def data_path(self, *parts: str) -> Path:
        """A path under the data directory."""
        return self.paths.data_dir.joinpath(*parts)


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", str(tp))


def _coerce(key: str, value: Any, tp: Any) -> Any:
    """Convert a TOML or environment value to the annotated type, or raise naming the key."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(key, value, arg)
            except ConfigError as err:
                errors.append(err)
        raise errors[0] if errors else ConfigError(f"{key}: unsupported value {value!r}")
    if origin is typing.Literal:
        if isinstance(value, str) and value in args:
            return value
        allowed = ", ".join(repr(a) for a in args)
        raise ConfigError(f"{key}: {value!r} is not allowed; choose one of {allowed}")
    if origin in (tuple, list):
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list | tuple):
            raise ConfigError(f"{key}: expected a list, got {type(value).__name__}")
        item_type = args[0] if args else str
        return tuple(_coerce(f"{key}[{i}]", v, item_type) for i, v in enumerate(value))
    if origin is dict or tp is dict:
        if not isinstance(value, Mapping):
            raise ConfigError(f"{key}: expected a table, got {type(value).__name__}")
        return dict(value)
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in (
            "1",
            "true",
            "yes",
            "on",
            "0",
            "false",
            "no",
            "off",
        ):
            return value.lower() in ("1", "true", "yes", "on")
        raise ConfigError(f"{key}: expected true or false, got {value!r}")
    if tp is int:
        if isinstance(value, bool):
            raise ConfigError(f"{key}: expected an integer, got {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{key}: expected an integer, got {value!r}") from None
    if tp is float:
        if isinstance(value, bool):
            raise ConfigError(f"{key}: expected a number, got {value!r}")
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{key}: expected a number, got {value!r}") from None
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(f"{key}: expected a string, got {type(value).__name__}")
        return value
    if tp is Path:
        if not isinstance(value, str | Path):
            raise ConfigError(f"{key}: expected a path, got {type(value).__name__}")
        return Path(value)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(value, Mapping):
            raise ConfigError(f"{key}: expected a table, got {type(value).__name__}")
        return build_section(key, tp, value)
    raise ConfigError(f"{key}: cannot read a value of type {_type_name(tp)}")


def build_section(prefix: str, cls: type[T], table: Mapping[str, Any]) -> T:
    """Build one frozen settings dataclass from a TOML table, rejecting unknown keys."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(table) - set(fields))
    if unknown:
        known = ", ".join(sorted(fields))
        raise ConfigError(f"{prefix}.{unknown[0]}: unknown key; known keys are {known}")
    kwargs = {
        name: _coerce(f"{prefix}.{name}", value, hints[name]) for name, value in table.items()
    }
    instance = cls(**kwargs)
    validate = getattr(instance, "validate", None)
    if callable(validate):
        validate()
    return instance


def _env_overrides(environ: Mapping[str, str]) -> dict[str, dict[str, str]]:
    overrides: dict[str, dict[str, str]] = {}
    for name, value in environ.items():
        if not name.startswith(ENV_PREFIX) or "__" not in name:
            continue
        section, _, key = name[len(ENV_PREFIX) :].partition("__")
        overrides.setdefault(section.lower(), {})[key.lower()] = value
    return overrides


def resolve_config_path(explicit: str | Path | None, environ: Mapping[str, str]) -> Path | None:
    """The configuration file to read, or None for the built-in defaults."""
    if explicit:
        return Path(explicit)
    if environ.get(ENV_CONFIG):
        return Path(environ[ENV_CONFIG])
    if DEFAULT_CONFIG_PATH.exists():
        return DEFAULT_CONFIG_PATH
    return None


def load_config(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Read, merge and validate the configuration."""
    environ = os.environ if environ is None else environ
    file_path = resolve_config_path(path, environ)
    data: dict[str, Any] = {}
    source = "<defaults>"
    if file_path is not None:
        try:
            data = tomllib.loads(file_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config file {file_path.name}: not found") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise ConfigError(f"config file {file_path.name}: not valid TOML ({err})") from None
        source = file_path.name
    for section, values in _env_overrides(environ).items():
        existing = data.setdefault(section, {})
        if not isinstance(existing, dict):
            raise ConfigError(f"{section}: expected a table")
        existing.update(values)
    config = build_section("config", Config, {**data, "source": source})
    base = file_path.parent if file_path is not None else Path.cwd()
    return _anchor_paths(config, base)


def _anchor_paths(config: Config, base: Path) -> Config:
    """Make relative data paths absolute against the config file's folder (or the cwd)."""
    paths = config.paths
    data_dir = paths.data_dir if paths.data_dir.is_absolute() else (base / paths.data_dir)
    models_dir = paths.models_dir if paths.models_dir.is_absolute() else (base / paths.models_dir)
    new_paths = dataclasses.replace(
        paths, data_dir=data_dir.resolve(), models_dir=models_dir.resolve()
    )
    # The vision path reads with a model too (the Chinese line recogniser), from the same folder.
    vision = dataclasses.replace(config.vision, models_dir=models_dir.resolve())
    return dataclasses.replace(config, paths=new_paths, vision=vision)
