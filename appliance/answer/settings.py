"""Settings of the answer worker and of answering."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from appliance.errors import ConfigError, ModelError

#: How the model is asked to answer (see docs/answer.md, "Making the model cite"):
#: ``free`` the role's prompt alone; ``grammar`` plus a GBNF grammar forcing a sentence and ``[n]``;
#: ``fewshot`` the grammar plus one worked example; ``extract`` the model picks a source and copies one
#: of its lines, under a grammar that allows nothing else.
LLM_FORMATS = ("free", "grammar", "fewshot", "extract")
_ROLE_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


@dataclass(frozen=True)
class AnswerSettings:
    """Which model answers, how the worker is confined, and how answers are built."""

    #: Manifest name of the GGUF model; empty (the default) for answers spoken from what the drawings
    #: state, without a model. A model is asked only when no extract is sure, and with
    #: ``llm_must_agree`` it may only say what the extract found: measured on the evaluation set, it
    #: never turned such an answer right, and the listener waited for it (docs/decisions/0071).
    llm_model: str = ""
    #: Prompt role (a template file ``appliance/answer/prompts/<role>.j2`` per role).
    role: str = "engineer"
    #: Seconds the parent waits for a whole answer before it kills the worker.
    timeout_s: float = 60.0
    #: Seconds the parent waits for the worker to verify, load and warm up the model.
    start_timeout_s: float = 120.0
    #: Context window of the model in tokens (0 = the model's own training context).
    context_tokens: int = 2048
    #: Tokens of retrieved text the answer is looked for in (extracts and the claim check).
    context_budget_tokens: int = 900
    #: Tokens of retrieved text shown to the model, best sources first (never more than
    #: ``context_budget_tokens``): the prompt's length sets the time to the model's first word
    #: (about 90 prompt tokens per CPU second for a 0.5B model on one core here).
    prompt_budget_tokens: int = 450
    #: Most tokens generated per answer.
    max_answer_tokens: int = 160
    #: How the model is asked to answer: one of ``LLM_FORMATS``.
    llm_format: str = "extract"
    #: Use a model answer only when it agrees with the extractive evidence: the question must have an
    #: extractive answer (else the model is not asked), and every claim the model states must be in
    #: that quoted field or line, not merely somewhere in a cited source. Measured on SmolLM2-135M: the
    #: grammar makes it cite, and without this it cited true numbers of the wrong field or drawing
    #: (docs/decisions/0011-answer-checking.md).
    llm_must_agree: bool = True
    #: Sampling temperature (0 = greedy, reproducible).
    temperature: float = 0.0
    #: Threads llama.cpp computes with. One by default: llama.cpp's threads spin while they wait for each
    #: other, and on cores shared with other work (speech recognition runs beside it) two threads
    #: measured many times slower than one (bench/answer_worker.py). Raise it on dedicated cores.
    threads: int = 1
    #: Address-space limit of the worker in MiB (RLIMIT_AS); 0 sizes it from the model file (see
    #: :meth:`memory_limit_for`). It must hold the mapped model, the copy llama.cpp repacks for its CPU
    #: kernels, the context and the interpreter: measured peaks were 0.52 GiB (SmolLM2-135M), 1.3 GiB
    #: (Qwen2.5-Coder-0.5B) and 2.5 GiB (Qwen2.5-Coder-1.5B) at 2048 tokens of context.
    memory_limit_mb: int = 0
    #: CPU seconds one request may use inside the worker (RLIMIT_CPU soft limit, raised per request).
    cpu_per_request_s: int = 120
    #: CPU seconds over the worker's whole life (RLIMIT_CPU hard limit); it is restarted after that.
    cpu_lifetime_s: int = 86400
    #: First restart delay after the worker died; doubled on each further death.
    restart_backoff_s: float = 0.5
    #: Longest restart delay.
    restart_backoff_max_s: float = 30.0
    #: Longest question accepted, in characters; longer ones are cut (and the cut is reported).
    max_question_chars: int = 2000
    #: Share of the question's content terms (0..1) the best source must contain, unless its cosine
    #: similarity to the question is at least 0.35; below both, the answer is "the documents do not
    #: say". (The fused RRF score cannot decide this: the best hit of any query scores high.)
    min_retrieval_score: float = 0.2
    #: Most retrieved slices offered to the model as numbered sources.
    max_sources: int = 5
    #: Longest spoken answer in characters (the full text form is not cut).
    spoken_max_chars: int = 240
    #: Speak a sure extracted answer at once instead of asking the model (false: a ready model is
    #: always asked first, with the extract as its fallback; for measuring the model alone).
    fast_path: bool = True
    #: Seconds a drawing stays "in hand" after it was scanned or an answer quoted it: a spoken
    #: question that names no drawing ("what is it made of?") is about it
    #: (appliance/answer/in_hand.py). 0: every question is searched on its own.
    in_hand_s: float = 300.0
    #: Seconds a question that points at a drawing with none in hand ("what is it made of?") waits
    #: for the reply to "Which drawing do you mean?" (appliance/answer/which_drawing.py). 0: such
    #: a question is not asked back but searched on its own.
    ask_which_s: float = 60.0
    #: How sure an extracted answer (a quoted line; fields and dimensions count as sure) must be to be
    #: spoken at once without asking the model (0..1, the extract's score). Below it, a ready model is
    #: asked and the extract is kept as the fallback.
    fast_path_min_score: float = 0.6
    #: Seconds the model may take to its first checked sentence; then it is stopped and the extract
    #: (or the abstention) is spoken instead. Once a sentence is out, ``timeout_s`` bounds the rest.
    #: Half a second under the 8 s the bench waits at most for a first sentence: the search before
    #: and the voice after take the rest.
    first_sentence_timeout_s: float = 7.5
    #: Said at once when the model is asked, so the bench knows it was heard ("" = say nothing).
    acknowledgement: str = "Checking the drawings."

    @property
    def acknowledgement_heard(self) -> str:
        """The acknowledgement as it will be said: "" when no model is named, since only a model's
        wait is acknowledged (so nothing is synthesised ahead for it)."""
        return self.acknowledgement if self.llm_model else ""

    def memory_limit_for(self, model_bytes: int) -> int:
        """The worker's address-space limit in MiB for a GGUF file of ``model_bytes``.

        The configured value when set; else twice the file (mapped once, and up to once more as the
        repacked copy) plus 1 GiB for context, buffers and Python, about 0.6 GiB above the measured
        peaks. A hostile file asking for more than that still meets the limit.
        """
        if self.memory_limit_mb:
            return self.memory_limit_mb
        return 2 * -(-model_bytes // (1024 * 1024)) + 1024

    def validate(self) -> None:
        """Check ranges that the types alone cannot express."""
        if not _ROLE_NAME.match(self.role):
            raise ConfigError("answer.role: must be a short lower-case name such as 'engineer'")
        if self.timeout_s <= 0 or self.start_timeout_s <= 0:
            raise ConfigError("answer.timeout_s/start_timeout_s: must be positive")
        if not 0 <= self.in_hand_s <= 86400:
            raise ConfigError("answer.in_hand_s: must be 0 (off) to 86400 seconds")
        if not 0 <= self.ask_which_s <= 3600:
            raise ConfigError("answer.ask_which_s: must be 0 (off) to 3600 seconds")
        if self.context_tokens < 0 or 0 < self.context_tokens < 256:
            raise ConfigError("answer.context_tokens: must be 0 (model default) or at least 256")
        if self.prompt_budget_tokens < 64:
            raise ConfigError("answer.prompt_budget_tokens: must be at least 64")
        if self.context_budget_tokens < 64 or self.max_answer_tokens < 8:
            raise ConfigError("answer.context_budget_tokens/max_answer_tokens: too small")
        if self.context_tokens and (
            self.context_budget_tokens + self.max_answer_tokens + 200 > self.context_tokens
        ):
            raise ConfigError(
                "answer.context_budget_tokens: budget + max_answer_tokens + 200 must fit in "
                "answer.context_tokens"
            )
        if self.llm_format not in LLM_FORMATS:
            raise ConfigError(f"answer.llm_format: must be one of {', '.join(LLM_FORMATS)}")
        if not 0.0 <= self.temperature <= 2.0:
            raise ConfigError("answer.temperature: must be between 0 and 2")
        if self.threads < 1:
            raise ConfigError("answer.threads: must be >= 1")
        if self.memory_limit_mb and self.memory_limit_mb < 256:
            raise ConfigError("answer.memory_limit_mb: must be 0 (sized from the model) or >= 256")
        if self.cpu_per_request_s < 1 or self.cpu_lifetime_s < self.cpu_per_request_s:
            raise ConfigError("answer.cpu_per_request_s: must be >= 1 and <= answer.cpu_lifetime_s")
        if self.restart_backoff_s <= 0 or self.restart_backoff_max_s < self.restart_backoff_s:
            raise ConfigError(
                "answer.restart_backoff_s: must be positive and <= restart_backoff_max_s"
            )
        if self.max_question_chars < 16:
            raise ConfigError("answer.max_question_chars: must be at least 16")
        if not 0.0 <= self.min_retrieval_score <= 1.0:
            raise ConfigError("answer.min_retrieval_score: must be between 0 and 1")
        if self.max_sources < 1 or self.spoken_max_chars < 40:
            raise ConfigError("answer.max_sources/spoken_max_chars: too small")
        if self.first_sentence_timeout_s <= 0:
            raise ConfigError("answer.first_sentence_timeout_s: must be positive")
        if not 0.0 <= self.fast_path_min_score <= 1.0:
            raise ConfigError("answer.fast_path_min_score: must be between 0 and 1")
        if len(self.acknowledgement) > 80:
            raise ConfigError("answer.acknowledgement: at most 80 characters (it is said at once)")


def worker_memory_limit_mb(settings: AnswerSettings, manifest_path: Path | None = None) -> int:
    """The worker's address-space limit in MiB for the configured model (see ``memory_limit_for``).

    Sized from the manifest's size of the model's GGUF file, so no model file is read for it. An
    unknown model or a broken manifest gets 2048 MiB: the worker then reports the problem itself.
    """
    if settings.memory_limit_mb or not settings.llm_model:
        return settings.memory_limit_mb or 2048
    from appliance.models.manifest import load_manifest

    try:
        size = load_manifest(manifest_path).get(settings.llm_model).file("gguf").size
    except (ModelError, ConfigError):
        return 2048
    return settings.memory_limit_for(size)
