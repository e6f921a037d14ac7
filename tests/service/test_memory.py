"""Memory notes are dated Markdown lines a person can read and edit."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from appliance.errors import InputError
from appliance.service.memory import MemoryNotes


def test_note_goes_to_the_day_file_and_memory_md(tmp_path: Path) -> None:
    notes = MemoryNotes(tmp_path / "memory")
    when = dt.datetime(2026, 11, 29, 14, 3)
    files = notes.remember("shop", "the bracket now takes 30 N·m", now=when)
    assert [f.name for f in files] == ["2026-11-29.md", "MEMORY.md"]
    day = (tmp_path / "memory/shop/2026-11-29.md").read_text(encoding="utf-8")
    assert day == "# 2026-11-29 (shop)\n\n- 14:03 the bracket now takes 30 N·m\n"
    notes.remember("shop", "  spindle   oil is ISO VG 32 ", now=when.replace(hour=15))
    day = (tmp_path / "memory/shop/2026-11-29.md").read_text(encoding="utf-8")
    assert day.endswith("- 14:03 the bracket now takes 30 N·m\n- 15:03 spindle oil is ISO VG 32\n")
    memory = (tmp_path / "memory/shop/MEMORY.md").read_text(encoding="utf-8")
    assert (
        "- 2026-11-29: the bracket now takes 30 N·m\n- 2026-11-29: spindle oil is ISO VG 32\n"
        in memory
    )


@pytest.mark.parametrize("namespace", ["../etc", "Shop", "", "a/b", "x" * 80])
def test_bad_namespace_is_refused(tmp_path: Path, namespace: str) -> None:
    with pytest.raises(InputError) as err:
        MemoryNotes(tmp_path).remember(namespace, "note")
    assert err.value.code == "namespace_invalid"
    assert not any(tmp_path.iterdir())


def test_empty_and_huge_notes_are_refused(tmp_path: Path) -> None:
    notes = MemoryNotes(tmp_path)
    with pytest.raises(InputError, match="nothing to remember"):
        notes.remember("global", "   ")
    with pytest.raises(InputError) as err:
        notes.remember("global", "x" * 5000)
    assert err.value.code == "memory_too_long"
