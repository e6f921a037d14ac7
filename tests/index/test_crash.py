"""A writer SIGKILLed in the middle of replacing a large source leaves a whole version behind."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from appliance.index.embedder import Embedder
from appliance.index.store import IndexStore

WRITER = Path(__file__).with_name("crash_writer.py")


def run_until(db: Path, start_version: int, kill_on: str) -> list[str]:
    """Run the writer and SIGKILL it when it prints a line starting with ``kill_on``."""
    proc = subprocess.Popen(
        [sys.executable, str(WRITER), str(db), str(start_version)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    seen = []
    assert proc.stdout is not None
    for line in proc.stdout:
        seen.append(line.strip())
        if line.startswith(kill_on):
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    return seen


def test_sigkill_mid_replace_keeps_whole_old_version(tmp_path: Path, embedder: Embedder) -> None:
    db = tmp_path / "index.sqlite3"
    # Version 0 commits; the kill lands inside the transaction writing version 1.
    seen = run_until(db, 0, "midway 1")
    assert "committed 0" in seen and "committed 1" not in seen
    with IndexStore.open_path(db, embedder=embedder) as store:
        assert store.integrity_check() == "ok"
        texts = [s.text for s in store.source_slices("shop", "big.md")]
        assert len(texts) == 400
        versions = {re.match(r"version (\d+)", t).group(1) for t in texts}  # type: ignore[union-attr]
        assert versions == {"0"}
        assert store.current_hash("shop", "big.md") == "v0"


def test_sigkill_after_commit_keeps_whole_new_version(tmp_path: Path, embedder: Embedder) -> None:
    db = tmp_path / "index.sqlite3"
    run_until(db, 0, "midway 2")
    with IndexStore.open_path(db, embedder=embedder) as store:
        assert store.integrity_check() == "ok"
        texts = [s.text for s in store.source_slices("shop", "big.md")]
        assert len(texts) == 400 and all(t.startswith("version 1 ") for t in texts)
        # The index stays writable after the crash.
        from appliance.document import DocumentSlice, SourceDocument

        store.replace_source(SourceDocument("big.md", "shop", "v9", (DocumentSlice(text="after"),)))
        assert [s.text for s in store.source_slices("shop", "big.md")] == ["after"]
