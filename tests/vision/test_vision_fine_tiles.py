"""A large photo's small cards detected again on tiles sized by them (vision.read.fine_tiles)."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.read.detections import Detections
from vision.read.detector import CardDetector
from vision.read.fine_tiles import FineTiledDetector
from vision.read.tiling import STILL_TILE_SHARE


class WhiteShapes(CardDetector):
    """Boxes every white shape of a tile, as a model does, but only where it is at least ``smallest`` px long in
    the model's 640-px input (a detector misses what it sees too small); remembers the tile sides it was given."""

    class_names = ("card_face_up", "card_face_down")

    def __init__(self, smallest: float = 40.0) -> None:
        self.smallest = smallest
        self.tiles: list[int] = []

    def detect(self, image: NDArray[np.uint8]) -> Detections:
        self.tiles.append(image.shape[0])
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        contours, _ = cv2.findContours((grey > 128).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        boxes = [cv2.boxPoints(cv2.minAreaRect(c)) for c in contours]
        boxes = [b for b in boxes if max(np.ptp(b, axis=0)) * 640 / image.shape[0] >= self.smallest]
        if not boxes:
            return Detections.empty()
        return Detections(np.asarray(boxes, np.float64), np.full(len(boxes), 0.9), np.zeros(len(boxes), np.int64))


def table(width: int, height: int, shapes: list[tuple[int, int, int, int]]) -> NDArray[np.uint8]:
    """A black table with white upright shapes ``(x, y, width, height)``: cards and strips."""
    image = np.zeros((height, width, 3), np.uint8)
    for x, y, w, h in shapes:
        cv2.rectangle(image, (x, y), (x + w - 1, y + h - 1), (255, 255, 255), -1)
    return image


def test_a_phone_photos_far_strips_are_found_on_finer_tiles() -> None:
    near = [(600 + 260 * i, 2200, 193, 300) for i in range(4)]  # 300 px long: 95 px in the still's model input
    far = [(900 + 160 * i, 500, 97, 150) for i in range(4)]  # 150 px: 48 px, found
    strips = [(900 + 160 * i, 400, 97, 25) for i in range(4)]  # a strip 97 px wide: 31 px, missed at first
    base = WhiteShapes()
    detector = FineTiledDetector(base, tile_share=STILL_TILE_SHARE)
    found = detector.detect(table(4000, 3000, near + far + strips))
    assert detector.fine_passes == 1 and min(base.tiles) < 1000
    assert len(found) == 12  # the near cards from the first pass, the far strips from the finer tiles


def test_a_webcam_frames_cards_are_detected_once() -> None:
    base = WhiteShapes()
    detector = FineTiledDetector(base, tile_share=STILL_TILE_SHARE)
    found = detector.detect(table(1280, 720, [(300 + 90 * i, 300, 52, 80) for i in range(5)]))
    assert detector.fine_passes == 0 and len(found) == 5
