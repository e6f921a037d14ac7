"""End of question to first audio of the answer, for the audio part alone.

Each question is synthesised with espeak-ng and fed through the real front end (WAV replay as fast as
possible, push-to-talk so the wake word is not part of the figure); the answer is a fixed two-sentence
text handed to the real speaker (espeak-ng into a WAV sink). Figures: transcription time (capture end
→ transcript), the command grammar's scoring of a short utterance (transcript → command; run with
the grammar on and off on the same audio), TTS start (speak() called → first audio handed to the
sink) and their sum. In real time
the endpointer's trailing-silence wait (audio.trailing_silence_s) comes on top; it is printed too.
``--tts`` names the answer's voices (espeak-ng, piper: the manifest's Piper voice, decision 0034),
each run on the same questions.

    .venv/bin/python bench/audio_latency.py --limit 8 [--tts espeak-ng,piper]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
from audio_common import silence, synth

from appliance.audio.engines.whisper import WhisperRecogniser
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.piper import PiperTts, PiperVoice
from appliance.audio.settings import AudioSettings
from appliance.audio.sinks import WavFileSink
from appliance.audio.sources import WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker, Synthesizer
from appliance.audio.wake import WhisperWakeDetector
from appliance.audio.wavio import write_wav

QUESTIONS = [
    "what torque do the M8 bolts on the mounting bracket take",
    "which room",
    "what material is the bracket made of",
    "scan this",
    "remember that the bracket now takes thirty newton metres",
    "what is the latest revision of drawing A 1024",
    "how deep is the counterbore on the flange",
    "switch to the machine shop",
]
ANSWER = (
    "Twenty five newton metres, drawing A-1024 revision C, note 3. ",
    "The bolts are class 8.8.",
)


async def answer() -> AsyncIterator[str]:
    for piece in ANSWER:
        yield piece


async def run(limit: int, short: bool, grammar: bool, tts: Synthesizer) -> None:
    settings = AudioSettings(command_grammar=grammar)
    whisper = WhisperRecogniser.from_manifest(
        "whisper-tiny-en", Path("var/models"), short_context=short
    )
    print(
        f"\n== whisper tiny.en, {'short' if short else 'full'} encoder context, command grammar"
        f" {'on' if grammar else 'off'}, answer by {tts.name} =="
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, question in enumerate((QUESTIONS * 4)[:limit]):
            wav = write_wav(
                Path(tmp) / f"q{i}.wav",
                np.concatenate([silence(0.3), synth(question), silence(1.2)]),
            )
            frontend = VoiceFrontEnd(
                WavReplaySource([wav], realtime=False),
                WhisperWakeDetector(whisper, settings.wake_phrase),
                whisper,
                Speaker(tts, WavFileSink(Path(tmp) / f"out{i}")),
                settings=settings,
            )
            frontend.push_to_talk()
            utterance = await frontend.next_utterance()
            assert utterance is not None
            report = await frontend.speak(answer())
            await frontend.close()
            transcribe = utterance.latency["transcribe_s"]
            scored = utterance.latency["grammar_s"]
            started = (report.first_audio or report.started) - report.started
            rows.append((transcribe, started, utterance.audio_s, scored))
            print(
                f"  {question[:40]:40s} transcribe {transcribe * 1000:6.0f} ms, grammar"
                f" {scored * 1000:4.0f} ms, TTS start {started * 1000:5.0f} ms  -> {utterance.text[:40]!r}"
            )
    t = np.array(rows)
    total = t[:, 0] + t[:, 1] + t[:, 3]
    print(
        f"{len(rows)} questions ({t[:, 2].mean():.1f} s of audio each on average), whisper tiny.en,"
        f" {tts.name}"
    )
    print(
        f"transcription   p50 {np.percentile(t[:, 0], 50) * 1000:.0f} ms, p95 {np.percentile(t[:, 0], 95) * 1000:.0f} ms"
    )
    print(
        f"command grammar p50 {np.percentile(t[:, 3], 50) * 1000:.0f} ms, p95 {np.percentile(t[:, 3], 95) * 1000:.0f} ms"
    )
    print(
        f"TTS first audio p50 {np.percentile(t[:, 1], 50) * 1000:.0f} ms, p95 {np.percentile(t[:, 1], 95) * 1000:.0f} ms"
    )
    print(
        f"sum             p50 {np.percentile(total, 50) * 1000:.0f} ms, p95 {np.percentile(total, 95) * 1000:.0f} ms"
    )
    print(
        f"plus the endpointer's trailing-silence wait in real time: {settings.trailing_silence_s * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=8, help="questions (default 8)")
    parser.add_argument("--tts", default="espeak-ng", help="espeak-ng, piper (comma-separated)")
    parser.add_argument("--piper-threads", type=int, default=2)
    args = parser.parse_args()
    voices: dict[str, Synthesizer] = {"espeak-ng": EspeakTts()}
    if "piper" in args.tts:
        voice = PiperVoice.from_manifest(Path("var/models"), threads=args.piper_threads)
        voice.synthesize("Warm up.")  # the first run of the graph pays for its allocations
        voices["piper"] = PiperTts(voice)
    for name in args.tts.split(","):
        for short in (False, True):
            for grammar in (True, False):
                asyncio.run(run(args.limit, short, grammar, voices[name]))


if __name__ == "__main__":
    main()
