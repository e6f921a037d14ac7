"""Dimensions typed by kind: the parser on each form a drawing writes, and real OCR'd slices carrying them."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.config import Config
from appliance.document import Box, SliceKind
from appliance.vision.analysis import analyse_image
from appliance.vision.dimensions import Dimension, DimensionKind, parse_dimensions

K = DimensionKind


def one(text: str) -> Dimension:
    found = parse_dimensions(text)
    assert len(found) == 1, (text, found)
    return found[0]


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("200,00", K.LINEAR, 200.0),
        ("⌀42", K.DIAMETER, 42.0),
        ("Ø 16,5", K.DIAMETER, 16.5),
        ("R10,00", K.RADIUS, 10.0),
        ("45,0°", K.ANGLE, 45.0),
        ("1x45°", K.CHAMFER, 1.0),
        ("CH5", K.CHAMFER, 5.0),
        ("M8", K.THREAD, 8.0),
    ],
)
def test_each_kind_with_its_value(text: str, kind: DimensionKind, value: float) -> None:
    dim = one(text)
    assert (dim.kind, dim.value) == (kind, value)


def test_thread_designation_pitch_class_and_count() -> None:
    dim = one("4x M10x1.25-6H")
    assert (dim.kind, dim.thread, dim.value, dim.count) == (K.THREAD, "M10x1.25-6H", 10.0, 4)
    assert one("1/4-20 UNC").thread == "1/4-20 UNC"
    assert one("4x M8 Gewinde durchgehend").thread == "M8"  # a note: the words end the callout
    # "2×M10-6H" written without spaces, its × read as an asterisk.
    dim = one("2*M10-6H")
    assert (dim.kind, dim.thread, dim.count) == (K.THREAD, "M10-6H", 2)


def test_a_depth_in_words_and_a_count_with_a_dash() -> None:
    """ "M8 - 16 tief", ".50 DP", "16 deep" and "深12" give the depth; "4-M6" and "6-⌀9" the count,
    as Chinese and Japanese drawings write it; a range ("10-12") stays a range."""
    assert one("4x M8 - 16 tief").depth == 16.0
    assert one("4 x 1/4-20 UNC-2B .50 DP").depth == 0.5
    assert one("M8x1.25 - 16 deep").depth == 16.0
    zh = one("4-M6 深12")
    assert (zh.kind, zh.count, zh.thread, zh.depth) == (K.THREAD, 4, "M6", 12.0)
    holes = one("6-⌀9")
    assert (holes.kind, holes.count, holes.value) == (K.DIAMETER, 6, 9.0)
    assert one("10-12").count == 1


def test_tolerances_plus_minus_and_deviation_pairs() -> None:
    dim = one("⌀21,5±0,1")
    assert (dim.kind, dim.value, dim.tolerance, dim.upper, dim.lower) == (
        K.DIAMETER,
        21.5,
        "±0.1",
        0.1,
        -0.1,
    )
    dim = one("2x⌀19,9 0 -0,1")
    assert (dim.count, dim.value, dim.tolerance, dim.upper, dim.lower) == (
        2,
        19.9,
        "0/-0.1",
        0.0,
        -0.1,
    )
    # The upper deviation read before the value (turned text): still this value's.
    dim = one("+0.40 4x⌀6.60-0.10")
    assert (dim.kind, dim.count, dim.value, dim.tolerance) == (K.DIAMETER, 4, 6.6, "+0.40/-0.10")
    dim = one("0.00 35.00-0.20")
    assert (dim.kind, dim.value, dim.tolerance) == (K.LINEAR, 35.0, "0/-0.20")


def test_limits_and_ranges() -> None:
    dim = one("16.00 15.50")
    assert (dim.value, dim.limits, dim.tolerance) == (16.0, (16.0, 15.5), "16.00/15.50")
    dim = one("4xØ5.8-5.85")
    assert (dim.kind, dim.count, dim.value, dim.limits) == (K.DIAMETER, 4, 5.8, (5.85, 5.8))
    # Far apart: two dimensions, not the limits of one.
    assert [d.value for d in parse_dimensions("160.10 175.00")] == [160.1, 175.0]


def test_fits_attached_and_alone() -> None:
    dim = one("⌀38H12")
    assert (dim.kind, dim.value, dim.fit) == (K.DIAMETER, 38.0, "H12")
    assert one("2x⌀8,80 H8").fit == "H8"
    assert (one("H7/g6").kind, one("H7/g6").fit) == (K.FIT, "H7/g6")
    assert one("+0.1 0").kind is K.TOLERANCE


def test_hole_depth_and_reference() -> None:
    dim = one("4x⌀11.00 V 20.00")
    assert (dim.kind, dim.count, dim.value, dim.depth) == (K.DIAMETER, 4, 11.0, 20.0)
    assert one("(25,5)").reference


@pytest.mark.parametrize(
    "text", ["2:1", "Ra 3,2", "LRz 2.5", "A3", "0", "© 0", "2025-06-10", "10.01.2025"]
)
def test_not_dimensions(text: str) -> None:
    assert parse_dimensions(text) == []


def test_json_round_trip_and_callout_form() -> None:
    dim = parse_dimensions("2x⌀19,9 0 -0,1", Box(1, 2, 3, 4))[0]
    assert Dimension.from_json(dim.to_json()) == dim
    assert dim.callout() == "2 x ⌀19.9 0/-0.1"
    assert one("16.00 15.50").callout() == "16.00/15.50"
    with pytest.raises(ValueError):
        Dimension.from_json({"kind": "linear"})


def _overlap(a: Box, b: Box) -> float:
    w = max(0.0, min(a.x1, b.x1) - max(a.x0, b.x0))
    h = max(0.0, min(a.y1, b.y1) - max(a.y0, b.y0))
    return w * h / ((b.x1 - b.x0) * (b.y1 - b.y0))


def test_ocr_slices_carry_typed_dimensions_with_their_boxes(
    candle_rgb: np.ndarray, config: Config
) -> None:
    analysis = analyse_image(candle_rgb, config.vision, strict=False)
    records = [
        Dimension.from_json(r)
        for s in analysis.slices
        if s.kind is SliceKind.DIMENSION and not s.extra.get("dimension_summary")
        for r in s.extra.get("dimensions", [])
    ]
    # Ground truth from Candle_holder.csv: "⌀21,5±0,1" at (942,1340)-(1121,1379).
    bore = next(d for d in records if d.kind is K.DIAMETER and d.value == 21.5)
    assert bore.tolerance == "±0.1"
    assert bore.box is not None and _overlap(bore.box, Box(942, 1340, 1121, 1379)) > 0.5
    assert any(d.kind is K.DIAMETER and d.fit == "H12" for d in records)
    assert any(d.kind is K.CHAMFER for d in records)
    # One summary slice lists them by kind and carries the whole set.
    (summary,) = [s for s in analysis.slices if s.extra.get("dimension_summary")]
    assert "Diameters:" in summary.text and "⌀21.5 ±0.1" in summary.text
    assert len(summary.extra["dimensions"]) == len(records)
    assert summary.drawing_number == "2022001"
    # The title block, which a question naming the drawing finds, carries the set too.
    (title_block,) = [s for s in analysis.slices if s.kind is SliceKind.TITLE_BLOCK]
    assert title_block.extra["dimensions"] == summary.extra["dimensions"]


def test_thread_in_a_note_is_typed(drawings: Path, config: Config) -> None:
    bgr = cv2.imread(str(drawings / "Adapterplatte.jpg"))
    assert bgr is not None
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    analysis = analyse_image(rgb, config.vision, strict=False)
    notes = [s for s in analysis.slices if s.kind is SliceKind.NOTE and "dimensions" in s.extra]
    threads = [Dimension.from_json(r) for s in notes for r in s.extra["dimensions"]]
    # "4 x M8 Gewinde durchgehend" at (3854,1267)-(4615,1322) in Adapterplatte.csv.
    (thread,) = [d for d in threads if d.kind is K.THREAD]
    assert (thread.thread, thread.count) == ("M8", 4)
    assert thread.box is not None and _overlap(thread.box, Box(3854, 1267, 4615, 1322)) > 0.5


def test_a_pipe_thread_is_g1_8_to_g6_and_a_bigger_g_is_a_misread_diameter() -> None:
    # BSP pipe threads run from G1/8 to G6; "G64" is "⌀64" with its sign read as a G.
    assert [(d.kind, d.callout()) for d in parse_dimensions("G1/2", None)] == [
        (DimensionKind.THREAD, "G1/2")
    ]
    assert [(d.kind, d.callout()) for d in parse_dimensions("G2", None)] == [
        (DimensionKind.THREAD, "G2")
    ]
    assert [(d.kind, d.value) for d in parse_dimensions("G64", None)] == [
        (DimensionKind.DIAMETER, 64.0)
    ]
