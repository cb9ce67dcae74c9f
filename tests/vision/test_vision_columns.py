"""A side's distance columns read as a whole: unread strips take their column's value, a weak misreading
gives way, and a column whose cards disagree is flagged, not counted blindly."""

from __future__ import annotations

import numpy as np

from scoring.cards import Card
from vision.read.sighting import Sighting
from vision.table.census import take_census
from vision.table.columns import group_columns, read_columns
from vision.table.layout import TableLayout

LENGTH, WIDTH, STEP = 87.0, 56.0, 22.0
UP = np.array([0.0, -1.0])


def column(x: float, reads: list[tuple[Card | None, float]], top: float = 100.0) -> list[Sighting]:
    """A column laid downwards on screen: each card's top strip shows, the last card whole."""
    out = []
    for k, (card, confidence) in enumerate(reads):
        y0 = top + k * STEP
        y1 = y0 + (LENGTH if k == len(reads) - 1 else STEP)
        corners = np.array([[x, y0], [x + WIDTH, y0], [x + WIDTH, y1], [x, y1]], float)
        out.append(Sighting(corners, True, card, confidence))
    return out


def test_boxes_are_grouped_into_columns_side_by_side():
    a = column(0, [(Card.DISTANCE_25, 0.9)] * 3)
    b = column(70, [(Card.DISTANCE_100, 0.9)] * 2)
    groups = group_columns(a + b, UP, LENGTH)
    assert sorted(len(g) for g in groups) == [2, 3]
    far = column(0, [(Card.DISTANCE_50, 0.9)], top=400.0)  # the same line, far below: a column of its own
    assert len(group_columns(a + far, UP, LENGTH)) == 2


def test_unread_strips_take_their_columns_value():
    cards = column(0, [(None, 0.5), (None, 0.5), (Card.DISTANCE_75, 0.95)])
    (col,) = read_columns(cards, UP, LENGTH)
    assert col.value is Card.DISTANCE_75 and not col.mixed
    assert [s.card for s in col.cards] == [Card.DISTANCE_75] * 3


def test_a_weak_misreading_of_a_strip_gives_way():
    cards = column(0, [(Card.DISTANCE_25, 0.8), (Card.DISTANCE_75, 0.3), (Card.DISTANCE_25, 0.95)])
    (col,) = read_columns(cards, UP, LENGTH)
    assert not col.mixed and [s.card for s in col.cards] == [Card.DISTANCE_25] * 3


def test_a_column_whose_cards_disagree_is_flagged_and_counted_as_read():
    cards = column(0, [(Card.DISTANCE_50, 0.95), (Card.DISTANCE_50, 0.9), (Card.DISTANCE_100, 0.95)])
    (col,) = read_columns(cards, UP, LENGTH)
    assert col.mixed
    assert [s.card for s in col.cards] == [Card.DISTANCE_50, Card.DISTANCE_50, Card.DISTANCE_100]
    layout = TableLayout.from_json({"sides": [
        {"side": "South", "zone": [[-50, 0], [400, 0], [400, 400], [-50, 400]], "up": [0.0, -1.0]}]})
    census = take_census(cards, layout).to_json()
    (side,) = census["sides"]
    assert side["distance"]["50"] == 2 and side["distance"]["100"] == 1
    assert side["flags"] == [{"flag": "mixed_column", "cards": ["distance_50", "distance_50", "distance_100"]}]


def test_the_census_counts_a_column_of_unread_strips():
    layout = TableLayout.from_json({"sides": [
        {"side": "South", "zone": [[-50, 0], [400, 0], [400, 400], [-50, 400]], "up": [0.0, -1.0]}]})
    cards = column(0, [(None, 0.85), (None, 0.85), (Card.DISTANCE_200, 0.95)]) + column(
        120, [(Card.STOP, 0.9)])
    (side,) = take_census(cards, layout).to_json()["sides"]
    assert side["distance"]["200"] == 3 and "flags" not in side


SOUTH = TableLayout.from_json({"sides": [
    {"side": "South", "zone": [[-50, 0], [400, 0], [400, 400], [-50, 400]], "up": [0.0, -1.0]}]})


def test_a_strip_no_box_found_between_two_of_its_columns_boxes_is_counted():
    cards = column(0, [(Card.DISTANCE_100, 0.9)] * 5)
    missed = cards[:2] + cards[3:]  # the third card's strip went unboxed (a thin strip, a finger's shadow)
    (col,) = read_columns(missed, UP, LENGTH)
    assert len(col.unboxed) == 1
    (found,) = col.unboxed
    assert found.card is Card.DISTANCE_100 and abs(found.centre[1] - cards[2].centre[1]) < 2
    side = take_census(missed, SOUTH).to_json()["sides"][0]
    assert side["distance"]["100"] == 5
    # a column whose strips all stand a strip apart has none to add, whatever their step
    (col,) = read_columns(column(0, [(Card.DISTANCE_50, 0.9)] * 4), UP, LENGTH)
    assert col.unboxed == ()


def test_a_strip_boxed_twice_is_counted_once():
    cards = column(0, [(Card.DISTANCE_75, 0.9)] * 4)
    again = Sighting(cards[1].corners + np.array([1.5, 2.0]), True, Card.DISTANCE_75, 0.5)  # the same strip, boxed again
    (col,) = read_columns(cards + [again], UP, LENGTH)
    assert col.doubled == (again,) and len(col.cards) == 4
    assert take_census(cards + [again], SOUTH).to_json()["sides"][0]["distance"]["75"] == 4
