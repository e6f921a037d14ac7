"""What reading a German drawing's words again with the German model reads, and what it costs.

Every rendered drawing of the answers set (bench/answer_drawings.py, whose records are exactly what
was drawn) and every raster drawing of the shared set goes through the vision path twice in this
process, the German pass off (``vision.german_languages = ""``) and on (``"deu"``), one after the
other, clean and, with --photo, as a camera-like photo (bench/vision_degrade.camera_like).

Figures printed:
- per group (rendered German, Swedish, English/ANSI, Chinese; shared rasters): pages the pass read
  again, words it changed, CPU seconds per page (this process and its Tesseract children) off and
  on, and the extra seconds of the pass on the pages it read;
- what was drawn and is in the page's slices as drawn (umlauts and ß included; decimal commas as
  the index writes them, points), pass on and off, for the title-block values and notes of the
  rendered drawings: tuning and dev by style, held-out as one total.

    .venv/bin/python bench/vision_german.py [--photo] [--limit N]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
import zlib
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.config import load_config
from appliance.vision.analysis import analyse_image
from appliance.vision.errors import PageQualityError
from appliance.vision.germanlines import is_german
from appliance.vision.settings import VisionSettings
from bench.answer_drawings import DRAWINGS, write_drawings
from bench.answer_readable import drawn_items
from bench.vision_common import SAMPLES, load_rgb
from bench.vision_degrade import camera_like, cpu_seconds


def _exact(text: str) -> str:
    return " ".join(text.replace(",", ".").split())


def _read(image: np.ndarray, settings: VisionSettings) -> tuple[str, float, bool]:
    """(slices' text, CPU seconds, whether the page was found German)."""
    start = cpu_seconds()
    try:
        analysis = analyse_image(image, settings, strict=False)
    except PageQualityError:
        return "", cpu_seconds() - start, False
    seconds = cpu_seconds() - start
    text = "\n".join(s.text for s in analysis.slices)
    return text, seconds, is_german(analysis.ocr.lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photo", action="store_true", help="camera-like photos, not the files")
    parser.add_argument("--limit", type=int, default=0, help="only the first N pages")
    args = parser.parse_args()

    base = load_config().vision
    off = dataclasses.replace(base, german_languages="")
    on = dataclasses.replace(base, german_languages="deu")
    rendered = {p.name: p for p in write_drawings()}
    pages: list[tuple[str, str, Path]] = []
    for d in DRAWINGS:
        group = "rendered-" + d.style
        pages.append((group, d.split, rendered[d.file_name]))
    for path in sorted(SAMPLES.glob("*.jpg")) + sorted(SAMPLES.glob("*.png")):
        pages.append(("shared-raster", "", path))
    if args.limit:
        pages = pages[: args.limit]

    cost: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0, 0.0, 0.0])
    found: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    changed_words: dict[str, int] = defaultdict(int)
    t0 = time.perf_counter()
    for group, split, path in pages:
        image = load_rgb(path)
        if args.photo:
            image = camera_like(image, seed=zlib.crc32(path.name.encode()))
        text_off, cpu_off, german = _read(image, off)
        text_on, cpu_on, _ = _read(image, on)
        row = cost[group]
        row[0] += 1
        row[2] += cpu_off
        row[3] += cpu_on
        if german:
            row[1] += 1
            row[4] += cpu_on - cpu_off
            words_off, words_on = text_off.split(), text_on.split()
            changed_words[group] += sum(a != b for a, b in zip(words_off, words_on, strict=False))
        if group.startswith("rendered"):
            key = ("held-out", "all") if split == "heldout" else (split, group)
            drawing = next(d for d in DRAWINGS if d.file_name == path.name)
            drawn_words = [(k, t) for k, t in drawn_items(drawing) if k in ("field", "note")]
            for kind, drawn in drawn_words:
                for label in (kind, "all"):
                    hit = found[(key[0], f"{key[1]} {label}")]
                    hit[0] += 1
                    hit[1] += _exact(drawn) in _exact(text_on)
                    hit[2] += _exact(drawn) in _exact(text_off)
        print(f"  {path.name:34} german={german!s:5} cpu off {cpu_off:5.2f} s, on {cpu_on:5.2f} s")

    condition = "camera-like photos" if args.photo else "clean files"
    print(f"\n{len(pages)} pages, {condition}, {time.perf_counter() - t0:.0f} s")
    print(
        "group               pages  German  words changed  CPU s/page off   on   extra s/German page"
    )
    for group, (n, german_pages, c_off, c_on, extra) in sorted(cost.items()):
        per = extra / german_pages if german_pages else 0.0
        print(
            f"{group:18} {int(n):6} {int(german_pages):7} {changed_words[group]:14}"
            f"  {c_off / n:14.2f} {c_on / n:5.2f} {per:10.2f}"
        )
    print("\ndrawn text in the slices as drawn (umlauts, ß): German pass on vs off")
    for (split, name), (n, hit_on, hit_off) in sorted(found.items()):
        print(f"  {split:8} {name:26} on {hit_on:4}/{n:<4} off {hit_off:4}/{n:<4}")


if __name__ == "__main__":
    main()
