"""``openclaw demo``: the appliance end to end on a fresh machine, with nothing but the repository.

1. draws three sample engineering drawings (title blocks, dimensions, notes) into the global inbox;
2. starts the real service: the inbox watcher indexes them through the ingest pipeline and vision OCR;
3. speaks a question into a WAV file with espeak-ng ("open claw, what material is drawing A-1024?");
4. runs it through the real pipeline: wake word, transcription, search, answer, speech into a WAV;
5. prints the cited answer and the latency of every stage;
6. serves the status page until interrupted (``--no-serve`` stops after the answer).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import signal
from pathlib import Path
from typing import Any

import click
import numpy as np
import soundfile as sf

from appliance.cli import AppContext, pass_app
from appliance.config import Config
from appliance.errors import OpenClawError

DEFAULT_QUESTION = "open claw, what material is drawing A-1024?"


def demo_config(
    base: Config, data_dir: Path | None, port: int | None, question_wav: Path
) -> Config:
    """The configuration for the demo: WAV in and out, the status page on loopback by default."""
    paths = base.paths
    if data_dir is not None:
        paths = dataclasses.replace(paths, data_dir=data_dir.resolve())
    audio = dataclasses.replace(
        base.audio,
        source="wav",
        wav_files=(question_wav,),
        # At a microphone's pace, so that the latencies it reports are the ones a person would
        # feel: the endpointer's silence and the transcription started in it take real time.
        wav_realtime=True,
        sink="wav",
        tts_out_dir=Path("speech-out"),
    )
    web = dataclasses.replace(base.web, port=port) if port is not None else base.web
    return dataclasses.replace(base, paths=paths, audio=audio, web=web)


async def speak_question(text: str, wav: Path) -> None:
    """espeak-ng (through the audio part's wrapper) into a WAV file."""
    from appliance.audio.tts import EspeakTts

    samples, rate = await EspeakTts(rate_wpm=150).synthesize(text)
    wav.parent.mkdir(parents=True, exist_ok=True)
    # Half a second of silence on both sides, as a person leaves around a question.
    pad = np.zeros(rate // 2, dtype=np.int16)
    sf.write(wav, np.concatenate([pad, samples, pad]), rate, subtype="PCM_16")


async def run_demo(
    config: Config, question: str, serve: bool, echo: Any = click.echo
) -> dict[str, Any]:
    """Everything the demo does; returns the answered question's record."""
    from appliance.audio.build import build_frontend
    from appliance.events import EventBus
    from appliance.service.appliance import Appliance
    from appliance.service.parts import VoiceAdapter, build_parts
    from appliance.service.samples import write_samples

    data = config.paths.data_dir
    drawings = write_samples(data / "inbox" / "global")
    echo(f"sample drawings: {', '.join(p.name for p in drawings)} (in {data / 'inbox' / 'global'})")
    wav = config.audio.wav_files[0]
    await speak_question(question, wav)
    echo(f"question spoken into {wav}: {question!r}")

    bus = EventBus(queue_size=1024)
    # The service itself hears nothing: the question is fed once the drawings are indexed.
    service_config = dataclasses.replace(
        config, audio=dataclasses.replace(config.audio, wav_files=())
    )
    appliance = Appliance(service_config, build_parts(service_config, bus), bus=bus)
    loop = asyncio.get_running_loop()
    bus.bind(loop)
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, appliance.request_stop)
    runner = asyncio.create_task(appliance.run())
    try:
        await appliance.started()
        echo(f"status page: http://{config.web.host}:{appliance.web.bound_port}/")
        echo("indexing the drawings (vision OCR, title blocks) ...")
        await appliance.inbox.reconciled.wait()
        await appliance.queue.drained()
        for job in reversed(appliance.state.jobs):
            echo(f"  {job['source']}: {job['state']} {job['message']}")
        frontend = build_frontend(config, bus=bus)
        voice = VoiceAdapter(frontend)
        echo(f"listening: {voice.describe()}")
        appliance.pipeline.speaker = voice
        if config.answer.acknowledgement_heard:
            # This voice replaces the one the appliance warmed up: its acknowledgement is made
            # ahead too, so that it sounds at once, as in the service.
            await voice.prepare(config.answer.acknowledgement_heard)
        utterances = voice.utterances()
        try:
            utterance = await anext(utterances)
        except StopAsyncIteration:
            raise OpenClawError(
                "the wake word was not heard in the question", code="demo_no_wake"
            ) from None
        record = await appliance.pipeline.handle(utterance)
        with contextlib.suppress(Exception):
            await utterances.aclose()
        _print_record(record, config, echo)
        if serve:
            echo("serving the status page; press Ctrl-C to stop")
            await runner
        return record
    finally:
        appliance.request_stop()
        with contextlib.suppress(asyncio.CancelledError, OpenClawError):
            await runner
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


def _print_record(record: dict[str, Any], config: Config, echo: Any) -> None:
    echo("")
    echo(f"heard:   {record['question']}")
    if record.get("error"):
        echo(f"error:   {record['error']['code']}: {record['error']['message']}")
    echo(f"answer:  {record['answer']}")
    echo(f"spoken:  {record['spoken']}   ({record['mode']})")
    for c in record["citations"]:
        rev = f" rev {c['revision']}" if c["revision"] else ""
        where = f"drawing {c['drawing_number']}{rev}" if c["drawing_number"] else c["source"]
        region = f" region {c['box']}" if c.get("box") else ""
        echo(f"  [{c['n']}] {where} ({c['source']}){region}")
    stages = ", ".join(f"{k} {v:.3f}s" for k, v in record["latency"].items())
    echo(f"latency: {stages}")
    out = config.paths.data_dir / config.audio.tts_out_dir
    spoken = sorted(out.glob("*.wav")) if out.is_dir() else []
    if spoken:
        echo(f"spoken answer: {spoken[-1]}")


@click.command("demo")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Data directory for the demo (default: the configured one).",
)
@click.option("--question", default=DEFAULT_QUESTION, show_default=True, help="What to ask.")
@click.option("--port", type=int, help="Status page port (default: the configured one).")
@click.option("--serve/--no-serve", default=True, help="Keep serving the status page afterwards.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the answered question as JSON at the end."
)
@pass_app
def demo_command(
    app: AppContext,
    data_dir: Path | None,
    question: str,
    port: int | None,
    serve: bool,
    as_json: bool,
) -> None:
    """Draw sample drawings, index them, ask a spoken question, print the cited answer, serve the page."""
    from appliance.logs import setup_logging

    setup_logging()
    base = app.config
    root = (data_dir or base.paths.data_dir).resolve()
    config = demo_config(base, root, port, root / "demo" / "question.wav")
    record = asyncio.run(run_demo(config, question, serve))
    if as_json:
        click.echo(json.dumps(record, ensure_ascii=False, indent=2, default=str))
