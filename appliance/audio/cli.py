"""``openclaw listen`` and ``openclaw say``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import click

from appliance.audio.build import build_frontend, build_sink, build_source, build_speaker
from appliance.audio.sinks import WavFileSink
from appliance.audio.tts import single
from appliance.audio.utterance import Utterance
from appliance.audio.wavio import write_wav
from appliance.cli import AppContext, echo_json, pass_app
from appliance.events import Event, EventBus, EventType


def _utterance_json(u: Utterance) -> dict[str, object]:
    return {
        "wake": {
            "detector": u.wake.detector,
            "score": round(u.wake.score, 4),
            "phrase": u.wake.phrase,
            # Why it woke: each stage's score against its threshold, what the check heard.
            "reason": u.wake.reason,
            "verify_score": u.wake.verify_score,
            "verify_heard": u.wake.verify_heard,
        },
        "text": u.text,
        "heard": u.transcript.text,
        "grammar": None
        if u.grammar is None
        else {
            "best": u.grammar.best.text,
            "lead": round(u.grammar.lead, 2),
            "taken": u.grammar.taken,
        },
        "names": None
        if u.names is None or u.names.best is None
        else {
            "best": u.names.best.name,
            "lead": round(u.names.lead, 2),
            "taken": u.names.taken,
        },
        "command": str(u.command.kind),
        "argument": u.command.argument,
        "engine": u.transcript.engine,
        "end_reason": str(u.end_reason),
        "audio_s": round(u.audio_s, 3),
        "latency": {k: round(v, 4) for k, v in u.latency.items()},
    }


#: ``--wav FILE`` (repeatable): replay WAV files instead of the microphone.
wav_files_option = click.option(
    "--wav",
    "wav_files",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Replay these WAV files instead of the microphone (repeat the option for several).",
)


@click.command("listen")
@wav_files_option
@click.option(
    "--fast", is_flag=True, help="Replay WAV files as fast as possible, not in real time."
)
@click.option(
    "--push-to-talk", "ptt", is_flag=True, help="Skip the wake word for the first question."
)
@click.option(
    "--max",
    "max_utterances",
    type=int,
    default=0,
    help="Stop after this many questions (0 = never).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON document per question.")
@pass_app
def listen_command(
    app: AppContext,
    wav_files: tuple[Path, ...],
    fast: bool,
    ptt: bool,
    max_utterances: int,
    as_json: bool,
) -> None:
    """Listen for "open claw" and print each wake detection and transcript."""
    config = app.config

    async def run() -> None:
        source = build_source(
            config,
            wav_files=list(wav_files) or None,
            realtime=not fast if wav_files else None,
            on_state=lambda state, error: click.echo(
                f"microphone: {state}{': ' + error if error else ''}", err=True
            ),
        )
        bus = EventBus()
        from appliance.presence.monitor import configured_room_names

        rooms = configured_room_names(config)
        frontend = build_frontend(
            config, source=source, bus=bus, vocabulary=lambda: rooms, rooms=lambda: rooms
        )
        # Wakes the verifier turned down go to stderr (stdout stays one JSON document per
        # question): the figures to look at when it seems deaf.
        events = bus.subscribe_queue()
        watcher = asyncio.create_task(_print_rejections(events))
        if ptt:
            frontend.push_to_talk()
        count = 0
        try:
            while max_utterances <= 0 or count < max_utterances:
                utterance = await frontend.next_utterance()
                if utterance is None:
                    break
                count += 1
                if as_json:
                    echo_json(_utterance_json(utterance))
                    continue
                wake = utterance.wake
                lat = utterance.latency.get("wake_after_phrase_s")
                shown = f", {lat * 1000:.0f} ms after the phrase" if lat is not None else ""
                click.echo(f"wake: {wake.detector} score {wake.score:.2f}{shown}")
                click.echo(
                    f"heard: {utterance.text!r} -> {utterance.command.kind}"
                    f"{' ' + json.dumps(utterance.command.argument) if utterance.command.argument else ''}"
                    f" ({utterance.end_reason}, {utterance.audio_s:.1f} s of audio, "
                    f"transcribed in {utterance.latency.get('transcribe_s', 0):.2f} s)"
                )
        finally:
            await frontend.close()
            watcher.cancel()
            while not events.empty():  # what the watcher had no turn to print
                _show_rejection(events.get_nowait())
        if not as_json:
            click.echo(f"{count} question(s) heard")

    asyncio.run(run())


async def _print_rejections(events: asyncio.Queue[Event]) -> None:
    while True:
        _show_rejection(await events.get())


def _show_rejection(event: Event) -> None:
    if event.type == EventType.WAKE_REJECTED:
        data = event.data
        if data.get("glued"):
            click.echo(
                f"wake dropped after {data.get('detector')}: the question was heard as "
                f"{data.get('heard', '')!r}, the phrase inside other words",
                err=True,
            )
            return
        if data.get("window"):
            click.echo(
                f"wake dropped after {data.get('detector')}: the phrase's window, heard without "
                f"the prompt, was {data['window']!r}, a near-miss",
                err=True,
            )
            return
        # With the contrast stage, whisper may have confirmed the wake and the stage turned it down.
        contrast = (
            f"; the contrast stage scored it {data['contrast']}" if "contrast" in data else ""
        )
        click.echo(
            f"wake rejected by {data.get('detector')}: whisper gave the phrase "
            f"{data.get('score')} (heard {data.get('heard', '')!r}){contrast}",
            err=True,
        )


@click.command("say")
@click.argument("text")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the speech to this WAV file instead of the speaker.",
)
@pass_app
def say_command(app: AppContext, text: str, out: Path | None) -> None:
    """Speak TEXT sentence by sentence (the Piper voice when installed, else espeak-ng)."""
    config = app.config

    async def run() -> None:
        if out is not None:
            sink = WavFileSink(out.parent / f".{out.stem}-parts")
            speaker = build_speaker(config, sink)
            report = await speaker.speak(single(text))
            audio, rate = sink.concatenated()
            for part in sink.written:
                part.unlink(missing_ok=True)
            sink.out_dir.rmdir()
            write_wav(out, audio, rate)
            click.echo(
                f"{len(report.spoken)} sentence(s), {report.audio_s:.2f} s written to {out.name}"
                f" by {speaker.tts.name}"
            )
            return
        speaker = build_speaker(config, build_sink(config))
        report = await speaker.speak(single(text))
        click.echo(
            f"{len(report.spoken)} sentence(s), {report.audio_s:.2f} s spoken by {speaker.tts.name}"
        )

    asyncio.run(run())
