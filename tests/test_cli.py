"""The CLI: every command documented, errors mapped to exit codes, a real index round trip."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from appliance.cli import COMMANDS, cli, main


def test_every_command_is_documented() -> None:
    ctx = click.Context(cli)
    missing = []
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        if command is None:
            continue  # not built into this installation yet
        if not (command.help or "").strip():
            missing.append(name)
        for param in command.params:
            if isinstance(param, click.Option) and not param.help:
                missing.append(f"{name} {param.opts[0]}")
    assert missing == []


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "appliance", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=300,
    )


def test_index_search_forget_round_trip(tmp_path: Path) -> None:
    env = {"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data")}
    note = tmp_path / "bracket.md"
    note.write_text("# Bracket A-1024\n\nTorque the M8 bolts to 25 N·m.\n")
    out = run(["index", str(note), "-n", "shop"], env)
    assert out.returncode == 0, out.stderr
    out = run(["search", "M8 torque", "-n", "shop", "--json", "--explain"], env)
    hits = json.loads(out.stdout)
    assert hits[0]["source"] == str(note) and hits[0]["explain"]["keyword"]["rank"] == 1
    out = run(["forget", str(note), "-n", "shop"], env)
    assert out.returncode == 0
    out = run(["search", "M8 torque", "-n", "shop", "--json"], env)
    assert json.loads(out.stdout) == []


def test_sources_lists_a_drawing_by_its_number_and_revision_when_it_has_one(
    tmp_path: Path, shared_data: Path
) -> None:
    env = {"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data")}
    drawing = shared_data / "drawings-edocr2" / "Aufspannung.PDF"
    assert run(["index", str(drawing)], env).returncode == 0
    out = run(["sources"], env)
    assert out.returncode == 0, out.stderr
    # Its title block gives a number and no revision: no dangling "rev" after the number.
    assert out.stdout.rstrip("\n").endswith("2 slices  Micro_Vu-4.20"), out.stdout


def test_errors_become_exit_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[index]\nfusion = 'x'\n")
    out = run(["--config", str(bad), "stats"], {})
    assert out.returncode == 3 and "index.fusion" in out.stderr and "Traceback" not in out.stderr
    env = {"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "d")}
    broken = tmp_path / "broken.md"
    broken.write_bytes(b"\xff\xfe\xfa")
    out = run(["index", str(broken)], env)
    assert out.returncode == 4 and "text_not_utf8" in out.stderr


def test_main_returns_usage_code_for_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no-such-command"]) == 2
