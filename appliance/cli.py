"""The ``openclaw`` command line.

Subcommands live beside the code they drive (``appliance/<concern>/cli.py``) and are imported only when
invoked, so ``openclaw search`` never pays for loading the speech or vision stacks. Every
:class:`~appliance.errors.OpenClawError` becomes one line on stderr and its family's exit code.
"""

from __future__ import annotations

import importlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

import click

from appliance import __version__
from appliance.config import Config, load_config
from appliance.errors import ExitCode, OpenClawError

#: Command name -> "module:attribute" of its click command.
COMMANDS: dict[str, str] = {
    "index": "appliance.ingest.cli:index_command",
    "search": "appliance.index.cli:search_command",
    "get": "appliance.index.cli:get_command",
    "sources": "appliance.index.cli:sources_command",
    "forget": "appliance.index.cli:forget_command",
    "stats": "appliance.index.cli:stats_command",
    "models": "appliance.models.cli:models_group",
    "doctor": "appliance.doctor:doctor_command",
    "ocr": "appliance.vision.cli:ocr_command",
    "scan": "appliance.vision.cli:scan_command",
    "listen": "appliance.audio.cli:listen_command",
    "say": "appliance.audio.cli:say_command",
    "enrol": "appliance.audio.enrol:enrol_command",
    "ask": "appliance.answer.cli:ask_command",
    "presence": "appliance.presence.cli:presence_group",
    "rooms": "appliance.presence.cli:rooms_command",
    "run": "appliance.service.cli:run_command",
    "demo": "appliance.demo:demo_command",
    "token": "appliance.web.cli:token_group",
    "factory-reset": "appliance.web.cli:factory_reset_command",
}


@dataclass
class AppContext:
    """What every subcommand receives: the configuration, loaded once on first use."""

    #: ``--config`` as given, or None.
    config_path: str | None = None
    #: Whether ``--json`` output was asked for at the top level.
    json_errors: bool = False
    _config: Config | None = field(default=None, repr=False)

    @property
    def config(self) -> Config:
        """The validated configuration (raises ConfigError on a bad value)."""
        if self._config is None:
            self._config = load_config(self.config_path)
        return self._config


pass_app = click.make_pass_decorator(AppContext)


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on demand from :data:`COMMANDS`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, _, attr = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name and module_name.startswith(err.name):
                return None  # that part of the appliance is not built into this installation
            raise
        command = getattr(module, attr, None)
        return command if isinstance(command, click.Command) else None


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="openclaw")
@click.option(
    "--config",
    "config_path",
    envvar="OPENCLAW_CONFIG",
    type=click.Path(dir_okay=False),
    help="Configuration file (default /etc/openclaw/openclaw.toml, else built-in defaults).",
)
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
@click.pass_context
def cli(ctx: click.Context, config_path: str | None, verbose: int) -> None:
    """OpenClaw bench appliance: ask your drawings and notes, offline."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    ctx.obj = AppContext(config_path=config_path)


def echo_json(data: Any) -> None:
    """Print one JSON document on stdout."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``openclaw`` console script."""
    try:
        cli.main(args=argv, prog_name="openclaw", standalone_mode=False)
    except OpenClawError as err:
        click.echo(f"openclaw: error: {err}", err=True)
        return int(err.exit_code)
    except click.exceptions.Abort:
        click.echo("openclaw: interrupted", err=True)
        return int(ExitCode.INTERRUPTED)
    except click.ClickException as err:
        err.show()
        return int(ExitCode.USAGE)
    except KeyboardInterrupt:
        return int(ExitCode.INTERRUPTED)
    return int(ExitCode.OK)
