"""Oriented boxes, rotated NMS and letterbox against hand-made boxes."""

from __future__ import annotations

import numpy as np
import pytest

from vision.geometry import (
    corners_from_xywhr,
    intersection_area,
    iou,
    letterbox,
    long_axis,
    polygon_area,
    rotated_nms,
    xywhr_from_corners,
)


def card(cx, cy, w=56.0, h=87.0, deg=0.0):
    return corners_from_xywhr(np.array([[cx, cy, w, h, np.deg2rad(deg)]]))[0]


@pytest.mark.parametrize("deg", [0, 17, 45, 90, 133])
def test_corners_and_back_keep_centre_size_and_area(deg):
    c = card(100, 200, deg=deg)
    assert polygon_area(c) == pytest.approx(56 * 87)
    (cx, cy, w, h, _), = xywhr_from_corners(c[None])
    assert (cx, cy) == pytest.approx((100, 200), abs=1e-3)
    assert sorted((w, h)) == pytest.approx([56, 87], abs=1e-3)


def test_iou_of_hand_made_boxes():
    a = card(0, 0, 10, 10)
    assert iou(a, a) == pytest.approx(1.0)
    assert iou(a, card(5, 0, 10, 10)) == pytest.approx(50 / 150)
    assert iou(a, card(20, 0, 10, 10)) == 0.0
    # A square turned 45° over itself: the overlap is the regular octagon.
    octagon = 2 * (np.sqrt(2) - 1) * 10 * 10
    assert intersection_area(a, card(0, 0, 10, 10, 45)) == pytest.approx(octagon, rel=1e-4)


def test_rotated_nms_keeps_cards_of_a_column_and_drops_duplicates():
    column = [card(100, 100 + 25 * i) for i in range(4)]  # 25-px strips of 87-px cards: IoU ≈ 0.55
    duplicate = card(101, 101, deg=3)
    boxes = np.array([*column, duplicate])
    scores = np.array([0.9, 0.8, 0.85, 0.7, 0.6])
    keep = rotated_nms(boxes, scores, iou_threshold=0.7)
    assert sorted(keep.tolist()) == [0, 1, 2, 3]
    assert keep[0] == 0  # best first
    assert rotated_nms(boxes, scores, iou_threshold=0.5).tolist() == [0, 2]


def test_rotated_nms_of_nothing():
    assert rotated_nms(np.zeros((0, 4, 2)), np.zeros(0), 0.5).tolist() == []


@pytest.mark.parametrize(("w", "h"), [(1280, 720), (480, 640), (100, 100)])
def test_letterbox_maps_points_back_to_the_image(w, h):
    image = np.zeros((h, w, 3), np.uint8)
    image[h // 4, w // 3] = 255
    boxed, lb = letterbox(image, 640)
    assert boxed.shape == (640, 640, 3)
    point = np.array([w / 3, h / 4]) * lb.scale + [lb.pad_x, lb.pad_y]
    assert lb.to_image(point) == pytest.approx([w / 3, h / 4])
    assert boxed[0, 0].tolist() == ([114] * 3 if w != h else [0, 0, 0])


def test_long_axis_follows_the_longer_side():
    assert np.abs(long_axis(card(0, 0))) == pytest.approx([0, 1])
    assert np.abs(long_axis(card(0, 0, deg=90))) == pytest.approx([1, 0], abs=1e-9)
