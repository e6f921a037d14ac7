"""Spoken questions: word error rate and right-question rate per recogniser, bias and noise band.

The questions are the answers evaluation set (bench/answer_eval_set.py; split tuning/dev/heldout by
drawing), each said by the same espeak-ng test voice and rate as in ``bench/answer_eval.py --spoken``
(``spoken_form``: codes read piece by piece), with 0.4 s of silence either side. Every question is
heard twice: clean, and once in noise (bench/audio_noise.py: babble, machine or music, the kind and
the SNR drawn per question from its id, spread over the >= 20, 10-19 and 0-9 dB bands). Every
recogniser and bias hears the same audio.

Figures per split and band (and per noise kind over the noisy bands):

- **right question**: every content word of the question is in the transcript
  (``answer_eval_set.question_heard``), and the strict form it had before decision 0037
  (``question_heard_strict``) beside it;
- **WER**: word error rate against what the voice said, with codes compared character by character
  ("HT2022", "H T 2 0 2 2" and "h t two zero two two" are the same six tokens);
- transcription seconds p50 / p95, and the load average beside them (the machine is shared).

Biases (the recogniser's initial prompt, ``WhisperRecogniser.transcribe(vocabulary=...)``):

- ``none``: no prompt;
- ``service``: what the service gave until decision 0037: the command hints, then every drawing
  number and title of the index, sorted, cut at 600 characters;
- ``index``: the same terms through :func:`appliance.audio.bias.bias_prompt` (written as said,
  within 400 characters), as the service gives them now.

    .venv/bin/python bench/audio_questions.py --split tuning --engines whisper-tiny-en \
        --bias none,service,index [--show-failures 20] [--no-noise] [--limit N]
    .venv/bin/python bench/audio_questions.py --split dev --engines whisper-base --bias index \
        --context service --threads 2 --beams 1,5
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from audio_common import RATES, VOICES, silence, synth  # noqa: E402
from audio_noise import BANDS, KINDS, add_noise, band_of  # noqa: E402

from appliance.audio.base import SAMPLE_RATE, Samples  # noqa: E402
from appliance.audio.bias import bias_prompt  # noqa: E402
from bench.answer_eval_set import (  # noqa: E402
    SPLITS,
    Question,
    load_set,
    question_heard,
    question_heard_strict,
    spoken_form,
)
from bench.common import percentile  # noqa: E402

_DIGITS = {
    w: str(i)
    for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    )
}


def wer_tokens(text: str) -> list[str]:
    """Lower-case word tokens; a token holding a digit is split into its characters, and the
    number words zero..nine are digits, so a code counts the same however it was written."""
    out: list[str] = []
    for word in re.findall(r"[a-z0-9]+", text.lower().replace("'", "")):
        if any(c.isdigit() for c in word):
            out.extend(word)
        else:
            out.append(_DIGITS.get(word, word))
    return out


def word_errors(ref: Sequence[str], hyp: Sequence[str]) -> int:
    """Levenshtein distance over words."""
    prev = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        cur = [i]
        for j, h in enumerate(hyp, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r != h)))
        prev = cur
    return prev[-1]


@dataclass(frozen=True)
class Clip:
    """One question as heard: clean or in noise."""

    question: Question
    #: The words the voice said.
    said: str
    audio: Samples
    #: Noise kind ("" when clean).
    kind: str
    #: SNR in dB (None when clean).
    snr: float | None
    voice: str


def make_clips(questions: list[Question], noise: bool) -> list[Clip]:
    """Each question clean and, with ``noise``, once more in noise; the voice as answer_eval's."""
    clips = []
    noisy_bands = [b for b, limits in BANDS.items() if limits is not None]
    for i, q in enumerate(questions):
        voice, rate = VOICES[i % len(VOICES)], RATES[i % len(RATES)]
        said = spoken_form(q.text)
        speech = synth(said, voice, rate=rate)
        audio = np.concatenate([silence(0.4), speech, silence(0.4)])
        clips.append(Clip(q, said, audio, "", None, f"{voice}@{rate}"))
        if not noise:
            continue
        seed = zlib.crc32(q.qid.encode())
        rng = np.random.default_rng(seed)
        low, high = BANDS[noisy_bands[seed % len(noisy_bands)]] or (0.0, 0.0)
        kind = KINDS[(seed // len(noisy_bands)) % len(KINDS)]
        snr = float(rng.uniform(low, high))
        noisy = add_noise(audio, kind, snr, seed, ref=speech)
        clips.append(Clip(q, said, noisy, kind, snr, f"{voice}@{rate}"))
    return clips


@dataclass(frozen=True)
class Heard:
    clip: Clip
    text: str
    seconds: float


def index_terms() -> list[str]:
    """The drawing numbers and titles of the answer evaluation's clean index (built if missing),
    sorted, as the service's vocabulary gives them."""
    from appliance.index.store import IndexStore
    from bench.answer_eval import build_index, clean_files, open_config
    from bench.common import out_dir

    root = out_dir("answer_eval") / "index" / "clean"
    config = open_config(root, None)
    build_index(config, root, clean_files(), False)
    with IndexStore.open(config) as store:
        sources = store.list_sources()
    return sorted({w for s in sources for w in (s.drawing_number, s.title) if w})[:500]


def biases(terms: list[str]) -> dict[str, Callable[[], list[str]]]:
    from appliance.audio.frontend import COMMAND_HINTS

    return {
        "none": lambda: [],
        "service": lambda: [*COMMAND_HINTS, *terms],
        "index": lambda: [bias_prompt([*COMMAND_HINTS, *terms])],
    }


def load_recogniser(name: str, threads: int, context: str = "full") -> object:
    """The recogniser; ``context`` "service" reads a question as the service builds its recogniser
    (``build_recogniser``: the shortened context and the beam of the audio settings), "full" with
    whisper's whole 30 s, greedily."""
    from appliance.audio.build import build_recogniser
    from appliance.audio.engines.whisper import WhisperRecogniser
    from appliance.config import load_config

    if context == "full":
        return WhisperRecogniser.from_manifest(name, REPO / "var" / "models", threads=threads)
    env = {
        "OPENCLAW_PATHS__MODELS_DIR": str(REPO / "var" / "models"),
        "OPENCLAW_AUDIO__WHISPER_MODEL": name,
        "OPENCLAW_AUDIO__STT_THREADS": str(threads),
    }
    return build_recogniser(load_config(environ=env), "whisper")


def transcribe_all(recogniser: object, clips: list[Clip], vocabulary: list[str]) -> list[Heard]:
    out = []
    for clip in clips:
        t0 = time.perf_counter()
        text = recogniser.transcribe(clip.audio, vocabulary=vocabulary).text  # type: ignore[attr-defined]
        out.append(Heard(clip, text.strip(), time.perf_counter() - t0))
    return out


def _row(label: str, rows: list[Heard]) -> str:
    if not rows:
        return f"    {label:14} -"
    right = sum(question_heard(h.clip.question.text, h.text) for h in rows)
    strict = sum(question_heard_strict(h.clip.question.text, h.text) for h in rows)
    errors = words = 0
    for h in rows:
        ref = wer_tokens(h.clip.said)
        errors += word_errors(ref, wer_tokens(h.text))
        words += len(ref)
    n = len(rows)
    return (
        f"    {label:14} n={n:<4} right question {right:>3}/{n:<4} {100 * right / n:5.1f}%"
        f"  (strict {100 * strict / n:5.1f}%)   WER {errors / max(1, words):.3f}"
    )


def report(title: str, heard: list[Heard], splits: list[str]) -> None:
    print(f"\n== {title}")
    for split in splits:
        rows = [h for h in heard if h.clip.question.split == split]
        if not rows:
            continue
        print(f"  {split}:")
        for band in BANDS:
            print(_row(band, [h for h in rows if band_of(h.clip.snr) == band]))
        print(_row(">=10 dB+clean", [h for h in rows if band_of(h.clip.snr) != "0-9 dB"]))
        for kind in KINDS:
            print(_row(f"{kind} (noisy)", [h for h in rows if h.clip.kind == kind]))
    seconds = [h.seconds for h in heard]
    audio_s = [len(h.clip.audio) / SAMPLE_RATE for h in heard]
    print(
        f"  transcription p50 {percentile(seconds, 50):.2f} s, p95 {percentile(seconds, 95):.2f} s,"
        f" mean RTF {statistics.mean(s / a for s, a in zip(seconds, audio_s, strict=True)):.3f}"
        f" (load average {os.getloadavg()[0]:.1f})"
    )


def show_failures(heard: list[Heard], limit: int) -> None:
    shown = 0
    for h in heard:
        if shown >= limit:
            break
        if question_heard(h.clip.question.text, h.text):
            continue
        shown += 1
        noise = "clean" if h.clip.snr is None else f"{h.clip.kind}@{h.clip.snr:.0f}dB"
        print(f"  {h.clip.question.qid} [{h.clip.voice}, {noise}]")
        print(f"     asked {h.clip.question.text!r}\n     said  {h.clip.said!r}")
        print(f"     heard {h.text!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="tuning", choices=[*SPLITS, "all"])
    parser.add_argument(
        "--engines", default="whisper-tiny-en", help="manifest names, comma-separated"
    )
    parser.add_argument("--bias", default="none,service,index", help="none, service, index")
    parser.add_argument("--no-noise", action="store_true", help="clean audio only")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    parser.add_argument("--threads", type=int, default=1, help="CTranslate2 threads")
    parser.add_argument("--show-failures", type=int, default=0, help="print N misheard questions")
    parser.add_argument(
        "--context",
        choices=["full", "service"],
        default="full",
        help="whisper's whole 30 s, or the shortened context the service reads questions with",
    )
    parser.add_argument("--beams", default="1", help="decoder beam sizes, comma-separated")
    args = parser.parse_args()
    splits = list(SPLITS) if args.split == "all" else [args.split]
    questions = [q for q in load_set() if q.split in splits]
    if args.limit:
        questions = questions[: args.limit]
    t0 = time.perf_counter()
    clips = make_clips(questions, noise=not args.no_noise)
    print(f"{len(questions)} questions, {len(clips)} clips ({time.perf_counter() - t0:.0f} s)")
    makers = biases(index_terms())
    for name in args.bias.split(","):
        if name not in makers:
            parser.error(f"unknown bias {name!r}")
        vocabulary = makers[name]()
        print(f"bias {name}: {', '.join(vocabulary)[:600]!r}")
    for engine in args.engines.split(","):
        recogniser = load_recogniser(engine, args.threads, args.context)
        for beam in (int(b) for b in args.beams.split(",")):
            recogniser.beam_size = beam  # type: ignore[attr-defined]
            for name in args.bias.split(","):
                heard = transcribe_all(recogniser, clips, makers[name]())
                report(
                    f"{engine} ({args.context} context, beam {beam}), bias {name}", heard, splits
                )
                if args.show_failures:
                    show_failures(heard, args.show_failures)


if __name__ == "__main__":
    main()
