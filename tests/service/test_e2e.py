"""End to end: an espeak-ng WAV ("open claw, what material is drawing A-1024?") in, a spoken, cited answer out.

Everything is real: the sample drawing is OCRed by Tesseract and indexed (SQLite + sqlite-vec + FTS5,
ONNX embeddings), the wake word and the question are recognised from the WAV file, the answer is
retrieved and checked, and the configured voice (the Piper voice, else espeak-ng) speaks it into a
WAV file. Extractive answers keep the test
short; the LLM path is measured in bench/e2e_latency.py.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import soundfile as sf

from appliance.config import load_config
from appliance.demo import demo_config, run_demo

#: The smaller candidate answer model (not the default: answers are spoken without a model).
CANDIDATE_MODEL = "qwen2.5-coder-0.5b-instruct-q4_k_m"


async def test_spoken_question_to_spoken_cited_answer(tmp_path: Path) -> None:
    base = load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data")})
    base = dataclasses.replace(
        base,
        answer=dataclasses.replace(base.answer, llm_model=""),
        web=dataclasses.replace(base.web, port=0),
    )
    data = base.paths.data_dir
    config = demo_config(base, data, None, data / "demo" / "question.wav")
    lines: list[str] = []
    record = await run_demo(
        config, "open claw, what material is drawing A-1024?", False, lines.append
    )

    assert record["command"] == "question"
    assert "1024" in record["question"]  # recognised from the audio, wake phrase removed
    assert "claw" not in record["question"].lower()
    assert "6061-T6" in record["answer"]
    cite = record["citations"][0]
    assert cite["drawing_number"] == "A-1024"
    assert cite["source"] == "inbox/global/A-1024_revC.png"
    assert cite["box"] and cite["region"]
    assert "6061-T6" in record["spoken"]
    for stage in ("wake", "capture", "cue", "transcription", "retrieval", "first_audio", "total"):
        assert stage in record["latency"], stage
    # The "heard you" tone sounds as the question ends, before the transcription is waited for;
    # the transcription may already be done then (0 s after the end): whisper, started at the
    # speaker's first pause, can have the whole text before the end of the question is heard.
    latency = record["latency"]
    assert latency["cue"] < latency["transcription"] or latency["transcription"] == 0.0, latency
    spoken = sorted((data / "speech-out").glob("*.wav"))
    assert spoken, lines
    audio, rate = sf.read(spoken[-1], dtype="int16")
    assert len(audio) / rate > 1.0
    assert float(np.abs(audio.astype(np.int32)).mean()) > 100  # speech, not silence
    assert any(line.startswith("answer:") and "6061-T6" in line for line in lines)
    # What listened and spoke: the defaults, with the Piper voice installed (decision 0034).
    assert "listening: wake kws+whisper, speech whisper, voice piper (en_US-joe-medium)" in lines
    assert (
        rate == 22050
    )  # the Piper voice's rate (espeak-ng's is 22050 too: the line above decides)


async def test_spoken_question_through_the_model_path(tmp_path: Path) -> None:
    # An answer model in its sandboxed worker, asked first (fast_path off): the acknowledgement is
    # spoken at once, and whatever the model writes is checked before it is said.
    base = load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data")})
    assert not base.answer.llm_model, "by default answers are spoken without a model"
    base = dataclasses.replace(
        base,
        answer=dataclasses.replace(
            base.answer, llm_model=CANDIDATE_MODEL, fast_path=False, start_timeout_s=600.0
        ),
        web=dataclasses.replace(base.web, port=0),
    )
    data = base.paths.data_dir
    config = demo_config(base, data, None, data / "demo" / "question.wav")
    lines: list[str] = []
    record = await run_demo(
        config, "open claw, what material is drawing A-1024?", False, lines.append
    )

    assert record["mode"] in ("llm", "extractive"), record
    if record["mode"] == "extractive":
        # The model was asked and its answer refused by the check (or too slow): the reason says so.
        assert record["extra"].get("fallback_reason"), record
    assert "6061-T6" in record["answer"], record
    assert record["citations"][0]["drawing_number"] == "A-1024"
    latency = record["latency"]
    assert 0.0 <= latency["acknowledge"] <= latency["first_audio"], latency
    spoken = sorted((data / "speech-out").glob("*.wav"))
    assert len(spoken) >= 2  # the acknowledgement, then the answer
