"""The camera boundary: one small interface, several backends chosen by name in the configuration.

Real backends: a V4L2 device through OpenCV (USB cameras) and the Pi camera module through
``rpicam-still``. Development backend: a folder of image files served in name order, which ships in the
package so a machine without a camera runs the real capture-to-index path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True)
class Frame:
    """One captured picture."""

    #: The picture as RGB ``uint8``.
    image: np.ndarray
    #: The picture's encoded bytes (JPEG or the file's own bytes); their sha256 identifies the capture.
    data: bytes
    #: UNIX time of the capture.
    captured_at: float
    #: Where it came from ("v4l2:0", "rpicam", "folder:page1.jpg") — never an absolute path.
    origin: str


@runtime_checkable
class Camera(Protocol):
    """A camera that takes a short burst of still frames."""

    #: Backend name as used in ``vision.camera``.
    name: str

    def capture(self, count: int) -> list[Frame]:
        """Take up to ``count`` frames in quick succession (at least one, or raise CameraError)."""
        ...

    def close(self) -> None:
        """Release the device; safe to call twice."""
        ...
