"""Spoken-command accuracy: espeak-ng commands -> whisper -> parse_command, per vocabulary hint set.

Each command is synthesised with several voices; the transcript is parsed and compared with the
intended command kind (and room, for "switch to"). Hint sets are compared in the same process on the
same audio, for the full and the short-context whisper paths.

    .venv/bin/python bench/audio_commands.py --voices 4
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from audio_common import VOICES, silence, synth

from appliance.audio.commands import CommandKind, parse_command
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.frontend import COMMAND_HINTS

CASES = [
    ("scan this", CommandKind.SCAN, ""),
    ("which room", CommandKind.WHICH_ROOM, ""),
    ("which room am I in", CommandKind.WHICH_ROOM, ""),
    ("switch to the machine shop", CommandKind.SWITCH_ROOM, "machine shop"),
    ("switch to the electronics lab", CommandKind.SWITCH_ROOM, "electronics lab"),
    ("repeat", CommandKind.REPEAT, ""),
    ("say that again", CommandKind.REPEAT, ""),
    ("stop", CommandKind.STOP, ""),
    ("remember that the bracket takes thirty newton metres", CommandKind.REMEMBER, ""),
    ("what torque do the M8 bolts take", CommandKind.QUESTION, ""),
]
HINT_SETS = {
    "none": [],
    "commands": ["Open Claw", *COMMAND_HINTS],
    "commands-no-switch": ["Open Claw", *[h for h in COMMAND_HINTS if h != "switch to"]],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--voices", type=int, default=3, help="espeak-ng voices per command (max 8)"
    )
    args = parser.parse_args()
    audio = [
        (text, kind, room, voice, np.concatenate([silence(0.3), synth(text, voice), silence(0.3)]))
        for text, kind, room in CASES
        for voice in VOICES[: args.voices]
    ]
    print(f"{len(audio)} spoken commands ({len(CASES)} commands x {args.voices} voices)")
    for short in (False, True):
        whisper = WhisperRecogniser.from_manifest(
            "whisper-tiny-en", Path("var/models"), short_context=short
        )
        for name, hints in HINT_SETS.items():
            right = 0
            wrong: list[str] = []
            for text, kind, room, voice, samples in audio:
                heard = whisper.transcribe(samples, vocabulary=hints).text
                command = parse_command(heard)
                ok = command.kind == kind and (not room or command.argument.lower() == room)
                right += ok
                if not ok and len(wrong) < 4:
                    wrong.append(f"{text!r} ({voice}) -> {heard!r}")
            path = "short-context" if short else "full-context"
            print(
                f"\n{path:13s} hints={name:18s} command accuracy {right / len(audio):.3f} ({right}/{len(audio)})"
            )
            for line in wrong:
                print("   ", line)


if __name__ == "__main__":
    main()
