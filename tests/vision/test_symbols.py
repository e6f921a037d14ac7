"""Engineering-symbol normalisation: what OCR mangles is fixed, ordinary words are left alone."""

from __future__ import annotations

import pytest

from appliance.vision.slicing import is_dimension
from appliance.vision.symbols import normalise, normalise_dimension_line, normalise_word
from appliance.vision.titlefields import clean_value


@pytest.mark.parametrize(
    ("read", "meant"),
    [
        ("RO.5", "R0.5"),
        ("Ø70.50", "⌀70.50"),
        ("∅12", "⌀12"),
        ("@42", "⌀42"),
        ("O42", "⌀42"),
        ("038 H12", "⌀38 H12"),
        ("2x@8,80", "2x⌀8.80"),
        ("2xO@4.80", "2x⌀4.80"),
        ("4xO6.60", "4x⌀6.60"),
        ("+/-0.1", "±0.1"),
        ("£0.05", "±0.05"),
        ("45º", "45°"),
        ("25 Nm", "25 N·m"),
        ("25N.m", "25 N·m"),
        ("12,5", "12.5"),
        ("$43,456.78", "$43,456.78"),  # a thousands separator stays
        ("1,234,567", "1,234,567"),
        ("1O0", "100"),
        ("0.5", "0.5"),
    ],
)
def test_symbols(read: str, meant: str) -> None:
    assert normalise(read) == meant


@pytest.mark.parametrize(
    "word", ["OR", "Only", "Obernkirchen", "M8", "A3", "SCALE", "2022-08-26", "Ra"]
)
def test_words_pass_untouched(word: str) -> None:
    assert normalise(word) == word


def test_edge_junk() -> None:
    assert normalise_word("4.00|") == "4.00"
    assert normalise_word("“DEBURR") == "DEBURR"
    assert normalise_word("(25,5)") == "(25.5)"


def test_lost_minus_bar_of_plus_minus() -> None:
    assert normalise_dimension_line("⌀70.50 +0.05") == "⌀70.50 ±0.05"
    assert normalise_dimension_line("⌀21.5+0.1") == "⌀21.5 ±0.1"
    assert normalise_dimension_line("2x D19.9") == "2x⌀19.9"
    assert normalise_dimension_line("50.6 +0.02 0") == "50.6 +0.02 0"  # a real one-sided tolerance


def test_thin_one_beside_a_diameter_read_as_i() -> None:
    assert normalise_dimension_line("Bi 40") == "⌀140"
    assert normalise_dimension_line("2 i 40") == "2 i 40"  # no diameter sign: left alone


def test_dimension_lines() -> None:
    for text in ("⌀42", "1x45°", "2x⌀8.80H8", "R10.00", "(25.5)", "M8", "CH5"):
        assert is_dimension(text), text
    for text in ("SCALE", "DO NOT SCALE DRAWING", "4 x M8 Gewinde durchgehend"):
        assert not is_dimension(text), text


def test_a_steel_grade_and_a_drawing_number_keep_their_first_letter() -> None:
    assert normalise_word("$355J2") == "S355J2"
    assert normalise_word("$235JR") == "S235JR"
    assert normalise_word("$43.50") == "$43.50"  # a price stays a price
    assert normalise_word("rMM-2207-3") == "MM-2207-3"
    assert normalise_word("rpm") == "rpm" and normalise_word("lM8") == "lM8"
    assert clean_value("material", "$355J2") == "S355J2"
    assert clean_value("drawing_number", "rMM-2207-3") == "MM-2207-3"
