"""Cutting a card out of the full-resolution frame along its box, straightened to a fixed size.

A box's corners are taken as top-left, top-right, bottom-right, bottom-left of the face. The
detector does not know which end of a card is its top, so the recogniser reads the crops of all
four turns of the box (:func:`turns`) and keeps the one it is surest of.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

CARD_ASPECT = 56.0 / 87.0
"""A card's width over its length (56 × 87 mm)."""
CROP_WIDTH = 32
CROP_HEIGHT = 48


def clockwise(corners: NDArray[np.floating]) -> NDArray[np.float64]:
    """The same corners in clockwise order on screen (y down), starting from the same first corner."""
    q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    signed = np.sum(q[:, 0] * np.roll(q[:, 1], -1) - np.roll(q[:, 0], -1) * q[:, 1])
    return q if signed >= 0 else q[[0, 3, 2, 1]]


def turns(corners: NDArray[np.floating]) -> list[NDArray[np.float64]]:
    """The box's corners in the four clockwise orders: the face read upright under each quarter turn."""
    q = clockwise(corners)
    return [np.roll(q, -k, axis=0) for k in range(4)]


def cut_card(
    image: NDArray[np.uint8], corners: NDArray[np.floating], *, width: int = CROP_WIDTH, height: int = CROP_HEIGHT
) -> NDArray[np.uint8]:
    """The box as a ``height × width`` BGR patch, ``corners[0]`` at its top left, clockwise."""
    q = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    dst = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    # Shrink first when the box is much larger than the patch, so the warp does not alias.
    span = max(np.linalg.norm(q[3] - q[0]) / height, np.linalg.norm(q[1] - q[0]) / width)
    if span > 2.5:
        factor = 2.0 / span
        x0, y0 = np.floor(q.min(axis=0)).astype(int)
        x1, y1 = np.ceil(q.max(axis=0)).astype(int)
        h, w = image.shape[:2]
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 > x0 and y1 > y0:
            region = image[y0:y1, x0:x1]
            small = cv2.resize(region, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)  # type: ignore[call-overload]
            q = (q - [x0, y0]) * factor
            image = small
    m = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    return cv2.warpPerspective(image, m, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)  # type: ignore[return-value]
