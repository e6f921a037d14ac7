"""Unsure words read again on their own.

Tesseract's sparse-text mode puts neighbouring ink on one line and judges the letters of a word
against that line's height: a small label beside a large border letter or a zone mark (``MFG``
beside a margin's ``A``) is read against the wrong x-height and comes out as junk with a low
confidence. Cut out alone, with a little paper around it and scaled to the height Tesseract reads
best, the same ink is usually read right. All such words of a page are laid one under the other
in one image and read in one Tesseract call (psm 6, a block of lines), so the pass costs one
small call however many words it checks.
"""

from __future__ import annotations

import numpy as np

from appliance.document import Box
from appliance.vision.mosaic import cut_row, read_rows
from appliance.vision.settings import VisionSettings

#: Most words read again per page (keeps the mosaic and the time bounded on a noisy page).
MAX_WORDS = 40


def read_alone(
    image: np.ndarray, boxes: list[Box], settings: VisionSettings
) -> list[tuple[str, float]]:
    """The reading of each box of ``image`` (black text on white) cut out alone: (text, confidence).

    Words Tesseract splits a box into are joined with a space and their confidence is the lowest
    of them; a box it reads nothing in gives ``("", 0.0)``.
    """
    rows = read_rows([cut_row(image, box) for box in boxes[:MAX_WORDS]], settings)
    return [
        (" ".join(t for _, t, _ in words), min(c for _, _, c in words)) if words else ("", 0.0)
        for words in rows
    ]
