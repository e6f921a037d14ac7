"""Title-block fields against what the drawings say, read by eye, clean and on camera-like photos.

The eDOCr2 set labels dimensions only, so the expected fields below were written down by looking
at each drawing's title block (rendered crops, 2026-11-30). A field the drawing leaves empty is
expected empty: reading something there counts as wrong. Values are compared exactly and
"folded" (case, accents and runs of spaces ignored: the English model cannot read `å`).

Figures printed, per drawing and in total, for the clean drawing and its camera-like 12 MP photo
(the photos of bench/vision_degrade.py, same seeds): fields right (exact / folded), wrong, missed.
The title-block rules were written while looking at these same seven drawings: the clean figures
are on fitted data; the photos were not looked at while writing them.

Usage: .venv/bin/python bench/vision_titleblocks.py [--drawings N] [--skip-photos]
    [--title-block-languages eng]
"""

from __future__ import annotations

import argparse
import sys
import time
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.vision.analysis import analyse_image
from appliance.vision.errors import PageQualityError
from appliance.vision.settings import VisionSettings
from appliance.vision.titlefields import FIELDS
from bench.vision_common import drawings, load_rgb
from bench.vision_degrade import photo_path

#: Drawing -> the fields its title block shows (read by eye); fields not listed are empty there.
#: Weight, surface treatment, roughness and general tolerance were added when the reader learnt
#: them (only LIU0010 and Adapterplatte state any); `--classic` scores the first eight fields only.
EXPECTED: dict[str, dict[str, str]] = {
    "Adapterplatte": {
        "title": "Stahl Adapterplatte",
        "material": "Stahl",
        "scale": "1:2",
        "sheet": "1 VON 1",
        "size": "A3",
        "general_tolerance": "LINEAR: +0.1/-0.1",
    },
    "BM_part": {"drawing_number": "BM-B-112", "scale": "1:1", "size": "A3"},
    "Candle_holder": {
        "drawing_number": "2022001",
        "title": "Ljushållare HT2022",
        "material": "SS 1914",
        "scale": "1:1",
        "sheet": "1 of 1",
        "size": "A4",
        "date": "2022-08-26",
    },
    "Gripper": {
        "drawing_number": "UR10_29.20",
        "title": "Weird_Gripper_Cam_Adapter",
        "material": "PLA",
        "scale": "1:1",
        "sheet": "1 OF 1",
        "size": "A4",
    },
    "LIU0010": {
        "drawing_number": "LiU0010",
        "title": "Kolv Cykelpump",
        "revision": "A",
        "material": "EN AW-6082",
        "scale": "2:1",
        "sheet": "1/1",
        "size": "A4",
        "date": "2021-10-15",
        "weight": "18.19 g",
        "surface_treatment": "Anodiserad 15-20µm Kulör: Natur",
        "roughness": "Ra 3,2",
        "general_tolerance": "ISO 2768-mK",
    },
    "example_dwg": {
        "drawing_number": "QM230307FBSC04_tri01_dwg1",
        "revision": "A",
        "scale": "1:1",
        "sheet": "1 OF 1",
        "size": "A3",
    },
    "halter": {"drawing_number": "Halter1", "scale": "1:1", "sheet": "1 OF 1", "size": "A4"},
}


#: The fields the bench scored first (its figures before the reader learnt more are on these).
CLASSIC = ("drawing_number", "title", "revision", "material", "scale", "sheet", "size", "date")


def fold(text: str) -> str:
    """Case, accents and runs of spaces ignored."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def score(expected: dict[str, str], read: dict[str, str]) -> dict[str, list[str]]:
    """Fields per outcome: exact, folded (right up to case/accents), wrong, missed."""
    outcome: dict[str, list[str]] = {"exact": [], "folded": [], "wrong": [], "missed": []}
    for name in FIELDS:
        want, got = expected.get(name, ""), read.get(name, "")
        if not want and not got:
            continue
        if got == want:
            outcome["exact"].append(name)
        elif want and got and fold(got) == fold(want):
            outcome["folded"].append(name)
        elif want and not got:
            outcome["missed"].append(name)
        else:
            outcome["wrong"].append(f"{name}={got!r}")
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drawings", type=int, default=None, help="first N drawings only")
    parser.add_argument("--skip-photos", action="store_true", help="clean drawings only")
    parser.add_argument(
        "--classic",
        action="store_true",
        help="score only the eight fields read before weight, treatment, roughness and tolerance",
    )
    parser.add_argument(
        "--title-block-languages",
        default=None,
        help="Tesseract languages of the title-block pass (default: the setting's, eng+chi_sim)",
    )
    args = parser.parse_args()
    settings = VisionSettings()
    if args.title_block_languages is not None:
        settings = VisionSettings(title_block_languages=args.title_block_languages)
    kinds = ["clean"] if args.skip_photos else ["clean", "photo"]
    totals = {kind: {"exact": 0, "folded": 0, "wrong": 0, "missed": 0} for kind in kinds}
    expected_total = 0
    print("== title-block fields against the drawings read by eye")
    for seed, drawing in enumerate(drawings(args.drawings)):
        expected = EXPECTED[drawing.name]
        if args.classic:
            expected = {k: v for k, v in expected.items() if k in CLASSIC}
        expected_total += len(expected)
        clean_image = load_rgb(drawing.image)
        for kind in kinds:
            image = (
                clean_image
                if kind == "clean"
                else load_rgb(photo_path(drawing.name, clean_image, seed))
            )
            start = time.perf_counter()
            try:
                fields = analyse_image(image, settings, strict=False).fields
            except PageQualityError as err:
                fields = {}
                print(f"  {drawing.name} {kind}: refused ({err.code})")
            elapsed = time.perf_counter() - start
            if args.classic:
                fields = {k: v for k, v in fields.items() if k in CLASSIC}
            outcome = score(expected, fields)
            for key, names in outcome.items():
                totals[kind][key] += len(names)
            print(
                f"  {drawing.name:14s} {kind:5s} right {len(outcome['exact'])}"
                f"+{len(outcome['folded'])}/{len(expected)}  wrong={outcome['wrong']}"
                f"  missed={outcome['missed']}  {elapsed:.2f}s"
            )
    for kind in kinds:
        t = totals[kind]
        right = t["exact"] + t["folded"]
        print(
            f"  {kind}: right {right}/{expected_total} = {right / max(1, expected_total):.3f}"
            f" (exact {t['exact']}, up to case/accents {t['folded']}), wrong {t['wrong']},"
            f" missed {t['missed']}"
        )


if __name__ == "__main__":
    main()
