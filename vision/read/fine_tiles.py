"""A phone's photo at its own resolution: the detector run again on tiles sized by the cards found.

A still's tiles (:data:`~vision.read.tiling.STILL_TILE_SHARE` of the shorter side) are shrunk to the model's
640 px: at 1280 × 720 that enlarges them, but a 4000 × 3000 photo is shrunk to a third, and the far side of a
table photographed at a slant shows its cards 150 px long, its column strips 15-20 px: 5-6 px in the model,
too thin to be boxed. So the photo is first detected as a still is; where the smaller cards found would be
under :data:`SMALLEST_IN_MODEL` px long in the model, the part of the photo holding the cards is detected again
on tiles that show those cards :data:`IN_MODEL` px long, and those boxes are the photo's.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.read.detections import Detections
from vision.read.tiling import TiledDetector, merge_tiles, tile_windows

MODEL_PX = 640
"""The detector's input side."""
SMALLEST_IN_MODEL = 70.0
"""Detected again where the smaller cards found (:data:`SMALL_QUANTILE`) are under this long in the model, and the
still's tiles were shrunk to the model's size (a 1280 × 720 still's are enlarged: asked there too, the held-out 2-D
scenes lost 5 sides of 267)."""
IN_MODEL = 100.0
"""The tiles of the second pass show those cards this long in the model."""
SMALL_QUANTILE = 25
"""The percentile of the whole cards' long sides taken as the smaller cards' length..."""
WHOLE_ASPECT = 0.5
"""...a whole card's box being one whose short side is at least this share of its long side (56 : 87 is 0.64;
a column's strip boxed across its card is far thinner, and says nothing of how far the card is)."""
SMALL_REACH = 1.5
"""The second pass looks where the boxes under this many times the smaller cards' length lie, and keeps its boxes
under that length (a strip, a far card); the larger cards keep the first pass's boxes."""


class FineTiledDetector(TiledDetector):
    """A still's tiling, then, on a large photo, tiles sized by the cards it found."""

    fine_passes = 0
    """Photos detected a second time on finer tiles."""
    smallest_in_model = SMALLEST_IN_MODEL
    """:data:`SMALLEST_IN_MODEL` for this detector (0: never a second pass; benches compare)."""

    def detect(self, image: NDArray[np.uint8]) -> Detections:
        first = super().detect(image)
        h, w = image.shape[:2]
        tile = round(min(w, h) * self.tile_share)
        face_up = first.corners[first.class_id == 0]
        if tile <= MODEL_PX or not len(face_up):  # a frame whose tiles the model sees enlarged: nothing lost
            return first
        sides = np.linalg.norm(face_up - np.roll(face_up, -1, axis=1), axis=2)
        longs = sides.max(axis=1)
        whole = sides.min(axis=1) >= WHOLE_ASPECT * longs  # a whole card's proportions (a strip's box is long and thin)
        if not whole.any():
            return first
        small = float(np.percentile(longs[whole], SMALL_QUANTILE))
        if small * MODEL_PX / max(tile, 1) >= self.smallest_in_model:
            return first
        size = min(max(MODEL_PX, round(small * MODEL_PX / IN_MODEL)), w, h)
        corners = face_up[longs < SMALL_REACH * small].reshape(-1, 2)  # where the small cards lie
        margin = float(small)
        x0, y0 = np.maximum(np.floor(corners.min(axis=0) - margin), 0).astype(int)
        x1, y1 = np.minimum(np.ceil(corners.max(axis=0) + margin), [w, h]).astype(int)
        region_w, region_h = max(int(x1 - x0), size), max(int(y1 - y0), size)
        x0, y0 = min(int(x0), w - region_w), min(int(y0), h - region_h)
        parts = []
        for win in tile_windows(region_w, region_h, tile_share=size / min(region_w, region_h)):
            x, y = x0 + win.x, y0 + win.y
            found = self.base.detect(image[y : y + win.size, x : x + win.size])
            self.tiles_run += 1
            if len(found):
                parts.append(Detections(found.corners + np.array([x, y], dtype=np.float64), found.confidence,
                                        found.class_id))
        self.fine_passes += 1
        fine = Detections.merge(parts)
        if len(fine):  # a card larger than the model saw in training comes in pieces: the first pass's stand
            fine_longs = np.linalg.norm(fine.corners - np.roll(fine.corners, -1, axis=1), axis=2).max(axis=1)
            fine = fine[np.flatnonzero(fine_longs < SMALL_REACH * small)]
        both = merge_tiles([first, fine], iou_threshold=self.iou_threshold, duplicate_overlap=self.duplicate_overlap)
        self.held = np.zeros(len(both), bool)
        return both
