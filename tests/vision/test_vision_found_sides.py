"""The sides found from the table: 2, 3 and 4 sides, any camera turn, columns, crosswise safeties, no cards."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.cards import Card
from vision.read.sighting import Sighting
from vision.table.found_sides import find_sides

W, H = 1280, 720
MIDDLE = np.array([640.0, 360.0])


def card(centre: np.ndarray, up: np.ndarray, what: Card | None, *, across: bool = False, length: float = 64.0,
         shown: float = 1.0, face_up: bool = True) -> Sighting:
    """A card's box: ``up`` along its length (across it when ``across``), ``shown`` of its length seen."""
    along = up / np.linalg.norm(up)
    side = np.array([-along[1], along[0]])
    if across:
        along, side = side, along
    half_l, half_w = length * shown / 2, length * 0.644 / 2
    corners = np.array([centre - along * half_l - side * half_w, centre - along * half_l + side * half_w,
                        centre + along * half_l + side * half_w, centre + along * half_l - side * half_w])
    return Sighting(corners, face_up, what, 0.9)


def table(seats: list[float], turn: float) -> tuple[list[Sighting], dict[int, list[np.ndarray]]]:
    """Each seat's side: a row of three distance cards and a column's strips beside them, a crosswise safety,
    seen by a camera turned ``turn`` degrees; the draw pile in the middle."""
    seen = [card(MIDDLE, np.array([0.0, 1.0]), None, face_up=False)]
    centres: dict[int, list[np.ndarray]] = {}
    for k, seat in enumerate(seats):
        a = np.radians(seat + turn)
        out = np.array([np.cos(a), np.sin(a)])
        across = np.array([-out[1], out[0]])
        up = -out
        centres[k] = []
        for j, offset in enumerate((-1.2, 0.0, 1.2)):
            c = MIDDLE + out * 170 + across * offset * 60
            seen.append(card(c, up, (Card.DISTANCE_25, Card.DISTANCE_50, Card.DISTANCE_100)[j]))
            centres[k].append(c)
        strip = MIDDLE + out * 230 + across * 0.0
        seen.append(card(strip, up, Card.DISTANCE_50, shown=0.35))
        safety = MIDDLE + out * 200 + across * 100
        seen.append(card(safety, up, Card.DRIVING_ACE, across=True))
        centres[k] += [strip, safety]
    return seen, centres


@pytest.mark.parametrize("seats", [[90.0, 270.0], [90.0, 210.0, 330.0], [0.0, 90.0, 180.0, 270.0]])
@pytest.mark.parametrize("turn", [0.0, 17.0, 45.0, 100.0, 200.0])
def test_each_side_is_found_with_its_cards_and_its_up(seats, turn):
    seen, centres = table(seats, turn)
    layout = find_sides(seen, W, H)
    assert len(layout.sides) == len(seats)
    for k, seat in enumerate(seats):
        holding = {layout.side_at(c) for c in centres[k]}
        assert len(holding) == 1 and None not in holding
        zone = layout.zone_of(holding.pop())
        a = np.radians(seat + turn)
        assert np.dot(zone.up, -np.array([np.cos(a), np.sin(a)])) > 0.99


def test_the_names_follow_the_seats_in_the_picture():
    seen, _ = table([90.0, 270.0], 0.0)
    assert [s.side for s in find_sides(seen, W, H).sides] == ["North", "South"]
    seen, _ = table([0.0, 180.0], 0.0)
    assert [s.side for s in find_sides(seen, W, H).sides] == ["East", "West"]


def test_the_pile_and_its_discard_belong_to_nobody():
    seen, _ = table([90.0, 270.0], 30.0)
    layout = find_sides(seen, W, H)
    assert layout.side_at(MIDDLE) is None and layout.side_at(MIDDLE + np.array([30.0, 0.0])) is None


def test_the_discard_pile_belongs_to_nobody_where_the_draw_pile_went_unseen():
    seen, _ = table([90.0, 270.0], 30.0)
    seen = [s for s in seen if s.face_up]  # the detector missed the draw pile
    seen += [card(MIDDLE + np.array([10.0, 5.0]), np.array([1.0, 0.3]), Card.DISTANCE_100)]  # the discard's top
    layout = find_sides(seen, W, H)
    assert len(layout.sides) == 2 and layout.side_at(MIDDLE + np.array([10.0, 5.0])) is None


def test_a_side_with_only_an_attack_on_it_keeps_the_discard_pile_out_of_its_zone():
    """The kind of table a development 2-D scene showed going wrong (a side's only card an Out of Gas its
    opponent laid, the discard pile's 100 counted for it); this drawn table was already right before the zones
    were measured from such a side's own cards, and guards that they stay so."""
    seen, _ = table([90.0], 0.0)
    seen += [card(MIDDLE + np.array([0.0, -170.0]), np.array([0.0, 1.0]), Card.OUT_OF_GAS)]
    discard = MIDDLE + np.array([20.0, -66.0])
    seen += [card(discard, np.array([1.0, 0.4]), Card.DISTANCE_100)]
    layout = find_sides(seen, W, H)
    assert len(layout.sides) == 2
    assert layout.side_at(MIDDLE + np.array([0.0, -170.0])) is not None and layout.side_at(discard) is None


def test_no_cards_give_the_default_two_zones():
    layout = find_sides([], W, H)
    assert [s.side for s in layout.sides] == ["North", "South"]


def test_zones_stay_inside_the_picture():
    seen, _ = table([0.0, 90.0, 180.0, 270.0], 33.0)
    for zone in find_sides(seen, W, H).sides:
        assert zone.zone[:, 0].min() >= 0 and zone.zone[:, 0].max() <= W
        assert zone.zone[:, 1].min() >= 0 and zone.zone[:, 1].max() <= H


@pytest.mark.parametrize("turn", [0.0, 40.0, 130.0, 250.0])
def test_three_sides_round_a_square_table_each_with_a_hazard_across_at_its_row_end(turn):
    seats = [90.0, 180.0, 270.0]  # the fourth seat is empty; a hazard across points at the next seat
    seen, centres = table(seats, turn)
    for k, seat in enumerate(seats):
        a = np.radians(seat + turn)
        out, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        end = MIDDLE + out * 170 - across * 130
        seen.append(card(end, -out, Card.STOP, across=True))
        centres[k].append(end)
    layout = find_sides(seen, W, H)
    assert len(layout.sides) == 3
    for k in range(3):
        holding = {layout.side_at(c) for c in centres[k]}
        assert len(holding) == 1 and None not in holding


def test_the_top_of_the_discard_pile_pointing_at_a_side_is_nobodys():
    seen, centres = table([90.0, 270.0], 0.0)
    discard = MIDDLE + np.array([80.0, 12.0])  # 1.25 card lengths from the draw pile, laid along South's cards
    seen.append(card(discard, np.array([0.0, -1.0]), Card.DISTANCE_100))
    layout = find_sides(seen, W, H)
    assert layout.side_at(discard) is None
    assert all(layout.side_at(c) is not None for cs in centres.values() for c in cs)


@pytest.mark.parametrize("turn", [70.0, 250.0])
def test_a_stray_face_down_box_far_off_is_not_the_draw_pile(turn):
    seen, centres = table([90.0, 270.0], turn=turn)
    out = np.array([np.cos(np.radians(90.0 + turn)), np.sin(np.radians(90.0 + turn))])
    where = MIDDLE + 420 * out  # past a side's row: halfway between it and the pile lies past the row too
    coin = card(where, np.array([0.0, 1.0]), None, face_up=False, length=20.0)
    seen.append(Sighting(coin.corners, False, None, 0.42))  # a coin the detector took for a card back
    layout = find_sides(seen, W, H)
    assert len(layout.sides) == 2
    for cards in centres.values():  # each side's cards in one zone, its own
        holding = {s.side for s in layout.sides for c in cards if s.contains(c)}
        assert len(holding) == 1


@pytest.mark.parametrize("turn", [0.0, 35.0, 200.0])
def test_the_side_facing_a_lone_seat_is_there_from_its_first_card(turn):
    seen, _ = table([90.0], turn=turn)  # one side has laid its row; the other its first card
    a = np.radians(270.0 + turn + 25.0)  # beside the far seat, off its middle: a row starts anywhere
    out = np.array([np.cos(a), np.sin(a)])
    seen.append(card(MIDDLE + out * 200, -np.array([np.cos(np.radians(270.0 + turn)), np.sin(np.radians(270.0 + turn))]),
                     Card.STOP))
    layout = find_sides(seen, W, H)
    assert len(layout.sides) == 2
    first = layout.zone_of(next(s.side for s in layout.sides if s.contains(MIDDLE + out * 200)))
    assert first is not None and np.dot(first.up, out) < -0.8  # its up points from that player to the middle


@pytest.mark.parametrize("turn", [0.0, 50.0])
def test_cards_showing_most_of_their_length_point_along_it(turn):
    """A column's cards with their ends under the next card show 80 % of their length: longer than a card is
    wide, their long side still runs along the card (not across it, as a strip's does)."""
    seen = [card(MIDDLE, np.array([0.0, 1.0]), None, face_up=False)]
    for seat in (90.0, 270.0):
        a = np.radians(seat + turn)
        out = np.array([np.cos(a), np.sin(a)])
        across = np.array([-out[1], out[0]])
        for j, value in enumerate((Card.DISTANCE_25, Card.DISTANCE_50, Card.DISTANCE_75, Card.DISTANCE_100)):
            seen.append(card(MIDDLE + out * 180 + across * (j - 1.5) * 60, -out, value, shown=0.8))
        seen.append(card(MIDDLE + out * 180 + across * 150, -out, Card.DISTANCE_200))  # one whole card
    layout = find_sides(seen, W, H)
    assert len(layout.sides) == 2
    for seat in (90.0, 270.0):
        out = np.array([np.cos(np.radians(seat + turn)), np.sin(np.radians(seat + turn))])
        zone = next(s for s in layout.sides if s.contains(MIDDLE + out * 180))
        assert np.dot(zone.up, out) < -0.95


@pytest.mark.parametrize("turn", [0.0, 40.0])
def test_a_third_side_between_two_facing_ones_is_there_from_its_first_distance_card(turn):
    seen, _ = table([90.0, 270.0], turn=turn)  # two sides face to face round a square table
    a = np.radians(turn)  # the seat between them, a quarter round
    out = np.array([np.cos(a), np.sin(a)])
    across = np.array([-out[1], out[0]])
    seen += [card(MIDDLE + out * 200, -out, Card.DISTANCE_25), card(MIDDLE + out * 200 + across * 70, -out, Card.ROLL)]
    assert len(find_sides(seen, W, H).sides) == 3


def test_two_facing_sides_stay_two_whatever_they_lay_across():
    seen, centres = table([90.0, 270.0], turn=10.0)  # each has a safety laid across (a coup fourré)
    assert len(find_sides(seen, W, H).sides) == 2


def test_a_safety_across_at_a_rows_end_past_the_bisector_stays_with_its_side():
    """Round a square table a side's row runs to its player's side: a safety laid across at the row's end lies
    past the bisector between its seat and the next one, pointing at that next seat; where the zones part is
    decided by whole rows."""
    seen = [card(MIDDLE, np.array([0.0, 1.0]), None, face_up=False)]
    north = [MIDDLE + np.array([x, -200.0]) for x in (-160.0, -100.0, -40.0)]
    seen += [card(c, np.array([0.0, 1.0]), v) for c, v in zip(north, (Card.DISTANCE_25, Card.DISTANCE_50, Card.DISTANCE_100))]
    battle = MIDDLE + np.array([-220.0, -200.0])  # 222° from the middle: on West's side of the 225° bisector
    seen.append(card(battle, np.array([0.0, 1.0]), Card.DRIVING_ACE, across=True))
    west = [MIDDLE + np.array([-300.0, y]) for y in (-30.0, 30.0, 90.0)]
    seen += [card(c, np.array([1.0, 0.0]), v) for c, v in zip(west, (Card.DISTANCE_75, Card.DISTANCE_50, Card.DISTANCE_200))]
    layout = find_sides(seen, W, H)
    assert [s.side for s in layout.sides] == ["North", "West"]
    assert {layout.side_at(c) for c in [*north, battle]} == {"North"}
    assert {layout.side_at(c) for c in west} == {"West"}
