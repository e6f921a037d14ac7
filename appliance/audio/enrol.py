"""``openclaw enrol``: the users' own recordings of the wake phrase and its near-misses.

The appliance prompts ("Say: open claw"), listens for one utterance, checks it
(:mod:`appliance.audio.enrol_takes`) and keeps a good take as a 16 kHz mono WAV file in the
layout the training reads (``python -m training.wake.train --user-positives DIR
--user-near-misses DIR``; decision 0031)::

    <out>/positives/01.wav, 02.wav ...
    <out>/near-misses/open-clause-1.wav, open-clause-2.wav, open-claws-1.wav ...

Running it again adds takes after the ones already there and never overwrites one.
"""

from __future__ import annotations

import asyncio
import shlex
import threading
import time
from collections.abc import Callable
from pathlib import Path

import click

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.build import build_sink, build_source, build_speaker
from appliance.audio.cli import wav_files_option
from appliance.audio.enrol_layout import (
    POSITIVES_DIR,
    EnrolReport,
    save_take,
    slug,
)
from appliance.audio.enrol_takes import Refusal, TakeListener, judge_take
from appliance.audio.errors import SpeakerError, TtsError
from appliance.audio.tts import Speaker, single
from appliance.cli import AppContext, echo_json, pass_app
from appliance.errors import InputError

#: The phrase the near-miss list below is near (the keyword model is trained for it alone).
NEAR_MISS_OF = "open claw"
#: Phrasings close to "open claw" that must not wake it; the README's enrolment section quotes
#: this list. Each is recorded ``--near-takes`` times: without them a head trained on a user's
#: "open claw" also wakes on that user's "open clause" (decision 0031).
NEAR_MISS_PHRASES: tuple[str, ...] = (
    "open clause",
    "open claws",
    "open cloth",
    "open flaw",
    "hope and claw",
    "open cause",
    "open laws",
    "open clothes",
    "open calls",
    "open cross",
    "open closet",
    "open gloss",
)
#: Takes of one prompt refused in a row before the session stops (what was kept stays).
MAX_ATTEMPTS = 5
#: Seconds after the prompt has played that a live microphone still skips (the room's echo).
PROMPT_GAP_S = 0.3
#: Seconds to wait for speech after a prompt.
NO_SPEECH_TIMEOUT_S = 5.0
#: What the speaker says after a refused take, before the phrase again (one clause: the speaker
#: cuts text into sentences, and a prompt is one piece of speech).
SPOKEN_REFUSAL = {
    Refusal.NO_SPEECH: "I heard nothing",
    Refusal.TOO_SHORT: "Too short",
    Refusal.TOO_QUIET: "Too quiet",
    Refusal.CLIPPED: "Too loud",
    Refusal.TOO_LONG: "Only the phrase please",
    Refusal.TOO_NOISY: "Too noisy",
}


class EnrolError(InputError):
    """Enrolment could not finish: the source ended, or takes were refused too often."""

    code = "enrol_error"


class Enrolment:
    """Prompts, listens and keeps good takes until every planned take is done."""

    def __init__(
        self,
        listener: TakeListener,
        speaker: Speaker,
        out_dir: Path,
        *,
        echo: Callable[[str], None] = click.echo,
    ) -> None:
        self.listener = listener
        self.speaker = speaker
        self.report = EnrolReport(out_dir)
        self.echo = echo
        #: Why the prompts are only printed ("" while the speaker works).
        self.speaker_failed = ""

    async def _prompt(self, text: str) -> float:
        """Say ``text``; the moment after which a live microphone hears the person again.

        A speaker that fails (none plugged in, espeak-ng missing) is reported once and the
        session goes on with printed prompts: the takes need the microphone, not the speaker.
        """
        if not self.speaker_failed:
            try:
                await self.speaker.speak(single(text))
            except (SpeakerError, TtsError) as err:
                self.speaker_failed = str(err)
                self.echo(f"speaker: {err}; the prompts are only printed from now on")
        return time.monotonic() + PROMPT_GAP_S

    async def record(self, phrase: str, folder: Path, phrase_slug: str | None, label: str) -> Path:
        """Prompt for ``phrase`` until a take is kept (at most :data:`MAX_ATTEMPTS` tries)."""
        spoken = f"Say: {phrase}."
        for _attempt in range(MAX_ATTEMPTS):
            self.echo(f"{label} say: {phrase}")
            skip_until = await self._prompt(spoken)
            taken = await self.listener.take(skip_until=skip_until)
            if taken is None:
                raise self._ended()
            audio, reason = taken
            vad = self.listener.vad
            verdict = judge_take(
                audio,
                reason,
                floor_db=vad.floor_db,
                vad_threshold_db=vad.threshold_db,
                max_phrase_s=self.listener.max_phrase_s,
            )
            if verdict.refusal is None:
                path = save_take(folder, verdict.audio, phrase_slug)
                self.report.kept.append(path)
                self.echo(
                    f"  kept {folder.name}/{path.name} ({verdict.speech_s:.2f} s of speech, "
                    f"{len(verdict.audio) / SAMPLE_RATE:.2f} s kept)"
                )
                return path
            self.report.refused.append((phrase, str(verdict.refusal), verdict.message))
            self.echo(f"  refused: {verdict.message}")
            spoken = f"{SPOKEN_REFUSAL[verdict.refusal]}, say again: {phrase}."
        last = self.report.refused[-1][2]
        raise EnrolError(
            f"{MAX_ATTEMPTS} takes of {phrase!r} in a row were refused (the last: {last}); "
            f"{self._kept_so_far()}; run openclaw enrol again to add more",
            code="enrol_refused",
        )

    def _kept_so_far(self) -> str:
        pos = sum(1 for p in self.report.kept if p.parent.name == POSITIVES_DIR)
        return f"{pos} positive(s) and {len(self.report.kept) - pos} near-miss(es) kept"

    def _ended(self) -> EnrolError:
        return EnrolError(
            f"the audio source ended before the takes were done ({self._kept_so_far()}); run "
            "openclaw enrol again to add the rest",
            code="enrol_source_ended",
        )

    async def run(self, plan: list[tuple[str, str | None]]) -> EnrolReport:
        """Record every (phrase, near-miss slug or None for the wake phrase) of ``plan``."""
        try:
            for number, (phrase, phrase_slug) in enumerate(plan, start=1):
                folder = self.report.positives if phrase_slug is None else self.report.near_misses
                await self.record(phrase, folder, phrase_slug, f"[{number}/{len(plan)}]")
            await self._prompt("Thank you, that is all.")
        finally:
            await self.listener.close()
        return self.report


def make_plan(wake_phrase: str, takes: int, near_takes: int) -> list[tuple[str, str | None]]:
    """The wake phrase ``takes`` times, then each near-miss ``near_takes`` times (0: none)."""
    if near_takes and wake_phrase != NEAR_MISS_OF:
        raise EnrolError(
            f"the near-miss list is for {NEAR_MISS_OF!r}, not for {wake_phrase!r}; run with "
            "--no-near-misses",
            code="enrol_phrase",
        )
    plan: list[tuple[str, str | None]] = [(wake_phrase, None)] * takes
    for phrase in NEAR_MISS_PHRASES:
        plan += [(phrase, slug(phrase))] * near_takes
    return plan


def _missing_watch() -> tuple[Callable[[str, str], None], Callable[[], str | None]]:
    """An ``on_state`` callback for the microphone thread and a check of what it reported."""
    lock = threading.Lock()
    missing: list[str] = []

    def on_state(state: str, error: str) -> None:
        # Sticky until the stream runs: between two failed opens the thread passes through
        # "reconnecting", which says nothing about whether a microphone is there.
        with lock:
            if state == "missing":
                missing[:] = [error or "no input device"]
            elif state == "running":
                missing.clear()

    def check() -> str | None:
        with lock:
            if not missing:
                return None
            return (
                f"no microphone ({missing[0]}); connect one or set audio.input_device, then run "
                "openclaw enrol again"
            )

    return on_state, check


@click.command("enrol")
@click.option(
    "--takes",
    type=click.IntRange(0, 99),
    default=12,
    show_default=True,
    help="Takes of the wake phrase to add.",
)
@click.option(
    "--near-takes",
    type=click.IntRange(1, 9),
    default=2,
    show_default=True,
    help="Takes of each near-miss phrase to add.",
)
@click.option("--no-near-misses", is_flag=True, help="Record the wake phrase only.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for positives/ and near-misses/ (default: <data_dir>/wake-recordings).",
)
@wav_files_option
@click.option(
    "--json", "as_json", is_flag=True, help="Print the result as JSON (progress goes to stderr)."
)
@pass_app
def enrol_command(
    app: AppContext,
    takes: int,
    near_takes: int,
    no_near_misses: bool,
    out_dir: Path | None,
    wav_files: tuple[Path, ...],
    as_json: bool,
) -> None:
    """Record your own "open claw" and its near-misses for training a head on your voice.

    The appliance says each phrase, listens, refuses a take with no speech, too short, too quiet,
    clipped or longer than the phrase (and asks again), and keeps good ones as 16 kHz WAV files.
    """
    config = app.config
    plan = make_plan(config.audio.wake_phrase, takes, 0 if no_near_misses else near_takes)
    if not plan:
        raise click.UsageError("nothing to record: --takes 0 with --no-near-misses")
    out = out_dir or config.data_path("wake-recordings")

    def echo(line: str) -> None:
        click.echo(line, err=as_json)

    async def run() -> EnrolReport:
        on_state, check = _missing_watch()
        source = build_source(
            config,
            wav_files=list(wav_files) or None,
            realtime=False if wav_files else None,
            on_state=on_state,
        )
        listener = TakeListener(
            source,
            vad_threshold_db=config.audio.vad_threshold_db,
            trailing_silence_s=config.audio.trailing_silence_s,
            no_speech_timeout_s=NO_SPEECH_TIMEOUT_S,
            is_missing=check,
        )
        return await Enrolment(
            listener, build_speaker(config, build_sink(config)), out, echo=echo
        ).run(plan)

    report = asyncio.run(run())
    if as_json:
        echo_json(report.to_dict())
        return
    for folder in (report.positives, report.near_misses):
        new, total = report.counts(folder)
        click.echo(f"{folder}: {new} kept now, {total} in all")
    click.echo(f"{len(report.refused)} take(s) refused")
    if report.counts(report.near_misses)[1] == 0:
        click.echo(
            'no near-misses: a head trained without them also wakes on your "open clause" '
            "(record them with openclaw enrol --takes 0)"
        )
    click.echo(
        "train a head on them (on the development machine, with these folders copied there):"
    )
    click.echo(f"  {shlex.join(report.training_argv())}")
