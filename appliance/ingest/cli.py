"""``openclaw index``: index files and folders."""

from __future__ import annotations

from pathlib import Path

import click

from appliance.cli import AppContext, echo_json, pass_app
from appliance.errors import ExitCode
from appliance.ingest.names import display_name


@click.command("index")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-n", "--namespace", default="global", show_default=True, help="Namespace (room document set)."
)
@click.option("--force", is_flag=True, help="Re-index even when a file's content is unchanged.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_app
def index_command(
    app: AppContext, paths: tuple[Path, ...], namespace: str, force: bool, as_json: bool
) -> None:
    """Index Markdown, text, PDF and drawing image files (folders are walked).

    Unchanged files (same sha256) are skipped; a file that cannot be read is reported and the others
    are still indexed. Exits with status 4 when any file failed.
    """
    from appliance.index.store import IndexStore
    from appliance.ingest.pipeline import ingest_path

    def progress(name: str, done: int, total: int) -> None:
        if not as_json and total > 1:
            click.echo(f"\r  {display_name(name)}: {done}/{total}", nl=False, err=True)

    results, failures = [], []
    with IndexStore.open(app.config) as store:
        for path in paths:
            report = ingest_path(
                store, path, namespace, config=app.config, force=force, progress=progress
            )
            results.extend(report.results)
            failures.extend(report.failures)
    if as_json:
        echo_json(
            {
                "indexed": [vars(r) for r in results if not r.skipped],
                "skipped": [r.source for r in results if r.skipped],
                "failed": [
                    {
                        "file": display_name(name),
                        "code": err.code,
                        "message": display_name(err.message),
                    }
                    for name, err in failures
                ],
            }
        )
    else:
        click.echo("", err=True)
        for r in results:
            state = "unchanged" if r.skipped else f"{r.slices} slices"
            click.echo(f"{'skipped' if r.skipped else 'indexed'}  {r.source}  ({state})")
        for name, err in failures:
            click.echo(
                f"failed   {display_name(name)}  [{err.code}] {display_name(err.message)}", err=True
            )
        indexed = sum(1 for r in results if not r.skipped)
        click.echo(f"{indexed} indexed, {len(results) - indexed} unchanged, {len(failures)} failed")
    if failures:
        raise SystemExit(int(ExitCode.INPUT))
