"""The sides found as a hand starts (frames gathered until the same sides stand) and found zones widened by
the cards laid past their edge."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.cards import Card
from tests.vision.test_vision_found_sides import MIDDLE, H, W, card, table
from vision.read.frame_reader import FrameReading
from vision.table.layout import TableLayout
from vision.table.seating import MAX_GATHERED, STEADY_FRAMES, Seating, SeenFrame
from vision.table.widening import STEADY_FRAMES as WIDEN_AFTER
from vision.table.widening import ZoneWidening


def frame(k: int, sightings: list) -> SeenFrame:
    return SeenFrame(k, k / 10, FrameReading(tuple(sightings), 64.0))


def first_cards(seats: list[float], turn: float, laid: int) -> list:
    """The draw pile and, per seat, its first ``laid`` cards: a roll, then distance cards."""
    seen = [card(MIDDLE, np.array([0.0, 1.0]), None, face_up=False)]
    for seat in seats:
        a = np.radians(seat + turn)
        out = np.array([np.cos(a), np.sin(a)])
        across = np.array([-out[1], out[0]])
        for j in range(laid):
            what = Card.ROLL if j == 0 else Card.DISTANCE_50
            seen.append(card(MIDDLE + out * 170 + across * (j - 1) * 60, -out, what))
    return seen


@pytest.mark.parametrize("seats", [[90.0, 270.0], [90.0, 210.0, 330.0], [0.0, 90.0, 180.0, 270.0]])
@pytest.mark.parametrize("turn", [0.0, 33.0, 160.0])
def test_the_sides_are_fixed_once_each_has_laid_a_distance_card_on_steady_frames(seats, turn):
    seating = Seating()
    for k in range(10):  # a roll each: where the players sit is not said yet
        assert seating.see(frame(k, first_cards(seats, turn, 1)), W, H) is None
    found = [seating.see(frame(10 + k, first_cards(seats, turn, 2)), W, H) for k in range(STEADY_FRAMES)]
    assert all(f is None for f in found[:-1]) and found[-1] is not None
    assert len(found[-1].sides) == len(seats) and seating.layout is found[-1]
    assert len(seating.gathered) == 10 + STEADY_FRAMES  # followed from the first frame by the pipeline
    assert all(len(z.zone) <= 64 for z in found[-1].sides)  # what a layout may hold


def test_the_game_names_the_sides_in_seat_order_and_its_count_is_waited_for():
    seating = Seating(names=("Ana", "Ben", "Cleo"))
    two = first_cards([90.0, 270.0], 0.0, 3)
    for k in range(2 * STEADY_FRAMES):
        assert seating.see(frame(k, two), W, H) is None  # two sides found: the game has three
    three = first_cards([270.0, 30.0, 150.0], 0.0, 3)  # North, then clockwise
    for k in range(STEADY_FRAMES):
        layout = seating.see(frame(20 + k, three), W, H)
    assert layout is not None and [s.side for s in layout.sides] == ["Ana", "Ben", "Cleo"]
    assert layout.side_at(MIDDLE + np.array([0.0, -170.0])) == "Ana"


def test_a_source_that_ends_first_takes_the_fullest_frame_or_the_default():
    seating = Seating()
    seating.see(frame(0, first_cards([90.0, 270.0], 0.0, 3)), W, H)
    seating.see(frame(1, first_cards([90.0, 270.0], 0.0, 1)), W, H)
    assert [s.side for s in seating.settle(W, H).sides] == ["North", "South"]
    empty = Seating()
    empty.see(frame(0, []), W, H)
    assert empty.settle(W, H).to_json() == TableLayout.default(W, H).to_json()


def test_the_frames_kept_are_bounded():
    seating = Seating()
    for k in range(MAX_GATHERED - 1):
        assert seating.see(frame(k, first_cards([90.0, 270.0], 0.0, 1)), W, H) is None
    assert seating.see(frame(MAX_GATHERED, first_cards([90.0, 270.0], 0.0, 1)), W, H) is not None


def test_seating_refuses_a_game_it_cannot_seat():
    with pytest.raises(ValueError, match="2 to 4 sides"):
        Seating(names=("Solo",))


@pytest.fixture
def found() -> tuple[TableLayout, list]:
    seen, _ = table([90.0, 270.0], 20.0)
    seating = Seating()
    for k in range(STEADY_FRAMES):
        layout = seating.see(frame(k, seen), W, H)
    assert layout is not None
    return layout, seen


def beyond(layout: TableLayout, side: str, *, across: bool = False, reach: float = 1.0) -> tuple:
    """A card of ``side`` laid just past its zone's far edge, along its up (or across it)."""
    zone = layout.zone_of(side)
    out = -np.array(zone.up)
    far = max(zone.zone, key=lambda p: float(np.dot(p - MIDDLE, out)))
    centre = MIDDLE + out * (float(np.dot(far - MIDDLE, out)) + reach * 64 * 0.5)
    return card(centre, np.array(zone.up), Card.DISTANCE_100, across=across), centre


def widen(layout: TableLayout, sightings: list) -> TableLayout | None:
    widening = ZoneWidening()
    out = None
    for _ in range(WIDEN_AFTER):
        out = widening.widened(layout, sightings) or out
    return out


def test_a_card_laid_past_a_zone_along_its_side_widens_that_zone(found):
    layout, seen = found
    side = layout.sides[0].side
    laid, centre = beyond(layout, side)
    assert layout.side_at(centre) is None
    widened = widen(layout, [*seen, laid])
    assert widened is not None and widened.side_at(centre) == side
    for c in (s.centre for s in seen if s.face_up):  # every card keeps its side
        assert widened.side_at(c) == layout.side_at(c)
    assert np.array_equal(widened.zone_of(layout.sides[1].side).zone, layout.sides[1].zone)  # the other side's stays


@pytest.mark.parametrize("case", ["across", "far", "on the pile", "one frame"])
def test_no_zone_widens_for_a_card_that_is_not_that_sides(found, case):
    layout, seen = found
    side = layout.sides[0].side
    if case == "across":
        laid, _ = beyond(layout, side, across=True)
    elif case == "far":
        laid, _ = beyond(layout, side, reach=4.0)
    elif case == "on the pile":
        laid = card(MIDDLE + np.array([20.0, 10.0]), np.array([1.0, 0.3]), Card.STOP)
    else:
        laid, _ = beyond(layout, side)
        assert ZoneWidening().widened(layout, [*seen, laid]) is None
        return
    assert widen(layout, [*seen, laid]) is None
