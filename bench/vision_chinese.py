"""What the Chinese line model costs a page, and what it changes: the vision path with it off and on.

Every rendered drawing of the answers set (bench/answer_drawings.py) whose style is Chinese goes
through the vision path twice in this process, ``vision.chinese_line_model`` off ("") and on (the
default), clean and, with --photo, as a camera-like photo (bench/vision_degrade.camera_like). What
the model adds to the index, measured against what was drawn, is bench/answer_readable.py's figure
on an index built each way; this prints what it costs.

Figures printed, per split (held-out as totals only): pages, CPU seconds per page (this process and
its Tesseract children) off and on, the model's extra seconds per page (CPU, and wall on this
machine), lines whose text changed, lines added from empty cells, and title-block fields changed.

    .venv/bin/python bench/vision_chinese.py [--photo]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
import zlib
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.config import load_config
from appliance.vision.analysis import Analysis, analyse_image
from appliance.vision.hanmodel import CELL_BLOCK
from appliance.vision.linemodel import line_model
from appliance.vision.settings import VisionSettings
from bench.answer_drawings import DRAWINGS, write_drawings
from bench.appliance_memory import status_mb
from bench.vision_common import load_rgb
from bench.vision_degrade import camera_like, cpu_seconds


def _rss_mb() -> float:
    """This process's resident memory now, in MB."""
    return status_mb(os.getpid())["VmRSS"]


def _analyse(image: np.ndarray, settings: VisionSettings) -> tuple[Analysis, float, float]:
    """The analysis, its CPU seconds and its wall seconds."""
    cpu, wall = cpu_seconds(), time.perf_counter()
    analysis = analyse_image(image, settings, strict=False)
    return analysis, cpu_seconds() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photo", action="store_true", help="camera-like photos, not the files")
    args = parser.parse_args()

    on = load_config().vision
    if not on.chinese_line_model:
        raise SystemExit("vision.chinese_line_model is off in this configuration")
    off = dataclasses.replace(on, chinese_line_model="")
    before = _rss_mb()
    if line_model(on.chinese_line_model, on.models_dir) is None:
        raise SystemExit(f"the line model {on.chinese_line_model} is not installed")
    print(f"line model loaded: resident memory +{_rss_mb() - before:.0f} MB")
    rendered = {p.name: p for p in write_drawings()}
    # pages, cpu off, cpu on, wall off, wall on, lines changed, cells added, fields changed
    rows: dict[str, list[float]] = defaultdict(lambda: [0.0] * 8)
    for drawing in (d for d in DRAWINGS if d.style == "zh"):
        image = load_rgb(rendered[drawing.file_name])
        if args.photo:
            image = camera_like(image, seed=zlib.crc32(drawing.file_name.encode()))
        # Off first, then on; the model's session was loaded above, once, as a running appliance
        # loads it for its first Chinese page.
        a_off, cpu_off, wall_off = _analyse(image, off)
        a_on, cpu_on, wall_on = _analyse(image, on)
        texts_off = [ln.text for ln in a_off.ocr.lines]
        kept = [ln for ln in a_on.ocr.lines if ln.block != CELL_BLOCK]
        changed = sum(a != b.text for a, b in zip(texts_off, kept, strict=False))
        added = len(a_on.ocr.lines) - len(kept)
        fields = sum(a_off.fields.get(k) != v for k, v in a_on.fields.items())
        split = "held-out" if drawing.split == "heldout" else drawing.split
        row = rows[split]
        for i, value in enumerate((1, cpu_off, cpu_on, wall_off, wall_on, changed, added, fields)):
            row[i] += value
        if split != "held-out":
            print(
                f"  {drawing.file_name:30} cpu off {cpu_off:5.2f} s, on {cpu_on:5.2f} s; "
                f"lines changed {changed}, cells added {added}, fields changed {fields}"
            )
    condition = "camera-like photos" if args.photo else "clean files"
    print(f"\nChinese rendered drawings, {condition}")
    print(
        "split      pages  CPU s/page off    on  extra CPU s  extra wall s  lines changed  cells added  fields changed"
    )
    for split, (n, c_off, c_on, w_off, w_on, n_changed, n_added, n_fields) in sorted(rows.items()):
        print(
            f"{split:9} {int(n):6} {c_off / n:14.2f} {c_on / n:5.2f} {(c_on - c_off) / n:12.2f}"
            f" {(w_on - w_off) / n:13.2f} {int(n_changed):14} {int(n_added):12} {int(n_fields):15}"
        )


if __name__ == "__main__":
    main()
