"""``openclaw ocr`` and ``openclaw scan`` end to end: real Tesseract, real index, folder camera."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.cli import main
from appliance.config import load_config
from appliance.index.embedder import Embedder
from appliance.index.search import search
from appliance.index.store import IndexStore

pytestmark = pytest.mark.slow  # real Tesseract on full drawings


def test_ocr_json_and_boxes(
    config_file: Path, drawings: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "boxes.png"
    code = main(
        [
            "--config",
            str(config_file),
            "ocr",
            str(drawings / "LIU0010.jpg"),
            "--json",
            "--boxes-out",
            str(out),
        ]
    )
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["file"] == "LIU0010.jpg"
    assert result["title_block"]["material"] == "EN AW-6082"
    assert result["title_block"]["date"] == "2021-10-15"
    kinds = {s["kind"] for s in result["slices"]}
    assert {"title-block", "dimension"} <= kinds
    drawn = cv2.imread(str(out))
    original = cv2.imread(str(drawings / "LIU0010.jpg"))
    assert drawn.shape == original.shape
    assert (
        np.count_nonzero(np.abs(drawn.astype(int) - original.astype(int)).sum(axis=2) > 100) > 1000
    )
    assert not (tmp_path / "data" / "index.sqlite3").exists()  # ocr never writes the index


def test_ocr_of_a_broken_file_exits_with_input_status(
    config_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "drawing.png"
    bad.write_text("not a picture", encoding="utf-8")
    assert main(["--config", str(config_file), "ocr", str(bad)]) == 4
    err = capsys.readouterr().err
    assert "[image_not_an_image]" in err and str(tmp_path) not in err


def test_scan_indexes_and_search_finds_it(
    config_file: Path,
    drawings: Path,
    tmp_path: Path,
    embedder: Embedder,
    capsys: pytest.CaptureFixture[str],
) -> None:
    camera = tmp_path / "data" / "camera"
    camera.mkdir(parents=True)
    shutil.copy(drawings / "Candle_holder.jpg", camera / "shot.jpg")
    assert main(["--config", str(config_file), "scan", "--namespace", "shop", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["indexed"] is True
    assert result["title_block"]["drawing_number"] == "2022001"
    assert result["source"].startswith("capture:")
    config = load_config(config_file)
    with IndexStore.open(config, embedder=embedder) as store:
        sources = store.list_sources("shop")
        assert [s.source for s in sources] == [result["source"]]
        hits = search(store, "drawing number 2022001 title block", namespaces=["shop"])
        assert hits and hits[0].drawing_number == "2022001"
        assert hits[0].box is not None


def test_rejected_scan_says_why_and_indexes_nothing(
    config_file: Path,
    candle_rgb: np.ndarray,
    make_photo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],  # type: ignore[no-untyped-def]
) -> None:
    camera = tmp_path / "data" / "camera"
    camera.mkdir(parents=True)
    dark = (make_photo(candle_rgb)[0] * 0.12).astype(np.uint8)
    cv2.imwrite(str(camera / "shot.jpg"), cv2.cvtColor(dark, cv2.COLOR_RGB2BGR))
    assert main(["--config", str(config_file), "scan"]) == 4
    err = capsys.readouterr().err
    assert "[too_dark] Too dark — turn on the bench light." in err
    assert not (tmp_path / "data" / "index.sqlite3").exists()


def test_newer_revision_from_the_camera_supersedes_the_older(
    config_file: Path, tmp_path: Path, embedder: Embedder, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two captures of drawing A-1024 (rev C, then rev D): answers come from D, C stays as history."""
    import dataclasses

    from appliance.service import samples

    camera = tmp_path / "data" / "camera"
    camera.mkdir(parents=True)
    old = samples.SAMPLES[0]
    new = dataclasses.replace(old, revision="D")
    for sample in (old, new):
        for stale in camera.iterdir():
            stale.unlink()
        samples.draw_sample(sample).save(camera / "shot.png")
        assert main(["--config", str(config_file), "scan", "--namespace", "shop", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["title_block"]["revision"] == sample.revision
    config = load_config(config_file)
    with IndexStore.open(config, embedder=embedder) as store:
        assert len(store.list_sources("shop")) == 2
        hits = search(store, "A-1024 mounting bracket torque M8 bolts", namespaces=["shop"])
        assert hits and {h.revision for h in hits if h.drawing_number == "A-1024"} == {"D"}
