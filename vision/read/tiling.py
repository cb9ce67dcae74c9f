"""Tiling: run the detector on overlapping squares of the full-resolution frame.

Card strips in a column are often under 20 px at 1280 × 720; shrinking the whole frame into one
model input would halve them. Two overlapping square tiles keep them near full size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.geometry import bounds_touch, intersection_area, quad_areas, rotated_nms
from vision.read.detections import Detections
from vision.read.detector import CardDetector
from vision.read.motion import Glance, Region


@dataclass(frozen=True)
class Window:
    """A square tile of the frame: its top-left corner and its side in pixels."""

    x: int
    y: int
    size: int


def tile_windows(width: int, height: int, *, tile_share: float = 1.0, min_overlap: float = 0.15) -> list[Window]:
    """Square windows covering the frame, as few as possible with at least ``min_overlap`` shared.

    The window side is ``tile_share`` × the frame's shorter side: at 1.0, a 1280 × 720 frame gets
    two 720-px squares overlapping by 160 px.

    >>> [(w.x, w.y, w.size) for w in tile_windows(1280, 720)]
    [(0, 0, 720), (560, 0, 720)]
    """
    size = max(1, int(round(min(width, height) * tile_share)))

    def starts(length: int) -> list[int]:
        if length <= size:
            return [0]
        step = size * (1 - min_overlap)
        n = int(np.ceil((length - size) / step)) + 1
        return [int(round(i * (length - size) / (n - 1))) for i in range(n)]

    return [Window(x, y, size) for y in starts(height) for x in starts(width)]


LIVE_TILE_SHARE = 1.0
"""Video (``replay``, ``run``): two 720-px tiles at 1280 × 720, shrunk to the model's 640 (about 90 ms a
frame on two cores, so the pipeline keeps up with the table)."""
STILL_TILE_SHARE = 0.67
"""A still photo (``detect``): six 480-px tiles at 1280 × 720, each enlarged to 640, three times the
work; the thin strips of a column's cards are found far more often (``bench/bench_detect.py --tile-share``
on seed 9300, 30 scenes: strips 0.844 → 0.963, exact census 0.708 → 0.861; at 0.8 and 0.56 less good)."""

MOVING_EVERY = 3
"""Video: a tile where something keeps moving is run again at least every this many frames (an arm over a
zone hides what it lays until it leaves; the tracker counts nothing while it is there); the frame it comes
to rest, at once."""

DUPLICATE_OVERLAP = 0.6
"""Two boxes of one class sharing more than this share of the smaller one's area are one card seen
twice (the cut-off part of a card at a tile's edge, or a second box the model put on a column's
strip): the weaker goes. Visible parts of different cards barely overlap (a column's strips touch)."""


def merge_tiles(parts: list[Detections], *, iou_threshold: float, duplicate_overlap: float = DUPLICATE_OVERLAP) -> Detections:
    """Join the detections of overlapping tiles: rotated NMS, then drop the weaker of two boxes that
    share most of the smaller one (see :data:`DUPLICATE_OVERLAP`)."""
    merged = Detections.merge(parts)
    return merged[merged_index(merged, iou_threshold=iou_threshold, duplicate_overlap=duplicate_overlap)]


def merged_index(merged: Detections, *, iou_threshold: float, duplicate_overlap: float = DUPLICATE_OVERLAP) -> NDArray[np.intp]:
    """Which of the tiles' boxes (joined in one list) :func:`merge_tiles` keeps, best first."""
    if len(merged) == 0:
        return np.zeros(0, np.intp)
    order = rotated_nms(merged.corners, merged.confidence, iou_threshold)
    kept = merged[order]
    areas = quad_areas(kept.corners)
    touching = bounds_touch(kept.corners)
    drop = np.zeros(len(kept), dtype=bool)
    for i in range(len(kept)):  # kept is ordered best first
        for j in np.flatnonzero(touching[i, :i]):
            if drop[j] or kept.class_id[i] != kept.class_id[j]:
                continue
            inter = intersection_area(kept.corners[i], kept.corners[j])
            smaller = min(areas[i], areas[j])
            if smaller > 0 and inter / smaller > duplicate_overlap:
                drop[i] = True
                break
    return np.asarray(order)[~drop]


class TiledDetector(CardDetector):
    """Any detector, run on the overlapping square tiles of each frame."""

    def __init__(self, base: CardDetector, *, tile_share: float = LIVE_TILE_SHARE, iou_threshold: float = 0.7,
                 duplicate_overlap: float = DUPLICATE_OVERLAP) -> None:
        self.base = base
        self.duplicate_overlap = duplicate_overlap
        self.class_names = base.class_names
        self.tile_share = tile_share
        self.iou_threshold = iou_threshold
        self.moving_every = MOVING_EVERY
        self._kept: dict[Window, tuple[Region, Detections, int]] = {}
        self._previous: Glance | None = None
        self.held: NDArray[np.bool_] = np.zeros(0, bool)
        """Of the last frame's boxes, those a tile where something is moving kept from an earlier frame
        (:meth:`detect_moved`): what the tile showed before, not what it shows now."""
        self.tiles_run = 0
        """Tiles the model ran on (a tile's boxes kept by :meth:`detect_moved` are not counted)."""

    def detect(self, image: NDArray[np.uint8]) -> Detections:
        return self.detect_moved(image, None)

    def detect_moved(self, image: NDArray[np.uint8], glance: Glance | None) -> Detections:
        """The boxes of the frame; with ``glance`` (the frame, small), a tile still since the model last ran on
        it keeps the boxes it gave then (:mod:`vision.read.motion`), and so does a tile where something is still
        moving (an arm laying a card), for :attr:`moving_every` frames at most: it is run again as soon as it
        settles (as the frame before it)."""
        h, w = image.shape[:2]
        parts, held = [], []
        for win in tile_windows(w, h, tile_share=self.tile_share):
            square = np.array([[win.x, win.y], [win.x + win.size, win.y + win.size]], dtype=np.float64)
            kept = self._kept.get(win) if glance is not None else None
            moving = kept is not None and glance is not None and not glance.still(kept[0])
            if kept is not None and glance is not None and (not moving or (
                    kept[2] + 1 < self.moving_every and not self._settled(glance, square))):
                found = kept[1]
                self._kept[win] = (kept[0], found, kept[2] + moving)
                held.append(np.full(len(found), moving))
            else:
                found = self.base.detect(image[win.y : win.y + win.size, win.x : win.x + win.size])
                self.tiles_run += 1
                if glance is not None:
                    self._kept[win] = (glance.region(square), found, 0)
                held.append(np.zeros(len(found), bool))
            if len(found):
                shifted = found.corners + np.array([win.x, win.y], dtype=np.float64)
                parts.append(Detections(shifted, found.confidence, found.class_id))
        self._previous = glance
        merged = Detections.merge(parts)
        index = merged_index(merged, iou_threshold=self.iou_threshold, duplicate_overlap=self.duplicate_overlap)
        held_now = np.concatenate([h for h in held if len(h)]) if any(len(h) for h in held) else np.zeros(0, bool)
        self.held = held_now[index]
        return merged[index]

    def _settled(self, glance: Glance, square: NDArray[np.float64]) -> bool:
        """Whether the tile looks as it did in the frame before (what moved there has come to rest)."""
        return self._previous is not None and glance.still(self._previous.region(square))
