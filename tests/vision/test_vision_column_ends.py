"""A column's strips past its first box, found by looking like that box's own strip (vision.table.column_ends)."""

from __future__ import annotations

import cv2
import numpy as np

from scoring.cards import Card
from vision.read.sighting import Sighting
from vision.table.census import take_census
from vision.table.layout import SideZone, TableLayout

UP = np.array([0.0, -1.0])  # South's cards point up the picture, towards the middle
PITCH = 40


def table_with_column(strips: int) -> np.ndarray:
    """A grained table with a column of 100s: ``strips`` strips (each card laid 40 px lower), then a whole card."""
    rng = np.random.default_rng(3)
    image = cv2.GaussianBlur(rng.integers(90, 140, (720, 1280, 3), dtype=np.uint8), (0, 0), 2)
    for k in range(strips + 1):
        top = 200 + k * PITCH
        cv2.rectangle(image, (500, top), (620, top + 190), (235, 235, 240), -1)
        cv2.rectangle(image, (500, top), (620, top + 190), (40, 40, 40), 1)
        cv2.rectangle(image, (506, top + 5), (614, top + 34), (60, 30, 200), -1)
        cv2.putText(image, "100", (525, top + 29), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    return image


def box(top: float, bottom: float) -> np.ndarray:
    return np.array([[500, top], [620, top], [620, bottom], [500, bottom]], dtype=np.float64)


def south(strips: int) -> tuple[TableLayout, list[Sighting]]:
    """South's layout and the boxes a detector found: every strip but the first, and the whole card."""
    layout = TableLayout((SideZone("South", ((300.0, 100.0), (900.0, 100.0), (900.0, 700.0), (300.0, 700.0)), (0.0, -1.0)),))
    seen = [Sighting(box(200 + k * PITCH, 200 + (k + 1) * PITCH), True, Card.DISTANCE_100, 0.9)
            for k in range(1, strips)]
    seen.append(Sighting(box(200 + strips * PITCH, 390 + strips * PITCH), True, Card.DISTANCE_100, 0.95))
    return layout, seen


def hundreds(census) -> int:
    return census.sides[0].distance[Card.DISTANCE_100.km]


def test_the_first_strip_no_box_found_is_counted_where_the_picture_shows_it() -> None:
    layout, seen = south(strips=3)
    image = table_with_column(strips=3)
    assert hundreds(take_census(seen, layout)) == 3  # the boxes alone: one short
    assert hundreds(take_census(seen, layout, image)) == 4


def test_no_strip_is_added_where_the_column_starts_at_its_first_box() -> None:
    layout, seen = south(strips=3)
    image = table_with_column(strips=3)
    first = Sighting(box(200, 200 + PITCH), True, Card.DISTANCE_100, 0.9)
    assert hundreds(take_census([first, *seen], layout, image)) == 4  # every strip boxed: bare table beyond
