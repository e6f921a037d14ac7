"""Where ``openclaw enrol`` keeps its takes: the folders the training reads, numbered files.

``<out>/positives/NN.wav`` (``--user-positives``) and ``<out>/near-misses/<phrase>-N.wav``
(``--user-near-misses``). A take is numbered after the ones already there and never replaces
one, so a second session adds to the first.
"""

from __future__ import annotations

import io
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import soundfile as sf

from appliance.audio.base import SAMPLE_RATE, Samples

#: The folders under ``--out``, as the training's options name them.
POSITIVES_DIR, NEAR_MISSES_DIR = "positives", "near-misses"


def slug(phrase: str) -> str:
    """A phrase as a file-name stem: "hope and claw" -> "hope-and-claw"."""
    return re.sub(r"[^a-z0-9]+", "-", phrase.lower()).strip("-")


def _numbers(folder: Path, pattern: re.Pattern[str]) -> list[int]:
    found = (pattern.fullmatch(p.name) for p in folder.glob("*.wav"))
    return [int(m.group(1)) for m in found if m]


def save_take(folder: Path, audio: Samples, phrase_slug: str | None) -> Path:
    """Write a take after the last one in ``folder``; an existing file is never replaced.

    Positives are ``NN.wav``, near-misses ``<phrase>-N.wav``. The file is created exclusively
    (``open(..., "xb")``, which works on any filesystem, a FAT stick too): a name another run
    took meanwhile moves this take to the next number instead of overwriting it.
    """
    folder.mkdir(parents=True, exist_ok=True)
    if phrase_slug is None:
        pattern, name = re.compile(r"(\d+)\.wav"), "{:02d}.wav"
    else:
        pattern = re.compile(re.escape(phrase_slug) + r"-(\d+)\.wav")
        name = phrase_slug + "-{}.wav"
    data = io.BytesIO()
    sf.write(data, audio, SAMPLE_RATE, format="WAV", subtype="PCM_16")
    number = max(_numbers(folder, pattern), default=0) + 1
    while True:
        target = folder / name.format(number)
        try:
            with target.open("xb") as out:
                out.write(data.getvalue())
        except FileExistsError:
            number += 1
            continue
        return target


@dataclass
class EnrolReport:
    """What a session kept and refused."""

    #: Where the two folders are.
    out_dir: Path
    #: Files written by this session, in order.
    kept: list[Path] = field(default_factory=list)
    #: Every refused take: (phrase, refusal code, message).
    refused: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def positives(self) -> Path:
        """The folder for ``--user-positives``."""
        return self.out_dir / POSITIVES_DIR

    @property
    def near_misses(self) -> Path:
        """The folder for ``--user-near-misses``."""
        return self.out_dir / NEAR_MISSES_DIR

    def training_argv(self, head: str = "my-open-claw-head.npz") -> list[str]:
        """The training command for these folders (near-misses only when there are some)."""
        argv = [".venv/bin/python", "-m", "training.wake.train"]
        argv += ["--user-positives", str(self.positives)]
        if any(self.near_misses.glob("*.wav")):
            argv += ["--user-near-misses", str(self.near_misses)]
        return [*argv, "--out", head]

    def counts(self, folder: Path) -> tuple[int, int]:
        """Takes of ``folder`` kept by this session, and all the takes it holds."""
        new = sum(1 for p in self.kept if p.parent == folder)
        return new, sum(1 for _ in folder.glob("*.wav"))

    def to_dict(self) -> dict[str, object]:
        """The ``--json`` form."""
        folders = {"positives": self.positives, "near_misses": self.near_misses}
        return {
            "out": str(self.out_dir),
            **{
                key: dict(zip(("kept", "total"), self.counts(folder), strict=True))
                for key, folder in folders.items()
            },
            "kept": [f"{p.parent.name}/{p.name}" for p in self.kept],
            "refused": [
                {"phrase": phrase, "reason": code, "message": message}
                for phrase, code, message in self.refused
            ],
            "training_command": shlex.join(self.training_argv()),
        }
