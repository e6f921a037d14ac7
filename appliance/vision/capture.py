"""Capture: the sharpest frame of a short burst, then the strict quality gate and OCR."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from appliance.vision.analysis import Analysis, analyse_image
from appliance.vision.base import Camera, Frame
from appliance.vision.errors import CameraError
from appliance.vision.page import to_gray
from appliance.vision.quality import sharpness
from appliance.vision.settings import VisionSettings


def sharpest_of_burst(frames: list[Frame]) -> tuple[Frame, list[float]]:
    """The frame with the highest sharpness score, and every frame's score (same order)."""
    if not frames:
        raise CameraError("the camera returned no frame", code="camera_failed")
    scores = [sharpness(to_gray(frame.image)) for frame in frames]
    best = max(range(len(frames)), key=lambda i: scores[i])
    return frames[best], scores


@dataclass
class Capture:
    """A gated, OCRed capture, ready to become a source document."""

    #: The frame that was kept.
    frame: Frame
    #: Sharpness of every frame of the burst.
    burst_scores: list[float]
    #: What the vision path read from it.
    analysis: Analysis


def capture_stamp(frame: Frame) -> str:
    """The capture time as a compact UTC stamp (``20261130T010203Z``)."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(frame.captured_at))


def capture_source_id(frame: Frame) -> str:
    """The source id of a capture: ``capture:<stamp>-<first 8 hex of sha256(frame bytes)>``.

    The stamp has one-second resolution; the content hash keeps two different shots taken within
    the same second apart (one would otherwise replace the other in the index).
    """
    digest = hashlib.sha256(frame.data).hexdigest()[:8]
    return f"capture:{capture_stamp(frame)}-{digest}"


def capture_page(camera: Camera, settings: VisionSettings) -> Capture:
    """Take a burst, keep the sharpest frame, gate it strictly and OCR it.

    Raises :class:`PageQualityError` (with the sentence to tell the person) for a rejected shot.
    """
    frames = camera.capture(settings.burst_frames)
    frame, scores = sharpest_of_burst(frames)
    analysis = analyse_image(frame.image, settings, strict=True)
    return Capture(frame=frame, burst_scores=scores, analysis=analysis)
