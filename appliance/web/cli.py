"""``openclaw token`` and ``openclaw factory-reset``: the admin token on the device, and forgetting it.

The token is generated once, at the service's first start (or by ``openclaw token show`` before it),
and kept in ``<data_dir>/<web.token_file>`` with mode 0600. It is never logged. Whoever has the
device at hand reads it on the console's login screen (``token console``, which the image's
``openclaw-console.service`` runs at boot) or with ``sudo``; a factory reset forgets it, and with it
everything about the people who used the device, but keeps what it knows: the index, the inbox,
the memory notes, the captures and the models.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import click

from appliance.cli import AppContext, pass_app
from appliance.errors import ConfigError
from appliance.web.auth import load_or_create_token

#: What a factory reset removes, relative to the data directory (besides the token): the clips the
#: "that wasn't for you" button kept, the spoken answers, uploads not yet indexed.
FORGOTTEN = ("false-wakes", "speech-out", "uploads")
#: What a factory reset keeps, for the message.
KEPT = ("index.sqlite3", "inbox", "memory", "captures", "artifacts", "models", "rooms.toml")


def _token_path(app: AppContext) -> Path:
    return app.config.paths.data_dir / app.config.web.token_file


@click.group("token")
def token_group() -> None:
    """The status page's admin token: show it, or put it on the console's login screen."""


@token_group.command("show")
@pass_app
def show_command(app: AppContext) -> None:
    """Print the admin token (generating it when the service has not yet started once).

    Run it as the service's user or root: sudo -u openclaw openclaw token show.
    """
    click.echo(load_or_create_token(_token_path(app)))


@token_group.command("console")
@click.option(
    "--issue",
    "issue_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("/etc/issue.d/openclaw.issue"),
    show_default=True,
    help="The agetty issue file to write (shown above the console's login prompt).",
)
@pass_app
def console_command(app: AppContext, issue_file: Path) -> None:
    """Write the admin token and the page's address above the console's login prompt.

    The file is readable by root only (agetty runs as root and shows it on the device's own screen);
    the token is generated here when it does not exist yet.
    """
    path = _token_path(app)
    token = load_or_create_token(path)
    if os.geteuid() == 0:
        # Made by root at first boot: hand the token and its folder to the data directory's owner
        # (the service's user), who must be able to read it.
        owner = app.config.paths.data_dir.stat()
        for item in (path.parent, path):
            os.chown(item, owner.st_uid, owner.st_gid)
    port = app.config.web.port
    text = (
        "OpenClaw status page: http://\\4:" + str(port) + "/\n"
        "Admin token (for uploads and settings on the page): " + token + "\n\n"
    )
    issue_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = issue_file.with_name(issue_file.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(tmp, 0o600)
    tmp.replace(issue_file)
    click.echo(f"wrote the token's notice to {issue_file}")


@click.command("factory-reset")
@click.option("--yes", is_flag=True, help="Do it (without it, only say what would be removed).")
@pass_app
def factory_reset_command(app: AppContext, yes: bool) -> None:
    """Forget the admin token and the users' traces; keep the index, inbox, memory and models.

    Stop the service first (sudo systemctl stop openclaw). Removed: the admin token (a new one is
    generated at the next start and shown on the console), the clips the "that wasn't for you"
    button kept, the spoken answers and unindexed uploads. Kept: the index and what it was built
    from, the memory notes, the rooms and the models.
    """
    data = app.config.paths.data_dir
    if not data.is_dir():
        raise ConfigError(f"paths.data_dir: {data.name} does not exist; nothing to reset")
    targets = [_token_path(app), *(data / name for name in FORGOTTEN)]
    present = [t for t in targets if t.exists()]
    for target in present:
        rel = target.relative_to(data)
        if not yes:
            click.echo(f"would remove {rel}")
            continue
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        else:
            target.unlink()
        click.echo(f"removed {rel}")
    kept = [name for name in KEPT if (data / name).exists()]
    click.echo(f"kept {', '.join(kept) or 'nothing else was there'}")
    if not yes:
        click.echo("nothing removed: add --yes to reset")
    else:
        click.echo("a new admin token is generated at the next start")
