"""The two sides of a fit: a bore is toleranced by a capital letter ("⌀85 H8"), the spigot or
journal that locates in it by a small one ("⌀110 f7"); a size asked of a part is not a row of the
parts list."""

from __future__ import annotations

from appliance.answer.finding import find_extract
from appliance.document import Box
from appliance.vision.tables import Table, TableRow
from tests.answer.sources import drawing_source

_COVER = drawing_source(
    1,
    "轴承透盖组件 TG-6214-03",
    title="轴承透盖组件",
    drawing="TG-6214-03",
    dims="⌀110 f7\n⌀85 H8\n6 x ⌀11\n⌀180",
    tables=[
        Table(
            "parts",
            ["key", "part_no", "name", "qty"],
            {},
            [
                TableRow(
                    "2",
                    {"key": "2", "part_no": "GB/T 13871.1", "name": "油封 (oil seal)", "qty": "1"},
                    {},
                )
            ],
            Box(0, 0, 10, 10),
        )
    ],
)


def test_a_spigot_is_the_outside_of_a_fit() -> None:
    found = find_extract("Spigot diameter on TG-6214-03, with its tolerance?", [_COVER])
    assert found is not None and found.quote == "⌀110 f7"
    journal = find_extract("What is the journal diameter of TG-6214-03?", [_COVER])
    assert journal is not None and journal.quote == "⌀110 f7"


def test_a_bore_is_the_inside_of_a_fit_not_a_parts_row() -> None:
    found = find_extract("What's the fit on the seal bore of TG-6214-03?", [_COVER])
    assert found is not None and found.quote == "⌀85 H8"
    # A fit asked of neither side: every fitted size.
    every = find_extract("What fits are on TG-6214-03?", [_COVER])
    assert every is not None and "⌀110 f7" in every.quote and "⌀85 H8" in every.quote
