"""Dimension questions over a real index (real OCR of shared drawings, real SQLite + embeddings):
the answer comes from the typed set of the drawing asked about and cites the dimension's own box."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.answer.answering import Answer, answer_question
from appliance.answer.dimensions import asks_dimension
from appliance.config import Config, load_config
from appliance.document import Box
from appliance.index.store import IndexStore
from appliance.ingest.pipeline import ingest_path

pytestmark = pytest.mark.slow

DRAWINGS = ("Adapterplatte.jpg", "Candle_holder.jpg", "Gripper.jpg")


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    root = tmp_path_factory.mktemp("dimension-index")
    cfg = root / "openclaw.toml"
    cfg.write_text(
        f'[paths]\ndata_dir = "{root / "data"}"\nmodels_dir = "{root / "models"}"\n',
        encoding="utf-8",
    )
    return load_config(cfg, environ={})


@pytest.fixture(scope="module")
def store(config: Config, shared_data: Path) -> Iterator[IndexStore]:
    with IndexStore.open(config) as st:
        for name in DRAWINGS:
            path = shared_data / "drawings-edocr2" / "test_samples" / name
            assert not ingest_path(st, path, "global", config=config, source=name).failures
        report = ingest_path(
            st,
            shared_data / "drawings-edocr2" / "Aufspannung.PDF",
            "global",
            config=config,
            source="Aufspannung.PDF",
        )
        assert not report.failures
        yield st


async def ask(question: str, store: IndexStore, config: Config) -> Answer:
    return await answer_question(question, store=store, config=config, extractive_only=True)


def _cites(answer: Answer, source: str, truth: Box) -> None:
    """The first citation is the drawing and its box lies on the dimension (CSV ground truth)."""
    citation = answer.citations[0]
    assert citation.source == source
    assert citation.box is not None
    box = Box.from_list(citation.box)
    cx, cy = (truth.x0 + truth.x1) / 2, (truth.y0 + truth.y1) / 2
    assert box.x0 <= cx <= box.x1 and box.y0 <= cy <= box.y1, (box, truth)
    # The dimension's own box, not the page's: at most a few times the callout's size.
    assert (box.x1 - box.x0) * (box.y1 - box.y0) < 10 * (truth.x1 - truth.x0) * (
        truth.y1 - truth.y0
    )


async def test_thread_size_is_the_thread_not_the_sheet_size(
    store: IndexStore, config: Config
) -> None:
    answer = await ask("What thread size is used on the Adapterplatte?", store, config)
    assert answer.mode == "extractive"
    assert "M8" in answer.text and "A3" not in answer.text
    assert "thread size" in answer.text
    # "4 x M8 Gewinde durchgehend" at (3854,1267)-(4615,1322) in Adapterplatte.csv.
    _cites(answer, "Adapterplatte.jpg", Box(3854, 1267, 4615, 1322))


async def test_tolerance_on_a_named_diameter(store: IndexStore, config: Config) -> None:
    answer = await ask(
        "What is the tolerance on the 70.5 diameter of the Weird Gripper Cam Adapter?",
        store,
        config,
    )
    assert "±0.05" in answer.text
    _cites(answer, "Gripper.jpg", Box(468, 1766, 782, 1820))


async def test_largest_diameter_of_the_named_drawing(store: IndexStore, config: Config) -> None:
    answer = await ask("What is the largest diameter on drawing 2022001?", store, config)
    assert "largest diameter" in answer.text and "⌀42" in answer.text
    _cites(answer, "Candle_holder.jpg", Box(130, 459, 205, 493))
    # Cited in the drawing's dimensions, though the title block's slice carries its record too.
    assert answer.citations[0].label.endswith("dimensions")
    assert answer.spoken.endswith("page 1, dimensions.")


async def test_overall_length_is_the_largest_linear_dimension(
    store: IndexStore, config: Config
) -> None:
    answer = await ask("What is the overall length of the Adapterplatte?", store, config)
    assert "overall length" in answer.text and "200" in answer.text
    assert answer.citations[0].source == "Adapterplatte.jpg"
    # The width is the second of the lengths: the square plate's 200 drawn the other way.
    answer = await ask("How wide is the Adapterplatte?", store, config)
    assert "overall width" in answer.text and "200" in answer.text


async def test_fit_class_named_in_the_question(store: IndexStore, config: Config) -> None:
    answer = await ask("Which diameter of the candle holder 2022001 has an H12 fit?", store, config)
    assert "⌀38 H12" in answer.text
    _cites(answer, "Candle_holder.jpg", Box(1158, 747, 1318, 782))


async def test_text_layer_drawing_is_read_line_by_line(store: IndexStore, config: Config) -> None:
    # A PDF has no typed set: its lines are parsed ("R11.30", "60.00 ±0.10" in its text layer).
    answer = await ask("What is the largest radius on the Aufspannung drawing?", store, config)
    assert "largest radius" in answer.text and "R11.3" in answer.text
    assert answer.citations[0].source == "Aufspannung.PDF"
    answer = await ask(
        "What is the tolerance on the 60.00 dimension of Aufspannung?", store, config
    )
    assert "±0.1" in answer.text


async def test_a_detail_is_drawn_at_its_own_scale(store: IndexStore, config: Config) -> None:
    answer = await ask("At what scale is detail B of the candle holder drawn?", store, config)
    assert "2:1" in answer.text and "1:1" not in answer.text
    # The "2:1" written under detail B's letter (Candle_holder.csv boxes the two as one,
    # 775,1760-830,1842), not the title block or the page.
    citation = answer.citations[0]
    assert citation.source == "Candle_holder.jpg" and citation.box is not None
    box = Box.from_list(citation.box)
    assert 775 <= box.x0 < box.x1 <= 830 and 1760 <= box.y0 < box.y1 <= 1842, box
    answer = await ask("What scale is the candle holder drawn at?", store, config)
    assert "The scale is 1:1" in answer.text


def test_which_questions_are_dimension_questions() -> None:
    assert asks_dimension("Which thread goes through the Adapterplatte?")
    assert asks_dimension("How many holes does the plate have?")
    assert not asks_dimension("What torque do the M8 bolts on the Adapterplatte take?")
    assert not asks_dimension("Which general tolerance standard applies to drawing LiU0010?")
    assert not asks_dimension("What is the sheet size of the Adapterplatte?")
