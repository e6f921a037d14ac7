"""Sample engineering drawings the demo draws itself: outlines, dimensions, notes and a boxed title block.

The drawings are plain raster images (PNG, ~200 dpi A4 landscape) made with Pillow, so the demo
exercises the same path as a photographed or scanned drawing: vision OCR, title-block reading, indexing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
#: Page size in pixels (A4 landscape at ~200 dpi).
PAGE = (2339, 1654)


@dataclass(frozen=True)
class SampleDrawing:
    """What one sample drawing says."""

    #: Drawing number.
    number: str
    #: Title.
    title: str
    #: Revision letter.
    revision: str
    #: Material.
    material: str
    #: Scale.
    scale: str
    #: Date (ISO).
    date: str
    #: Sheet.
    sheet: str
    #: Numbered notes.
    notes: tuple[str, ...]
    #: Dimension labels drawn on the part.
    dimensions: tuple[str, ...]

    @property
    def file_name(self) -> str:
        """``A-1024_revC.png``."""
        return f"{self.number}_rev{self.revision}.png"


SAMPLES: tuple[SampleDrawing, ...] = (
    SampleDrawing(
        number="A-1024",
        title="MOUNTING BRACKET",
        revision="C",
        material="6061-T6",
        scale="1:2",
        date="2026-03-14",
        sheet="1 OF 1",
        notes=(
            "BREAK ALL SHARP EDGES 0.5 X 45°",
            "ANODIZE CLEAR, CLASS 1",
            "TORQUE M8 BOLTS TO 25 N·m",
        ),
        dimensions=("120", "80", "4X Ø8.5", "R5"),
    ),
    SampleDrawing(
        number="B-2040",
        title="SHAFT COUPLING",
        revision="A",
        material="316 STAINLESS",
        scale="1:1",
        date="2026-05-02",
        sheet="1 OF 1",
        notes=(
            "BORE Ø12 H7 THROUGH",
            "SET SCREWS M5 X 8, TORQUE TO 4 N·m",
            "PASSIVATE AFTER MACHINING",
        ),
        dimensions=("Ø30", "45", "Ø12 H7", "M5"),
    ),
    SampleDrawing(
        number="C-3310",
        title="SENSOR COVER PLATE",
        revision="B",
        material="ABS, BLACK",
        scale="1:1",
        date="2026-08-21",
        sheet="1 OF 1",
        notes=(
            "WALL THICKNESS 2.0 UNLESS NOTED",
            "SCREWS M3 X 10, TORQUE TO 0.6 N·m",
            "TEXTURE MT-11010 ON OUTSIDE FACES",
        ),
        dimensions=("96", "64", "4X Ø3.2", "2.0"),
    ),
)


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(_FONT_BOLD if bold else _FONT, size)


def _dimension(
    draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], label: str
) -> None:
    """A horizontal or vertical dimension line with arrow ticks and its label."""
    draw.line([a, b], fill=0, width=2)
    for x, y in (a, b):
        draw.line([(x - 8, y - 8), (x + 8, y + 8)], fill=0, width=3)
    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    font = _font(34)
    w = draw.textlength(label, font=font)
    draw.rectangle([mid[0] - w / 2 - 6, mid[1] - 22, mid[0] + w / 2 + 6, mid[1] + 22], fill=255)
    draw.text((mid[0] - w / 2, mid[1] - 20), label, font=font, fill=0)


def _title_block(draw: ImageDraw.ImageDraw, d: SampleDrawing) -> None:
    """A boxed grid in the bottom-right corner: small label and large value in each cell."""
    x0, y0, x1, y1 = 1300, 1210, 2279, 1594
    rows = [
        [("DRAWING NO.", d.number, 2), ("REV", d.revision, 1)],
        [("TITLE", d.title, 3)],
        [("MATERIAL", d.material, 2), ("SCALE", d.scale, 1)],
        [("DATE", d.date, 2), ("SHEET", d.sheet, 1)],
    ]
    draw.rectangle([x0, y0, x1, y1], outline=0, width=5)
    row_h = (y1 - y0) // len(rows)
    label_font, value_font = _font(22), _font(40, bold=True)
    for r, cells in enumerate(rows):
        top = y0 + r * row_h
        if r:
            draw.line([(x0, top), (x1, top)], fill=0, width=3)
        span_total = sum(c[2] for c in cells)
        left = x0
        for label, value, span in cells:
            right = left + (x1 - x0) * span // span_total
            if left != x0:
                draw.line([(left, top), (left, top + row_h)], fill=0, width=3)
            draw.text((left + 14, top + 8), label, font=label_font, fill=0)
            draw.text((left + 14, top + 38), value, font=value_font, fill=0)
            left = right


def draw_sample(d: SampleDrawing) -> Image.Image:
    """Render one drawing as a greyscale page."""
    page = Image.new("L", PAGE, 255)
    draw = ImageDraw.Draw(page)
    draw.rectangle([40, 40, PAGE[0] - 40, PAGE[1] - 40], outline=0, width=6)
    # The part: an L-shaped bracket outline with four holes and a fillet mark.
    ox, oy = 300, 260
    outline = [
        (ox, oy),
        (ox + 900, oy),
        (ox + 900, oy + 180),
        (ox + 240, oy + 180),
        (ox + 240, oy + 600),
        (ox, oy + 600),
    ]
    draw.polygon(outline, outline=0, width=6)
    for cx, cy in (
        (ox + 120, oy + 90),
        (ox + 780, oy + 90),
        (ox + 120, oy + 300),
        (ox + 120, oy + 500),
    ):
        draw.ellipse([cx - 34, cy - 34, cx + 34, cy + 34], outline=0, width=4)
    _dimension(draw, (ox, oy - 90), (ox + 900, oy - 90), d.dimensions[0])
    _dimension(draw, (ox - 110, oy), (ox - 110, oy + 600), d.dimensions[1])
    font = _font(34)
    draw.line([(ox + 154, oy + 90), (ox + 380, oy + 330)], fill=0, width=2)
    draw.text((ox + 390, oy + 320), d.dimensions[2], font=font, fill=0)
    draw.text((ox + 260, oy + 560), d.dimensions[3], font=font, fill=0)
    # Notes, numbered, at the left above the title block's height.
    notes_font = _font(30)
    ny = 1120
    draw.text((110, ny), "NOTES:", font=_font(32, bold=True), fill=0)
    for i, note in enumerate(d.notes, start=1):
        draw.text((110, ny + 48 * i), f"{i}. {note}", font=notes_font, fill=0)
    _title_block(draw, d)
    return page


def write_samples(folder: Path) -> list[Path]:
    """Write every sample drawing as PNG into ``folder``; returns the files (existing ones are kept)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for d in SAMPLES:
        path = folder / d.file_name
        if not path.exists():
            draw_sample(d).save(path, dpi=(200, 200))
        paths.append(path)
    return paths
