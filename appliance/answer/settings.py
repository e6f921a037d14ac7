"""Settings of the answer worker."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AnswerSettings:
    """Which model answers and how."""

    #: Manifest name of the GGUF model; empty string for extractive answers only.
    llm_model: str = "smollm2-135m-instruct-q4_1"
    #: Prompt role (a template file per role).
    role: str = "engineer"
    #: Seconds the parent waits for a whole answer before it kills the worker.
    timeout_s: float = 60.0
