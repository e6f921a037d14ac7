"""Where the CPU of one page goes: every Tesseract call of the vision path, alone.

The page (a 12 MP camera-like photo of Candle_holder, or the 300-dpi render of Aufspannung) goes
through the vision path once; every image handed to Tesseract is kept with its options. Then each
call is run again on its own, one after the other, so its CPU seconds are its own and do not depend
on what ran beside it (the machine is shared: wall seconds do). A blank image of the page's size and
a 100 x 100 one give Tesseract's fixed cost per call (program start, model load) and its cost of
a page's pixels with nothing on them.

Figures printed: CPU seconds of the analysis (this process, Tesseract children), then one row per
Tesseract call (what it reads, image size, psm, CPU seconds alone), their sum, and the two blanks;
with --embedder, the embedding of the page's slices (what the index write costs) with the index's
batch size and threads and with others, onnxruntime's thread spinning on and off (best of 3).

Usage: .venv/bin/python bench/vision_profile.py [--render] [--no-grey-page] [--embedder]
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.vision_common import TEXTLAYER, drawings, load_rgb


@dataclasses.dataclass
class Call:
    """One Tesseract call the vision path made."""

    #: Copy of the image file pytesseract handed to Tesseract.
    image: Path
    #: Tesseract's option string (psm, whitelist).
    options: str
    #: Output kind pytesseract asked for ("tsv" for words, "osd" for orientation).
    extension: str
    #: Language(s).
    lang: str
    #: Thread that made the call (passes running side by side have different threads).
    thread: str


def _cpu() -> tuple[float, float]:
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def _record_calls(folder: Path) -> list[Call]:
    """Wrap pytesseract's runner so that every call's image and options are kept."""
    import pytesseract.pytesseract as runner

    calls: list[Call] = []
    lock = threading.Lock()
    original = runner.run_tesseract

    def recording(input_filename, output_filename_base, extension, lang, config="", *a, **kw):  # type: ignore[no-untyped-def]
        with lock:
            kept = folder / f"call{len(calls):02d}{Path(input_filename).suffix}"
            shutil.copy(input_filename, kept)
            calls.append(
                Call(kept, config, extension, lang or "eng", threading.current_thread().name)
            )
        return original(input_filename, output_filename_base, extension, lang, config, *a, **kw)

    runner.run_tesseract = recording
    return calls


def _alone(cmd: str, image: Path, lang: str, options: str, extension: str) -> float:
    """CPU seconds of one Tesseract run with nothing else of ours running."""
    before = _cpu()[1]
    subprocess.run(
        [cmd, str(image), "stdout", "-l", lang, *shlex.split(options), extension],
        capture_output=True,
        check=False,
        env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"},
    )
    return _cpu()[1] - before


def _psm(options: str) -> str:
    parts = options.split()
    return parts[parts.index("--psm") + 1] if "--psm" in parts else "?"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--render", action="store_true", help="the 300-dpi render, not the photo")
    parser.add_argument("--no-grey-page", action="store_true")
    parser.add_argument("--embedder", action="store_true", help="also time the slices' embedding")
    args = parser.parse_args()

    from appliance.config import load_config
    from appliance.vision.analysis import analyse_image, analyse_render
    from bench.vision_degrade import photo_path

    config = load_config()
    settings = config.vision
    settings = dataclasses.replace(settings, read_grey_page=not args.no_grey_page)
    if args.render:
        name = "Aufspannung.300dpi.png"
        image = load_rgb(TEXTLAYER / name)
    else:
        sample = drawings()[2]  # Candle_holder, as in vision_degrade's timing
        name = f"{sample.name} 12 MP photo"
        image = np.asarray(
            Image.open(photo_path(sample.name, load_rgb(sample.image), 2)).convert("RGB")
        )
    print(f"== CPU of one page: {name} {image.shape[1]}x{image.shape[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        calls = _record_calls(Path(tmp))
        own, children = _cpu()
        start = time.perf_counter()
        if args.render:
            slices = analyse_render(image, settings, page_no=1, scale=300 / 72)
            stages: dict[str, float] = {}
        else:
            analysis = analyse_image(image, settings, strict=False)
            slices, stages = analysis.slices, analysis.timings
        wall = time.perf_counter() - start
        own2, children2 = _cpu()
        print(
            f"  analysis: wall {wall:.2f} s; CPU {own2 - own:.2f} s this process +"
            f" {children2 - children:.2f} s Tesseract; {len(slices)} slices;"
            f" stages (wall) { ({k: round(v, 2) for k, v in stages.items()}) }"
        )
        print("  Tesseract calls, each run again alone:")
        total = 0.0
        for call in calls:
            with Image.open(call.image) as picture:
                width, height = picture.size
            seconds = _alone(
                settings.tesseract_cmd, call.image, call.lang, call.options, call.extension
            )
            total += seconds
            print(
                f"    {call.image.stem}  {width:>5}x{height:<5} psm {_psm(call.options):>2}"
                f" {call.extension:<3}  {seconds:.2f} s CPU  ({call.thread})"
            )
        print(f"  sum of the calls alone: {total:.2f} s CPU in {len(calls)} calls")
        page_h, page_w = image.shape[:2]
        for label, size in (
            ("100x100 blank", (100, 100)),
            (f"{page_w}x{page_h} blank", (page_h, page_w)),
        ):
            blank = Path(tmp) / "blank.pgm"
            Image.fromarray(np.full(size, 255, np.uint8)).save(blank)
            seconds = _alone(
                settings.tesseract_cmd, blank, settings.ocr_languages, "--oem 1 --psm 11", "tsv"
            )
            print(f"  {label}: {seconds:.2f} s CPU (fixed cost of one call + empty pixels)")
    if args.embedder:
        _time_embedding([s.text for s in slices], config)


def _time_embedding(texts: list[str], config) -> None:  # type: ignore[no-untyped-def]
    """The page's slices embedded as the index does it, and with other batching."""
    import onnxruntime as ort

    from appliance.index.embedder import Embedder

    index = config.index
    print(
        f"== embedding the page's {len(texts)} slices (index.embed_batch = {index.embed_batch},"
        f" index.embed_threads = {index.embed_threads}); best of 3"
    )
    default_options = ort.SessionOptions

    class NoSpinning(default_options):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.add_session_config_entry("session.intra_op.allow_spinning", "0")

    variants = [(index.embed_threads, index.embed_batch, True)]
    variants += [(2, 8, True), (2, 8, False), (1, 8, True), (2, 32, False)]
    try:
        for threads, batch, spinning in variants:
            ort.SessionOptions = default_options if spinning else NoSpinning
            embedder = Embedder.from_manifest(
                index.embedding_model, config.paths.models_dir, threads=threads, batch_size=batch
            )
            embedder.embed_passages(["warm up"])
            runs = []
            for _ in range(3):
                own = _cpu()[0]
                start = time.perf_counter()
                embedder.embed_passages(texts)
                runs.append((time.perf_counter() - start, _cpu()[0] - own))
            wall, cpu = min(runs)
            print(
                f"  threads {threads} batch {batch:>2} spinning {'on ' if spinning else 'off'}:"
                f" {wall:.2f} s wall, {cpu:.2f} s CPU"
            )
    finally:
        ort.SessionOptions = default_options


if __name__ == "__main__":
    main()
