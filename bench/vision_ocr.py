"""OCR quality and speed of the vision path against plain Tesseract, in the same run.

Figures printed:
  1. dimension recall on the 80 labelled dimensions of drawings-edocr2/test_samples
     (plain `tesseract --psm 11` baseline measured here too; raw and symbol-normalised matching);
  2. word recall against the text layer of the 3 vector PDFs, OCRing their 300-dpi renders through
     the scanned-PDF path (`ocr_page_image`);
  3. CER on scans/tesseract_test pages and the UW3 text lines, ours vs plain Tesseract;
  4. seconds per page for each of the above.

Usage: .venv/bin/python bench/vision_ocr.py [--drawings N] [--lines N] [--skip-cer]
       [--skip-textlayer] [--skip-dimensions]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.config import Config
from appliance.vision.analysis import analyse_image
from appliance.vision.ingest import ocr_page_image
from appliance.vision.ocr import read_page
from appliance.vision.settings import VisionSettings
from appliance.vision.symbols import normalise
from bench.vision_common import (
    SCANS,
    TEXTLAYER,
    cer,
    dimension_hits,
    drawings,
    load_rgb,
    plain_tesseract,
    textlayer_words,
    word_recall,
)

PAGES = [
    ("tesseract_test/phototest.tif", "tesseract_test/phototest.txt"),
    ("tesseract_test/eurotext.tif", "tesseract_test/eurotext.txt"),
    ("tesseract_test/8071_093.3B.tif", "tesseract_test/8071_093.3B.txt"),
    ("tesseract_test/8087_054.3B.tif", "tesseract_test/8087_054.3B.txt"),
]


def doc_text(slices: list) -> str:
    """All slice text in slice order, as the index would hold it."""
    return "\n".join(s.text for s in slices)


def bench_dimensions(limit: int | None, settings: VisionSettings) -> None:
    print("== dimension recall (drawings-edocr2/test_samples)")
    totals = {"plain_raw": 0, "plain_norm": 0, "ours_norm": 0, "ours_raw": 0}
    count = 0
    seconds: list[float] = []
    for drawing in drawings(limit):
        plain = plain_tesseract(drawing.image, 11)
        image = load_rgb(drawing.image)
        start = time.perf_counter()
        analysis = analyse_image(image, settings, strict=False)
        seconds.append(time.perf_counter() - start)
        ours = doc_text(analysis.slices)
        found = {
            "plain_raw": dimension_hits(drawing.labels, plain, canonical=False),
            "plain_norm": dimension_hits(drawing.labels, plain, canonical=True),
            "ours_raw": dimension_hits(drawing.labels, ours, canonical=False),
            "ours_norm": dimension_hits(drawing.labels, ours, canonical=True),
        }
        for key, hits in found.items():
            totals[key] += len(hits)
        count += len(drawing.labels)
        missed = [label for label in drawing.labels if label not in found["ours_norm"]]
        print(
            f"  {drawing.name:15s} labels={len(drawing.labels):3d} plain={len(found['plain_raw']):3d}"
            f" plain_norm={len(found['plain_norm']):3d} ours={len(found['ours_norm']):3d}"
            f" {seconds[-1]:5.2f}s  title_block={analysis.fields}  missed={missed}"
        )
    for key, value in totals.items():
        print(f"  dimension recall {key:10s} {value}/{count} = {value / max(1, count):.3f}")
    print(f"  seconds/page ours: mean {sum(seconds) / len(seconds):.2f} max {max(seconds):.2f}")


def bench_textlayer(config: Config) -> None:
    print("== word recall vs PDF text layer (300-dpi renders through ocr_page_image)")
    for render in sorted(TEXTLAYER.glob("*.300dpi.png")):
        stem = render.name.replace(".300dpi.png", "")
        words = textlayer_words(stem)
        plain = plain_tesseract(render, 11)
        image = load_rgb(render)
        start = time.perf_counter()
        slices = ocr_page_image(image, page=1, config=config, scale=300 / 72)
        elapsed = time.perf_counter() - start
        ours = doc_text(slices)
        print(
            f"  {stem:18s} words={len(words):4d}"
            f" plain={word_recall(words, plain, canonical=False):.3f}"
            f" plain_norm={word_recall(words, plain, canonical=True):.3f}"
            f" ours_norm={word_recall(words, ours, canonical=True):.3f}"
            f" ours_raw={word_recall(words, ours, canonical=False):.3f}"
            f" ours_sign_apart={word_recall(words, sign_apart(ours), canonical=True):.3f}"
            f"  {elapsed:.2f}s/page"
        )
        # Not counted as hits: tolerances read whole ("+0.02") where the text layer has the sign
        # as a separate glyph ("0.02"); printed so the misses can be told apart from misreadings.
        tokens = {normalise(t) for t in ours.split()}
        signed = [
            w for w in words if normalise(w) not in tokens and any(s + w in tokens for s in "+-±")
        ]
        print(f"    missed only by a sign glued to the number: {len(signed)} {signed}")
        others = [w for w in words if normalise(w) not in tokens and w not in signed]
        print(f"    other misses: {len(others)} {others}")


def sign_apart(text: str) -> str:
    """Our text with the sign of a deviation written as its own token ("+0.02" -> "+ 0.02").

    The CAD text layers write that sign as a separate glyph, so a tolerance read whole counts as
    a miss in ``ours_norm``; ``ours_sign_apart`` is the same recall with the sign split off on our
    side too (the index's tokenizer splits it anyway). Both are printed; the first is the headline.
    """
    return re.sub(r"(?<![\w.])([+\-±])(?=\d)", r"\1 ", text)


def bench_cer(settings: VisionSettings, line_limit: int) -> None:
    print("== CER on scanned pages (plain psm 3 vs ours)")
    for image_name, truth_name in PAGES:
        truth = (SCANS / truth_name).read_text(encoding="utf-8", errors="replace")
        plain = plain_tesseract(SCANS / image_name, 3)
        image = load_rgb(SCANS / image_name)
        start = time.perf_counter()
        analysis = analyse_image(image, settings, strict=False)
        elapsed = time.perf_counter() - start
        ours = "\n".join(s.text for s in analysis.slices)
        print(
            f"  {image_name:34s} plain CER={cer(truth, plain):.3f} ours CER={cer(truth, ours):.3f}"
            f" layout={analysis.ocr.layout} {elapsed:.2f}s"
        )
    print("== CER on UW3 lines (plain psm 7 vs ours)")
    lines = sorted((SCANS / "calamari_uw3_lines").glob("*/*.gt.txt"))[:line_limit]
    plain_total = ours_total = 0.0
    for truth_path in lines:
        image_path = Path(str(truth_path).replace(".gt.txt", ".bin.png"))
        truth = truth_path.read_text(encoding="utf-8")
        plain_total += cer(truth, plain_tesseract(image_path, 7))
        gray = cv2.imread(str(image_path), cv2.IMREAD_GRAYSCALE)
        page = read_page(gray, settings, layout="line")
        ours_total += cer(truth, page.text)
    n = max(1, len(lines))
    print(
        f"  uw3 lines n={len(lines)} plain mean CER={plain_total / n:.3f} ours mean CER={ours_total / n:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--drawings", type=int, default=None, help="first N drawings only (default all 7)"
    )
    parser.add_argument(
        "--lines", type=int, default=30, help="UW3 lines to score (default 30 of 70)"
    )
    parser.add_argument(
        "--skip-cer", action="store_true", help="skip the scanned-page and line CER"
    )
    parser.add_argument(
        "--skip-textlayer", action="store_true", help="skip the PDF text-layer recall"
    )
    parser.add_argument(
        "--skip-dimensions", action="store_true", help="skip the labelled-dimension recall"
    )
    parser.add_argument(
        "--text-height", type=int, default=None, help="override vision.ocr_text_height_px"
    )
    args = parser.parse_args()
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    config = Config()
    if args.text_height:
        config = dataclasses.replace(
            config, vision=dataclasses.replace(config.vision, ocr_text_height_px=args.text_height)
        )
    if not args.skip_dimensions:
        bench_dimensions(args.drawings, config.vision)
    if not args.skip_textlayer:
        bench_textlayer(config)
    if not args.skip_cer:
        bench_cer(config.vision, args.lines)
    print("load average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
