"""Spoken commands heard freely and as a grammar, through the real voice front end.

Every phrasing below is said after "open claw" (with a comma and in one breath) by espeak-ng voices
and goes through the voice front end as configured (keyword model checked by whisper; whisper
tiny.en for the question, biased by the command hints and the sample rooms file's rooms). Two
readings of the same capture are compared:

- ``free``: the command parser reads whisper's free transcript (before session 10);
- ``grammar``: a short utterance becomes the command sentence whisper finds nearly as probable
  (``appliance/audio/grammar.py``, the default), and the margin is swept on the recorded scores.

Questions are said too (short ones, some starting like a command): a question the grammar turns
into a command is the cost. Voice sets, never mixed: ``--voices-from tuning`` (espeak-ng
validation variants of training accents, on which the margin was chosen), ``--voices-from
held-out`` (the test voices of every audio benchmark: what is reported) and, since session 11,
``--voices-from piper`` (the Piper voice of decision 0034, a neural voice nearer a person's than
espeak-ng's: one speaker, each "voice" a seeded speed and noise setting; whisper was never fitted
to it, but a keyword head trained on it wakes on it more easily than on a held-out voice).

    .venv/bin/python bench/audio_command_match.py --voices-from held-out --voices 6
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import itertools
import json
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
from audio_capture import ROOMS, first_utterance, held_out_voices
from audio_common import silence, speech_index

from appliance.audio.build import build_recogniser, build_wake_detector
from appliance.audio.commands import CommandKind, parse_command
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.grammar import MARGIN
from appliance.audio.phrases import normalise_words, split_after_phrase
from appliance.audio.wake import WhisperWakeDetector
from appliance.audio.wavio import read_wav, write_wav
from appliance.config import load_config
from training.wake.clips import (
    TRAIN_ACCENTS,
    VALIDATION_VARIANTS,
    variant_voice_name,
)
from training.wake.espeak_words import speak_with_words
from training.wake.piper_seeded import seeded_piper

K = CommandKind
#: What is said after "open claw", what it means, and the room it names.
SAID: list[tuple[str, CommandKind, str]] = [
    ("scan this", K.SCAN, ""),
    ("scan that", K.SCAN, ""),
    ("which room", K.WHICH_ROOM, ""),
    ("which room am I in", K.WHICH_ROOM, ""),
    ("what room is this", K.WHICH_ROOM, ""),
    ("switch to the machine shop", K.SWITCH_ROOM, "machine shop"),
    ("switch to the electronics lab", K.SWITCH_ROOM, "electronics lab"),
    ("switch to the assembly area", K.SWITCH_ROOM, "assembly area"),
    ("repeat", K.REPEAT, ""),
    ("repeat that", K.REPEAT, ""),
    ("say that again", K.REPEAT, ""),
    ("stop", K.STOP, ""),
    ("cancel", K.STOP, ""),
    ("remember that the bracket takes thirty newton metres", K.REMEMBER, ""),
    ("remember that the spindle was serviced in May", K.REMEMBER, ""),
    ("what torque do the M8 bolts take", K.QUESTION, ""),
    ("what material is drawing A-1024", K.QUESTION, ""),
    ("which bearing does the spindle use", K.QUESTION, ""),
    ("where is the reset switch", K.QUESTION, ""),
    ("how do I stop the spindle", K.QUESTION, ""),
    ("say the tolerance of the bore", K.QUESTION, ""),
    ("what is this part", K.QUESTION, ""),
    ("which room has the lathe", K.QUESTION, ""),
    ("scan rate of the probe", K.QUESTION, ""),
    ("stop watch battery size", K.QUESTION, ""),
    ("switch settings for the drive", K.QUESTION, ""),
    ("repeatability of the arm", K.QUESTION, ""),
    ("what thread is this", K.QUESTION, ""),
    ("who signed the machine shop drawing", K.QUESTION, ""),
]
STYLES = ("comma", "one breath")
#: Margins swept on the recorded scores (the default is ``grammar.MARGIN``).
MARGINS = (0.0, 1.0, 2.0, 3.0, 4.0, 6.0)


#: Piper settings (length scale, noise scale, noise w) the ``piper`` set draws from.
PIPER_LENGTH, PIPER_NOISE, PIPER_NOISE_W = (0.85, 1.2), (0.45, 0.8), (0.5, 1.0)


def voices(kind: str, n: int) -> list[str]:
    """``n`` voices of one set: ``tuning``, ``held-out`` or ``piper`` (see the module's docstring)."""
    if kind == "held-out":
        return held_out_voices(n)
    if kind == "piper":
        return [f"piper:{k}" for k in range(n)]
    # Every accent with every validation variant (25 pairs), ordered so the first few span them all.
    a, v = len(TRAIN_ACCENTS), len(VALIDATION_VARIANTS)
    return [
        variant_voice_name(TRAIN_ACCENTS[k % a], VALIDATION_VARIANTS[(k + k // a) % v])
        for k in range(min(n, a * v))
    ]


def say(text: str, voice: str) -> np.ndarray:
    """``text`` by an espeak-ng voice, or by the Piper voice at the seeded setting ``piper:<k>``."""
    if not voice.startswith("piper:"):
        return speak_with_words(text, voice=voice)[0]
    k = int(voice.split(":")[1])
    rng = np.random.default_rng([11, k, sum(map(ord, text))])
    scales = (rng.uniform(*PIPER_LENGTH), rng.uniform(*PIPER_NOISE), rng.uniform(*PIPER_NOISE_W))
    return seeded_piper().say(text, scales, rng)


def hear_all(
    kind: str, n: int, cache: Path, whisper_model: str = "", beam_size: int = 0
) -> list[dict[str, object]]:
    """What the front end made of every phrasing, style and voice (read from ``cache`` if there);
    ``whisper_model``: the question recogniser instead of the configured one (the wake check
    keeps its own model); ``beam_size``: its decoder's beam instead of the configured one."""
    if cache.exists():
        rows: list[dict[str, object]] = json.loads(cache.read_text())
        return rows
    env = {"OPENCLAW_AUDIO__WHISPER_MODEL": whisper_model} if whisper_model else {}
    if beam_size:
        env["OPENCLAW_AUDIO__WHISPER_BEAM_SIZE"] = str(beam_size)
    config = load_config(environ=env)
    whisper = build_recogniser(config)
    wake = build_wake_detector(config, whisper)
    settings = dataclasses.replace(config.audio, max_question_s=8.0, no_speech_timeout_s=2.0)
    tmp = Path(tempfile.mkdtemp(prefix="command-match-"))
    rows = []
    for (said, _, _), style, voice in itertools.product(SAID, STYLES, voices(kind, n)):
        text = f"open claw, {said}" if style == "comma" else f"open claw {said}"
        audio = say(text, voice)
        wav = write_wav(tmp / "utterance.wav", np.concatenate([silence(1.0), audio, silence(1.5)]))
        wake.reset()
        utt = asyncio.run(first_utterance(VoiceFrontEnd, wav, wake, whisper, settings, tmp))
        row: dict[str, object] = {
            "said": said,
            "style": style,
            "voice": voice,
            "woke": utt is not None,
        }
        if utt is not None:
            g = utt.grammar
            row |= {
                "heard": utt.transcript.text,
                "free": split_after_phrase(utt.transcript.text, "open claw")[1],
                "best": "" if g is None else g.best.text,
                "lead": None if g is None else g.lead,
                "transcribe_s": utt.latency["transcribe_s"],
                "grammar_s": utt.latency["grammar_s"],
            }
        rows.append(row)
        print(
            f"  {voice:24s} {style:10s} {said!r:40s} -> {row.get('heard', '')!r} {row.get('lead')}"
        )
    cache.write_text(json.dumps(rows, indent=1))
    return rows


def understood(row: dict[str, object], margin: float | None) -> str:
    """The text the parser reads: free (``margin`` None) or the grammar's choice at ``margin``."""
    lead = row["lead"]
    if margin is None or not isinstance(lead, float):
        return str(row["free"])
    return str(row["best"]) if lead >= -margin else str(row["free"])


def right(text: str, said: str, kind: CommandKind, room: str) -> bool:
    """Whether ``text`` parses as what was said (a room resolved as the appliance resolves it)."""
    command = parse_command(text)
    if command.kind != kind:
        return False
    if room:
        return ROOMS.find_room(command.argument) is ROOMS.find_room(room)
    if kind == K.QUESTION:
        return said.split()[0].lower() in normalise_words(command.argument)[:2]
    return True


def real_speech(limit_s: float) -> None:
    """Real people's speech (every clip of ../shared/data/speech up to ``limit_s`` seconds, none of
    them a command) said to the button: how many become a command, read freely and as the grammar.
    """
    config = load_config(environ={})
    whisper = build_recogniser(config)
    settings = dataclasses.replace(config.audio, max_question_s=12.0, no_speech_timeout_s=2.0)
    tmp = Path(tempfile.mkdtemp(prefix="command-match-real-"))
    clips = [c for c in speech_index() if c.seconds <= limit_s and "CORRUPTED" not in c.quality]
    tally: Counter[str] = Counter()
    for clip in clips:
        audio = read_wav(clip.path)[0]
        wav = write_wav(tmp / "clip.wav", np.concatenate([silence(0.3), audio, silence(1.5)]))
        wake = WhisperWakeDetector(whisper, settings.wake_phrase)
        utt = asyncio.run(
            first_utterance(VoiceFrontEnd, wav, wake, whisper, settings, tmp, press=True)
        )
        if utt is None:
            continue
        free = parse_command(split_after_phrase(utt.transcript.text, "open claw")[1]).kind
        tally["heard"] += 1
        tally["scored"] += utt.grammar is not None
        for name, kind in (("free", free), ("grammar", utt.command.kind)):
            if kind not in (K.QUESTION, K.EMPTY):
                tally[name] += 1
                print(
                    f"  {name:8s} {clip.transcript[:40]!r:44s} heard {utt.transcript.text!r} -> {kind.value}"
                )
    print(
        f"\nreal speech, {len(clips)} clips of {limit_s:g} s or less said to the button: "
        f"{tally['heard']} heard, {tally['scored']} scored by the grammar; taken for a command: "
        f"free {tally['free']}, grammar {tally['grammar']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--voices-from", choices=("tuning", "held-out", "piper"), default="held-out"
    )
    parser.add_argument(
        "--voices", type=int, default=3, help="voices per phrasing (max 9 held out)"
    )
    parser.add_argument("--cache", type=Path, help="results file (written once, then read)")
    parser.add_argument(
        "--whisper-model",
        default="",
        help="manifest name of the question recogniser (default: the configured one)",
    )
    parser.add_argument(
        "--real", type=float, default=0.0, help="also real speech clips up to this many seconds"
    )
    parser.add_argument(
        "--beam-size", type=int, default=0, help="the question decoder's beam (0: as configured)"
    )
    args = parser.parse_args()
    if args.real:
        real_speech(args.real)
    cache = args.cache or Path(tempfile.gettempdir()) / (
        f"command-match-{args.voices_from}-{args.voices}{'-' + args.whisper_model if args.whisper_model else ''}"
        f"{f'-beam{args.beam_size}' if args.beam_size else ''}.json"
    )
    rows = hear_all(args.voices_from, args.voices, cache, args.whisper_model, args.beam_size)
    meaning = {said: (kind, room) for said, kind, room in SAID}
    woke = [r for r in rows if r["woke"]]
    print(
        f"\n{len(rows)} utterances ({args.voices_from} voices), {len(woke)} woke; results in {cache}"
    )
    print("right of the woken, commands / questions (a question turned into a command is wrong):")
    for margin in (None, *MARGINS):
        tally: Counter[tuple[str, bool]] = Counter()
        for row in woke:
            kind, room = meaning[str(row["said"])]
            group = "question" if kind == K.QUESTION else "command"
            text = understood(row, margin)
            tally[group, right(text, str(row["said"]), kind, room)] += 1
        name = "free" if margin is None else f"grammar, margin {margin:g}"
        name += " (default)" if margin == MARGIN else ""
        commands = tally["command", True] + tally["command", False]
        questions = tally["question", True] + tally["question", False]
        print(
            f"  {name:30s} commands {tally['command', True]}/{commands},"
            f" questions {tally['question', True]}/{questions}"
        )
    print("\nwrong with the default margin:")
    for row in woke:
        kind, room = meaning[str(row["said"])]
        text = understood(row, MARGIN)
        if not right(text, str(row["said"]), kind, room):
            print(f"    {row['said']!r} heard {row['heard']!r} -> {text!r} (lead {row['lead']})")
    scored = [float(str(r["grammar_s"])) for r in woke if r["lead"] is not None]
    transcribe = [float(str(r["transcribe_s"])) for r in woke]
    print(
        f"\ntranscription p50 {1000 * np.median(transcribe):.0f} ms; grammar scored on {len(scored)}"
        f" of {len(woke)} utterances, p50 {1000 * np.median(scored or [0]):.0f} ms, p95"
        f" {1000 * np.percentile(scored or [0], 95):.0f} ms"
    )


if __name__ == "__main__":
    main()
