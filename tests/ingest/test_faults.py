"""Broken and hostile inputs: each gets a specific error naming the input, nothing is lost."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from appliance.config import Config, load_config
from appliance.errors import IndexStoreError, ModelError
from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore
from appliance.ingest.pipeline import ingest_path


@pytest.fixture
def seeded(store: IndexStore, config: Config, tmp_path: Path) -> Path:
    """A store already holding one good note, to prove nothing is lost."""
    good = tmp_path / "good.md"
    good.write_text("# Good\n\nThe bracket takes 25 N·m.\n")
    report = ingest_path(store, good, "shop", config=config)
    assert report.indexed == 1
    return good


def failure_code(store: IndexStore, config: Config, path: Path) -> tuple[str, str]:
    report = ingest_path(store, path, "shop", config=config)
    assert report.indexed == 0 and len(report.failures) == 1
    _name, err = report.failures[0]
    assert str(path.parent) not in err.message  # never the absolute path
    return err.code, err.message


def assert_good_intact(store: IndexStore) -> None:
    assert [s.source.endswith("good.md") for s in store.list_sources("shop")] == [True]
    assert store.integrity_check() == "ok"


@pytest.mark.parametrize(
    ("name", "content", "code"),
    [
        ("latin1.txt", "Drehmoment 25 N·m für Schrauben".encode("latin-1"), "text_not_utf8"),
        ("binary.md", b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)) * 4, "binary_as_text"),
        ("empty.md", b"", "file_empty"),
        ("blank.md", b"   \n\n\t\n", "file_empty"),
        ("table.xlsx", b"PK\x03\x04", "unsupported_type"),
        ("corrupt.pdf", b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog", "pdf_corrupt"),
        ("fake.pdf", b"this is not a pdf at all", "pdf_corrupt"),
    ],
)
def test_bad_files(
    store: IndexStore,
    config: Config,
    seeded: Path,
    tmp_path: Path,
    name: str,
    content: bytes,
    code: str,
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    got, message = failure_code(store, config, path)
    assert got == code and name in message
    assert_good_intact(store)


def test_200_mb_text_file_is_refused_before_reading(
    store: IndexStore, config: Config, seeded: Path, tmp_path: Path
) -> None:
    path = tmp_path / "huge.txt"
    with path.open("wb") as fh:
        fh.truncate(200 * 1024 * 1024)
    assert failure_code(store, config, path)[0] == "file_too_large"
    assert_good_intact(store)


def test_symlink_loop(store: IndexStore, config: Config, seeded: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.symlink_to(b)
    b.symlink_to(a)
    assert failure_code(store, config, a)[0] == "symlink_loop"
    assert_good_intact(store)


def test_encrypted_and_empty_pdfs(
    store: IndexStore, config: Config, seeded: Path, tmp_path: Path
) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret bracket drawing")
    enc = tmp_path / "locked.pdf"
    doc.save(enc, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    assert failure_code(store, config, enc)[0] == "pdf_encrypted"
    # A PDF whose page tree is empty: write a valid one, then drop its only page reference.
    empty = tmp_path / "nopages.pdf"
    one = pymupdf.open()
    one.new_page()
    raw = one.tobytes().replace(b"/Count 1", b"/Count 0").replace(b"/Kids[4 0 R]", b"/Kids[]")
    empty.write_bytes(raw)
    code = failure_code(store, config, empty)[0]
    assert code in ("pdf_empty", "pdf_corrupt")
    assert_good_intact(store)


def test_text_layer_pdf_keeps_pages_and_boxes(
    store: IndexStore, config: Config, tmp_path: Path
) -> None:
    doc = pymupdf.open()
    for n in range(3):
        page = doc.new_page()
        page.insert_text((72, 100), f"Page {n + 1}: torque of bracket bolts is {20 + n} N m.")
    path = tmp_path / "manual.pdf"
    doc.save(path)
    report = ingest_path(store, path, "shop", config=config)
    assert report.indexed == 1
    slices = store.source_slices("shop", str(path))
    assert [s.page for s in slices] == [1, 2, 3]
    assert all(s.box is not None and 60 < s.box.x0 < 80 for s in slices)


def test_folder_with_one_bad_file_indexes_the_rest(
    store: IndexStore, config: Config, tmp_path: Path
) -> None:
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "a.md").write_text("alpha bracket")
    (folder / "b.md").write_bytes(b"\xff\xfe\x00bad")
    (folder / "c.txt").write_text("gamma bracket")
    report = ingest_path(store, folder, "shop", config=config)
    assert report.indexed == 2 and [n for n, _ in report.failures] == ["b.md"]


def test_folder_without_permission(tmp_path: Path) -> None:
    """Root reads anything, so the walk runs in a child without the capabilities that allow it."""
    root = tmp_path / "perm"
    locked = root / "locked"
    locked.mkdir(parents=True)
    (locked / "x.md").write_text("hidden")
    locked.chmod(0)
    root.chmod(0o755)
    tmp_path.chmod(0o755)
    script = (
        "from pathlib import Path; from appliance.ingest.pipeline import iter_files\n"
        "from appliance.errors import OpenClawError\n"
        f"try:\n    list(iter_files(Path({str(root)!r})))\nexcept OpenClawError as e:\n    print(e.code)\n"
    )
    prefix = (
        ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
    )
    out = subprocess.run(
        [*prefix, sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PATH": os.environ["PATH"]},
        timeout=120,
    )
    assert out.stdout.strip() == "permission_denied", out.stderr[-2000:]


def test_database_file_that_is_not_sqlite(config: Config, embedder: Embedder) -> None:
    path = config.data_path("index.sqlite3")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"PK\x03\x04 definitely a zip file, not a database" * 100)
    with pytest.raises(IndexStoreError) as err:
        IndexStore.open(config, embedder=embedder)
    assert err.value.code == "index_not_sqlite"
    assert str(path.parent) not in err.value.message


def test_model_with_wrong_checksum_is_refused(tmp_path: Path) -> None:
    from appliance.models.manifest import load_manifest
    from appliance.models.store import locate

    spec = load_manifest().get("all-minilm-l6-v2-int8")
    models = tmp_path / "models"
    target = models / spec.name
    target.mkdir(parents=True)
    for role in ("onnx", "tokenizer"):
        shutil.copy(locate(spec, role, Path("/nonexistent")), target / spec.file(role).path)
    onnx = target / "model.onnx"
    data = bytearray(onnx.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte, same size
    onnx.write_bytes(bytes(data))
    with pytest.raises(ModelError) as err:
        Embedder.from_manifest(spec.name, models)
    assert err.value.code == "model_checksum" and "model.onnx" in err.value.message
    cfg = load_config(
        environ={
            "OPENCLAW_PATHS__MODELS_DIR": str(models),
            "OPENCLAW_PATHS__DATA_DIR": str(tmp_path),
        }
    )
    with pytest.raises(ModelError):
        IndexStore.open(cfg)
