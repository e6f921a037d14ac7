"""Wake word to command through the real voice front end: where the question's capture starts.

Each command of ``audio_commands.CASES`` is said after "open claw" by held-out espeak-ng voices in
three ways: with a comma (espeak-ng pauses there), in one breath, and in one breath with a hesitation
of 0.35 s after the command's first word. Every utterance goes through the configured wake path
(keyword model checked by whisper, the defaults) and whisper tiny.en for the question, twice on the
same audio and the same models:

- ``phrase``: the capture holds the whole phrase and the text is cut after it (session 9, the
  default);
- ``estimate``: the capture starts where the keyword model estimated that the phrase ended (before
  session 9).

A command is right when its kind is what was said, and its room the room said (resolved against
the sample rooms file as the appliance resolves it); a question when its first word is among the
first two heard.

    .venv/bin/python bench/audio_capture.py --voices 6 [--kws-head other.npz]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import itertools
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
from audio_commands import CASES
from audio_common import silence

from appliance.audio.base import Recogniser, Samples, WakeDetection, WakeDetector
from appliance.audio.build import build_recogniser, build_wake_detector
from appliance.audio.commands import CommandKind
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.phrases import normalise_words
from appliance.audio.settings import AudioSettings
from appliance.audio.sinks import WavFileSink
from appliance.audio.sources import WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker
from appliance.audio.utterance import Utterance
from appliance.audio.wavio import write_wav
from appliance.config import load_config
from appliance.presence.rooms import load_rooms
from appliance.presence.trace import package_data
from training.wake.clips import HELD_OUT_ACCENTS, HELD_OUT_VARIANTS, variant_voice_name
from training.wake.espeak_words import speak_with_words

STYLES = ("comma", "one breath", "hesitation")
#: Seconds of silence inserted after the command's first word ("hesitation").
HESITATION_S = 0.35


class EstimateStartFrontEnd(VoiceFrontEnd):
    """The rule before session 9: a keyword detection's capture starts at its estimated phrase end."""

    def _capture_start(self, wake: WakeDetection) -> int:
        return wake.end_sample


def held_out_voices(n: int) -> list[str]:
    """``n`` espeak-ng voices no training clip used (held-out accents with held-out variants)."""
    pairs = zip(itertools.cycle(HELD_OUT_ACCENTS), HELD_OUT_VARIANTS, strict=False)
    return [variant_voice_name(a, v) for a, v in itertools.islice(pairs, n)]


def say(command: str, style: str, voice: str) -> Samples | None:
    """ "open claw" and ``command`` as one espeak-ng utterance in ``style``; None when not possible."""
    text = f"open claw, {command}" if style == "comma" else f"open claw {command}"
    audio, words = speak_with_words(text, voice=voice)
    if style == "hesitation":
        second = text.find(command) + len(command.split()[0]) + 1
        after = [w.start for w in words if w.offset >= second]
        if not after:
            return None  # a one-word command has no word to hesitate before
        audio = np.concatenate([audio[: after[0]], silence(HESITATION_S), audio[after[0] :]])
    return np.concatenate([silence(1.0), audio, silence(1.5)])


#: The sample rooms file's rooms, which "switch to ..." is resolved against as the appliance does.
ROOMS = load_rooms(package_data("rooms.sample.toml"), known_namespaces=None)
#: Their names, as the appliance gives them to the front end (bias list and command grammar).
ROOM_NAMES = sorted(room.name for room in ROOMS.rooms.values())


def right(utterance: Utterance | None, command: str, kind: CommandKind, room: str) -> bool:
    """Whether the front end made of it what was said (and the appliance, for a room's name)."""
    if utterance is None or utterance.command.kind != kind:
        return False
    if room:
        return ROOMS.find_room(utterance.command.argument) is ROOMS.find_room(room)
    if kind == CommandKind.QUESTION:
        return command.split()[0].lower() in normalise_words(utterance.text)[:2]
    return True


async def first_utterance(
    frontend_class: type[VoiceFrontEnd],
    wav: Path,
    wake: WakeDetector,
    whisper: Recogniser,
    settings: AudioSettings,
    out: Path,
    *,
    press: bool = False,
) -> Utterance | None:
    """What the front end makes of ``wav`` replayed as fast as it is read (after a press of the
    button with ``press``)."""
    frontend = frontend_class(
        WavReplaySource([wav], realtime=False),
        wake,
        whisper,
        Speaker(EspeakTts(), WavFileSink(out)),
        settings=settings,
        # As in the appliance with a rooms file: the rooms' names lead the bias list.
        vocabulary=lambda: ROOM_NAMES,
        rooms=lambda: ROOM_NAMES,
    )
    if press:
        frontend.push_to_talk()
    try:
        return await frontend.next_utterance()
    finally:
        await frontend.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voices", type=int, default=3, help="held-out espeak-ng voices (max 9)")
    parser.add_argument("--kws-head", default="", help="a head file instead of the manifest's")
    args = parser.parse_args()
    environ = {"OPENCLAW_AUDIO__WAKE_KWS_HEAD": str(Path(args.kws_head).resolve())}
    config = load_config(environ=environ if args.kws_head else {})
    whisper = build_recogniser(config)
    wake = build_wake_detector(config, whisper)
    settings = dataclasses.replace(config.audio, max_question_s=8.0, no_speech_timeout_s=2.0)
    print(
        f"wake path {config.audio.wake_engine} (verify {config.audio.wake_verify}), head "
        f"{args.kws_head or 'from the manifest'}, {args.voices} held-out voices"
    )
    tmp = Path(tempfile.mkdtemp(prefix="audio-capture-"))
    rules = {"phrase": VoiceFrontEnd, "estimate": EstimateStartFrontEnd}
    for style in STYLES:
        tally: dict[str, Counter[str]] = {rule: Counter() for rule in rules}
        wrong: dict[str, list[str]] = {rule: [] for rule in rules}
        transcribe_s: dict[str, list[float]] = {rule: [] for rule in rules}
        per_command: Counter[tuple[str, str]] = Counter()
        said: Counter[str] = Counter()
        for (command, kind, room), voice in itertools.product(CASES, held_out_voices(args.voices)):
            audio = say(command, style, voice)
            if audio is None:
                continue
            wav = write_wav(tmp / "utterance.wav", audio)
            said[command] += 1
            for rule, frontend_class in rules.items():
                wake.reset()
                utterance = asyncio.run(
                    first_utterance(frontend_class, wav, wake, whisper, settings, tmp)
                )
                tally[rule]["said"] += 1
                tally[rule]["woke"] += utterance is not None
                if utterance is not None:
                    transcribe_s[rule].append(utterance.latency["transcribe_s"])
                if right(utterance, command, kind, room):
                    tally[rule]["right"] += 1
                    per_command[rule, command] += 1
                elif utterance is not None and len(wrong[rule]) < 4:
                    wrong[rule].append(f"{command!r} ({voice}) -> {utterance.transcript.text!r}")
        print(f"\n{style}")
        for rule in rules:
            t = tally[rule]
            print(
                f"  {rule:9s} woke {t['woke']}/{t['said']}, right {t['right']}/{t['said']} "
                f"({t['right'] / max(1, t['said']):.3f}), right when woken "
                f"{t['right'] / max(1, t['woke']):.3f}; transcription p50 "
                f"{1000 * float(np.median(transcribe_s[rule] or [0.0])):.0f} ms"
            )
            for line in wrong[rule]:
                print("     ", line)
        print("  right per command: " + ", ".join(rules))
        for command in said:
            counts = " / ".join(f"{per_command[rule, command]}" for rule in rules)
            print(f"    {command!r:55s} {counts} of {said[command]}")


if __name__ == "__main__":
    main()
