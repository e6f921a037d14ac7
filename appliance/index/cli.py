"""``openclaw search|get|sources|forget|stats``: read and manage the index."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from appliance.cli import AppContext, echo_json, pass_app
from appliance.errors import InputError, public_name
from appliance.ingest.names import absolute_path, display_name, display_path

if TYPE_CHECKING:
    from appliance.index.store import IndexStore


def _open(app: AppContext) -> IndexStore:
    from appliance.index.store import IndexStore

    return IndexStore.open(app.config)


@click.command("search")
@click.argument("query")
@click.option(
    "-n",
    "--namespace",
    "namespaces",
    multiple=True,
    help="Namespace(s) to search; global is always included.",
)
@click.option(
    "-k", "--max-results", type=int, default=None, help="Most hits (default from config)."
)
@click.option(
    "--min-score", type=float, default=None, help="Drop hits below this fused score (0..1)."
)
@click.option(
    "--fusion", type=click.Choice(["rrf", "weighted"]), default=None, help="How channels are fused."
)
@click.option("--all-revisions", is_flag=True, help="Include superseded drawing revisions.")
@click.option("--json", "as_json", is_flag=True, help="Print hits as JSON.")
@click.option(
    "--explain", is_flag=True, help="Show each hit's rank and score per channel and why it won."
)
@pass_app
def search_command(
    app: AppContext,
    query: str,
    namespaces: tuple[str, ...],
    max_results: int | None,
    min_score: float | None,
    fusion: str | None,
    all_revisions: bool,
    as_json: bool,
    explain: bool,
) -> None:
    """Hybrid (vector + keyword) search of the index."""
    from appliance.index.search import SearchOptions, search

    opts = SearchOptions.from_settings(
        app.config.index,
        max_results=max_results,
        min_score=min_score,
        fusion=fusion,
        current_only=not all_revisions,
    )
    with _open(app) as store:
        hits = search(store, query, namespaces, options=opts, explain=explain)
    if as_json:
        echo_json([h.to_json(explain=explain) for h in hits])
        return
    if not hits:
        click.echo("no hits")
    for rank, h in enumerate(hits, 1):
        where = f"{h.namespace}:{h.source}"
        if h.page:
            where += f" p.{h.page}"
        if h.line_start:
            where += f" lines {h.line_start}-{h.line_end}"
        drawing = f" [{_drawing(h.drawing_number, h.revision)}]" if h.drawing_number else ""
        click.echo(f"{rank}. {h.score:.3f}  #{h.id}  {where}{drawing}  ({h.kind})")
        snippet = " ".join(h.text.split())
        click.echo(f"   {snippet[:200]}{'…' if len(snippet) > 200 else ''}")
        if explain:
            v, k = h.vector, h.keyword
            vtxt = f"#{v.rank} sim={v.raw:.3f}" if v.rank and v.raw is not None else "-"
            ktxt = (
                f"#{k.rank} bm25={k.raw:.3f} norm={k.normalized:.2f}"
                if k.rank and k.raw is not None
                else "-"
            )
            click.echo(f"   vector {vtxt} | keyword {ktxt} | recency {h.recency:.3f} | {h.why}")


@click.command("get")
@click.argument("source")
@click.option(
    "-n", "--namespace", default="global", show_default=True, help="Namespace of the source."
)
@click.option(
    "--from", "from_line", type=int, default=1, show_default=True, help="First line to print."
)
@click.option("--lines", type=int, default=40, show_default=True, help="How many lines.")
@pass_app
def get_command(app: AppContext, source: str, namespace: str, from_line: int, lines: int) -> None:
    """Print the exact text of a source around a hit (lines FROM..FROM+LINES-1).

    Reads the original file when it is still on disk and unchanged; otherwise reassembles the
    indexed slices.
    """
    from appliance.index.reader import source_lines

    # Sources are stored under the display form of their path (see appliance.ingest.names).
    source = display_name(source)
    with _open(app) as store:
        text_lines, origin = source_lines(store, namespace, source)
    if from_line < 1 or lines < 1:
        raise InputError("--from and --lines must be >= 1", code="usage")
    chunk = text_lines[from_line - 1 : from_line - 1 + lines]
    click.echo(
        f"# {public_name(source)} lines {from_line}-{from_line + len(chunk) - 1} ({origin})",
        err=True,
    )
    for i, line in enumerate(chunk, from_line):
        click.echo(f"{i:5d}  {line}")


@click.command("sources")
@click.option("-n", "--namespace", default=None, help="Only this namespace.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_app
def sources_command(app: AppContext, namespace: str | None, as_json: bool) -> None:
    """List indexed sources with their slice counts and drawing revisions."""
    with _open(app) as store:
        sources = store.list_sources(namespace)
    if as_json:
        echo_json([vars(s) for s in sources])
        return
    for s in sources:
        drawing = f"  {_drawing(s.drawing_number, s.revision)}" if s.drawing_number else ""
        old = "  (superseded)" if s.superseded else ""
        click.echo(f"{s.namespace}\t{s.source}\t{s.slices} slices{drawing}{old}")
    click.echo(f"{len(sources)} sources", err=True)


@click.command("forget")
@click.argument("source")
@click.option(
    "-n", "--namespace", default="global", show_default=True, help="Namespace of the source."
)
@pass_app
def forget_command(app: AppContext, source: str, namespace: str) -> None:
    """Remove a source and every trace of it (slices, vectors, keyword rows)."""
    candidates = [display_name(source), display_path(absolute_path(source))]
    with _open(app) as store:
        removed = any(store.delete_source(namespace, c) for c in dict.fromkeys(candidates))
    if not removed:
        raise InputError(
            f"{public_name(source)} is not indexed in namespace {display_name(namespace)[:64]}",
            code="source_not_found",
        )
    click.echo(f"forgot {display_name(source)}")


@click.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_app
def stats_command(app: AppContext, as_json: bool) -> None:
    """Counts per namespace, index size and integrity."""
    with _open(app) as store:
        stats = store.stats()
        stats["integrity"] = store.integrity_check()
    if as_json:
        echo_json(stats)
        return
    click.echo(
        f"model {stats['embedding_model']} ({stats['dimensions']} dims, {stats['vector_type']})"
    )
    for ns, n in stats["namespaces"].items():
        click.echo(f"{ns}: {n['sources']} sources, {n['slices']} slices")
    click.echo(
        f"total {stats['sources']} sources, {stats['slices']} slices, {stats['bytes'] / 1e6:.1f} MB"
    )
    click.echo(f"integrity: {stats['integrity']}")


def _drawing(number: str, revision: str) -> str:
    """A drawing's number as listed, with its revision when it has one ("A-1024 rev C")."""
    return f"{number} rev {revision}" if revision else number
