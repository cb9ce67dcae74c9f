"""Reading photos: every format the runtime promises, and clear errors for everything else."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import ImageTooLargeError, NotAnImageError
from vision.image import decode_image, read_image


def encode(image, ext):
    ok, data = cv2.imencode(ext, image)
    assert ok
    return data.tobytes()


@pytest.mark.parametrize(("ext", "channels"), [(".jpg", 1), (".jpg", 3), (".png", 1), (".png", 3), (".png", 4)])
def test_colour_grey_and_alpha_images_become_bgr(ext, channels):
    shape = (30, 40) if channels == 1 else (30, 40, channels)
    image = np.full(shape, 200, np.uint8)
    out = decode_image(encode(image, ext))
    assert out.shape == (30, 40, 3) and out.dtype == np.uint8


def test_transparent_pixels_are_composited_on_white():
    image = np.zeros((10, 10, 4), np.uint8)  # black and fully transparent
    assert decode_image(encode(image, ".png"))[0, 0].tolist() == [255, 255, 255]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"hello, this is text", "not a JPEG or PNG"),
        (b"GIF89a....", "not a JPEG or PNG"),
    ],
)
def test_what_is_not_an_image_is_refused(data, message):
    with pytest.raises(NotAnImageError, match=message):
        decode_image(data)


def test_a_truncated_file_is_refused():
    data = encode(np.random.default_rng(0).integers(0, 255, (200, 300, 3), dtype=np.uint8), ".png")
    with pytest.raises(NotAnImageError, match="damaged or truncated"):
        decode_image(data[: len(data) // 3])


def test_a_truncated_jpeg_is_refused_rather_than_half_decoded():
    data = encode(np.random.default_rng(0).integers(0, 255, (200, 300, 3), dtype=np.uint8), ".jpg")
    with pytest.raises(NotAnImageError, match="truncated"):
        decode_image(data[: len(data) // 2])


def test_a_huge_image_is_refused_from_its_header_without_decoding():
    # A PNG header claiming 20000 × 20000 pixels.
    small = encode(np.zeros((2, 2, 3), np.uint8), ".png")
    forged = small[:16] + (20000).to_bytes(4, "big") + (20000).to_bytes(4, "big") + small[24:]
    with pytest.raises(ImageTooLargeError, match="megapixels"):
        decode_image(forged)


def test_files(tmp_path):
    path = tmp_path / "table.jpg"
    path.write_bytes(encode(np.zeros((8, 8, 3), np.uint8), ".jpg"))
    assert read_image(path).shape == (8, 8, 3)
    with pytest.raises(NotAnImageError, match="no such file"):
        read_image(tmp_path / "missing.jpg")
    with pytest.raises(NotAnImageError, match="directory"):
        read_image(tmp_path)
