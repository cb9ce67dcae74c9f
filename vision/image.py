"""Reading photos of the table: JPEG or PNG of any size, colour, grey or with alpha, into BGR pixels."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import ImageTooLargeError, NotAnImageError

MAX_PIXELS = 64_000_000
"""Largest image decoded (an 8000 × 6000 photo is 48 MP); larger ones are refused before decoding."""

MAX_FILE_BYTES = 200 * 1024 * 1024

_SIGNATURES = {b"\xff\xd8\xff": "JPEG", b"\x89PNG\r\n\x1a\n": "PNG"}

BGRImage = NDArray[np.uint8]


def read_image(path: str | Path) -> BGRImage:
    """The picture in a file as a ``(H, W, 3)`` BGR array.

    :raises NotAnImageError: missing, empty, truncated, or not a JPEG/PNG.
    :raises ImageTooLargeError: more than :data:`MAX_PIXELS` pixels.
    """
    p = Path(path)
    try:
        if p.is_dir():
            raise NotAnImageError(f"{path}: is a directory, not an image")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageTooLargeError(f"{path}: {size // 2**20} MB is too large for a photo")
        data = p.read_bytes()
    except FileNotFoundError:
        raise NotAnImageError(f"{path}: no such file") from None
    except OSError as e:
        raise NotAnImageError(f"{path}: cannot be read ({e.strerror})") from None
    return decode_image(data, name=str(path))


def decode_image(data: bytes, *, name: str = "image") -> BGRImage:
    """Decode JPEG or PNG bytes to BGR (grey is expanded, alpha is composited on white)."""
    if not data:
        raise NotAnImageError(f"{name}: the file is empty")
    kind = next((k for sig, k in _SIGNATURES.items() if data.startswith(sig)), None)
    if kind is None:
        raise NotAnImageError(f"{name}: not a JPEG or PNG image")
    width, height = _dimensions(data, kind)
    if width and height and width * height > MAX_PIXELS:
        raise ImageTooLargeError(
            f"{name}: {width} × {height} is more than {MAX_PIXELS // 1_000_000} megapixels; scale it down first"
        )
    if kind == "JPEG" and not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
        # libjpeg decodes a cut-off file into a picture greyed out below the cut; refuse it instead.
        raise NotAnImageError(f"{name}: the JPEG data is truncated (no end marker)")
    buffer = np.frombuffer(data, dtype=np.uint8)
    # a phone's JPEG is turned upright by its EXIF orientation, as a browser shows it (PNG keeps its alpha)
    image = cv2.imdecode(buffer, cv2.IMREAD_COLOR if kind == "JPEG" else cv2.IMREAD_UNCHANGED)
    if image is None or image.size == 0:
        raise NotAnImageError(f"{name}: the {kind} data is damaged or truncated")
    if image.dtype != np.uint8:
        image = (image / 257).astype(np.uint8) if image.dtype == np.uint16 else image.astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)  # type: ignore[return-value]
    if image.shape[2] == 4:
        alpha = image[:, :, 3:4].astype(np.float32) / 255
        composed = image[:, :, :3].astype(np.float32) * alpha + 255 * (1 - alpha)
        return composed.astype(np.uint8)
    return image[:, :, :3].copy() if image.shape[2] != 3 else image  # type: ignore[return-value]


def _dimensions(data: bytes, kind: str) -> tuple[int, int]:
    """Width and height from the file header, without decoding (0, 0 when not found)."""
    if kind == "PNG" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    # JPEG: walk the segments to the first start-of-frame marker.
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            return int.from_bytes(data[i + 7 : i + 9], "big"), int.from_bytes(data[i + 5 : i + 7], "big")
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        i += 2 + int.from_bytes(data[i + 2 : i + 4], "big")
    return 0, 0
