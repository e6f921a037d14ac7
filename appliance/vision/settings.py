"""Settings of the camera, page correction and OCR."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal


@dataclass(frozen=True)
class VisionSettings:
    """Camera backend and OCR options."""

    #: Camera backend: a V4L2 device, the Pi camera, or a folder of images (development).
    camera: Literal["v4l2", "rpicam", "folder"] = "folder"
    #: V4L2 device index or the folder for the folder backend.
    camera_source: str = "0"
    #: Tesseract languages, joined with '+'.
    ocr_languages: str = "eng"
    #: Seconds before a Tesseract call is abandoned.
    ocr_timeout_s: float = 60.0
    #: Folder of development images (folder backend); relative to the data dir when relative.
    capture_folder: Path = Path("camera")
