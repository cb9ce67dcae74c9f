"""Reading again only what moved: still tiles keep their boxes, still boxes their readings; noise is no motion,
a slow slide is."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.cards import Card
from vision.read.detections import Detections
from vision.read.detector import CardDetector
from vision.read.frame_reader import FrameReader
from vision.read.motion import Glance
from vision.read.recogniser import Reading
from vision.read.tiling import TiledDetector

CARD = np.array([[200.0, 300.0], [256.0, 300.0], [256.0, 387.0], [200.0, 387.0]])
"""A card in the first of a 1280 × 720 frame's two video tiles (x 0–720), away from the second (x 560–1280)."""


def table(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.clip(rng.normal(110, 25, (720, 1280, 3)), 0, 255).astype(np.uint8)
    image[300:387, 200:256] = (235, 235, 235)  # the card's paper
    image[320:360, 215:240] = (40, 40, 200)  # its print
    return image


class PaperFinder(CardDetector):
    """Finds the card wherever the tile shows its paper, and counts the tiles it is run on."""

    class_names = ("card_face_up", "card_face_down")

    def __init__(self) -> None:
        self.runs = 0

    def detect(self, image):
        self.runs += 1
        ys, xs = np.nonzero((image > 225).all(axis=2))
        if len(xs) < 100:
            return Detections.empty()
        x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
        return Detections(np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], float), np.array([0.95]), np.array([0]))


class PrintReader:
    """Reads a box as a 25 when its print is red and a 100 when blue; counts the boxes read."""

    def __init__(self) -> None:
        self.read_boxes = 0

    def read(self, image, boxes):
        self.read_boxes += len(boxes)
        out = []
        for box in boxes:
            x0, y0 = box.min(axis=0).astype(int)
            x1, y1 = box.max(axis=0).astype(int)
            b, _, r = image[y0:y1, x0:x1].reshape(-1, 3).astype(int).T
            out.append(Reading(Card.DISTANCE_25 if (r - b).max() > 100 else Card.DISTANCE_100, 0.99))
        return out


def test_noise_is_no_motion_and_a_card_laid_is():
    image = table()
    kept = Glance(image).region(CARD)
    noisy = np.clip(image.astype(int) + np.random.default_rng(1).normal(0, 4, image.shape), 0, 255).astype(np.uint8)
    assert Glance(noisy).still(kept)
    laid = image.copy()
    laid[330:380, 210:250] = 10
    assert not Glance(laid).still(kept)


def test_a_slow_slide_adds_up_against_the_picture_kept():
    image = table()
    kept = Glance(image).region(CARD)
    frames = []
    for step in range(1, 7):  # the card's print darkening 5 grey levels a frame: no two frames differ much
        frame = image.copy()
        frame[320:360, 215:240] = np.clip(frame[320:360, 215:240].astype(int) - 5 * step, 0, 255)
        frames.append(frame)
    assert all(Glance(b).still(Glance(a).region(CARD)) for a, b in zip(frames, frames[1:], strict=False))
    assert not Glance(frames[-1]).still(kept)


def test_a_still_tile_keeps_its_boxes_and_a_moved_one_runs_again():
    base = PaperFinder()
    tiled = TiledDetector(base)
    image = table()
    first = tiled.detect_moved(image, Glance(image))
    assert base.runs == 2 and len(first) == 1
    again = tiled.detect_moved(image.copy(), Glance(image))
    assert base.runs == 2  # nothing moved: no tile run
    np.testing.assert_allclose(again.corners, first.corners)
    arm = image.copy()
    arm[100:600, 1000:1200] = (60, 140, 210)  # an arm comes over the second tile only
    tiled.detect_moved(arm, Glance(arm))
    assert base.runs == 2  # it is moving: the tile waits
    tiled.detect_moved(arm, Glance(arm))
    assert base.runs == 3  # it came to rest: that tile, and only it, runs at once


def test_a_tile_that_keeps_moving_runs_every_few_frames():
    base = PaperFinder()
    tiled = TiledDetector(base)
    image = table()
    tiled.detect_moved(image, Glance(image))
    runs = []
    for k in range(9):  # an arm sweeping over the second tile, somewhere else each frame
        arm = image.copy()
        arm[100 + 40 * k : 300 + 40 * k, 1000:1200] = (60, 140, 210)
        tiled.detect_moved(arm, Glance(arm))
        runs.append(base.runs - 2)
    assert runs == [0, 0, 1, 1, 1, 2, 2, 2, 3]  # every tiled.moving_every-th frame


def test_a_slower_camera_runs_a_moving_tile_after_the_same_time_not_the_same_frames():
    tiled = TiledDetector(PaperFinder())
    reader = FrameReader(tiled, PrintReader(), moved_only=True)
    reader.pace(5)  # 0.3 s at 10 frames a second: 2 frames at 5
    assert tiled.moving_every == 2
    reader.pace(10)
    assert tiled.moving_every == 3


def test_a_still_card_keeps_its_reading_and_a_changed_one_is_read_again():
    recogniser = PrintReader()
    reader = FrameReader(TiledDetector(PaperFinder()), recogniser, moved_only=True)
    image = table()
    assert [s.card for s in reader.read(image).sightings] == [Card.DISTANCE_25]
    arm = image.copy()
    arm[100:600, 1000:1200] = (60, 140, 210)  # the second tile moved: the card's box comes again, unchanged
    assert [s.card for s in reader.read(arm).sightings] == [Card.DISTANCE_25]
    assert recogniser.read_boxes == 1 and reader.readings_kept == 1
    other = image.copy()
    other[320:360, 215:240] = (200, 40, 40)  # the same place, another card's print
    assert [s.card for s in reader.read(other).sightings] == [Card.DISTANCE_25]  # moving: the tile waits
    assert [s.card for s in reader.read(other).sightings] == [Card.DISTANCE_100]  # at rest: read again
    assert recogniser.read_boxes == 2


@pytest.mark.parametrize("moved_only", [False, True])
def test_once_the_table_is_at_rest_reading_what_moved_reads_as_reading_everything(moved_only):
    reader = FrameReader(TiledDetector(PaperFinder()), PrintReader(), moved_only=moved_only)
    frames = [table(), table(), table(), table()]
    for frame in frames[2:]:
        frame[320:360, 215:240] = (200, 40, 40)
    cards = [[s.card for s in reader.read(f).sightings] for f in frames]
    assert cards[:2] == [[Card.DISTANCE_25]] * 2 and cards[3] == [Card.DISTANCE_100]
    assert set(reader.seconds) == {"detect", "read"}
