"""Lines of text drawn on a white page, with the box of each line's ink: what a page pass gives."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from appliance.document import Box

CJK_FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
LATIN_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def drawn_lines(
    lines: list[str], font: str, size: int = 34, width: int = 1000
) -> tuple[np.ndarray, list[Box]]:
    """A greyscale page with ``lines`` drawn 80 px apart, and the box of each line's ink."""
    face = ImageFont.truetype(font, size)
    image = Image.new("L", (width, 80 * len(lines) + 40), 255)
    draw = ImageDraw.Draw(image)
    for i, text in enumerate(lines):
        draw.text((40, 30 + 80 * i), text, font=face, fill=0)
    gray = np.asarray(image)
    boxes = []
    for i in range(len(lines)):
        ys, xs = np.nonzero(gray[20 + 80 * i : 20 + 80 * i + 70] < 128)
        boxes.append(
            Box(float(xs.min()), 20.0 + 80 * i + ys.min(), xs.max() + 1.0, 21.0 + 80 * i + ys.max())
        )
    return gray, boxes
