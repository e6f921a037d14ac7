"""Camera backends: V4L2 through OpenCV, ``rpicam-still``, and a folder of images for development.

Each backend is imported and opened only when chosen (:func:`open_camera`), so a machine without
OpenCV's video stack or the Pi camera tools can still run the other parts.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import cv2
import numpy as np

from appliance.vision.base import Camera, Frame
from appliance.vision.errors import CameraError, ImageInputError
from appliance.vision.images import decode_image
from appliance.vision.settings import VisionSettings

#: Extensions the folder backend serves.
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp", ".webp")


class FolderCamera:
    """Development camera: each capture serves the next image file of a folder, in name order.

    A folder of stills has no burst, so one capture gives one frame. The driving API for tests and
    demos is simply the folder: drop a file in and the next capture returns it. ``served`` records
    what was handed out.
    """

    name = "folder"

    def __init__(self, folder: Path, *, max_pixels: int) -> None:
        self.folder = folder
        self.max_pixels = max_pixels
        self._index = 0
        #: File names served so far, in order.
        self.served: list[str] = []

    def _files(self) -> list[Path]:
        if not self.folder.is_dir():
            raise CameraError(
                f"camera folder {self.folder.name!r} does not exist (vision.capture_folder)",
                code="camera_unavailable",
            )
        return sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def capture(self, count: int) -> list[Frame]:
        """The next image of the folder (cycling), as a one-frame burst."""
        files = self._files()
        if not files:
            raise CameraError(
                f"camera folder {self.folder.name!r} has no images", code="camera_empty"
            )
        path = files[self._index % len(files)]
        self._index += 1
        data = path.read_bytes()
        try:
            image, _ = decode_image(data, name=path.name, max_pixels=self.max_pixels)
        except ImageInputError as err:
            raise CameraError(
                f"frame {path.name} is unusable: {err.message}", code="camera_failed"
            ) from None
        self.served.append(path.name)
        return [
            Frame(image=image, data=data, captured_at=time.time(), origin=f"folder:{path.name}")
        ]

    def close(self) -> None:
        """Nothing to release."""


class V4L2Camera:
    """A USB camera through OpenCV's V4L2 backend; the device stays open between captures."""

    name = "v4l2"

    def __init__(self, device: str, *, width: int, height: int, timeout_s: float) -> None:
        self.device = device
        self.timeout_s = timeout_s
        index: int | str = int(device) if device.isdigit() else device
        self._capture = cv2.VideoCapture(index, cv2.CAP_V4L2)
        if not self._capture.isOpened():
            raise CameraError(
                f"camera {device!r} cannot be opened (is it plugged in?)", code="camera_unavailable"
            )
        if width and height:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._lock = threading.Lock()

    def _read(self) -> np.ndarray:
        ok, bgr = self._capture.read()
        if not ok or bgr is None:
            raise CameraError(f"camera {self.device!r} returned no frame", code="camera_failed")
        return bgr

    def capture(self, count: int) -> list[Frame]:
        """``count`` frames after dropping the few stale ones the driver buffers."""
        with self._lock:
            deadline = time.monotonic() + self.timeout_s
            for _ in range(3):
                self._read()  # V4L2 queues old frames; the first reads show the bench a moment ago
            frames = []
            for _ in range(count):
                if time.monotonic() > deadline:
                    break
                bgr = self._read()
                ok, encoded = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 92])
                rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
                frames.append(
                    Frame(rgb, encoded.tobytes() if ok else b"", time.time(), f"v4l2:{self.device}")
                )
            if not frames:
                raise CameraError(
                    f"camera {self.device!r} took longer than {self.timeout_s:g} s",
                    code="camera_timeout",
                )
            return frames

    def close(self) -> None:
        """Release the device."""
        self._capture.release()


class RpicamCamera:
    """The Pi camera module through ``rpicam-still``: one process per frame, each with a timeout."""

    name = "rpicam"

    def __init__(
        self, command: str, *, width: int, height: int, timeout_s: float, max_pixels: int
    ) -> None:
        self.command = shutil.which(command) or command
        self.width = width
        self.height = height
        self.timeout_s = timeout_s
        self.max_pixels = max_pixels

    def argv(self, output: Path) -> list[str]:
        """The explicit command line of one still."""
        argv = [
            self.command,
            "--nopreview",
            "--immediate",
            "--timeout",
            "1",
            "--encoding",
            "jpg",
            "-o",
            str(output),
        ]
        if self.width and self.height:
            argv += ["--width", str(self.width), "--height", str(self.height)]
        return argv

    def _still(self, folder: Path, number: int) -> Frame:
        output = folder / f"frame{number}.jpg"
        try:
            proc = subprocess.Popen(
                self.argv(output),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except FileNotFoundError:
            raise CameraError(
                f"{os.path.basename(self.command)} is not installed (sudo apt-get install rpicam-apps)",
                code="camera_unavailable",
            ) from None
        try:
            _, stderr = proc.communicate(timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the whole group: rpicam-still may have helpers
            proc.communicate()
            raise CameraError(
                f"rpicam-still took longer than {self.timeout_s:g} s (vision.capture_timeout_s)",
                code="camera_timeout",
            ) from None
        if proc.returncode != 0 or not output.exists():
            detail = stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise CameraError(
                f"rpicam-still failed (exit {proc.returncode}): {detail[0][:200]}",
                code="camera_failed",
            )
        data = output.read_bytes()
        try:
            image, _ = decode_image(data, name="rpicam frame", max_pixels=self.max_pixels)
        except ImageInputError as err:
            raise CameraError(
                f"rpicam-still wrote an unusable frame: {err.message}", code="camera_failed"
            ) from None
        return Frame(image=image, data=data, captured_at=time.time(), origin="rpicam")

    def capture(self, count: int) -> list[Frame]:
        """``count`` stills, one ``rpicam-still`` run each."""
        with tempfile.TemporaryDirectory(prefix="openclaw-rpicam-") as tmp:
            return [self._still(Path(tmp), i) for i in range(count)]

    def close(self) -> None:
        """Nothing stays open between stills."""


def open_camera(settings: VisionSettings, data_dir: Path) -> Camera:
    """The backend named by ``vision.camera``."""
    if settings.camera == "folder":
        folder = settings.capture_folder
        if not folder.is_absolute():
            folder = data_dir / folder
        return FolderCamera(folder, max_pixels=settings.max_image_pixels)
    if settings.camera == "v4l2":
        return V4L2Camera(
            settings.camera_source,
            width=settings.capture_width,
            height=settings.capture_height,
            timeout_s=settings.capture_timeout_s,
        )
    return RpicamCamera(
        settings.rpicam_command,
        width=settings.capture_width,
        height=settings.capture_height,
        timeout_s=settings.capture_timeout_s,
        max_pixels=settings.max_image_pixels,
    )
