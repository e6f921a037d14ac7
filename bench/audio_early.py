"""End of question -> text (and, with --answer, -> first audio), transcription started at the
first pause and at the end, for one or more whisper models in one process.

Questions of the answer evaluation set are spoken by the test voices (espeak-ng, each question in
its spoken form, by the voice and rate ``answer_eval.py --spoken`` gives it at its place in the
split) and replayed at a microphone's pace through the real voice front end (push-to-talk, the
endpointer's 0.8 s of trailing silence, the command grammar for short utterances, the index's
names in the prompt and heard again (audio.heard_names) when --answer gives an index), by a
recogniser built as the service builds it (its shortened reading kept when heard surely, as
configured). Each question is heard by every model, thread count and mode in turn (the order
rotates per question), so load on the machine falls on all alike.

Printed per model: the end of the question (the endpointer's decision) to the text the pipeline
receives (transcript and command grammar), p50/p95 per mode; how often the early text was used;
whether the two modes' texts ever differ (they must not: the early run is given the same samples).
With --answer each text is answered as the pipeline answers a heard question (extractive, from
``answer_eval.py``'s clean index) and the voice synthesises the answer's first clause: end of
question -> first audio, p50/p95, and the right-question and right-with-citation rates.

    .venv/bin/python bench/audio_early.py [--questions 24] [--whisper-model whisper-base]
    .venv/bin/python bench/audio_early.py --split dev --questions 0 --modes early
        --whisper-model whisper-tiny-en,whisper-base --answer
    .venv/bin/python bench/audio_early.py --split dev --questions 0 --modes early
        --heard-names off,on --answer --index-dir ABSOLUTE_DIR
    .venv/bin/python bench/audio_early.py --split dev --questions 60 --modes early
        --threads 1,2 --answer --index-dir ABSOLUTE_DIR
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.settings import AudioSettings
from appliance.audio.sinks import WavFileSink
from appliance.audio.sources import WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker
from appliance.audio.utterance import Utterance
from appliance.audio.wake import WhisperWakeDetector
from appliance.audio.wavio import write_wav
from bench.answer_eval_set import load_set, question_heard, spoken_form
from bench.audio_common import RATES, VOICES, silence, synth
from bench.common import REPO, out_dir, percentile

MODES = ("late", "early")
LABELS = {"late": "at the end of the question", "early": "at the first pause"}


@dataclass
class Figures:
    """What one model heard and how fast, per mode."""

    #: Mode -> seconds from the end of the question to the text understood.
    text_s: dict[str, list[float]] = field(default_factory=dict)
    #: Mode -> seconds from the end of the question to the first audio of the answer (--answer).
    audio_s: dict[str, list[float]] = field(default_factory=dict)
    #: Mode -> questions heard right (every content word).
    heard: dict[str, int] = field(default_factory=dict)
    #: Mode -> answerable questions answered right with the right citation, and abstentions right.
    right: dict[str, int] = field(default_factory=dict)
    #: Early runs started and early texts used (mode "early").
    early_runs: int = 0
    early_used: int = 0
    #: Questions whose text differs between the modes.
    differ: int = 0


async def heard(
    recogniser: WhisperRecogniser,
    wav: Path,
    out: Path,
    settings: AudioSettings,
    names: Sequence[str] = (),
) -> Utterance:
    """One press of the button and the question in ``wav``, replayed in real time."""
    frontend = VoiceFrontEnd(
        WavReplaySource([wav], realtime=True),
        WhisperWakeDetector(recogniser, settings.wake_phrase),
        recogniser,
        Speaker(EspeakTts(), WavFileSink(out)),
        settings=settings,
        vocabulary=lambda: names,
    )
    frontend.push_to_talk()
    try:
        utterance = await frontend.next_utterance()
    finally:
        await frontend.close()
    assert utterance is not None
    return utterance


class Answering:
    """The answer path after the text: answer_eval's clean index, extractive answers as the
    pipeline gives a heard question, and the configured voice for the first clause."""

    def __init__(self, index_dir: Path) -> None:
        from appliance.audio.bias import index_names
        from appliance.audio.build import build_tts
        from appliance.index.store import IndexStore
        from bench.answer_eval import build_index, clean_files, open_config

        root = index_dir.resolve() / "clean"  # the configuration wants an absolute data_dir
        self.config = open_config(root, None)
        build_index(self.config, root, clean_files(), False)
        self.store = IndexStore.open(self.config)  # closed by close()
        self.names = index_names(self.store.list_sources())
        self.tts = build_tts(self.config)

    def close(self) -> None:
        self.store.close()

    async def first_audio(self, question: object, text: str) -> tuple[float, bool]:
        """Seconds from the text to the first audio, and whether the answer is right."""
        from bench.answer_eval import ask, first_audio_s, score

        answer, first_s, _ack, first_text = await ask(
            text, self.store, self.config, None, "extractive", heard=True
        )
        return first_s + await first_audio_s(self.tts, first_text), score(question, answer)  # type: ignore[arg-type]


async def run(args: argparse.Namespace) -> None:
    models = args.whisper_model.split(",")
    modes = [m for m in MODES if m in args.modes.split(",")]
    threads = [int(t) for t in args.threads.split(",")]
    configured = AudioSettings()
    # Built as the service builds its question recogniser (audio/build.py): the shortened
    # reading when heard surely, as configured.
    recognisers = {
        (m, t): WhisperRecogniser.from_manifest(
            m,
            REPO / "var" / "models",
            threads=t,
            short_context=configured.whisper_short_context,
            short_context_min_score=configured.whisper_short_context_min_score,
            short_context_s=configured.whisper_short_context_s,
            beam_size=configured.whisper_beam_size,
        )
        for m in models
        for t in threads
    }
    answering = Answering(args.index_dir) if args.answer else None
    names = answering.names if answering else []
    split = [q for q in load_set() if q.split == args.split]
    n = args.questions or len(split)
    # Spread over the split (every drawing, every style), each question keeping its place's voice.
    chosen = sorted({int(k * len(split) / n) for k in range(min(n, len(split)))})
    flags = [flag == "on" for flag in args.heard_names.split(",")]
    # One variant per model and setting of audio.heard_names, named as the report prints it.
    variants = {
        (
            m
            + (" + names heard again" if on and len(flags) > 1 else "")
            + (f", {t} thread{'s' if t > 1 else ''}" if len(threads) > 1 else "")
        ): (m, on, t)
        for m in models
        for on in flags
        for t in threads
    }
    figures = {label: Figures() for label in variants}
    runs = [(label, mode) for label in variants for mode in modes]
    with tempfile.TemporaryDirectory() as tmp:
        for done, i in enumerate(chosen):
            question = split[i]
            speech = synth(
                spoken_form(question.text), VOICES[i % len(VOICES)], RATES[i % len(RATES)]
            )
            wav = write_wav(
                Path(tmp) / f"q{i}.wav", np.concatenate([silence(0.3), speech, silence(1.5)])
            )
            texts: dict[tuple[str, str], str] = {}
            # Rotate the order, so that no model or mode always meets a warm cache or a quiet CPU.
            shift = done % len(runs)
            for label, mode in runs[shift:] + runs[:shift]:
                model, names_on, n_threads = variants[label]
                f = figures[label]
                base = dataclasses.replace(
                    configured, whisper_model=model, heard_names=names_on, stt_threads=n_threads
                )
                settings = dataclasses.replace(base, early_transcription=mode == "early")
                utterance = await heard(
                    recognisers[model, n_threads], wav, Path(tmp) / "out", settings, names
                )
                text_s = utterance.latency["transcribe_s"] + utterance.latency["grammar_s"]
                f.text_s.setdefault(mode, []).append(text_s)
                texts[label, mode] = utterance.text
                f.heard[mode] = f.heard.get(mode, 0) + question_heard(question.text, utterance.text)
                if mode == "early":
                    f.early_runs += int(utterance.latency.get("early_runs", 0))
                    f.early_used += int(utterance.latency.get("early_used", 0))
                if answering is not None:
                    after_s, right = await answering.first_audio(question, utterance.text)
                    f.audio_s.setdefault(mode, []).append(text_s + after_s)
                    f.right[mode] = f.right.get(mode, 0) + right
            for label in variants:
                figures[label].differ += len({texts[label, mode] for mode in modes}) > 1
            if args.progress and (done + 1) % args.progress == 0:
                print(f"  {done + 1}/{len(chosen)} questions", flush=True)
    if answering is not None:
        answering.close()
    report(figures, modes, [split[i] for i in chosen], args)


def report(
    figures: dict[str, Figures], modes: list[str], asked: list[object], args: argparse.Namespace
) -> None:
    n = len(asked)
    answerable = sum(q.answerable for q in asked)  # type: ignore[attr-defined]
    print(
        f"{n} questions of the {args.split} part ({answerable} answerable), replayed in real time; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    for model, f in figures.items():
        print(f"{model}:")
        for mode in modes:
            t = f.text_s[mode]
            print(
                f"  transcription started {LABELS[mode]}: end of question -> text understood p50 "
                f"{percentile(t, 50):.2f} s, p95 {percentile(t, 95):.2f} s, max {max(t):.2f} s; "
                f"right question {f.heard[mode]}/{n}"
            )
            if mode in f.audio_s:
                a = f.audio_s[mode]
                print(
                    f"    end of question -> first audio p50 {percentile(a, 50):.2f} s, "
                    f"p95 {percentile(a, 95):.2f} s, max {max(a):.2f} s; right with citation "
                    f"or abstained rightly {f.right[mode]}/{n}"
                )
        if "early" in modes:
            print(f"  early runs {f.early_runs}, early text used {f.early_used}/{n}")
        if len(modes) > 1:
            print(f"  texts that differ between the modes: {f.differ}/{n}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--questions", type=int, default=24, help="questions spread over the split (0: all)"
    )
    parser.add_argument("--split", choices=["tuning", "dev"], default="tuning")
    parser.add_argument(
        "--whisper-model",
        default=AudioSettings().whisper_model,
        help="manifest names, comma-separated: each question is heard by each in turn",
    )
    parser.add_argument("--modes", default="late,early", help="late, early (comma-separated)")
    parser.add_argument(
        "--heard-names",
        default="on",
        help="audio.heard_names: on, off or off,on (each question heard both ways in turn)",
    )
    parser.add_argument(
        "--answer", action="store_true", help="answer each text and time the first audio"
    )
    parser.add_argument(
        "--index-dir",
        type=Path,
        default=out_dir("answer_eval") / "index",
        help="with --answer: answer_eval.py's index folder (clean/ under it, built when missing)",
    )
    parser.add_argument(
        "--threads",
        default=str(AudioSettings().stt_threads),
        help="audio.stt_threads, comma-separated: each question is heard with each in turn",
    )
    parser.add_argument("--progress", type=int, default=0, help="print every N questions")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
