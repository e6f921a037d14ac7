"""``openclaw ask``: answer a question from the index, with citations."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import click

from appliance.cli import AppContext, echo_json, pass_app
from appliance.errors import ModelError


def _print_text(answer_json: dict[str, object], *, body: bool = True) -> None:
    if body:
        click.echo(str(answer_json["text"]))
    citations = answer_json.get("citations") or []
    assert isinstance(citations, list)
    for c in citations:
        box = f" box {c['box']}" if c.get("box") else ""
        click.echo(f"  [{c['number']}] {c['label']} — {c['source_name']} ({c['namespace']}){box}")
    mode = answer_json["mode"]
    reason = answer_json.get("fallback_reason")
    click.echo(f"  ({mode}{', ' + str(reason) if reason else ''})", err=True)


async def _ask(
    app: AppContext,
    question: str,
    namespaces: tuple[str, ...],
    role: str | None,
    extractive_only: bool,
    stream: bool,
    as_json: bool,
) -> None:
    from appliance.answer.answering import stream_answer
    from appliance.answer.worker import AnswerWorker
    from appliance.index.store import IndexStore

    config = app.config
    if role:
        config = replace(config, answer=replace(config.answer, role=role))
        config.answer.validate()
    worker: AnswerWorker | None = None
    if not extractive_only and config.answer.llm_model:
        worker = AnswerWorker(config.answer, models_dir=config.paths.models_dir)
        try:
            await worker.start()
        except ModelError as err:
            click.echo(f"openclaw: note: {err}; answering extractively", err=True)
    try:
        with IndexStore.open(config) as store:
            async for event in stream_answer(
                question,
                store=store,
                config=config,
                namespaces=namespaces,
                role=role,
                worker=worker,
                extractive_only=extractive_only,
            ):
                if event.kind == "ack" and stream:
                    if as_json:
                        click.echo(json.dumps({"ack": event.text}, ensure_ascii=False))
                    else:
                        click.echo(f"… {event.text}")
                elif event.kind == "sentence" and stream:
                    if as_json:
                        click.echo(json.dumps({"sentence": event.text}, ensure_ascii=False))
                    else:
                        click.echo(f"» {event.text}")
                elif event.answer is not None:
                    data = event.answer.to_json()
                    if as_json:
                        if stream:
                            click.echo(json.dumps({"answer": data}, ensure_ascii=False))
                        else:
                            echo_json(data)
                    else:
                        _print_text(data)
    finally:
        if worker is not None:
            await worker.close()


@click.command("ask")
@click.argument("question")
@click.option(
    "-n",
    "--namespace",
    "namespaces",
    multiple=True,
    help="Namespace(s) to search; global is always included.",
)
@click.option(
    "--role", help="Prompt role (a template in appliance/answer/prompts), e.g. apprentice."
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--stream", is_flag=True, help="Print each checked sentence as soon as it is ready.")
@click.option(
    "--extractive",
    "extractive_only",
    is_flag=True,
    help="Quote the best line; do not run the model.",
)
@pass_app
def ask_command(
    app: AppContext,
    question: str,
    namespaces: tuple[str, ...],
    role: str | None,
    as_json: bool,
    stream: bool,
    extractive_only: bool,
) -> None:
    """Answer QUESTION from the indexed documents, citing drawing, revision, page and region.

    The model runs in a sandboxed worker process; every number and identifier in its answer must
    appear in a source it cites, otherwise the best matching line is quoted instead. When the documents
    do not answer, it says so and names the namespaces it searched.
    """
    asyncio.run(_ask(app, question, namespaces, role, extractive_only, stream, as_json))
