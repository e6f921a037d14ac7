"""Camera backends: the folder backend for development, rpicam-still faults (fake program), burst choice."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.config import Config
from appliance.vision.base import Camera, Frame
from appliance.vision.cameras import FolderCamera, RpicamCamera, V4L2Camera, open_camera
from appliance.vision.capture import capture_page, sharpest_of_burst
from appliance.vision.errors import CameraError, PageQualityError


def _folder_with(tmp_path: Path, drawings: Path, names: list[str]) -> Path:
    folder = tmp_path / "camera"
    folder.mkdir()
    for name in names:
        shutil.copy(drawings / name, folder / name)
    return folder


def test_folder_camera_serves_files_in_order_and_cycles(tmp_path: Path, drawings: Path) -> None:
    folder = _folder_with(tmp_path, drawings, ["LIU0010.jpg", "Candle_holder.jpg"])
    camera = FolderCamera(folder, max_pixels=50_000_000)
    assert isinstance(camera, Camera)
    shots = [camera.capture(3) for _ in range(3)]
    assert camera.served == ["Candle_holder.jpg", "LIU0010.jpg", "Candle_holder.jpg"]
    assert all(len(shot) == 1 for shot in shots)
    assert shots[0][0].image.shape == (2339, 1653, 3)
    assert shots[0][0].data == (drawings / "Candle_holder.jpg").read_bytes()
    assert shots[0][0].origin == "folder:Candle_holder.jpg"


def test_folder_camera_faults(tmp_path: Path) -> None:
    with pytest.raises(CameraError) as missing:
        FolderCamera(tmp_path / "nowhere", max_pixels=10**7).capture(1)
    assert missing.value.code == "camera_unavailable"
    (tmp_path / "empty").mkdir()
    with pytest.raises(CameraError) as empty:
        FolderCamera(tmp_path / "empty", max_pixels=10**7).capture(1)
    assert empty.value.code == "camera_empty"
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "shot.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    with pytest.raises(CameraError) as broken:
        FolderCamera(tmp_path / "broken", max_pixels=10**7).capture(1)
    assert broken.value.code == "camera_failed"


def test_open_camera_by_name(config: Config) -> None:
    camera = open_camera(config.vision, config.paths.data_dir)
    assert isinstance(camera, FolderCamera)
    assert camera.folder == config.paths.data_dir / "camera"


def test_v4l2_without_a_device_is_a_coded_error() -> None:
    with pytest.raises(CameraError) as caught:
        V4L2Camera("/dev/video-openclaw-test-none", width=0, height=0, timeout_s=1)
    assert caught.value.code == "camera_unavailable"


@pytest.fixture
def rpicam(
    fake_program: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> Callable[[str], RpicamCamera]:
    def install(body: str) -> RpicamCamera:
        fake = fake_program("rpicam-still", body)
        monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
        return RpicamCamera("rpicam-still", width=0, height=0, timeout_s=2.0, max_pixels=50_000_000)

    return install


def test_rpicam_still_frames(rpicam: Callable[[str], RpicamCamera], drawings: Path) -> None:
    source = drawings / "LIU0010.jpg"
    camera = rpicam(
        "import shutil, sys\n"
        "out = sys.argv[sys.argv.index('-o') + 1]\n"
        f"shutil.copy({str(source)!r}, out)\n"
    )
    frames = camera.capture(2)
    assert len(frames) == 2
    assert frames[0].data == source.read_bytes()
    assert frames[0].image.shape == (2339, 1654, 3)
    assert camera.argv(Path("x.jpg"))[:3] == [camera.command, "--nopreview", "--immediate"]


def test_rpicam_still_hangs(rpicam: Callable[[str], RpicamCamera]) -> None:
    camera = rpicam("import time\ntime.sleep(30)\n")
    with pytest.raises(CameraError) as caught:
        camera.capture(1)
    assert caught.value.code == "camera_timeout"


def test_rpicam_still_fails(rpicam: Callable[[str], RpicamCamera]) -> None:
    camera = rpicam(
        "import sys\nsys.stderr.write('ERROR: *** no cameras available ***\\n')\nsys.exit(255)\n"
    )
    with pytest.raises(CameraError) as caught:
        camera.capture(1)
    assert caught.value.code == "camera_failed"
    assert "no cameras available" in caught.value.message


def test_rpicam_still_missing(tmp_path: Path) -> None:
    camera = RpicamCamera(
        str(tmp_path / "rpicam-still"), width=0, height=0, timeout_s=1, max_pixels=10**7
    )
    with pytest.raises(CameraError) as caught:
        camera.capture(1)
    assert caught.value.code == "camera_unavailable"


def test_sharpest_of_burst(candle_rgb: np.ndarray) -> None:
    frames = [
        Frame(cv2.GaussianBlur(candle_rgb, (0, 0), 3), b"a", 1.0, "t"),
        Frame(candle_rgb, b"b", 2.0, "t"),
        Frame(cv2.GaussianBlur(candle_rgb, (0, 0), 1.5), b"c", 3.0, "t"),
    ]
    best, scores = sharpest_of_burst(frames)
    assert best.data == b"b"
    assert scores[1] > scores[2] > scores[0]


def test_blurred_capture_is_rejected(
    tmp_path: Path, candle_rgb: np.ndarray, make_photo, config: Config
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "camera"
    folder.mkdir()
    photo = cv2.GaussianBlur(make_photo(candle_rgb)[0], (0, 0), 6)
    cv2.imwrite(str(folder / "shot.jpg"), cv2.cvtColor(photo, cv2.COLOR_RGB2BGR))
    with pytest.raises(PageQualityError) as caught:
        capture_page(FolderCamera(folder, max_pixels=10**8), config.vision)
    assert caught.value.code == "too_blurry"


def test_capture_source_ids_differ_within_one_second() -> None:
    from appliance.vision.capture import capture_source_id

    image = np.zeros((4, 4, 3), np.uint8)
    first = Frame(image=image, data=b"shot one", captured_at=1_800_000_000.1, origin="v4l2:0")
    second = Frame(image=image, data=b"shot two", captured_at=1_800_000_000.9, origin="v4l2:0")
    again = Frame(image=image, data=b"shot one", captured_at=1_800_000_000.5, origin="v4l2:0")
    digest = hashlib.sha256(b"shot one").hexdigest()[:8]
    assert capture_source_id(first) == f"capture:20270115T080000Z-{digest}"
    assert capture_source_id(second) != capture_source_id(first)
    # The same bytes in the same second are the same capture.
    assert capture_source_id(again) == capture_source_id(first)
