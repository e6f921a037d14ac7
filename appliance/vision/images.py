"""Reading image files and camera bytes safely: size limits before decoding, coded errors after.

A hostile or broken file must cost neither memory nor a traceback: the pixel count is read from the
header and checked before any pixel is decoded (a 20000 x 20000 PNG is a few kilobytes on disk and
1.2 GB in memory), and every decoder failure becomes an :class:`ImageInputError` with its own code.
"""

from __future__ import annotations

import io
import re
import warnings
import zlib
from pathlib import Path

import numpy as np
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from appliance.errors import public_name
from appliance.vision.errors import ImageInputError

#: Formats the vision path accepts; anything else Pillow might open (PSD, ICO, ...) is refused.
ACCEPTED_FORMATS = frozenset({"JPEG", "PNG", "TIFF", "BMP", "WEBP", "MPO"})
#: Media types by Pillow format name.
MEDIA_TYPES = {
    "JPEG": "image/jpeg",
    "MPO": "image/jpeg",
    "PNG": "image/png",
    "TIFF": "image/tiff",
    "BMP": "image/bmp",
    "WEBP": "image/webp",
}

#: Most memory one decode may take: the decoded pixels in their own mode plus the RGB copy. The pixel
#: limit alone lets a 16-bit or CMYK image cost twice what an RGB one of the same size does.
MAX_DECODE_BYTES = 768 * 1024 * 1024
#: Bytes per pixel of Pillow modes (anything not listed counts as 4).
_MODE_BYTES = {
    "1": 1,
    "L": 1,
    "P": 1,
    "LA": 2,
    "PA": 2,
    "I;16": 2,
    "I;16B": 2,
    "I;16L": 2,
    "RGB": 3,
}

# Truncated files must fail, not decode half a page of grey silently.
ImageFile.LOAD_TRUNCATED_IMAGES = False


def read_image(path: Path, *, max_pixels: int) -> tuple[np.ndarray, str]:
    """Decode an image file to an RGB ``uint8`` array; returns the array and its media type."""
    name = public_name(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageInputError(f"{name}: file not found", code="image_not_found") from None
    except OSError as err:
        raise ImageInputError(
            f"{name}: cannot be read ({err.strerror})", code="image_unreadable"
        ) from None
    return decode_image(data, name=name, max_pixels=max_pixels)


def decode_image(data: bytes, *, name: str, max_pixels: int) -> tuple[np.ndarray, str]:
    """Decode image bytes (a file's content or a camera frame) to RGB with the same guards."""
    if not data:
        raise ImageInputError(f"{name}: the file is empty (0 bytes)", code="image_empty")
    # Pillow's own guard (process-wide): it raises at twice this limit while reading the header;
    # between one and two times the limit our explicit check below refuses the image.
    Image.MAX_IMAGE_PIXELS = max_pixels
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
        except Image.DecompressionBombError as err:
            raise _too_large(name, _claimed_pixels(str(err)), max_pixels) from None
        except (UnidentifiedImageError, SyntaxError, ValueError):
            raise ImageInputError(
                f"{name}: not an image Pillow can read (wrong format or not an image at all)",
                code="image_not_an_image",
            ) from None
        except (OSError, EOFError) as err:
            raise ImageInputError(
                f"{name}: the image header is truncated or corrupt ({err})", code="image_truncated"
            ) from None
        if image.format not in ACCEPTED_FORMATS:
            raise ImageInputError(
                f"{name}: image format {image.format} is not accepted "
                f"(use JPEG, PNG, TIFF, BMP or WEBP)",
                code="image_not_an_image",
            )
        width, height = image.size
        if width * height > max_pixels:
            raise _too_large(name, (width, height), max_pixels)
        if width * height * (_MODE_BYTES.get(image.mode, 4) + 3) > MAX_DECODE_BYTES:
            raise ImageInputError(
                f"{name}: {width}x{height} pixels in mode {image.mode} would take over "
                f"{MAX_DECODE_BYTES >> 20} MB to decode",
                code="image_too_large",
            )
        if width < 16 or height < 16:
            raise ImageInputError(
                f"{name}: {width}x{height} pixels is too small to hold a page",
                code="image_too_small",
            )
        media_type = MEDIA_TYPES[image.format]
        try:
            image.load()
            upright: Image.Image = ImageOps.exif_transpose(image) or image
            rgb = _to_rgb_array(upright)
        except Image.DecompressionBombError:
            raise _too_large(name, (width, height), max_pixels) from None
        except MemoryError:
            raise _too_large(name, (width, height), max_pixels) from None
        except (OSError, SyntaxError, ValueError, EOFError, zlib.error) as err:
            raise ImageInputError(
                f"{name}: the image data is truncated or corrupt ({err})", code="image_truncated"
            ) from None
    return rgb, media_type


def _claimed_pixels(message: str) -> str | None:
    match = re.search(r"\((\d+) pixels\)", message)
    return f"{match.group(1)} pixels" if match else None


def _too_large(name: str, size: tuple[int, int] | str | None, max_pixels: int) -> ImageInputError:
    shown = f"{size[0]}x{size[1]} pixels" if isinstance(size, tuple) else size or "its size"
    return ImageInputError(
        f"{name}: {shown} is over the limit of {max_pixels} pixels (vision.max_image_pixels)",
        code="image_too_large",
    )


def _to_rgb_array(image: Image.Image) -> np.ndarray:
    """RGB uint8 from any Pillow mode, scaling 16- and 32-bit greys instead of clipping them."""
    if image.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        grey = np.asarray(image, dtype=np.float64)
        low, high = float(grey.min()), float(grey.max())
        span = high - low if high > low else 1.0
        grey8 = ((grey - low) * (255.0 / span)).astype(np.uint8)
        return np.dstack([grey8, grey8, grey8])
    if image.mode != "RGB":
        if image.mode in ("RGBA", "LA", "PA") or (
            image.mode == "P" and "transparency" in image.info
        ):
            # Transparent regions become white paper, not black ink.
            background = Image.new("RGBA", image.size, (255, 255, 255, 255))
            background.alpha_composite(image.convert("RGBA"))
            image = background
        image = image.convert("RGB")
    return np.ascontiguousarray(np.asarray(image, dtype=np.uint8))
