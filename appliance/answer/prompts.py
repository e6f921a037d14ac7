"""Prompt templates: one Jinja2 file per role in ``appliance/answer/prompts/<role>.j2``.

A template defines two blocks, ``system`` and ``user``; they become the two chat turns the worker
formats with the model's own chat template. Templates see ``question``, ``sources`` (numbered
:class:`~appliance.answer.context.Source` objects) and ``role``. Sandboxed Jinja is used although the
files ship with the package: a configured role names a file, and template text is code.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from appliance.answer.context import Source
from appliance.answer.errors import RoleError

#: Folder of the role templates.
PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"


@functools.lru_cache(maxsize=1)
def _environment() -> SandboxedEnvironment:
    return SandboxedEnvironment(
        loader=jinja2.FileSystemLoader(PROMPTS_DIR),
        autoescape=False,  # plain text for a language model, not HTML
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def available_roles() -> list[str]:
    """Roles that have a template."""
    return sorted(p.stem for p in PROMPTS_DIR.glob("*.j2"))


def render_messages(role: str, question: str, sources: Sequence[Source]) -> list[dict[str, str]]:
    """The chat turns (system, user) for a question and its numbered sources."""
    if role not in available_roles():
        raise RoleError(
            f"no prompt template for role {role!r}; available roles: {', '.join(available_roles())}"
        )
    template = _environment().get_template(f"{role}.j2")
    values = {"question": question, "sources": list(sources), "role": role}
    turns = []
    for block in ("system", "user"):
        render = template.blocks.get(block)
        if render is None:
            raise RoleError(f"prompt template {role}.j2 has no {block!r} block")
        text = "".join(render(template.new_context(values))).strip()
        turns.append({"role": block, "content": text})
    return turns


#: One worked example shown before the real question (format ``fewshot``): the answer's shape matters
#: more to a small model than the rules in the system turn. The drawing is invented, so no real figure
#: can leak from the example into an answer.
_EXAMPLE_QUESTION = (
    "Sources:\n[1] drawing X-100, revision B, page 1\nMaterial: steel S235\nScale: 1:5\n\n"
    "[2] drawing Y-7, page 1\nBore Ø12 H7\n\nQuestion: What is the scale of drawing X-100?"
)
_EXAMPLE_ANSWERS = {"fewshot": "The scale is 1:5 [1].", "extract": "[1] Scale: 1:5"}

#: System turn of format ``extract``: the model only chooses, the grammar makes it copy.
_EXTRACT_SYSTEM = (
    "You find answers in numbered sources. Reply with the number of the source that answers the "
    "question in square brackets, then copy the one line of that source that holds the answer."
)


def format_messages(
    fmt: str, role: str, question: str, sources: Sequence[Source]
) -> list[dict[str, str]]:
    """The chat turns for an answer format (see ``AnswerSettings.llm_format``)."""
    turns = render_messages(role, question, sources)
    if fmt in ("free", "grammar"):
        return turns
    system, user = turns
    if fmt == "extract":
        system = {"role": "system", "content": _EXTRACT_SYSTEM}
    example = [
        {"role": "user", "content": _EXAMPLE_QUESTION},
        {
            "role": "assistant",
            "content": _EXAMPLE_ANSWERS["extract" if fmt == "extract" else "fewshot"],
        },
    ]
    return [system, *example, user]
