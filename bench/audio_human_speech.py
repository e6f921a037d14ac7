"""The test voices against people: the same sentences heard from real readers and from synthesis.

Every spoken figure of this project is measured on synthetic voices (espeak-ng's test voices, the
Piper voice), since no recording of anyone asking about a drawing exists. This benchmark says how
far those voices are from people for the recogniser: the real recordings of
``../shared/data/speech`` that have an exact transcript (LJSpeech's reader, LibriVox, the
PocketSphinx test clips: 44 utterances) are transcribed as recorded, and the same sentences are
said by the espeak-ng test voices (voice and rate rotating as in ``bench/answer_eval.py
--spoken``) and by the Piper voice (its noise seeded per sentence), all through the same
recogniser with no prompt. Printed per voice kind: word error rate and the share of sentences with
every content word heard (``answer_eval_set.question_heard``, the rule of the spoken answers).

    .venv/bin/python bench/audio_human_speech.py [--engines whisper-base,whisper-tiny-en]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from audio_common import RATES, VOICES, load, silence, speech_index, synth  # noqa: E402
from audio_questions import load_recogniser, wer_tokens, word_errors  # noqa: E402

from appliance.audio.base import Samples  # noqa: E402
from bench.answer_eval_set import question_heard  # noqa: E402
from bench.common import percentile  # noqa: E402


def sentences() -> list[tuple[str, Path]]:
    """(transcript, recording) of every clip with an exact transcript, shortest first."""
    clips = [c for c in speech_index() if c.quality.startswith("exact") and c.transcript]
    return [(c.transcript, c.path) for c in sorted(clips, key=lambda c: (c.seconds, c.path))]


def padded(speech: Samples) -> Samples:
    """The sentence with the endpointer's margins, as the appliance hands a question over."""
    return np.concatenate([silence(0.4), speech, silence(0.4)])


def voices() -> dict[str, Callable[[int, str, Path], tuple[Samples, str]]]:
    """Each voice kind: (sentence's index, text, recording) -> (audio, the voice's name)."""

    def human(_i: int, _text: str, path: Path) -> tuple[Samples, str]:
        return padded(load(path)), path.parts[-3] if "pocketsphinx" in path.parts else "ljspeech"

    def espeak(i: int, text: str, _path: Path) -> tuple[Samples, str]:
        voice, rate = VOICES[i % len(VOICES)], RATES[i % len(RATES)]
        return padded(synth(text, voice, rate=rate)), f"{voice}@{rate}"

    def piper(_i: int, text: str, _path: Path) -> tuple[Samples, str]:
        from training.wake.piper_seeded import seeded_piper

        rng = np.random.default_rng(zlib.crc32(text.encode()))
        voice = seeded_piper(REPO / "var" / "models")
        return padded(voice.say(text, voice.default_scales, rng)), "piper-joe"

    return {"people": human, "espeak-ng": espeak, "piper": piper}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="whisper-base", help="comma-separated whisper models")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    items = sentences()
    kinds = voices()
    audio = {
        kind: [make(i, text, path) for i, (text, path) in enumerate(items)]
        for kind, make in kinds.items()
    }
    print(
        f"{len(items)} sentences with an exact transcript, {sum(len(t.split()) for t, _ in items)} words"
    )
    for engine in args.engines.split(","):
        recogniser = load_recogniser(engine, args.threads)
        print(f"\n== {engine}, no prompt")
        for kind, clips in audio.items():
            errors = words = right = 0
            seconds = []
            by_voice: dict[str, list[bool]] = {}
            for (text, _), (samples, voice) in zip(items, clips, strict=True):
                t0 = time.perf_counter()
                heard = recogniser.transcribe(samples, vocabulary=[]).text  # type: ignore[attr-defined]
                seconds.append(time.perf_counter() - t0)
                ref = wer_tokens(text)
                errors += word_errors(ref, wer_tokens(heard))
                words += len(ref)
                ok = question_heard(text, heard)
                right += ok
                by_voice.setdefault(voice.split("@")[0], []).append(ok)
            n = len(items)
            print(
                f"  {kind:10} every content word heard {right:>2}/{n} {100 * right / n:5.1f}%"
                f"   WER {errors / max(1, words):.3f}   transcription p50"
                f" {percentile(seconds, 50):.2f} s"
            )
            if len(by_voice) > 1:
                print(
                    "             by voice: "
                    + ", ".join(f"{v} {sum(h)}/{len(h)}" for v, h in sorted(by_voice.items()))
                )
    print(f"\n(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
