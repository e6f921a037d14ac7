"""Spoken answers: espeak-ng against the Piper voice — time to first audio, real-time factor, intelligibility.

Each answer sentence is synthesised by both engines in the same process (alternating, so load on the
machine falls on both alike). Figures per engine: synthesis time of one sentence (what the listener
waits for before the first sentence of an answer is heard: the speaker works one sentence ahead),
its real-time factor (synthesis time over audio time, wall clock, onnxruntime threads as set), and
the word error rate of whisper tiny.en transcribing the engine's audio (resampled to 16 kHz) against
the sentence — a machine listener's stand-in for "can it be understood", the same listener for both.

    .venv/bin/python bench/audio_tts.py [--threads 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

import numpy as np
from audio_wer import normalise, word_errors

from appliance.audio.base import Samples
from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.piper import PiperVoice
from appliance.audio.tts import EspeakTts
from appliance.audio.wavio import to_16k

#: Answer-like sentences: drawing numbers, units, part names, room names, short confirmations.
SENTENCES = [
    "Twenty five newton metres, drawing A-1024 revision C, note 3.",
    "The bolts are class 8.8.",
    "The bracket is made of 6061 aluminium, anodised black.",
    "The counterbore on the flange is 12 millimetres deep.",
    "Now in the electronics lab.",
    "I have remembered that the drill press is out of order.",
    "Scanned drawing B-204, sheet 2 of 3.",
    "The tolerance on the bore is plus or minus 0.05 millimetres.",
    "The motor mount uses four M4 screws at 2.5 newton metres.",
    "I could not find that in the indexed drawings.",
    "The latest revision of the gearbox housing is revision E, from March.",
    "Torque the wheel nuts to one hundred and twenty newton metres in a star pattern.",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2, help="onnxruntime threads for Piper")
    parser.add_argument("--repeat", type=int, default=3, help="timed syntheses per sentence")
    args = parser.parse_args()

    espeak = EspeakTts()
    piper = PiperVoice.from_manifest(Path("var/models"), threads=args.threads)
    whisper = WhisperRecogniser.from_manifest("whisper-tiny-en", Path("var/models"))
    piper.synthesize("Warm up.")  # the first run of a graph pays for allocation

    def run_piper(text: str) -> tuple[Samples, int]:
        return piper.synthesize(text), piper.sample_rate

    def run_espeak(text: str) -> tuple[Samples, int]:
        return asyncio.run(espeak.synthesize(text))

    engines = {"espeak-ng": run_espeak, f"piper (joe, {args.threads} threads)": run_piper}
    times: dict[str, list[float]] = {name: [] for name in engines}
    audio_s: dict[str, list[float]] = {name: [] for name in engines}
    errors: dict[str, int] = dict.fromkeys(engines, 0)
    words = 0
    for text in SENTENCES:
        ref = normalise(text)
        words += len(ref)
        for name, run in engines.items():
            for _ in range(args.repeat):
                start = time.perf_counter()
                audio, rate = run(text)
                times[name].append(time.perf_counter() - start)
            audio_s[name].append(len(audio) / rate)
            heard = whisper.transcribe(to_16k(audio, rate)).text
            wrong = word_errors(ref, normalise(heard))
            errors[name] += wrong
            print(f"  {name[:9]:9s} {wrong:2d} errors  {heard.strip()[:70]!r}")
    print(f"\n{len(SENTENCES)} sentences, {words} words, {args.repeat} timed runs each")
    for name in engines:
        t = np.array(times[name])
        per_sentence = t.reshape(len(SENTENCES), args.repeat).mean(axis=1)
        rtf = per_sentence / np.array(audio_s[name])
        print(
            f"{name:26s} synthesis of one sentence p50 {np.percentile(t, 50) * 1000:5.0f} ms,"
            f" p95 {np.percentile(t, 95) * 1000:5.0f} ms, max {t.max() * 1000:5.0f} ms;"
            f" RTF {np.median(rtf):.3f}; audio {np.mean(audio_s[name]):.1f} s per sentence;"
            f" whisper WER {errors[name] / words:.3f} ({errors[name]}/{words})"
        )
    print(f"Piper symbols without an id: {piper.unknown_symbols}")


if __name__ == "__main__":
    main()
