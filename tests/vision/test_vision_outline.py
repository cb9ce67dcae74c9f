"""The card's own outline, refined from a loose box: cards drawn at known corners on a table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.outline import refine_outline

SUPERSAMPLE = 8


def draw_card(corners: np.ndarray, *, size: tuple[int, int] = (160, 200), table: int = 70, white: int = 235,
              seed: int = 0) -> np.ndarray:
    """A white card with a coloured face inside its rim on a grainy table, drawn 8× larger and shrunk, so
    that its edges lie exactly at ``corners`` (pixel centres at integer coordinates)."""
    rng = np.random.default_rng(seed)
    h, w = size
    big = np.full((h * SUPERSAMPLE, w * SUPERSAMPLE, 3), table, np.uint8)
    big = np.clip(big.astype(np.int16) + rng.integers(-12, 13, big.shape), 0, 255).astype(np.uint8)

    def poly(points: np.ndarray, colour: tuple[int, int, int]) -> None:
        scaled = np.round(((points + 0.5) * SUPERSAMPLE - 0.5) * 16).astype(np.int32)
        cv2.fillConvexPoly(big, scaled, colour, cv2.LINE_8, 4)

    poly(corners, (white, white, white))
    centre = corners.mean(axis=0)
    poly(centre + (corners - centre) * 0.85, (40, 90, 200))  # the face's art inside its white rim
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


CARD = np.array([[60.4, 30.2], [110.6, 36.9], [99.8, 115.3], [49.6, 108.6]])
"""A card about 50 × 80 px, turned 7.6°."""


@pytest.mark.parametrize("table, white", [(70, 235), (150, 240), (30, 200)])
def test_a_loose_box_becomes_the_card_within_a_pixel(table, white):
    image = draw_card(CARD, table=table, white=white)
    rng = np.random.default_rng(1)
    for _ in range(10):
        loose = CARD + rng.normal(0, 4.0, (4, 2))
        outline = refine_outline(image, np.roll(loose, int(rng.integers(4)), axis=0))
        assert outline.sides_found == 4
        error = min(np.abs(np.roll(outline.corners, k, axis=0) - CARD).max() for k in range(4))
        assert error < 2.0


def test_the_corner_error_is_sub_pixel_for_a_near_box():
    image = draw_card(CARD)
    outline = refine_outline(image, CARD + np.array([[2.0, -1.5], [1.0, 2.0], [-2.0, 1.0], [1.5, -2.0]]))
    assert np.abs(outline.corners - CARD).max() < 0.5


def test_a_box_on_the_bare_table_keeps_its_own_corners():
    image = draw_card(CARD)
    empty = np.array([[150.0, 120.0], [190.0, 120.0], [190.0, 155.0], [150.0, 155.0]])
    outline = refine_outline(image, empty)
    assert outline.sides_found == 0
    assert np.allclose(outline.corners, empty[[0, 1, 2, 3]])


def test_a_box_at_the_frame_edge_is_refined_or_kept_without_error():
    image = draw_card(CARD)
    outline = refine_outline(image, np.array([[-5.0, -5.0], [20.0, -5.0], [20.0, 30.0], [-5.0, 30.0]]))
    assert outline.corners.shape == (4, 2) and np.all(np.isfinite(outline.corners))
