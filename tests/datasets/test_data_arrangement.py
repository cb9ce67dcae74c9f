"""Table arrangements: side areas never touch, cards lie in their side's area, arms come from the player."""

from collections import Counter

import cv2
import numpy as np
import pytest

from datasets.arrangement import _gap, arrange
from datasets.scene import random_arm
from datasets.simulator import simulate_hand
from scoring.cards import HAZARDS


@pytest.mark.parametrize("sides", [2, 3, 4])
def test_side_areas_are_apart_and_hold_their_cards(sides):
    seatings = Counter()
    for seed in range(30):
        hand = simulate_hand(seed, sides)
        table = hand.tables[-1]
        arr = arrange(table, np.random.default_rng(seed))
        areas = arr.areas
        for i in range(len(areas)):
            for j in range(i + 1, len(areas)):
                assert _gap(areas[i].corners, areas[j].corners) >= 19.9, (seed, areas[i].side, areas[j].side)
        for card in arr.cards:
            if card.side is None:
                continue
            poly = arr.area(card.side).corners.astype(np.float32).reshape(-1, 1, 2)
            assert cv2.pointPolygonTest(poly, (float(card.centre[0]), float(card.centre[1])), False) >= 0
        seatings[tuple(round(a.up[0], 2) for a in areas)] += 1
    if sides == 3:
        assert len(seatings) >= 2  # more than one way to sit round the table


def test_a_hazard_arm_comes_from_the_attacker():
    hand = simulate_hand(4, 4)
    i, play = next((i, p) for i, p in enumerate(hand.plays) if p.card in HAZARDS and p.onto and p.onto != p.player)
    arr = arrange(hand.tables[i], np.random.default_rng(0))
    target = next(c for c in reversed(arr.cards) if c.card is play.card and c.side == play.onto)
    for k in range(10):
        tip, towards = random_arm(np.random.default_rng(k), arr, np.eye(3), target, player=play.player)
        seat = tip - towards  # image = table mm under the identity homography
        near = min(arr.areas, key=lambda a: np.linalg.norm(a.seat() - seat))
        assert near.side == play.player
        assert np.dot(towards, arr.area(play.player).up) > 0  # reaching in, away from the attacker


def test_a_random_hazard_arm_is_an_opponent():
    hand = simulate_hand(4, 2)
    i, play = next((i, p) for i, p in enumerate(hand.plays) if p.card in HAZARDS and p.onto and p.onto != p.player)
    arr = arrange(hand.tables[i], np.random.default_rng(1))
    target = next(c for c in reversed(arr.cards) if c.card is play.card and c.side == play.onto)
    tip, towards = random_arm(np.random.default_rng(3), arr, np.eye(3), target)
    near = min(arr.areas, key=lambda a: np.linalg.norm(a.seat() - (tip - towards)))
    assert near.side == play.player
