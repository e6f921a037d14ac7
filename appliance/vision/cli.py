"""``openclaw ocr`` (show what a file would give) and ``openclaw scan`` (camera to index)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from appliance.cli import AppContext, echo_json, pass_app
from appliance.config import Config
from appliance.document import DocumentSlice, SliceKind

#: Box colours (BGR) by slice kind for ``--boxes-out``.
_COLOURS = {
    SliceKind.TITLE_BLOCK: (0, 140, 255),
    SliceKind.DIMENSION: (0, 160, 0),
    SliceKind.NOTE: (200, 80, 0),
    SliceKind.PROSE: (160, 0, 160),
}


def _slice_dict(item: DocumentSlice) -> dict[str, Any]:
    return {
        "kind": str(item.kind),
        "page": item.page,
        "box": item.box.to_list() if item.box else None,
        "text": item.text,
        "drawing_number": item.drawing_number,
        "revision": item.revision,
        "extra": item.extra,
    }


def _draw_boxes(
    image_rgb: Any, slices: list[DocumentSlice], out: Path, *, factor: float = 1.0
) -> None:
    import cv2

    canvas = cv2.cvtColor(image_rgb, cv2.COLOR_RGB2BGR)
    thickness = max(2, int(max(canvas.shape[:2]) / 800))
    for item in slices:
        if item.box is None:
            continue
        b = item.box
        colour = _COLOURS.get(item.kind, (0, 0, 255))
        if item.extra.get("low_confidence"):
            colour = (0, 0, 255)  # red: kept, but not to be cited on its own
        p0 = (int(b.x0 * factor), int(b.y0 * factor))
        p1 = (int(b.x1 * factor), int(b.y1 * factor))
        cv2.rectangle(canvas, p0, p1, colour, thickness)
    if not cv2.imwrite(str(out), canvas):
        raise click.ClickException(f"cannot write {out.name}")


def _render_first_page(file: Path, config: Config) -> tuple[Any, float]:
    """Page 1 at 2x (144 dpi) for the boxes, under the pixel cap indexing uses (else a coded error)."""
    from appliance.ingest.pdf import open_pdf, page_pixel_limit, render_page, render_scale

    max_pixels = page_pixel_limit(config)
    pdf = open_pdf(file)
    try:
        page = pdf.load_page(0)
        width, height = page.rect.width, page.rect.height
        # render_scale refuses a page too large for the cap at OCR resolution; 2x is below that.
        scale = min(2.0, render_scale(width, height, max_pixels, path=file, page_no=1))
        image = render_page(page, scale, path=file, page_no=1, max_pixels=max_pixels)
    finally:
        pdf.close()
    return image, scale


def _print_slices(slices: list[DocumentSlice], fields: dict[str, str]) -> None:
    if fields:
        click.echo("Title block:")
        for key, value in fields.items():
            click.echo(f"  {key:15s} {value}")
    for item in slices:
        box = ",".join(f"{v:g}" for v in item.box.to_list()) if item.box else "-"
        flag = " (uncertain)" if item.extra.get("low_confidence") else ""
        text = item.text.replace("\n", " / ")
        click.echo(f"[{item.kind}] p{item.page} [{box}]{flag} {text}")


def _check_drawing(file: Path, max_file_mb: int) -> None:
    """The checks indexing makes (symlink loops, empty and oversized files), and a drawing's type."""
    from appliance.ingest.errors import IngestError
    from appliance.ingest.files import open_input

    info = open_input(file, max_bytes=max_file_mb * 1024 * 1024)
    if info.media_type != "application/pdf" and not info.media_type.startswith("image/"):
        raise IngestError(
            file,
            "is not a drawing; ocr reads PDF, PNG, JPEG and TIFF files",
            code="unsupported_type",
        )


@click.command("ocr")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the slices as JSON.")
@click.option(
    "--boxes-out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the image (first page of a PDF) with every slice's box drawn on it.",
)
@pass_app
def ocr_command(app: AppContext, file: Path, as_json: bool, boxes_out: Path | None) -> None:
    """Show what indexing FILE (drawing image or PDF) would store, without touching the index.

    Boxes are drawn green for dimensions, orange for the title block, blue for notes, purple for
    prose and red for low-confidence text.
    """
    config = app.config
    _check_drawing(file, config.ingest.max_file_mb)
    if file.suffix.lower() == ".pdf":
        from appliance.ingest.pipeline import build_document

        doc = build_document(file, namespace="global", config=config, source=file.name)
        slices = list(doc.slices)
        fields = {}
        if boxes_out is not None:
            image, scale = _render_first_page(file, config)
            _draw_boxes(image, [s for s in slices if s.page == 1], boxes_out, factor=scale)
    else:
        from appliance.vision.analysis import analyse_image
        from appliance.vision.images import read_image

        image, _ = read_image(file, max_pixels=config.vision.max_image_pixels)
        analysis = analyse_image(image, config.vision, strict=False)
        slices, fields = analysis.slices, analysis.fields
        if boxes_out is not None:
            _draw_boxes(image, slices, boxes_out)
    if as_json:
        echo_json(
            {"file": file.name, "title_block": fields, "slices": [_slice_dict(s) for s in slices]}
        )
    else:
        _print_slices(slices, fields)


@click.command("scan")
@click.option(
    "-n", "--namespace", default="global", show_default=True, help="Namespace (room document set)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@pass_app
def scan_command(app: AppContext, namespace: str, as_json: bool) -> None:
    """Capture a drawing from the configured camera, check it, OCR it and index it.

    A rejected shot says why ("Too blurry — hold it still.") and is not indexed (exit status 4).
    """
    from appliance.index.store import IndexStore
    from appliance.vision.scan import capture_document

    config = app.config
    capture, doc = capture_document(config, namespace)
    with IndexStore.open(config) as store:
        result = store.replace_source(doc)
    if as_json:
        echo_json(
            {
                "source": doc.source,
                "namespace": namespace,
                "indexed": not result.skipped,
                "title_block": capture.analysis.fields,
                "quality": capture.analysis.quality.to_dict(),
                "burst_sharpness": capture.burst_scores,
                "slices": [_slice_dict(s) for s in doc.slices],
            }
        )
        return
    fields = capture.analysis.fields
    state = "unchanged (already indexed)" if result.skipped else f"indexed {len(doc.slices)} slices"
    click.echo(f"{doc.source} in {namespace}: {state}")
    _print_slices(list(doc.slices), fields)
