"""The quality gate: is this frame worth OCR, and if not, what should the person do?

Each check measures one thing and, when it fails, says so in a sentence the status page can show and
the speaker can say ("Too blurry — hold it still."). Checks run from the most basic (is there light?)
to the finest (is it sharp?), and the first failure is the answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from appliance.vision.imageops import binarise, estimate_text_height
from appliance.vision.page import CorrectedPage, to_gray
from appliance.vision.settings import VisionSettings

#: Long side the sharpness is measured at, so the score does not depend on the camera's resolution.
SHARPNESS_PX = 1600

#: Codes that make a page unusable even when a person dropped it into the inbox on purpose.
UNUSABLE = frozenset({"too_dark", "overexposed", "page_blank", "page_not_found"})

_ADVICE = {
    "ok": "Page looks good.",
    "too_dark": "Too dark — turn on the bench light.",
    "overexposed": "Too bright — the page is washed out; dim the light or move it.",
    "page_blank": "The sheet is blank — turn it over or show the printed side.",
    "page_not_found": "I can't see a page — put the sheet flat under the camera.",
    "resolution_too_low": "The page is too small in the picture — bring it closer or use a higher resolution.",
    "glare": "There's glare on the page — tilt it or move the light.",
    "too_blurry": "Too blurry — hold it still.",
}


@dataclass(frozen=True)
class QualityReport:
    """The gate's verdict: a code, a sentence to say, and the measurements behind it."""

    #: "ok" or the failing check's code (too_blurry, too_dark, overexposed, glare, page_not_found,
    #: resolution_too_low, page_blank).
    code: str
    #: What to tell the person, short enough to speak.
    message: str
    #: The measurements (sharpness, brightness, glare share, page size, text height ...).
    metrics: dict[str, float] = field(default_factory=dict)
    #: Further problems found beside the first one (kept as warnings for inbox files).
    also: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the page passed every check."""
        return self.code == "ok"

    @property
    def unusable(self) -> bool:
        """True when not even a file dropped into the inbox should be OCRed."""
        return self.code in UNUSABLE

    def to_dict(self) -> dict[str, object]:
        """JSON form for the status page and ``--json`` output."""
        return {
            "code": self.code,
            "message": self.message,
            "metrics": self.metrics,
            "also": list(self.also),
        }


def sharpness(gray: np.ndarray) -> float:
    """Variance of the Laplacian over the inked tiles of the page (blank paper does not dilute it)."""
    factor = SHARPNESS_PX / max(gray.shape)
    if factor < 1:
        gray = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    laplacian = cv2.Laplacian(gray, cv2.CV_64F)
    tile = 64
    rows, cols = gray.shape[0] // tile, gray.shape[1] // tile
    if rows == 0 or cols == 0:
        return float(laplacian.var())
    variances = []
    for r in range(rows):
        for c in range(cols):
            block = gray[r * tile : (r + 1) * tile, c * tile : (c + 1) * tile]
            if int(block.max()) - int(block.min()) < 60:
                continue  # plain paper or plain desk: nothing to be sharp
            variances.append(laplacian[r * tile : (r + 1) * tile, c * tile : (c + 1) * tile].var())
    if not variances:
        return 0.0
    # The sharpest tenth of the inked tiles: a page is as sharp as its text strokes.
    return float(np.percentile(variances, 90))


def glare_share(gray: np.ndarray, quad: np.ndarray | None) -> float:
    """Share of the page covered by its largest clipped white blob, measured on the raw frame.

    Only counts when the paper itself is not white (a scan or a render is white everywhere and
    clipped by design); the light-evened page cannot be used, because evening out the light is exactly
    what hides a glare spot.
    """
    # Every second pixel each way: a glare spot worth refusing is hundreds of pixels across, and
    # labelling the blobs of a full 12 MP frame cost a quarter of a second.
    gray = gray[::2, ::2]
    mask = np.zeros(gray.shape, np.uint8)
    if quad is not None:
        cv2.fillPoly(mask, [(quad / 2).astype(np.int32)], 255)
    else:
        mask[:] = 255
    area = max(1, int(np.count_nonzero(mask)))
    paper = float(np.median(gray[::2, ::2][mask[::2, ::2] > 0]))
    if paper >= 235:
        return 0.0
    clipped_raw = ((gray >= 250) & (mask > 0)).astype(np.uint8)
    clipped = cv2.morphologyEx(clipped_raw, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(clipped, connectivity=8)
    if count <= 1:
        return 0.0
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / area


def assess(image: np.ndarray, page: CorrectedPage, settings: VisionSettings) -> QualityReport:
    """Run every check on a frame and its corrected page; the first failure decides the code."""
    frame_gray = to_gray(image)
    metrics: dict[str, float] = {
        # Every fourth pixel each way: the same median at a sixteenth of the cost on a 12 MP frame.
        "brightness": float(np.median(frame_gray[::4, ::4])),
        "paper_share": round(page.paper_share, 3),
        "page_found": float(page.page_found),
    }
    problems: list[str] = []
    if metrics["brightness"] < settings.min_brightness:
        problems.append("too_dark")
    clipped = float(np.count_nonzero(frame_gray >= 252)) / frame_gray.size
    metrics["clipped_share"] = round(clipped, 4)
    # Ink measures on a copy of at most 2000 px: as good for these statistics, several times cheaper.
    factor = min(1.0, 2000 / max(page.gray.shape))
    small = (
        cv2.resize(page.gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        if factor < 1
        else page.gray
    )
    ink = binarise(small)
    text_height = estimate_text_height(ink) / factor
    metrics["text_height_px"] = text_height
    metrics["ink_share"] = round(float(np.count_nonzero(ink)) / ink.size, 4)
    if text_height == 0 and "too_dark" not in problems:
        # Nothing shaped like characters: washed out if mostly clipped, otherwise an empty sheet or no
        # sheet at all.
        if clipped > 0.6 and metrics["brightness"] >= 250 and page.page_found:
            problems.append("overexposed")
        elif page.page_found or page.paper_share > 0.6:
            problems.append("page_blank")
        else:
            problems.append("page_not_found")
    if not page.page_found and page.paper_share < 0.5 and "page_not_found" not in problems:
        problems.append("page_not_found")
    short_side = min(page.gray.shape[:2])
    metrics["page_short_side_px"] = float(short_side)
    if short_side < settings.min_page_px or 0 < text_height < 7:
        problems.append("resolution_too_low")
    glare = glare_share(frame_gray, page.quad)
    metrics["glare_share"] = round(glare, 4)
    if glare > settings.max_glare_fraction:
        problems.append("glare")
    sharp = sharpness(page.gray)
    metrics["sharpness"] = round(sharp, 1)
    if sharp < settings.min_sharpness and text_height > 0:
        problems.append("too_blurry")
    if not problems:
        return QualityReport(code="ok", message=_ADVICE["ok"], metrics=metrics)
    first = problems[0]
    return QualityReport(
        code=first, message=_ADVICE[first], metrics=metrics, also=tuple(problems[1:])
    )
