"""Settings of the camera, page correction and OCR."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from appliance.errors import ConfigError


@dataclass(frozen=True)
class VisionSettings:
    """Camera backend, quality-gate thresholds and OCR options."""

    #: Camera backend: a V4L2 device, the Pi camera, or a folder of images (development).
    camera: Literal["v4l2", "rpicam", "folder"] = "folder"
    #: V4L2 device index or the folder for the folder backend.
    camera_source: str = "0"
    #: Folder of development images (folder backend); relative to the data dir when relative.
    capture_folder: Path = Path("camera")
    #: Frames taken per capture; the sharpest one is kept.
    burst_frames: int = 3
    #: Requested capture width in pixels (0 = the camera's default).
    capture_width: int = 0
    #: Requested capture height in pixels (0 = the camera's default).
    capture_height: int = 0
    #: Program run for the Pi camera module.
    rpicam_command: str = "rpicam-still"
    #: Seconds before one ``rpicam-still`` or V4L2 capture is abandoned.
    capture_timeout_s: float = 10.0
    #: Tesseract languages, joined with '+'.
    ocr_languages: str = "eng"
    #: Tesseract languages a title block is read in again when the page's languages found almost
    #: no fields in it ("" = never): Chinese blocks are unreadable to the English model
    #: (docs/decisions/0019).
    title_block_languages: str = "eng+chi_sim"
    #: Tesseract languages the words of a German drawing are read in again, for its umlauts and ß
    #: ("" = never; appliance/vision/germanlines.py).
    german_languages: str = "deu"
    #: Manifest name of the neural line recogniser that reads the lines of a Chinese drawing again
    #: ("" = Tesseract alone; appliance/vision/hanmodel.py).
    chinese_line_model: str = "pp-ocrv4-rec-ch"
    #: Where the line recogniser is looked for: the configuration's ``paths.models_dir``, filled in
    #: when the configuration is loaded (a PyPI carrier is found wherever this points).
    models_dir: Path = Path("var/models")
    #: Seconds before a Tesseract call is abandoned.
    ocr_timeout_s: float = 60.0
    #: Tesseract executable (a name looked up on PATH, or a path).
    tesseract_cmd: str = "tesseract"
    #: Words below this Tesseract confidence (0-100) are kept but marked as uncertain.
    low_confidence: float = 60.0
    #: Also OCR the page turned by 90 degrees to read vertical dimension text.
    read_vertical_text: bool = True
    #: Also OCR a drawing's grey page with its ruling lines kept (text touching lines, boxed cells)
    #: and keep the stronger reading of each word: better recall for one more Tesseract run.
    read_grey_page: bool = True
    #: Turn pages photographed sideways or upside down upright first (Tesseract's orientation
    #: detection; skipped when a title block sits in the bottom-right corner, as on an upright
    #: drawing).
    detect_orientation: bool = True
    #: Smallest orientation confidence of Tesseract's OSD at which a page is turned.
    min_orientation_confidence: float = 1.5
    #: Height in pixels that text is scaled to before OCR (Tesseract reads 20-30 px text best).
    ocr_text_height_px: int = 22
    #: Largest image accepted, in pixels (width x height), checked before decoding.
    max_image_pixels: int = 120_000_000
    #: Quality gate: smallest accepted sharpness (variance of the Laplacian on text areas).
    min_sharpness: float = 150.0
    #: Quality gate: smallest accepted median brightness of the frame (0-255).
    min_brightness: float = 50.0
    #: Quality gate: largest accepted share of the page that is clipped white in a glare spot.
    max_glare_fraction: float = 0.03
    #: Quality gate: smallest accepted short side of the found page, in pixels.
    min_page_px: int = 400
    #: Longest side of the thumbnail stored beside the index, in pixels.
    thumbnail_px: int = 640

    def validate(self) -> None:
        """Check ranges once at start-up."""
        if not 1 <= self.burst_frames <= 30:
            raise ConfigError("vision.burst_frames: must be between 1 and 30")
        if self.capture_width < 0 or self.capture_height < 0:
            raise ConfigError("vision.capture_width/capture_height: must be >= 0")
        for key in ("ocr_timeout_s", "capture_timeout_s"):
            if getattr(self, key) <= 0:
                raise ConfigError(f"vision.{key}: must be > 0")
        if not 0 <= self.low_confidence <= 100:
            raise ConfigError("vision.low_confidence: must be between 0 and 100")
        if not 8 <= self.ocr_text_height_px <= 80:
            raise ConfigError("vision.ocr_text_height_px: must be between 8 and 80")
        if self.max_image_pixels < 1_000_000:
            raise ConfigError("vision.max_image_pixels: must be >= 1000000")
        if not 0 < self.max_glare_fraction < 1:
            raise ConfigError("vision.max_glare_fraction: must be between 0 and 1")
        if self.min_page_px < 100 or self.thumbnail_px < 64:
            raise ConfigError(
                "vision.min_page_px >= 100 and vision.thumbnail_px >= 64 are required"
            )
        if not _language_names(self.ocr_languages):
            raise ConfigError("vision.ocr_languages: expected names like 'eng' or 'eng+chi_sim'")
        if self.title_block_languages and not _language_names(self.title_block_languages):
            raise ConfigError(
                "vision.title_block_languages: expected names like 'eng+chi_sim', or empty"
            )
        if self.german_languages and not _language_names(self.german_languages):
            raise ConfigError("vision.german_languages: expected names like 'deu', or empty")


def _language_names(text: str) -> bool:
    """Whether ``text`` is Tesseract language names joined with '+' ("eng+chi_sim")."""
    return all(part.isidentifier() for part in text.split("+"))
