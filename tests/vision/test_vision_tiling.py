"""Tiles of the frame, labels clipped to tiles, and joining what the tiles found."""

from __future__ import annotations

import numpy as np
import pytest

from vision.geometry import corners_from_xywhr, polygon_area
from vision.read.detections import Detections
from vision.read.detector import CardDetector
from vision.read.tiling import TiledDetector, merge_tiles, tile_windows
from vision.training.tiles import tile_labels


@pytest.mark.parametrize(("w", "h", "n"), [(1280, 720, 2), (1920, 1080, 2), (640, 480, 2), (500, 500, 1), (720, 1280, 2)])
def test_windows_cover_the_frame_and_overlap(w, h, n):
    wins = tile_windows(w, h)
    assert len(wins) == n
    covered = np.zeros((h, w), bool)
    for win in wins:
        assert win.x + win.size <= w and win.y + win.size <= h
        covered[win.y : win.y + win.size, win.x : win.x + win.size] = True
    assert covered.all()


def test_a_still_photo_gets_six_tiles_each_enlarged_for_the_model_and_video_two():
    from vision.read.tiling import LIVE_TILE_SHARE, STILL_TILE_SHARE

    still = tile_windows(1280, 720, tile_share=STILL_TILE_SHARE)
    assert len(still) == 6 and all(w.size < 640 for w in still)
    covered = np.zeros((720, 1280), bool)
    for win in still:
        covered[win.y : win.y + win.size, win.x : win.x + win.size] = True
    assert covered.all()
    assert len(tile_windows(1280, 720, tile_share=LIVE_TILE_SHARE)) == 2


def card(cx, cy, w=40.0, h=62.0, deg=0.0):
    return corners_from_xywhr(np.array([[cx, cy, w, h, np.deg2rad(deg)]]))[0]


def test_a_card_seen_by_two_tiles_is_counted_once_and_its_cut_part_dropped():
    whole = Detections(card(640, 300)[None], np.array([0.9]), np.array([0]))
    cut = Detections(card(630, 300, w=20)[None], np.array([0.8]), np.array([0]))  # its part inside a tile's edge
    other = Detections(card(100, 100)[None], np.array([0.7]), np.array([0]))
    merged = merge_tiles([whole, cut, other], iou_threshold=0.7)
    assert sorted(merged.confidence.tolist()) == [0.7, 0.9]


def test_a_second_weaker_box_on_a_strip_goes_even_when_it_is_the_larger():
    # seen on replayed hands: a column's strip boxed twice, the weaker box taller and askew; read as a
    # second copy of the card, it was counted as a phantom play
    strip = Detections(card(571, 392, w=41, h=20)[None], np.array([0.85]), np.array([0]))
    second = Detections(card(569, 396, w=40, h=27, deg=8)[None], np.array([0.43]), np.array([0]))
    merged = merge_tiles([strip, second], iou_threshold=0.7)
    assert merged.confidence.tolist() == [0.85]


def test_the_touching_strips_of_a_column_are_all_kept():
    # a column's strips are ~15 px high and one column step (~14 px) apart: their boxes touch
    strips = [Detections(card(600, 280 + 14 * k, w=36, h=16)[None], np.array([0.9 - 0.1 * k]), np.array([0]))
              for k in range(4)]
    merged = merge_tiles(strips, iou_threshold=0.7)
    assert len(merged) == 4


class Fixed(CardDetector):
    """Finds one card at the same place of every tile it is given."""

    class_names = ("card_face_up", "card_face_down")

    def __init__(self):
        self.calls = []

    def detect(self, image):
        self.calls.append(image.shape)
        return Detections(card(100, 100)[None], np.array([0.9]), np.array([0]))


def test_tiled_detection_maps_boxes_back_to_the_frame():
    base = Fixed()
    found = TiledDetector(base).detect(np.zeros((720, 1280, 3), np.uint8))
    assert base.calls == [(720, 720, 3), (720, 720, 3)]
    centres = sorted(found.corners.mean(axis=1)[:, 0].tolist())
    assert centres == pytest.approx([100, 660])


def test_labels_are_clipped_to_the_tile_and_normalised():
    w, h = 1280, 720
    inside = card(300, 300)
    half_out = card(705, 300, w=60, h=62)  # the first tile ends at x = 720: a quarter of it sticks out
    mostly_out = card(735, 300, w=60, h=62)  # half of it outside the first tile
    sliver = card(200, 500, w=3, h=62)
    lines = [f"0 {' '.join(f'{x / w:.6f} {y / h:.6f}' for x, y in q)}" for q in (inside, half_out, mostly_out, sliver)]
    out = tile_labels(lines, w, h, 0, 0, 720)
    assert len(out) == 2  # the card inside and the one three quarters inside; not the sliver, not the half
    first = np.array([float(v) for v in out[0].split()[1:]]).reshape(4, 2) * 720
    assert polygon_area(first) == pytest.approx(40 * 62, rel=0.01)
    clipped = np.array([float(v) for v in out[1].split()[1:]]).reshape(4, 2) * 720
    assert clipped[:, 0].max() <= 720 + 1e-6
    assert polygon_area(clipped) == pytest.approx(45 * 62, rel=0.03)
