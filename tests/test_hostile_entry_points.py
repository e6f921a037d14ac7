"""The hostile corpus (and hostile WAVs) through every other entry point: ``openclaw ocr``, ``get``,
``forget``, ``listen --wav`` and the status page's upload route of a running service.

Every input ends with its own coded error (or works); nothing prints a traceback, the service keeps
serving, the index passes ``PRAGMA integrity_check`` and a source indexed before keeps its slices.
The ``index`` command and the service inbox are covered in test_hostile_inputs.py.
"""

from __future__ import annotations

import io
import json
import os
import struct
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
import soundfile as sf

from appliance.cli import main
from tests.test_hostile_inputs import NOTE, Service, _free_port, _openclaw, build_corpus

KEEP = b"# Spindle\n\nThe spindle nut takes 40 N m.\n\nIts lock washer is replaced every time.\n"

#: What ``openclaw ocr`` says about each file of the corpus (it reads drawings only).
OCR_CODES = {
    "plate\\xff.md": "unsupported_type",
    "\\xe9tau\\xfe.md": "unsupported_type",
    "nul.md": "unsupported_type",
    "latin1.md": "unsupported_type",
    "empty.md": "file_empty",
    "blank.md": "unsupported_type",
    "zero.png": "file_empty",
    "zero.jpg": "file_empty",
    "truncated.png": "image_truncated",
    "truncated.jpg": "image_truncated",
    "header-only.png": "image_not_an_image",
    "not-a-png.png": "image_not_an_image",
    "huge-page.pdf": "page_too_large",
    "corrupt.pdf": "pdf_corrupt",
    "zero.pdf": "file_empty",
    "sparse.pdf": "file_too_large",
    "loop-a.md": "symlink_loop",
    "loop-b.md": "symlink_loop",
}


def _wav_bytes(samples: int, rate: int) -> bytes:
    out = io.BytesIO()
    sf.write(out, np.zeros(samples, np.int16), rate, subtype="PCM_16", format="WAV")
    return out.getvalue()


def build_audio_corpus(folder: Path) -> dict[str, str | None]:
    """Hostile WAV files; returns display name -> the code ``listen --wav`` must give (None: plays)."""
    folder.mkdir(parents=True, exist_ok=True)
    good = _wav_bytes(16000, 16000)
    expected: dict[str, str | None] = {}

    def put(name: str, data: bytes, code: str | None) -> None:
        (folder / name).write_bytes(data)
        expected[name] = code

    put("header-cut.wav", good[:30], "audio_unreadable")
    put("truncated.wav", good[:2000], "audio_truncated")
    put("rate-3000.wav", _wav_bytes(300, 3000), "audio_format")
    put("rate-1mhz.wav", _wav_bytes(16000, 1_000_000), "audio_format")
    put("zero-frames.wav", _wav_bytes(0, 16000), "audio_empty")
    put("zero.wav", b"", "audio_unreadable")
    put("text.wav", NOTE, "audio_unreadable")
    huge = bytearray(good)
    struct.pack_into("<I", huge, 40, 0xFFFFFFF0)  # a data chunk of 4 GB in a 32 KB file
    put("huge-declared.wav", bytes(huge), "audio_truncated")
    # A header declaring 2 GB of audio, and the 2 GB there (sparse): too long to decode whole.
    sparse = bytearray(good[:44])
    struct.pack_into("<I", sparse, 4, 2 * 1024**3 - 8)
    struct.pack_into("<I", sparse, 40, 2 * 1024**3 - 44)
    put("sparse-declared.wav", bytes(sparse), "audio_too_long")
    with open(folder / "sparse-declared.wav", "r+b") as fh:
        fh.truncate(2 * 1024**3)
    # RIFF/WAVE and then 2 GB of zeros: no chunk to find (and no 8-byte walk through all of it).
    put("riff-zeros.wav", b"RIFF\xf0\xff\xff\xffWAVE", "audio_unreadable")
    with open(folder / "riff-zeros.wav", "r+b") as fh:
        fh.truncate(2 * 1024**3)
    os.symlink("loop.wav", folder / "loop.wav")
    expected["loop.wav"] = "audio_missing"
    with open(os.fsencode(folder) + b"/quiet\xfe.wav", "wb") as fh:  # a fine file, a bad name
        fh.write(good)
    expected["quiet\\xfe.wav"] = None
    return expected


def _run(capsys: pytest.CaptureFixture[str], config: Path, *args: str) -> tuple[int, str, str]:
    """``openclaw`` in this process (as the console script runs it): exit status, stdout, stderr."""
    try:
        rc = main(["--config", str(config), *args])
    except SystemExit as done:  # a command that ends with its own status (index: 4 when any failed)
        rc = int(done.code or 0)
    out, err = capsys.readouterr()
    return rc, out, err


def _code(err: str) -> str | None:
    """The code of ``openclaw: error: [code] message`` (None when no such line)."""
    for line in err.splitlines():
        if line.startswith("openclaw: error: ["):
            return line.split("[", 1)[1].split("]", 1)[0]
    return None


def _on_disk(folder: Path, shown: str) -> str:
    """The real (surrogate-escaped) name behind a display name of the corpus."""
    for name in os.listdir(folder):
        if name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace") == shown:
            return str(folder / name)
    raise AssertionError(shown)


def test_ocr_get_and_forget_give_a_coded_error_for_every_hostile_file(
    config_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    expected = build_corpus(corpus)
    assert set(expected) == set(OCR_CODES)
    keep = tmp_path / "keep" / "spindle.md"
    keep.parent.mkdir()
    keep.write_bytes(KEEP)
    assert _run(capsys, config_file, "index", str(keep))[0] == 0

    for shown, code in OCR_CODES.items():
        rc, _out, err = _run(capsys, config_file, "ocr", _on_disk(corpus, shown))
        assert (rc, _code(err)) == (4, code), (shown, err)
        assert str(tmp_path) not in err

    rc, out, _err = _run(capsys, config_file, "index", str(corpus), "--json")
    assert rc == 4
    indexed = {Path(r["source"]).name for r in json.loads(out)["indexed"]}
    assert indexed == {name for name, code in expected.items() if code is None}
    for shown, code in expected.items():
        path = _on_disk(corpus, shown)
        rc, out, err = _run(capsys, config_file, "get", path)
        if code is None:
            assert rc == 0 and "fixture plate bolts take 12 N m" in out, (shown, err)
        else:
            assert (rc, _code(err)) == (4, "source_not_found"), (shown, err)
        # Relative names (the loop resolves to nothing), odd namespaces: found or not, never a crash.
        for args in (["--from", "1", shown], ["-n", "gl\x01obal", shown], ["-n", "../..", path]):
            rc, _out, err = _run(capsys, config_file, "get", *args)
            assert _code(err) == "source_not_found" and "\x01" not in err, (shown, args, err)
    for shown, code in expected.items():
        rc, out, err = _run(capsys, config_file, "forget", _on_disk(corpus, shown))
        if code is None:
            assert rc == 0 and out.rstrip().endswith("plate\\xff.md"), err
        else:
            assert (rc, _code(err)) == (4, "source_not_found"), (shown, err)

    rc, out, _err = _run(capsys, config_file, "sources", "--json")
    assert [(Path(s["source"]).name, s["slices"]) for s in json.loads(out)] == [("spindle.md", 1)]
    rc, out, _err = _run(capsys, config_file, "get", str(keep))
    assert rc == 0 and "lock washer" in out
    stats = json.loads(_run(capsys, config_file, "stats", "--json")[1])
    assert stats["integrity"] == "ok" and stats["sources"] == 1 and stats["slices"] == 1


def test_get_prints_a_pdfs_indexed_text_not_its_bytes(
    config_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pymupdf

    pdf = tmp_path / "bracket.pdf"
    with pymupdf.open() as doc:
        doc.new_page().insert_text((72, 72), "The bracket bolts take 25 N m (note 3).")
        doc.save(pdf)
    assert _run(capsys, config_file, "index", str(pdf))[0] == 0
    rc, out, err = _run(capsys, config_file, "get", str(pdf))
    assert rc == 0 and "25 N m" in out and "%PDF" not in out
    assert "not a text file" in err


def test_listen_replays_or_refuses_every_hostile_wav(
    config_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "wavs"
    expected = build_audio_corpus(folder)
    got: dict[str, str | None] = {}
    for shown in expected:
        rc, out, err = _run(
            capsys, config_file, "listen", "--fast", "--wav", _on_disk(folder, shown)
        )
        got[shown] = _code(err)
        assert rc == (0 if got[shown] is None else 4), (shown, err)
        assert str(tmp_path) not in err
        if got[shown] is None:
            assert out.strip().endswith("0 question(s) heard")
    assert got == expected


@pytest.fixture
def service_config(tmp_path: Path) -> Path:
    config = tmp_path / "openclaw.toml"
    config.write_text(
        f'[paths]\ndata_dir = "{tmp_path / "data"}"\n[web]\nport = {_free_port()}\n'
        'max_upload_mb = 8\n[answer]\nllm_model = ""\n[ingest]\ndebounce_s = 0.3\n',
        encoding="utf-8",
    )
    return config


#: What the upload route says about each corpus file: refused at the door with an HTTP status and
#: code, or accepted (202) and then failed by the indexer with a code (None: indexed).
UPLOADS: dict[str, tuple[int, str | None]] = {
    "plate\\xff.md": (400, "filename_invalid"),
    "\\xe9tau\\xfe.md": (400, "filename_invalid"),
    "nul.md": (400, "upload_type_mismatch"),
    "latin1.md": (202, "text_not_utf8"),
    "empty.md": (400, "upload_empty"),
    "blank.md": (202, "file_empty"),
    "zero.png": (400, "upload_empty"),
    "zero.jpg": (400, "upload_empty"),
    "truncated.png": (202, "image_truncated"),
    "truncated.jpg": (202, "image_truncated"),
    "header-only.png": (202, "image_not_an_image"),
    "not-a-png.png": (400, "upload_type_mismatch"),
    "huge-page.pdf": (202, "page_too_large"),
    "corrupt.pdf": (202, "pdf_corrupt"),
    "zero.pdf": (400, "upload_empty"),
    "sparse.pdf": (413, "upload_too_large"),
}


def test_the_corpus_through_the_status_pages_upload_route(
    service_config: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    (data / "inbox" / "global").mkdir(parents=True)
    (data / "inbox" / "global" / "spindle.md").write_bytes(KEEP)
    corpus = tmp_path / "corpus"
    build_corpus(corpus)
    audio = build_audio_corpus(tmp_path / "wavs")
    port = int(service_config.read_text().split("port = ")[1].split("\n")[0])
    service = Service(service_config, port, data)
    try:
        assert service.settled({"spindle.md": None}) == {"spindle.md": None}
        before = httpx.get(f"{service.url}/api/sources", timeout=10).json()
        token = (data / "secrets" / "admin-token").read_text().strip()
        auth = {"Authorization": f"Bearer {token}"}
        accepted: dict[str, str | None] = {}
        for shown, (status, code) in UPLOADS.items():
            path = _on_disk(corpus, shown)
            with open(path, "rb") as fh:  # streamed: the 2 GB sparse file is never read whole
                response = _upload(service.url, auth, shown, fh)
            assert response.status_code == status, (shown, response.text)
            if status == 202:
                accepted[shown] = code
            else:
                assert response.json()["code"] == code, (shown, response.text)
        for name in audio:  # a WAV is not a document: refused by its name, whatever it holds
            path = _on_disk(tmp_path / "wavs", name)
            if os.path.isfile(path):
                with open(path, "rb") as fh:
                    response = _upload(service.url, auth, name, fh)
                assert response.json()["code"] in {
                    "filename_invalid",
                    "upload_empty",
                    "upload_too_large",
                }, name
        # A name that is not UTF-8 in the query itself (%FF), and one with a path in it.
        for query in (
            "filename=plate%FF.md",
            "filename=..%2Fspindle.md",
            "namespace=..&filename=a.md",
        ):
            response = httpx.post(
                f"{service.url}/api/admin/upload?{query}", content=KEEP, headers=auth, timeout=60
            )
            assert response.status_code == 400 and response.json()["code"], query
        assert service.settled(accepted) == accepted
        assert httpx.get(f"{service.url}/healthz", timeout=10).status_code == 200
        state = service.state()
        components = {c["name"]: c for c in state["components"]}
        assert components["web"]["restarts"] == 0 and components["inbox"]["restarts"] == 0
        after = httpx.get(f"{service.url}/api/sources", timeout=10).json()
        assert after == before  # nothing lost, nothing half-indexed
        assert not list((data / "uploads").iterdir())  # refused uploads leave nothing behind
    finally:
        service.stop()
    assert "Traceback" not in service.log
    stats = json.loads(_openclaw(service_config, "stats", "--json").stdout)
    assert stats["integrity"] == "ok" and stats["sources"] == 1


def _upload(url: str, auth: dict[str, str], name: str, fh: Any) -> httpx.Response:
    """POST a file to the upload route (the file object is streamed with its Content-Length)."""
    return httpx.post(
        f"{url}/api/admin/upload",
        params={"namespace": "global", "filename": name},
        content=fh,
        headers=auth,
        timeout=120,
    )


def test_ocr_boxes_out_on_a_huge_page_hits_the_pixel_cap(
    config_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pymupdf
    from PIL import Image

    note = "General note: deburr all edges, torque M8 bolts to 25 N m."
    for name, side in (("huge.pdf", 14400), ("sheet.pdf", 842)):  # the largest page PDF allows; A3
        with pymupdf.open() as doc:
            doc.new_page(width=side, height=side).insert_text((72, 72), note)
            doc.save(tmp_path / name)
    # The text layer is read without rendering: the page itself is fine for indexing ...
    rc, out, _err = _run(capsys, config_file, "ocr", str(tmp_path / "huge.pdf"))
    assert rc == 0 and "torque M8 bolts" in out
    # ... but the picture of its boxes would be 829 Mpx at 2x.
    boxes = tmp_path / "boxes.png"
    rc, _out, err = _run(
        capsys, config_file, "ocr", str(tmp_path / "huge.pdf"), "--boxes-out", str(boxes)
    )
    assert (rc, _code(err)) == (4, "page_too_large") and not boxes.exists()
    rc, _out, err = _run(
        capsys, config_file, "ocr", str(tmp_path / "sheet.pdf"), "--boxes-out", str(boxes)
    )
    assert rc == 0, err
    with Image.open(boxes) as image:
        assert image.size == (842 * 2, 842 * 2)
