"""What moved since a part of the table was last read: the table between two plays is still, and a still part
of it keeps what was read there.

A frame is looked at small (:data:`SCALE` times smaller, grey, softened). A region is *still* when no
patch of it changed by more than :data:`PIXEL_CHANGE` grey levels against the picture of that region kept
when it was read, single pixels of noise aside (:data:`NOISE_PIXELS`). Each region is compared with its own
picture, never with the frame before, so a slow slide adds up and is seen. A detector run on a still tile
gives what it gave (the model is deterministic), so keeping its boxes changes nothing but the time.

>>> image = np.full((720, 1280, 3), 90, np.uint8)
>>> kept = Glance(image).region(np.array([[100, 100], [180, 100], [180, 220], [100, 220.0]]))
>>> later = image.copy(); later[600:700, 1000:1200] = 250  # an arm far away
>>> Glance(later).still(kept)
True
>>> later[150:170, 120:160] = 20  # a card laid there
>>> Glance(later).still(kept)
False
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

SCALE = 4
"""The frame is compared this many times smaller (320 × 180 at 1280 × 720: a card's strip is still 3–5 px)."""
PIXEL_CHANGE = 14
"""Grey levels a small pixel must change by to count as moved (a camera's noise, softened, stays under it)."""
NOISE_PIXELS = 2
"""A moved patch must be wider than this many small pixels each way (a speck of noise or a compression block is
not a card)."""
MARGIN = 2
"""Small pixels added round a region: a card's shadow and a finger's edge just outside it count."""


@dataclass(frozen=True)
class Region:
    """A part of a frame, as it looked when something was read there."""

    x0: int
    y0: int
    x1: int
    y1: int
    """Bounds in small pixels."""
    picture: NDArray[np.int16] = field(repr=False)


class Glance:
    """One frame, small: regions of it kept, and compared with regions kept earlier."""

    def __init__(self, image: NDArray[np.uint8]) -> None:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        h, w = grey.shape[:2]
        small = cv2.resize(grey, (max(1, w // SCALE), max(1, h // SCALE)), interpolation=cv2.INTER_AREA)
        self.small: NDArray[np.int16] = cv2.GaussianBlur(small, (0, 0), 1.0).astype(np.int16)

    def region(self, corners: NDArray[np.floating]) -> Region:
        """The part of the frame under a box (``(4, 2)`` corners in the frame's pixels) or a tile, kept."""
        q = np.asarray(corners, dtype=np.float64).reshape(-1, 2) / SCALE
        h, w = self.small.shape
        x0, y0 = (np.floor(q.min(axis=0)) - MARGIN).astype(int)
        x1, y1 = (np.ceil(q.max(axis=0)) + MARGIN + 1).astype(int)
        x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
        return Region(x0, y0, x1, y1, self.small[y0:y1, x0:x1].copy())

    def still(self, kept: Region) -> bool:
        """Whether the region looks as it did when it was kept."""
        now = self.small[kept.y0 : kept.y1, kept.x0 : kept.x1]
        if now.shape != kept.picture.shape:
            return False  # another frame size
        moved = (np.abs(now - kept.picture) > PIXEL_CHANGE).astype(np.uint8)
        if not moved.any():
            return True
        k = 2 * (NOISE_PIXELS // 2) + 1
        return not cv2.erode(moved, np.ones((k, k), np.uint8)).any()
