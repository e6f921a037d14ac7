"""Camera-like versions of the clean drawings, and how much the vision path loses on them.

No public photographed drawing with a text ground truth exists, so this script makes them: each clean
drawing is warped onto a 12-megapixel "bench photo" (perspective, darker desk around the sheet), lit
unevenly (a gradient and a vignette), blurred slightly, given sensor noise and saved as JPEG quality 80.
The seed is fixed, so every run makes the same photos (kept in bench/out/vision_degrade/).

Figures printed:
  1. dimension recall clean vs camera-like, per drawing and in total (symbol-normalised matching),
     plus the strict gate's verdict on each photo and whether the title-block fields survived;
  2. word recall vs the PDF text layer for photos of the 3 vector-PDF renders;
  3. page orientation: clean drawings and their photos turned by 90/180/270 degrees, found and
     undone (and upright pages left alone);
  4. seconds per page, capture to indexed (folder camera -> gate -> OCR -> real index write), for a
     12 MP photo, and for a 300-dpi A4 scanned-PDF page (image-only PDF -> render -> OCR -> index).

Usage: .venv/bin/python bench/vision_degrade.py [--drawings N] [--skip-dimensions] [--skip-textlayer]
       [--skip-timing] [--skip-orientation] [--no-grey-page] [--embed-batch N] [--embed-threads N]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.config import Config, load_config
from appliance.vision.analysis import analyse_image
from appliance.vision.errors import PageQualityError
from bench.common import out_dir
from bench.vision_common import (
    TEXTLAYER,
    dimension_hits,
    drawings,
    load_rgb,
    textlayer_words,
    word_recall,
)

PHOTO = (3000, 4000)  # 12 MP, 4:3 like the Pi camera module 3


def camera_like(page: np.ndarray, seed: int) -> np.ndarray:
    """A 12 MP bench photo of ``page`` (RGB): perspective, uneven light, blur, noise, JPEG."""
    rng = np.random.default_rng(seed)
    height, width = PHOTO
    desk = np.empty((height, width, 3), np.float32)
    desk[:] = (88, 72, 60)
    ph, pw = page.shape[:2]
    # The sheet fills most of the frame, tilted by a few degrees and seen slightly from the side.
    fit = 0.86 * min(width / pw, height / ph)
    cw, ch = pw * fit, ph * fit
    x0, y0 = (width - cw) / 2, (height - ch) / 2
    jitter = rng.uniform(-0.03, 0.03, (4, 2)) * np.array([cw, ch])
    dst = np.float32([[x0, y0], [x0 + cw, y0], [x0 + cw, y0 + ch], [x0, y0 + ch]]) + jitter.astype(
        np.float32
    )
    src = np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    matrix = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(
        page.astype(np.float32), matrix, (width, height), flags=cv2.INTER_AREA
    )
    mask = cv2.warpPerspective(np.ones((ph, pw), np.float32), matrix, (width, height))
    frame = warped * mask[..., None] + desk * (1 - mask[..., None])
    # Uneven light: a linear gradient across the sheet and a vignette.
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    gradient = 0.78 + 0.17 * ((np.cos(angle) * xx / width + np.sin(angle) * yy / height) + 1) / 2
    vignette = 1 - 0.25 * (((xx - width / 2) / width) ** 2 + ((yy - height / 2) / height) ** 2) * 2
    frame *= (gradient * vignette)[..., None]
    frame = cv2.GaussianBlur(frame, (0, 0), 1.2)
    frame += rng.normal(0, 4.0, frame.shape).astype(np.float32)
    photo = np.clip(frame, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(
        ".jpg", cv2.cvtColor(photo, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 80]
    )
    assert ok
    return cv2.cvtColor(cv2.imdecode(encoded, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def photo_path(name: str, page: np.ndarray, seed: int) -> Path:
    """The cached camera-like photo of a page (made on first use)."""
    path = out_dir("vision_degrade") / f"{name}.camera.jpg"
    if not path.exists():
        photo = camera_like(page, seed)
        cv2.imwrite(
            str(path), cv2.cvtColor(photo, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95]
        )
    return path


def text_of(analysis_slices: list) -> str:
    return "\n".join(s.text for s in analysis_slices)


def bench_dimensions(limit: int | None, config: Config) -> None:
    print("== dimension recall, clean vs camera-like (12 MP photo)")
    clean_total = photo_total = count = 0
    for seed, drawing in enumerate(drawings(limit)):
        clean_image = load_rgb(drawing.image)
        clean = analyse_image(clean_image, config.vision, strict=False)
        photo = load_rgb(photo_path(drawing.name, clean_image, seed))
        gate = "ok"
        try:
            analyse_image(photo, config.vision, strict=True)
        except PageQualityError as err:
            gate = err.code
        start = time.perf_counter()
        degraded = analyse_image(photo, config.vision, strict=False)
        elapsed = time.perf_counter() - start
        hits_clean = dimension_hits(drawing.labels, text_of(clean.slices), canonical=True)
        hits_photo = dimension_hits(drawing.labels, text_of(degraded.slices), canonical=True)
        same_fields = sum(1 for k, v in clean.fields.items() if degraded.fields.get(k) == v)
        clean_total += len(hits_clean)
        photo_total += len(hits_photo)
        count += len(drawing.labels)
        print(
            f"  {drawing.name:15s} labels={len(drawing.labels):3d} clean={len(hits_clean):3d}"
            f" photo={len(hits_photo):3d} strict_gate={gate:18s} page_found={degraded.page.page_found}"
            f" title_fields_same={same_fields}/{len(clean.fields)} photo_s={elapsed:.2f}"
        )
    print(f"  dimension recall clean {clean_total}/{count} = {clean_total / max(1, count):.3f}")
    print(f"  dimension recall photo {photo_total}/{count} = {photo_total / max(1, count):.3f}")


def bench_textlayer(config: Config) -> None:
    print("== word recall vs PDF text layer, clean render vs camera-like photo of it")
    for seed, render in enumerate(sorted(TEXTLAYER.glob("*.300dpi.png")), start=100):
        stem = render.name.replace(".300dpi.png", "")
        words = textlayer_words(stem)
        clean_image = load_rgb(render)
        clean = analyse_image(clean_image, config.vision, strict=False)
        photo = analyse_image(
            load_rgb(photo_path(stem, clean_image, seed)), config.vision, strict=False
        )
        print(
            f"  {stem:18s} words={len(words):3d} clean={word_recall(words, text_of(clean.slices), canonical=True):.3f}"
            f" photo={word_recall(words, text_of(photo.slices), canonical=True):.3f}"
        )


def cpu_seconds() -> float:
    """User + system CPU time of this process and its waited-for children (Tesseract runs).

    Wall time on a shared machine depends on the load; CPU time is the work itself.
    """
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def bench_timing(
    grey_page: bool = True, embed_batch: int | None = None, embed_threads: int | None = None
) -> None:
    import pymupdf

    from appliance.index.store import IndexStore
    from appliance.ingest.pipeline import ingest_path
    from appliance.vision.cameras import FolderCamera
    from appliance.vision.capture import capture_page
    from appliance.vision.ingest import source_document

    print("== seconds per page, capture to indexed (real index, embedder loaded beforehand)")
    with tempfile.TemporaryDirectory() as tmp:
        config = load_config(environ={"OPENCLAW_PATHS__DATA_DIR": str(Path(tmp) / "data")})
        config = dataclasses.replace(
            config, vision=dataclasses.replace(config.vision, read_grey_page=grey_page)
        )
        # The embedder's batching is the index's setting; these flags show what it costs here.
        index = config.index
        config = dataclasses.replace(
            config,
            index=dataclasses.replace(
                index,
                embed_batch=embed_batch or index.embed_batch,
                embed_threads=embed_threads or index.embed_threads,
            ),
        )
        print(
            f"  vision.read_grey_page = {grey_page}; index.embed_batch ="
            f" {config.index.embed_batch}, index.embed_threads = {config.index.embed_threads}"
        )
        camera_dir = Path(tmp) / "camera"
        camera_dir.mkdir()
        sample = drawings()[2]  # Candle_holder
        photo = photo_path(sample.name, load_rgb(sample.image), 2)
        (camera_dir / "shot.jpg").write_bytes(photo.read_bytes())
        pdf_path = Path(tmp) / "scanned.pdf"
        with pymupdf.open() as pdf:
            page = pdf.new_page(width=595.28, height=841.89)
            page.insert_image(page.rect, filename=str(TEXTLAYER / "Aufspannung.300dpi.png"))
            pdf.save(pdf_path)
        with IndexStore.open(config) as store:
            store.embedder.embed_passages(["warm up"])
            cpu_start = cpu_seconds()
            start = time.perf_counter()
            camera = FolderCamera(camera_dir, max_pixels=config.vision.max_image_pixels)
            capture = capture_page(camera, config.vision)
            analysed = time.perf_counter()
            doc = source_document(
                capture.analysis,
                capture.frame.image,
                data=capture.frame.data,
                namespace="shop",
                source="capture:bench",
                config=config,
                media_type="image/jpeg",
                mtime=time.time(),
                fallback_title="bench",
            )
            packaged = time.perf_counter()
            written = store.replace_source(doc)
            done = time.perf_counter()
            cpu = cpu_seconds() - cpu_start
            stages = {k: round(v, 2) for k, v in capture.analysis.timings.items()}
            print(
                f"  12 MP photo ({sample.name}): {done - start:.2f} s = read+burst+gate+OCR"
                f" {analysed - start:.2f} (analysis {stages}) + artifacts {packaged - analysed:.2f}"
                f" + index write {done - packaged:.2f} ({len(doc.slices)} slices, of which"
                f" embedding {written.embed_seconds:.2f} in one batch);"
                f" CPU {cpu:.2f} s (this process + Tesseract children)"
            )
            cpu_start = cpu_seconds()
            start = time.perf_counter()
            report = ingest_path(store, pdf_path, "shop", config=config)
            pdf_s = time.perf_counter() - start
            pdf_cpu = cpu_seconds() - cpu_start
            print(
                f"  300-dpi A4 scanned-PDF page: {pdf_s:.2f} s  (indexed={report.indexed}, failures={len(report.failures)}); CPU {pdf_cpu:.2f} s"
            )


def bench_orientation(limit: int | None, config: Config) -> None:
    """Drawings and photos of them turned by quarter turns: is the turn found and undone?"""
    from appliance.vision.orientation import upright
    from appliance.vision.page import correct_page

    print("== page orientation (clean drawings and camera-like photos turned 90/180/270 degrees)")
    turns = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
    right = total = 0
    upright_kept = upright_total = 0
    for seed, drawing in enumerate(drawings(limit)):
        clean = load_rgb(drawing.image)
        photo = load_rgb(photo_path(drawing.name, clean, seed))
        for kind, image in (("clean", clean), ("photo", photo)):
            _, turned, _ = upright(correct_page(image), config.vision)
            upright_kept += turned == 0
            upright_total += 1
            found = []
            for degrees, code in turns.items():
                start = time.perf_counter()
                _, turned, _ = upright(correct_page(cv2.rotate(image, code)), config.vision)
                ok = (turned + degrees) % 360 == 0
                right += ok
                total += 1
                found.append(
                    f"{degrees}:{'ok' if ok else turned}({time.perf_counter() - start:.1f}s)"
                )
            print(f"  {drawing.name:15s} {kind}  " + "  ".join(found))
    print(
        f"  turned pages put upright: {right}/{total}; upright pages left alone: {upright_kept}/{upright_total}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--drawings", type=int, default=3, help="first N drawings (default 3 of 7)")
    parser.add_argument("--skip-textlayer", action="store_true")
    parser.add_argument("--skip-timing", action="store_true")
    parser.add_argument("--skip-dimensions", action="store_true")
    parser.add_argument(
        "--no-grey-page", action="store_true", help="time with vision.read_grey_page off"
    )
    parser.add_argument("--skip-orientation", action="store_true")
    parser.add_argument(
        "--embed-batch", type=int, default=None, help="time with this index.embed_batch"
    )
    parser.add_argument(
        "--embed-threads", type=int, default=None, help="time with this index.embed_threads"
    )
    args = parser.parse_args()
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    config = Config()
    if not args.skip_dimensions:
        bench_dimensions(args.drawings, config)
    if not args.skip_textlayer:
        bench_textlayer(config)
    if not args.skip_orientation:
        bench_orientation(args.drawings, config)
    if not args.skip_timing:
        bench_timing(
            grey_page=not args.no_grey_page,
            embed_batch=args.embed_batch,
            embed_threads=args.embed_threads,
        )
    print("load average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
