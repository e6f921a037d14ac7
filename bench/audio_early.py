"""End of question -> text, with the transcription started at the first pause and without.

Questions of the answer evaluation set are spoken by the test voices (espeak-ng) and replayed at a
microphone's pace through the real voice front end (push-to-talk, whisper as configured, the
endpointer's 0.8 s of trailing silence, the command grammar for short utterances). Each question is
heard twice in turn, once with ``audio.early_transcription`` and once without, so load on the
machine falls on both alike. Printed: the end of the question (the endpointer's decision) to the
text the pipeline receives (transcript and command grammar), p50/p95 each way; how often the early
text was used; and whether the two texts ever differ (they must not: the early run is given the
same samples).

    .venv/bin/python bench/audio_early.py [--questions 24] [--whisper-model whisper-base]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
import tempfile
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
from bench.answer_eval_set import load_set
from bench.audio_common import RATES, VOICES, silence, synth
from bench.common import REPO, percentile


async def heard(
    recogniser: WhisperRecogniser, wav: Path, out: Path, settings: AudioSettings
) -> Utterance:
    """One press of the button and the question in ``wav``, replayed in real time."""
    frontend = VoiceFrontEnd(
        WavReplaySource([wav], realtime=True),
        WhisperWakeDetector(recogniser, settings.wake_phrase),
        recogniser,
        Speaker(EspeakTts(), WavFileSink(out)),
        settings=settings,
    )
    frontend.push_to_talk()
    try:
        utterance = await frontend.next_utterance()
    finally:
        await frontend.close()
    assert utterance is not None
    return utterance


async def run(args: argparse.Namespace) -> None:
    recogniser = WhisperRecogniser.from_manifest(args.whisper_model, REPO / "var" / "models")
    base = AudioSettings(whisper_model=args.whisper_model)
    questions = [q for q in load_set() if q.split == "tuning"][: args.questions]
    times: dict[bool, list[float]] = {True: [], False: []}
    used = runs = differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, question in enumerate(questions):
            speech = synth(question.text, VOICES[i % len(VOICES)], RATES[i % len(RATES)])
            wav = write_wav(
                Path(tmp) / f"q{i}.wav", np.concatenate([silence(0.3), speech, silence(1.5)])
            )
            texts = {}
            # Alternate which goes first, so neither always meets a warm cache.
            for early in (i % 2 == 0, i % 2 == 1):
                settings = dataclasses.replace(base, early_transcription=early)
                utterance = await heard(recogniser, wav, Path(tmp) / "out", settings)
                times[early].append(
                    utterance.latency["transcribe_s"] + utterance.latency["grammar_s"]
                )
                texts[early] = utterance.text
                if early:
                    runs += int(utterance.latency.get("early_runs", 0))
                    used += int(utterance.latency.get("early_used", 0))
            differ += texts[True] != texts[False]
    n = len(questions)
    print(f"{n} questions, {args.whisper_model}, load average {os.getloadavg()[0]:.1f}")
    for early, label in ((False, "at the end of the question"), (True, "at the first pause")):
        t = times[early]
        print(
            f"  transcription started {label}: end of question -> text understood p50 "
            f"{percentile(t, 50):.2f} s, p95 {percentile(t, 95):.2f} s, max {max(t):.2f} s"
        )
    print(f"  early runs {runs}, early text used {used}/{n}; texts that differ: {differ}/{n}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=24)
    parser.add_argument("--whisper-model", default=AudioSettings().whisper_model)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
