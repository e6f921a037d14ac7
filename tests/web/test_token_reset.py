"""The admin token on the device: shown, put on the console's login screen, forgotten by a factory
reset that keeps the index, the inbox, the memory notes and the models."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from appliance.cli import cli


def _run(tmp_path: Path, *args: str) -> str:
    env = {"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data"), "OPENCLAW_CONFIG": ""}
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_token_show_is_stable_and_private(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    first = _run(tmp_path, "token", "show").strip()
    assert len(first) >= 32
    assert _run(tmp_path, "token", "show").strip() == first
    token_file = tmp_path / "data/secrets/admin-token"
    assert token_file.stat().st_mode & 0o777 == 0o600


def test_console_notice_is_root_only(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    issue = tmp_path / "issue.d" / "openclaw.issue"
    _run(tmp_path, "token", "console", "--issue", str(issue))
    token = (tmp_path / "data/secrets/admin-token").read_text().strip()
    text = issue.read_text()
    assert token in text and ":8080/" in text
    assert issue.stat().st_mode & 0o777 == 0o600


def test_factory_reset_forgets_the_token_and_keeps_the_knowledge(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for folder in ("inbox/global", "memory/global", "false-wakes", "speech-out", "models"):
        (data / folder).mkdir(parents=True)
    (data / "index.sqlite3").write_bytes(b"index")
    (data / "inbox/global/A-1024.png").write_bytes(b"png")
    (data / "memory/global/MEMORY.md").write_text("- bracket: 30 N m\n")
    (data / "false-wakes/1.wav").write_bytes(b"wav")
    (data / "speech-out/1.wav").write_bytes(b"wav")
    old = _run(tmp_path, "token", "show").strip()

    dry = _run(tmp_path, "factory-reset")
    assert "would remove secrets/admin-token" in dry and "nothing removed" in dry
    assert (data / "secrets/admin-token").exists()

    out = _run(tmp_path, "factory-reset", "--yes")
    assert "removed secrets/admin-token" in out
    assert not (data / "secrets/admin-token").exists()
    assert not (data / "false-wakes").exists() and not (data / "speech-out").exists()
    for kept in ("index.sqlite3", "inbox/global/A-1024.png", "memory/global/MEMORY.md", "models"):
        assert (data / kept).exists(), kept
    assert _run(tmp_path, "token", "show").strip() != old  # a new token at the next start
