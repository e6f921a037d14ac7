"""Dimension typing: the kind, value and tolerance given to the 80 labelled dimensions of drawings-edocr2.

Two figures, printed by kind:
  1. labels: each ground-truth label text (as drawn, e.g. "2x⌀19,9 0 -0,1") parsed by
     :func:`appliance.vision.dimensions.parse_dimensions`, against the kind, value and tolerance or fit
     assigned by hand below (from the label and the drawing, not from the parser);
  2. ocr: the drawings read through the real vision path (page correction, Tesseract, slicing); a
     labelled dimension is found when a typed dimension of the slices (``extra["dimensions"]``) lies
     on its box, typed right when one of those has the hand kind, and read right when it also has the
     hand value. Typed dimensions on no label are counted too (noise, and dimensions inside regions
     the set marks ``other_info`` such as the "4x M8" note of the Adapterplatte).

    .venv/bin/python bench/vision_dimensions.py [--labels-only] [--drawings N] [-v]
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.config import load_config
from appliance.document import Box, SliceKind
from appliance.vision.analysis import analyse_image
from appliance.vision.dimensions import Dimension, parse_dimensions
from bench.vision_common import SAMPLES, load_rgb

#: By hand, per drawing in CSV order: (label, kind, nominal value, tolerance or fit as the record
#: states it, "" when none). The "1,6" and "0,8" of LIU0010 are roughness values on surface symbols;
#: from the label alone they are lengths, and they are counted as such.
HAND: dict[str, list[tuple[str, str, float, str]]] = {
    "Adapterplatte": [
        ("200,00", "linear", 200.0, ""),
        ("175,00", "linear", 175.0, ""),
        ("160,10", "linear", 160.1, ""),
        ("39,90", "linear", 39.9, ""),
        ("25,00", "linear", 25.0, ""),
        ("25,00", "linear", 25.0, ""),
        ("39,90", "linear", 39.9, ""),
        ("160,10", "linear", 160.1, ""),
        ("175,00", "linear", 175.0, ""),
        ("200,00", "linear", 200.0, ""),
        ("R10,00", "radius", 10.0, ""),
        ("20,00", "linear", 20.0, ""),
    ],
    "BM_part": [
        ("70", "linear", 70.0, ""),
        ("35", "linear", 35.0, ""),
        ("20", "linear", 20.0, ""),
        ("20", "linear", 20.0, ""),
        ("⌀15", "diameter", 15.0, ""),
        ("50", "linear", 50.0, ""),
        ("40", "linear", 40.0, ""),
        ("30", "linear", 30.0, ""),
        ("30", "linear", 30.0, ""),
        ("50", "linear", 50.0, ""),
        ("100", "linear", 100.0, ""),
        ("R70", "radius", 70.0, ""),
        ("⌀60", "diameter", 60.0, ""),
        ("⌀40", "diameter", 40.0, ""),
        ("40", "linear", 40.0, ""),
        ("20", "linear", 20.0, ""),
        ("CH5", "chamfer", 5.0, ""),
        ("⌀140", "diameter", 140.0, ""),
    ],
    "Candle_holder": [
        ("⌀42", "diameter", 42.0, ""),
        ("38", "linear", 38.0, ""),
        ("5", "linear", 5.0, ""),
        ("1x45°", "chamfer", 1.0, ""),
        ("1x45°", "chamfer", 1.0, ""),
        ("45,0°", "angle", 45.0, ""),
        ("60,0°", "angle", 60.0, ""),
        ("⌀38H12", "diameter", 38.0, "H12"),
        ("16", "linear", 16.0, ""),
        ("⌀21,5±0,1", "diameter", 21.5, "±0.1"),
        ("(25,5)", "linear", 25.5, ""),
        ("⌀38", "diameter", 38.0, ""),
    ],
    "Gripper": [
        ("+0.03 35.36-0.03", "linear", 35.36, "+0.03/-0.03"),
        ("⌀70.50±0.05", "diameter", 70.5, "±0.05"),
        ("16.00 15.50", "linear", 16.0, "16.00/15.50"),
        ("8.20 8.00", "linear", 8.2, "8.20/8.00"),
        ("7.00", "linear", 7.0, ""),
        ("6.15 6.00", "linear", 6.15, "6.15/6.00"),
        ("⌀6.15", "diameter", 6.15, ""),
        ("⌀68.50", "diameter", 68.5, ""),
        ("+0.40 4x⌀6.60-0.10", "diameter", 6.6, "+0.40/-0.10"),
        ("45°", "angle", 45.0, ""),
        ("R1.00±0.10", "radius", 1.0, "±0.10"),
    ],
    "LIU0010": [
        ("12,5", "linear", 12.5, ""),
        ("15", "linear", 15.0, ""),
        ("25", "linear", 25.0, ""),
        ("⌀16,5 +0,1 0", "diameter", 16.5, "+0.1/0"),
        ("2x⌀19,9 0 -0,1", "diameter", 19.9, "0/-0.1"),
        ("1,6", "linear", 1.6, ""),
        ("2xR0,15", "radius", 0.15, ""),
        ("0,8", "linear", 0.8, ""),
        ("2xR0,2", "radius", 0.2, ""),
        ("1,6", "linear", 1.6, ""),
        ("2,5 +0,2 0", "linear", 2.5, "+0.2/0"),
        ("2", "linear", 2.0, ""),
        ("16", "linear", 16.0, ""),
        ("20", "linear", 20.0, ""),
        ("M8", "thread", 8.0, ""),
        ("20°", "angle", 20.0, ""),
    ],
    "example_dwg": [
        ("6.144", "linear", 6.144, ""),
        ("50.6 +0.02 0", "linear", 50.6, "+0.02/0"),
        ("80.5", "linear", 80.5, ""),
        ("3±0.02", "linear", 3.0, "±0.02"),
        ("70.5 +0.02 0", "linear", 70.5, "+0.02/0"),
    ],
    "halter": [
        ("⌀550 A3", "diameter", 550.0, ""),
        ("45°", "angle", 45.0, ""),
        ("0.00 35.00-0.20", "linear", 35.0, "0/-0.20"),
        ("45°", "angle", 45.0, ""),
        ("2x⌀8,80H8", "diameter", 8.8, "H8"),
        ("2x⌀4.80 +0.1 0", "diameter", 4.8, "+0.1/0"),
    ],
}


def label_rows(name: str) -> tuple[list[tuple[str, Box]], list[Box]]:
    """(dimension label, box) rows and the boxes of the ``other_info`` regions of one drawing."""
    labels, other = [], []
    with (SAMPLES / f"{name}.csv").open(encoding="utf-8") as handle:
        for row in csv.reader(handle):
            if not row:
                continue
            xs = [float(v) for v in row[0:8:2]]
            ys = [float(v) for v in row[1:8:2]]
            box = Box(min(xs), min(ys), max(xs), max(ys))
            if row[-1] == "other_info":
                other.append(box)
            else:
                labels.append((row[-1], box))
    return labels, other


def states(dim: Dimension, value: float, extra: str) -> tuple[bool, bool]:
    """(value right, tolerance-or-fit right) of a typed dimension against the hand record."""
    value_ok = dim.value is not None and abs(dim.value - value) < 1e-6
    extra_ok = (dim.fit or dim.tolerance) == extra or (
        not extra and not dim.fit and not dim.tolerance
    )
    return value_ok, extra_ok


def bench_labels(verbose: bool) -> None:
    print("== label text -> kind (80 labelled dimensions)")
    totals: Counter[str] = Counter()
    right: Counter[str] = Counter()
    values: Counter[str] = Counter()
    extras: Counter[str] = Counter()
    for name, rows in HAND.items():
        labels, _ = label_rows(name)
        assert [lab for lab, _ in labels] == [r[0] for r in rows], name
        for label, kind, value, extra in rows:
            found = parse_dimensions(label)
            totals[kind] += 1
            first = found[0] if found else None
            ok = first is not None and first.kind == kind and len(found) == 1
            value_ok, extra_ok = (
                states(first, value, extra) if first is not None else (False, False)
            )
            right[kind] += ok
            values[kind] += ok and value_ok
            extras[kind] += ok and value_ok and extra_ok
            if verbose and not (ok and value_ok and extra_ok):
                got = [(str(d.kind), d.value, d.fit or d.tolerance) for d in found]
                print(f"    {name}: {label!r} hand={kind},{value},{extra!r} got={got}")
    _table(totals, {"kind": right, "kind+value": values, "+tol/fit": extras})


def _overlaps(a: Box, b: Box) -> bool:
    """The centre of one box inside the other (OCR boxes and label boxes differ in margins)."""

    def centre_in(inner: Box, outer: Box) -> bool:
        cx, cy = (inner.x0 + inner.x1) / 2, (inner.y0 + inner.y1) / 2
        return outer.x0 <= cx <= outer.x1 and outer.y0 <= cy <= outer.y1

    return centre_in(a, b) or centre_in(b, a)


def bench_ocr(limit: int | None, verbose: bool) -> None:
    print("== OCR (vision path) -> typed dimensions on the labelled boxes")
    settings = load_config(environ={}).vision
    totals: Counter[str] = Counter()
    found_n: Counter[str] = Counter()
    kind_n: Counter[str] = Counter()
    value_n: Counter[str] = Counter()
    extra_n: Counter[str] = Counter()
    unlabelled: Counter[str] = Counter()
    in_other: Counter[str] = Counter()
    for name in list(HAND)[:limit]:
        labels, other = label_rows(name)
        image = next(p for p in (SAMPLES / f"{name}.jpg", SAMPLES / f"{name}.png") if p.exists())
        start = time.perf_counter()
        analysis = analyse_image(load_rgb(image), settings, strict=False)
        seconds = time.perf_counter() - start
        typed = [
            Dimension.from_json(record)
            for sl in analysis.slices
            # Each record once: the summary slice and the title block repeat the page's set.
            if not sl.extra.get("dimension_summary") and sl.kind is not SliceKind.TITLE_BLOCK
            for record in sl.extra.get("dimensions", [])
        ]
        used: set[int] = set()
        for (label, box), (_, kind, value, extra) in zip(labels, HAND[name], strict=True):
            totals[kind] += 1
            here = [
                (i, d) for i, d in enumerate(typed) if d.box is not None and _overlaps(d.box, box)
            ]
            used.update(i for i, _ in here)
            if not here:
                if verbose:
                    print(f"    {name}: {label!r} not found")
                continue
            found_n[kind] += 1
            same = [d for _, d in here if d.kind == kind]
            kind_n[kind] += bool(same)
            best = [states(d, value, extra) for d in same]
            value_n[kind] += any(v for v, _ in best)
            extra_n[kind] += any(v and e for v, e in best)
            if verbose and not any(v and e for v, e in best):
                got = [(str(d.kind), d.value, d.fit or d.tolerance) for _, d in here]
                print(f"    {name}: {label!r} hand={kind},{value},{extra!r} got={got}")
        for i, dim in enumerate(typed):
            if i in used or dim.box is None:
                continue
            if any(_overlaps(dim.box, box) for box in other):
                in_other[str(dim.kind)] += 1
            else:
                unlabelled[str(dim.kind)] += 1
            if verbose:
                print(f"    {name}: typed on no label: {dim.text!r} -> {dim.kind} {dim.value}")
        print(f"  {name:14s} labels={len(labels):3d} typed={len(typed):3d} {seconds:5.2f}s")
    _table(
        totals,
        {"found": found_n, "kind": kind_n, "kind+value": value_n, "+tol/fit": extra_n},
    )
    found, typed_right = sum(found_n.values()), sum(kind_n.values())
    print(
        f"  right kind among the found: {typed_right}/{found} = {typed_right / max(1, found):.1%}"
    )
    print(f"  typed on no label: {dict(unlabelled)}; inside other_info regions: {dict(in_other)}")


def _table(totals: Counter[str], columns: dict[str, Counter[str]]) -> None:
    head = "".join(f"{c:>12s}" for c in columns)
    print(f"  {'kind':10s}{'n':>5s}{head}")
    for kind in sorted(totals, key=lambda k: -totals[k]):
        cells = "".join(f"{columns[c][kind]:>12d}" for c in columns)
        print(f"  {kind:10s}{totals[kind]:5d}{cells}")
    n = sum(totals.values())
    cells = "".join(
        f"{sum(col.values()):>6d} {sum(col.values()) / max(1, n):5.1%}" for col in columns.values()
    )
    print(f"  {'all':10s}{n:5d}{cells}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--labels-only", action="store_true", help="skip the OCR part")
    parser.add_argument("--drawings", type=int, default=None, help="OCR only the first N drawings")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every miss")
    args = parser.parse_args()
    bench_labels(args.verbose)
    if not args.labels_only:
        bench_ocr(args.drawings, args.verbose)


if __name__ == "__main__":
    main()
