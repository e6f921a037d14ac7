"""File names that are not UTF-8 go through the real ``openclaw`` CLI without a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from appliance.ingest.names import display_name, is_printable

OPENCLAW = str(Path(sys.executable).with_name("openclaw"))


def _run(config: Path, *args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    # Bytes on stdout: the test reads exactly what a terminal would get.
    return subprocess.run(
        [OPENCLAW, "--config", str(config), *args],
        capture_output=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": ""},
    )


def test_display_name_escapes_undecodable_bytes_and_controls() -> None:
    assert display_name(os.fsdecode(b"note\xff.md")) == "note\\xff.md"
    assert display_name(b"a\x1b[31m.md") == "a\\x1b[31m.md"
    assert display_name("bracket \u00e4 \u56fe.md") == "bracket \u00e4 \u56fe.md"
    assert display_name("odd\ud800.md") == "odd\\ud800.md"  # a lone surrogate from JSON
    assert display_name(display_name(os.fsdecode(b"x\xfe.md"))) == "x\\xfe.md"
    assert is_printable(display_name(os.fsdecode(b"\xc3\x28.md")))


def test_index_get_and_forget_a_name_that_is_not_utf8(config_file: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    raw = os.fsencode(docs) + b"/bracket\xff.md"
    with open(raw, "wb") as fh:
        fh.write(b"# Bracket\n\nThe M8 bolts on the bracket take 25 N m.\n")
    (docs / "washer.md").write_text("# Washer\n\nUse a DIN 125 washer.\n", encoding="utf-8")

    indexed = _run(config_file, "index", str(docs), "--json")
    assert indexed.returncode == 0, indexed.stderr.decode(errors="replace")
    report = json.loads(indexed.stdout)
    names = sorted(Path(r["source"]).name for r in report["indexed"])
    assert names == ["bracket\\xff.md", "washer.md"]
    assert b"Traceback" not in indexed.stderr

    # Asked for by its real (byte) name, or by the display form the CLI printed.
    by_bytes = _run(config_file, "get", os.fsdecode(raw))
    assert by_bytes.returncode == 0, by_bytes.stderr
    assert b"25 N m" in by_bytes.stdout
    by_display = _run(config_file, "get", str(docs / "bracket\\xff.md"))
    assert by_display.returncode == 0 and b"25 N m" in by_display.stdout

    listed = _run(config_file, "sources")
    assert b"bracket\\xff.md" in listed.stdout

    forgot = _run(config_file, "forget", os.fsdecode(raw))
    assert forgot.returncode == 0, forgot.stderr
    assert b"bracket\\xff.md" not in _run(config_file, "sources").stdout


def test_a_failing_file_with_such_a_name_does_not_stop_the_folder(
    config_file: Path, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    with open(os.fsencode(docs) + b"/a\xfe\xff.md", "wb") as fh:
        fh.write(b"\x00\x01 not text")
    (docs / "b.md").write_text("# B\n\nThe lathe takes 400 V.\n", encoding="utf-8")
    result = _run(config_file, "index", str(docs))
    assert result.returncode == 4
    assert b"Traceback" not in result.stderr
    assert b"failed   a\\xfe\\xff.md  [binary_as_text]" in result.stderr
    assert b"indexed  " in result.stdout and b"b.md" in result.stdout
    as_json = json.loads(_run(config_file, "index", str(docs), "--json").stdout)
    assert as_json["failed"][0]["file"] == "a\\xfe\\xff.md"
