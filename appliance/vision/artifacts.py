"""The corrected page and a thumbnail, stored beside the index so an answer can show its region.

Files live under ``<data_dir>/artifacts/<first 16 hex digits of the source's sha256>/`` and are
referenced relative to the data directory. They are written to a temporary name and renamed, so a crash
never leaves half an image behind a path the index points at.
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from appliance.config import Config


def _write(path: Path, image: np.ndarray, params: list[int]) -> None:
    ok, encoded = cv2.imencode(path.suffix, image, params)
    if not ok:
        raise OSError(f"could not encode {path.name}")
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(encoded.tobytes())
    os.replace(tmp, path)


def write_artifacts(
    config: Config, content_hash: str, *, original: np.ndarray, corrected: np.ndarray
) -> dict[str, object]:
    """Store both images; returns ``{"corrected": rel, "thumbnail": rel, "thumbnail_scale": f}``."""
    folder = config.data_path("artifacts", content_hash[:16])
    folder.mkdir(parents=True, exist_ok=True)
    corrected_path = folder / "corrected.jpg"
    thumbnail_path = folder / "thumbnail.jpg"
    _write(corrected_path, corrected, [cv2.IMWRITE_JPEG_QUALITY, 88])
    height, width = original.shape[:2]
    factor = min(1.0, config.vision.thumbnail_px / max(height, width))
    thumb = cv2.resize(original, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    if thumb.ndim == 3:
        thumb = cv2.cvtColor(thumb, cv2.COLOR_RGB2BGR)
    _write(thumbnail_path, thumb, [cv2.IMWRITE_JPEG_QUALITY, 80])
    root = config.paths.data_dir
    return {
        "corrected": str(corrected_path.relative_to(root)),
        "thumbnail": str(thumbnail_path.relative_to(root)),
        # Multiply an original-image box by this to draw it on the thumbnail.
        "thumbnail_scale": round(factor, 6),
    }
