"""Answers on the project's own evaluation set: right with the right citation, abstention, latency.

The set (bench/data/answer_eval/, docs/decisions/0016) asks about 47 drawings: the 10 shared ones
(7 raster, 3 SolidWorks PDFs), the 3 demo drawings (appliance/service/samples.py) and the rendered ones
(bench/answer_drawings.py). All of them are indexed with the real pipeline (ingest_path: page
correction, Tesseract, title-block cells for images; the text layer for PDFs) into one fresh index per
condition, then every question of the chosen split is asked through ``stream_answer``.

Conditions:
  clean  the files themselves
  photo  camera-like 12 MP shots (bench/vision_degrade.camera_like) of every raster and rendered
         drawing and of the 300-dpi renders of the PDFs, indexed under the original file name

Modes: extractive (no model) and llm (the model in the sandboxed worker: OPENCLAW_ANSWER__LLM_MODEL,
else the smaller candidate, since the appliance's default asks none; skipped with the reason when the
worker does not start).

Scores: right = an expected form appears in the answer's claim (the quoted line of an extractive
answer, the text without citation markers of a model answer) AND the first citation is the expected
file; abstained = declined. Tables: class x split per condition and mode, then style x split;
p50/p95 seconds from the question to the first event (the first sentence, or the abstention).

--spoken: each question is spoken by one of the espeak-ng test voices (bench/audio_common.VOICES),
or with --voices piper by the Piper voice (one speaker, its noise seeded per question: nearer a
person for the recogniser, bench/audio_human_speech.py), transcribed by the configured whisper model (appliance.audio.engines.whisper; --whisper-model), then
answered from the transcript:
right-question rate (every content word of the question heard), right-with-citation rate on the
transcripts, and the end-of-question -> first-sentence-ready latency (transcription + retrieval +
answer up to its first sentence), p50/p95.

    .venv/bin/python bench/answer_eval.py [--split tuning|dev|heldout|all] [--condition clean,photo]
        [--modes extractive,llm] [--index-dir DIR] [--ocr-languages eng] [--spoken]
        [--whisper-model whisper-base] [--voices espeak|piper] [--limit N] [--sample N]
        [--qids QID,QID|@FILE] [-v]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import fcntl
import hashlib
import json
import os
import shutil
import sys
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from appliance.answer.answering import Answer, abstention, stream_answer  # noqa: E402
from appliance.answer.in_hand import InHand  # noqa: E402
from appliance.answer.verify import strip_citations  # noqa: E402
from appliance.audio.bias import index_names  # noqa: E402
from appliance.audio.heard_names import choose_name_in_question  # noqa: E402
from appliance.config import Config, load_config  # noqa: E402
from appliance.errors import public_name  # noqa: E402
from appliance.index.store import IndexStore, SourceInfo  # noqa: E402
from appliance.ingest.pipeline import ingest_path  # noqa: E402
from appliance.service.samples import write_samples  # noqa: E402
from bench.answer_causes import (  # noqa: E402
    IndexedText,
    drawing_files,
    report_causes,
    report_causes_by_class,
    report_declined,
    where_declined,
    why_wrong,
)
from bench.answer_drawings import check_truth, write_drawings  # noqa: E402
from bench.answer_eval_set import (  # noqa: E402
    CLASSES,
    SPLITS,
    Question,
    demo_truth_problems,
    load_set,
    matches,
    question_heard,
    spoken_form,
)
from bench.audio_common import RATES, VOICES  # noqa: E402
from bench.common import CANDIDATE_MODEL, SHARED_DATA, out_dir, percentile  # noqa: E402

DRAWINGS = SHARED_DATA / "drawings-edocr2"
#: Longest claim that counts as an answer (two spoken sentences).
MAX_CLAIM_CHARS = 200
#: The least score of ``--context sure``: decision 0068's gate on the shortened reading.
SURE_SCORE = 0.55


@dataclass
class Result:
    """One question answered once."""

    #: The question.
    question: Question
    #: The final answer.
    answer: Answer
    #: Expected form in the claim and the expected file cited first (answerable questions).
    right: bool
    #: Seconds from the call to the first sentence or the abstention (the acknowledgement is not
    #: counted: it is not part of the answer).
    first_s: float
    #: What the recogniser heard (spoken runs; "" otherwise).
    heard: str = ""
    #: Seconds the transcription took (spoken runs).
    transcribe_s: float = 0.0
    #: The espeak-ng voice and rate that spoke it (spoken runs).
    voice: str = ""
    #: Seconds from the call to the acknowledgement, when the model was asked (None otherwise).
    ack_s: float | None = None
    #: Seconds from the end of the question to the first audio of the answer (spoken runs: the
    #: transcription, the answer's first sentence, and the voice synthesising its first clause).
    audio_s: float | None = None
    #: Why the answer was not right ("" when it was; bench/answer_causes.py).
    cause: str = ""
    #: The appliance asked back which drawing was meant, and ``answer`` is the one given after
    #: the reply (the drawing the question's key is about, said by its number).
    asked_back: bool = False
    #: Where a declined answerable question stopped ("" otherwise; bench/answer_causes.py).
    declined_at: str = ""


# ------------------------------------------------------------------------------------ files


def clean_files() -> list[tuple[Path, str]]:
    """(file to index, source name) for every drawing of the set, as it is."""
    samples = DRAWINGS / "test_samples"
    files = sorted(samples.glob("*.jpg")) + sorted(samples.glob("*.png"))
    files += sorted(DRAWINGS.glob("*.PDF"))
    files += write_samples(out_dir("answer_eval") / "demo")
    files += write_drawings()
    return [(f, f.name) for f in files]


def photo_files() -> list[tuple[Path, str]]:
    """(camera-like photo, original file name) for every drawing; PDFs through their 300-dpi render."""
    import cv2

    from bench.vision_degrade import camera_like

    folder = out_dir("answer_eval") / "photo"
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for path, name in clean_files():
        page_file = path
        if path.suffix.lower() == ".pdf":
            page_file = DRAWINGS / "derived_pdf_textlayer" / f"{path.stem}.300dpi.png"
        photo = folder / f"{name}.camera.jpg"
        # A photo older than its page was shot of an earlier drawing: shot again.
        if not photo.exists() or photo.stat().st_mtime < page_file.stat().st_mtime:
            image = cv2.imread(str(page_file), cv2.IMREAD_COLOR)
            if image is None:
                raise SystemExit(f"cannot read {page_file}")
            page = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
            shot = camera_like(page, seed=zlib.crc32(name.encode()))
            if not cv2.imwrite(
                str(photo), cv2.cvtColor(shot, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95]
            ):
                raise SystemExit(f"cannot write {photo}")
        out.append((photo, name))
    return out


# ------------------------------------------------------------------------------------ index


def open_config(root: Path, ocr_languages: str | None) -> Config:
    """The configuration of one condition's index under ``root`` (models from var/models)."""
    root.mkdir(parents=True, exist_ok=True)
    cfg = root / "openclaw.toml"
    text = f'[paths]\ndata_dir = "{root / "data"}"\nmodels_dir = "{REPO / "var" / "models"}"\n'
    if ocr_languages:
        text += f'[vision]\nocr_languages = "{ocr_languages}"\n'
    cfg.write_text(text, encoding="utf-8")
    # OPENCLAW_ANSWER__* overrides (the model, its format, the fast path) apply; the index's own
    # paths and OCR settings do not come from the environment.
    answer_env = {k: v for k, v in os.environ.items() if k.startswith("OPENCLAW_ANSWER__")}
    config = load_config(cfg, environ=answer_env)
    return replace(config, answer=replace(config.answer, timeout_s=900.0, start_timeout_s=900.0))


#: Modules of those folders that only read the index when a question is asked, never what is
#: stored: a change to them leaves every slice as it was.
_QUESTION_TIME_ONLY = frozenset({"index/qualifiers.py"})


def ingest_code_stamp() -> str:
    """A hash of the code that turns a file into slices (ingest, vision, index, configuration)."""
    digest = hashlib.sha256()
    for folder in ("ingest", "vision", "index"):
        for path in sorted((REPO / "appliance" / folder).rglob("*.py")):
            if path.relative_to(REPO / "appliance").as_posix() in _QUESTION_TIME_ONLY:
                continue
            digest.update(path.read_bytes())
    for extra in ("config.py", "drawing_terms.py"):
        if (REPO / "appliance" / extra).exists():
            digest.update((REPO / "appliance" / extra).read_bytes())
    return digest.hexdigest()[:16]


def build_index(config: Config, root: Path, files: list[tuple[Path, str]], log: bool) -> None:
    """Index every file not yet indexed as it is now (``indexed.json`` records each file's digest,
    so a long build resumes and a file that changed is indexed again).

    An index built by other ingest code is thrown away and built again: answers measured on stale
    slices would credit or blame the wrong code.
    """
    # Two runs sharing an index folder take turns: the second waits, then finds the index built.
    with (root / ".build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _build_index(config, root, files, log)


def _build_index(config: Config, root: Path, files: list[tuple[Path, str]], log: bool) -> None:
    done_file = root / "indexed.json"
    stamp_file = root / "ingest-code.txt"
    stamp = ingest_code_stamp()
    if stamp_file.exists() and stamp_file.read_text().strip() != stamp:
        print(f"  the ingest code changed since {root} was built: building it again")
        shutil.rmtree(root / "data", ignore_errors=True)
        done_file.unlink(missing_ok=True)
    stamp_file.write_text(stamp)
    # Each indexed file by the digest of its bytes: a drawing drawn again since is indexed again.
    recorded = json.loads(done_file.read_text()) if done_file.exists() else {}
    done: dict[str, str] = recorded if isinstance(recorded, dict) else {}
    digests = {n: hashlib.sha256(p.read_bytes()).hexdigest() for p, n in files}
    todo = [(p, n) for p, n in files if done.get(n) != digests[n]]
    if not todo:
        print(f"  reusing the index in {root} ({len(done)} drawings)")
        return
    t0 = time.perf_counter()
    with IndexStore.open(config) as store:
        for path, name in todo:
            t1 = time.perf_counter()
            report = ingest_path(store, path, "global", config=config, source=name)
            for failed, err in report.failures:
                print(f"  index failure {failed}: {err}")
            if report.failures:
                continue  # tried again on the next run
            done[name] = digests[name]
            done_file.write_text(json.dumps(done))
            if log:
                print(f"  indexed {name} in {time.perf_counter() - t1:.1f} s", flush=True)
    print(f"  indexed {len(todo)} drawings in {time.perf_counter() - t0:.0f} s")


# ------------------------------------------------------------------------------------ asking


def claim(answer: Answer) -> str:
    """What the answer asserts, without the label of its source."""
    if answer.mode == "extractive" and answer.citations:
        return answer.citations[0].quote
    if answer.mode == "llm":
        return strip_citations(answer.text)
    return ""


def score(q: Question, answer: Answer) -> bool:
    """Right with the right citation (answerable) or declined (unanswerable)."""
    if not q.answerable:
        return answer.mode == "abstained"
    if answer.mode == "abstained" or not answer.citations:
        return False
    cited = public_name(answer.citations[0].source) == q.source
    said = claim(answer)
    # Reading out a whole title block or table is not an answer, even when the value is in it.
    return cited and len(said) <= MAX_CLAIM_CHARS and any(matches(said, e) for e in q.expect)


async def ask(
    text: str,
    store: IndexStore,
    config: Config,
    worker: object,
    mode: str,
    heard: bool = False,
    in_hand: InHand | None = None,
) -> tuple[Answer, float, float | None, str]:
    """One answer, the seconds to its first sentence (or abstention) and to its acknowledgement,
    and the first sentence's spoken text; ``in_hand``: the drawing a question that names none is
    about (bench/answer_in_hand.py)."""
    if not text.strip():
        # Nothing was heard: the appliance answers nothing (an empty utterance), so it is scored
        # as declined.
        return abstention(text, ("global",), (), False, 0.0), 0.0, None, ""
    t0 = time.perf_counter()
    first: float | None = None
    ack: float | None = None
    first_text = ""
    final: Answer | None = None
    async for event in stream_answer(
        text,
        store=store,
        config=config,
        worker=worker,  # type: ignore[arg-type]
        extractive_only=(mode == "extractive"),
        heard=heard,  # a transcript, as the service's pipeline answers it
        in_hand=in_hand,
    ):
        if event.kind == "ack":
            ack = time.perf_counter() - t0
        elif first is None:
            first = time.perf_counter() - t0
            first_text = event.text
        if event.answer is not None:
            final = event.answer
    assert final is not None and first is not None
    return final, first, ack, first_text


async def start_worker(config: Config) -> object | None:
    """The configured model's worker, or None (with the reason printed) when it does not start."""
    from appliance.answer.worker import AnswerWorker

    worker = AnswerWorker(config.answer, models_dir=config.paths.models_dir)
    try:
        await worker.start()
    except Exception as err:  # the reason is printed; the extractive figures still stand
        print(f"  llm: the worker did not start ({type(err).__name__}: {err})")
        await worker.close()
        return None
    return worker


async def run(
    mode: str,
    config: Config,
    questions: list[Question],
    spoken: bool,
    verbose: bool,
    bias: bool = True,
    heard_before: dict[str, str] | None = None,
    voices: str = "espeak",
) -> list[Result]:
    if mode.startswith("llm") and not config.answer.llm_model:
        config = replace(config, answer=replace(config.answer, llm_model=CANDIDATE_MODEL))
    worker = await start_worker(config) if mode.startswith("llm") else None
    if mode.startswith("llm") and worker is None:
        return []
    recogniser = None
    tts = None
    if spoken and heard_before is None:
        from appliance.audio.build import build_tts
        from appliance.audio.engines.whisper import WhisperRecogniser

        recogniser = WhisperRecogniser.from_manifest(
            config.audio.whisper_model,
            config.paths.models_dir,
            short_context=config.audio.whisper_short_context,
            short_context_min_score=config.audio.whisper_short_context_min_score,
            short_context_s=config.audio.whisper_short_context_s,
            beam_size=config.audio.whisper_beam_size,
        )
        tts = build_tts(config)
    results = []
    try:
        with IndexStore.open(config) as store:
            vocabulary = bias_words(config, store) if spoken and bias else []
            # The names the front end hears again: the index's, as its vocabulary gives them.
            names = (
                index_names(store.list_sources())
                if spoken and bias and config.audio.heard_names
                else []
            )
            indexed, files_of = IndexedText(store), drawing_files(load_set())
            by_name = {public_name(s.source): s for s in store.list_sources()}
            for i, q in enumerate(questions):
                heard, transcribe_s, voice = "", 0.0, ""
                text = q.text
                if heard_before is not None:
                    voice = voice_name(voices, i)
                    heard = text = heard_before.get(q.qid, "")
                elif recogniser is not None:
                    voice = voice_name(voices, i)
                    heard, transcribe_s = hear(recogniser, q.text, i, vocabulary, voices, names)
                    text = heard
                if worker is not None:
                    # Questions at a bench come one at a time, seconds apart: a model still
                    # stopping an abandoned answer has finished by the next one.
                    await worker.wait_ready(60.0)  # type: ignore[attr-defined]
                answer, first_s, ack_s, first_text = await ask(
                    text, store, config, worker, mode, heard=bool(voice)
                )
                asked_back = answer.mode == "asked"
                meant = by_name.get(q.source or files_of.get(q.drawing, ""))
                if asked_back and meant is not None:
                    # "Which drawing do you mean: …?" The person says the drawing they meant by
                    # its number, and the question is answered about it, as the service does.
                    answer = await answer_after_reply(text, meant, store, config, worker, mode)
                audio_s = None
                if tts is not None:
                    audio_s = transcribe_s + first_s + await first_audio_s(tts, first_text)
                right = score(q, answer)
                r = Result(
                    q,
                    answer,
                    right,
                    first_s + transcribe_s,
                    heard,
                    transcribe_s,
                    voice,
                    None if ack_s is None else ack_s + transcribe_s,
                    audio_s,
                    why_wrong(q, answer, right, indexed, files_of, claim, MAX_CLAIM_CHARS),
                    asked_back,
                )
                if r.cause == "declined":
                    r.declined_at = where_declined(q, text, store, config)
                results.append(r)
                if verbose:
                    print_line(r)
                elif worker is not None and (i + 1) % 25 == 0:
                    # A model's run takes an hour or more: a count (never a verdict) shows it moves.
                    print(f"  {mode}: {i + 1}/{len(questions)} asked", file=sys.stderr, flush=True)
    finally:
        if worker is not None:
            await worker.close()  # type: ignore[attr-defined]
    return results


async def answer_after_reply(
    question: str, meant: SourceInfo, store: IndexStore, config: Config, worker: object, mode: str
) -> Answer:
    """The answer after the reply to "which drawing do you mean?": the reply (the meant drawing's
    number, else its title) puts the drawing in hand, as the service's reply path does."""
    from appliance.answer.which_drawing import drawing_in_reply

    reply = meant.drawing_number or meant.title or Path(meant.source).stem
    held = drawing_in_reply(reply, store=store, namespaces=None, only_name=True)
    if held is None:
        return abstention(question, ("global",), (), False, 0.0)
    answer, *_ = await ask(question, store, config, worker, mode, in_hand=held)
    return answer


async def first_audio_s(voice: object, sentence: str) -> float:
    """Seconds the voice takes to synthesise what is played first: the first clause of the first
    sentence, as the appliance's speaker cuts it for a quick-start voice (the whole sentence
    otherwise)."""
    from appliance.audio.tts import first_clause

    piece = first_clause(sentence)[0] if voice.quick_start else sentence  # type: ignore[attr-defined]
    t0 = time.perf_counter()
    await voice.synthesize(piece or "…")  # type: ignore[attr-defined]
    return time.perf_counter() - t0


def bias_words(config: Config, store: IndexStore) -> list[str]:
    """The recogniser's bias as the service builds it for a question after the wake phrase
    (appliance.audio.bias.question_prompt over the index's drawing numbers and titles)."""
    from appliance.audio.bias import question_prompt
    from appliance.audio.frontend import COMMAND_HINTS

    names = index_names(store.list_sources())
    prompt = question_prompt(COMMAND_HINTS, config.audio.vocabulary, names)
    return [prompt] if prompt else []


def voice_name(voices: str, i: int) -> str:
    """The voice that says the i-th question: an espeak-ng test voice and rate, or Piper's."""
    if voices == "piper":
        return "piper-joe"
    return f"{VOICES[i % len(VOICES)]}@{RATES[i % len(RATES)]}"


def say(text: str, i: int, voices: str = "espeak") -> Any:
    """``text`` said by the i-th test voice (or Piper's), as the capture holds it: int16 samples
    with a little silence on either side."""
    import zlib

    import numpy as np

    from bench.audio_common import silence, synth

    said = spoken_form(text)
    if voices == "piper":
        from training.wake.piper_seeded import seeded_piper

        rng = np.random.default_rng(zlib.crc32(said.encode()))
        piper = seeded_piper(REPO / "var" / "models")
        speech = piper.say(said, piper.default_scales, rng)
    else:
        speech = synth(said, VOICES[i % len(VOICES)], rate=RATES[i % len(RATES)])
    # The capture holds a little silence on either side of the question (the endpointer's margins);
    # without it whisper tiny.en drops the first word ("What") of a clip that starts on speech.
    return np.concatenate([silence(0.4), speech, silence(0.4)])


#: For each question heard, whether whisper's shortened-context transcript was kept.
SHORTENED: list[bool] = []


def hear(
    recogniser: object,
    text: str,
    i: int,
    vocabulary: list[str],
    voices: str = "espeak",
    names: list[str] | None = None,
) -> tuple[str, float]:
    """Speak ``text`` with the i-th test voice and transcribe it, then hear the index's ``names``
    again in its audio as the front end does (appliance/audio/heard_names.py); (transcript,
    seconds)."""
    audio = say(text, i, voices)
    t0 = time.perf_counter()
    transcript = recogniser.transcribe(audio, vocabulary=vocabulary)  # type: ignore[attr-defined]
    SHORTENED.append(transcript.shortened)
    heard = transcript.text.strip()
    choice = choose_name_in_question(recogniser, audio, heard, heard, names or [])  # type: ignore[arg-type]
    if choice is not None:
        heard = choice.text
    return heard, time.perf_counter() - t0


# ------------------------------------------------------------------------------------ report


def print_line(r: Result) -> None:
    a = r.answer
    q = r.question
    flag = ("RIGHT" if r.right else "wrong") if q.answerable else ("ok" if r.right else "ANSWERED")
    why = f" [{r.cause}]" if r.cause else ""
    if r.declined_at:
        why = f" [declined: {r.declined_at}]"
    if r.asked_back:
        why += " (asked back which drawing)"
    cite = public_name(a.citations[0].source) if a.citations else "-"
    heard = f" heard={r.heard!r}" if r.heard else ""
    # Why the model's answer was not used, and what it said: the model path's misses read from -v.
    if a.fallback_reason not in ("", "extractive_requested"):
        why += f" ({a.fallback_reason}{': ' + a.rejected_text[:50] if a.rejected_text else ''})"
    print(
        f"  {q.qid:28} {q.split[:4]} {a.mode:10} {flag:8} cite={cite:26} {r.first_s:5.2f}s"
        f" | {claim(a)[:70]!r}{heard}{why}",
        flush=True,
    )


def _cell(results: Iterable[Result]) -> str:
    rows = list(results)
    if not rows:
        return f"{'-':>13}"
    right = sum(r.right for r in rows)
    return f"{right:>4}/{len(rows):<4}{100 * right / len(rows):4.0f}%"


def report(label: str, results: list[Result], splits: list[str]) -> None:
    print(
        f"\n== {label}: right with the right citation (answerable); correct abstentions (unanswerable)"
    )
    print(f"  {'class':18}" + "".join(f"{s:>16}" for s in splits))
    answerable = [r for r in results if r.question.answerable]
    print(
        f"  {'ALL answerable':18}"
        + "".join(f"   {_cell(r for r in answerable if r.question.split == s)}" for s in splits)
    )
    for c in CLASSES:
        print(
            f"  {c:18}"
            + "".join(
                f"   {_cell(r for r in results if c in r.question.classes and r.question.split == s)}"
                for s in splits
            )
        )
    print(f"  {'-- by style (answerable)':18}")
    for style in sorted({r.question.style for r in answerable}):
        print(
            f"  {style:18}"
            + "".join(
                f"   {_cell(r for r in answerable if r.question.style == style and r.question.split == s)}"
                for s in splits
            )
        )
    batches = sorted({r.question.batch for r in results})
    if len(batches) > 1:
        print(f"  {'-- by batch':18}")
        for batch in batches:
            for kind, rows in (
                ("answerable", [r for r in answerable if r.question.batch == batch]),
                ("unanswerable", [r for r in results if r.question.batch == batch]),
            ):
                if kind == "unanswerable":
                    rows = [r for r in rows if not r.question.answerable]
                print(
                    f"  {batch + ' ' + kind:18}"
                    + "".join(
                        f"   {_cell(r for r in rows if r.question.split == s)}" for s in splits
                    )
                )
    report_causes(((r.question.split, r.cause) for r in results if r.cause), splits)
    report_causes_by_class(
        ((r.question.split, r.question.classes, r.cause) for r in results if r.cause), splits
    )
    report_declined(
        ((r.question.split, r.question.classes, r.declined_at) for r in results if r.declined_at),
        splits,
    )
    for s in splits:
        rows = [r for r in results if r.question.split == s and r.asked_back]
        if rows:
            right = [r for r in rows if r.right and r.question.answerable]
            print(
                f"  {s}: asked back which drawing {len(rows)} times "
                f"({sum(r.question.answerable for r in rows)} answerable, right after the reply: "
                f"{len(right)}; {sum(not r.question.answerable for r in rows)} unanswerable)"
            )
    report_sureness(results, splits)
    declined = [r for r in answerable if r.answer.mode == "abstained"]
    print(f"  answerable but declined: {len(declined)}/{len(answerable)}")
    times = [r.first_s for r in results]
    if times:
        print(
            f"  seconds to the first sentence: p50 {percentile(times, 50):.2f}, "
            f"p95 {percentile(times, 95):.2f} (n={len(times)})"
        )
    report_model_path(results)


def report_sureness(results: list[Result], splits: list[str]) -> None:
    """How often an extract spoken as sure (:func:`is_sure`) and one spoken unsure was right: an
    answer to an unanswerable question counts as a wrong one."""
    for s in splits:
        spoken = [
            r
            for r in results
            if r.question.split == s and r.answer.mode == "extractive" and not r.asked_back
        ]
        cells = []
        for sure in (True, False):
            rows = [r for r in spoken if r.answer.sure == sure]
            right = sum(r.right and r.question.answerable for r in rows)
            cells.append(f"{right}/{len(rows)}")
        print(f"  {s}: extracts right when sure {cells[0]}, when unsure {cells[1]}")


def report_model_path(results: list[Result]) -> None:
    """Latency of the questions the model was asked: to the acknowledgement, to the first sentence."""
    asked = [r for r in results if r.ack_s is not None]
    if not asked:
        return
    acks = [r.ack_s for r in asked if r.ack_s is not None]
    firsts = [r.first_s for r in asked]
    print(
        f"  model asked on {len(asked)}/{len(results)}: acknowledgement p50 "
        f"{percentile(acks, 50):.2f} s, p95 {percentile(acks, 95):.2f} s; first sentence p50 "
        f"{percentile(firsts, 50):.2f} s, p95 {percentile(firsts, 95):.2f} s, max {max(firsts):.2f} s"
    )


def report_spoken(
    label: str, results: list[Result], splits: list[str], recogniser_name: str, voices: str
) -> None:
    said_by = "the Piper voice" if voices == "piper" else "espeak-ng test voices"
    print(f"\n== {label}, spoken ({said_by} -> {recogniser_name} -> answer)")
    for s in splits:
        rows = [r for r in results if r.question.split == s]
        if not rows:
            continue
        heard = sum(question_heard(r.question.text, r.heard) for r in rows)
        answerable = [r for r in rows if r.question.answerable]
        right = sum(r.right for r in answerable)
        unanswerable = [r for r in rows if not r.question.answerable]
        print(
            f"  {s}: right question (every content word heard) {heard}/{len(rows)} = "
            f"{100 * heard / len(rows):.0f}%; right with citation {right}/{len(answerable)} = "
            f"{100 * right / max(1, len(answerable)):.0f}%; correct abstentions "
            f"{sum(r.right for r in unanswerable)}/{len(unanswerable)}"
        )
    by_voice: dict[str, list[bool]] = {}
    for r in results:
        by_voice.setdefault(r.voice.split("@")[0], []).append(
            question_heard(r.question.text, r.heard)
        )
    print(
        "  right question by voice: "
        + ", ".join(f"{v} {sum(h)}/{len(h)}" for v, h in sorted(by_voice.items()))
    )
    if SHORTENED:
        print(
            f"  shortened-context transcript kept for {sum(SHORTENED)}/{len(SHORTENED)} questions"
        )
    latency = [r.first_s for r in results]
    transcribe = [r.transcribe_s for r in results]
    if not any(transcribe):
        return  # answered from transcripts written before (--heard): nothing was timed
    print(
        f"  end of question -> first sentence ready: p50 {percentile(latency, 50):.2f} s, "
        f"p95 {percentile(latency, 95):.2f} s (transcription alone p50 "
        f"{percentile(transcribe, 50):.2f} s, p95 {percentile(transcribe, 95):.2f} s)"
    )
    fast = [r.audio_s for r in results if r.audio_s is not None and r.ack_s is None]
    if fast:
        print(
            f"  end of question -> first audio, answered without the model: p50 "
            f"{percentile(fast, 50):.2f} s, p95 {percentile(fast, 95):.2f} s, max {max(fast):.2f} s "
            f"(n={len(fast)}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
        )
    report_model_path(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--split",
        default="tuning",
        choices=[*SPLITS, "all"],
        help="tuning, dev (the old held-out part, read), heldout (totals only) or all three",
    )
    parser.add_argument(
        "--condition", default="clean", help="clean, photo or both (comma-separated)"
    )
    parser.add_argument("--modes", default="extractive", help="extractive, llm (comma-separated)")
    parser.add_argument(
        "--index-dir",
        type=Path,
        default=out_dir("answer_eval") / "index",
        help="one index per condition under this folder, built once and reused",
    )
    parser.add_argument(
        "--ocr-languages", help="vision.ocr_languages for the index (default: the configured)"
    )
    parser.add_argument(
        "--spoken", action="store_true", help="ask by voice through the whisper model"
    )
    parser.add_argument(
        "--no-bias", action="store_true", help="spoken: no bias list for the recogniser"
    )
    parser.add_argument(
        "--whisper-model",
        help="spoken: the question recogniser (default: the configured audio.whisper_model)",
    )
    parser.add_argument(
        "--context",
        choices=["configured", "full", "short", "sure", "ten"],
        default="configured",
        help="spoken: whisper's context: full 30 s; shortened to the question and half a second; "
        "the same kept when heard surely (score 0.55) else full; at least 10 s; or as configured",
    )
    parser.add_argument(
        "--voices",
        choices=["espeak", "piper"],
        default="espeak",
        help="spoken: who says the questions (espeak-ng's eight test voices, or the Piper voice)",
    )
    parser.add_argument(
        "--heard",
        type=Path,
        help="spoken: answer from the transcripts a spoken run wrote (JSON: question id -> text)"
        " instead of speaking again; no timings",
    )
    parser.add_argument(
        "--batch",
        help="ask only the questions of this batch (main, fresh, blind, blind2); default: every batch",
    )
    parser.add_argument("--limit", type=int, default=0, help="ask only the first N questions")
    parser.add_argument(
        "--qids", help="ask only these questions: QID,QID,... or @FILE (ids separated by spaces)"
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=0,
        help="ask N questions spread evenly over the split (for the slow model path)",
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    splits = list(SPLITS) if args.split == "all" else [args.split]
    every = load_set()
    for line in demo_truth_problems(every) + check_truth():
        print(f"  truth check: {line}")
    questions = [q for q in every if q.split in splits]
    if args.batch:
        questions = [q for q in questions if q.batch == args.batch]
        if not questions:
            parser.error(f"no question of batch {args.batch!r} in {', '.join(splits)}")
    if args.qids:
        if "heldout" in splits:
            parser.error("--qids names questions one by one: not on the held-out part")
        named = set(
            Path(args.qids[1:]).read_text().split()
            if args.qids.startswith("@")
            else args.qids.split(",")
        )
        questions = [q for q in questions if q.qid in named]
    if args.limit:
        questions = questions[: args.limit]
    if args.sample and args.sample < len(questions):
        step = len(questions) / args.sample
        questions = [questions[int(i * step)] for i in range(args.sample)]
    print(
        f"questions: {len(questions)} ({sum(q.answerable for q in questions)} answerable) in "
        f"{', '.join(splits)}"
    )
    for condition in args.condition.split(","):
        if condition not in ("clean", "photo"):
            parser.error(f"unknown condition {condition!r}")
        suffix = f"-{args.ocr_languages.replace('+', '_')}" if args.ocr_languages else ""
        root = args.index_dir / f"{condition}{suffix}"
        config = open_config(root, args.ocr_languages)
        if args.whisper_model:
            audio = dataclasses.replace(config.audio, whisper_model=args.whisper_model)
            config = dataclasses.replace(config, audio=audio)
        if args.context != "configured":
            audio = dataclasses.replace(
                config.audio,
                whisper_short_context=args.context != "full",
                whisper_short_context_min_score=SURE_SCORE if args.context == "sure" else 0.0,
                whisper_short_context_s=10.0 if args.context == "ten" else 0.0,
            )
            config = dataclasses.replace(config, audio=audio)
        print(f"\n# condition {condition}: index in {root}")
        files = clean_files() if condition == "clean" else photo_files()
        build_index(config, root, files, args.verbose)
        for mode in args.modes.split(","):
            heard_before = json.loads(args.heard.read_text()) if args.heard else None
            results = asyncio.run(
                run(
                    mode,
                    config,
                    questions,
                    args.spoken or heard_before is not None,
                    args.verbose,
                    bias=not args.no_bias,
                    heard_before=heard_before,
                    voices=args.voices,
                )
            )
            if not results:
                continue
            if args.spoken and heard_before is None:
                transcripts = out_dir("answer_eval") / (
                    f"heard-{condition}-{config.audio.whisper_model}"
                    f"{'' if args.context in ('configured', 'full') else '-' + args.context}"
                    f"{'-piper' if args.voices == 'piper' else ''}.json"
                )
                transcripts.write_text(
                    json.dumps({r.question.qid: r.heard for r in results}, indent=1)
                )
                print(f"  transcripts written to {transcripts}")
            label = f"{condition} / {mode}" + (
                f" / model {config.answer.llm_model or CANDIDATE_MODEL}" if mode == "llm" else ""
            )
            report(label, results, splits)
            if args.spoken or heard_before is not None:
                report_spoken(label, results, splits, config.audio.whisper_model, args.voices)


if __name__ == "__main__":
    main()
