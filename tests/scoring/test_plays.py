"""One more play against the table (``scoring.plays.check_play``): the rules the camera's tracker asks the core about."""

from __future__ import annotations

import pytest

from scoring.cards import Card
from scoring.plays import PlayRule, check_play

C = Card
TWO_200S = [("A", C.DISTANCE_200), ("A", C.DISTANCE_200)]


@pytest.mark.parametrize(("table", "side", "card", "goal", "done", "rule", "message"), [
    ([], "A", C.DISTANCE_100, 700, None, None, None),
    (TWO_200S, "A", C.DISTANCE_200, 1000, None, PlayRule.THIRD_200, "A already has 2 200s"),
    (TWO_200S, "B", C.DISTANCE_200, 1000, None, None, None),
    (TWO_200S + [("B", C.DISTANCE_200), ("B", C.DISTANCE_200)], "C", C.DISTANCE_200, 1000, None,
     PlayRule.DECK_COUNT, "the deck has only 4 200 km, this would be one more"),
    ([("B", C.EXTRA_TANK)], "A", C.EXTRA_TANK, 1000, None, PlayRule.SAFETY_TWICE,
     "Extra Tank exists once and B already has it"),
    ([("A", C.DISTANCE_200)] * 2 + [("A", C.DISTANCE_100)] * 3, "A", C.DISTANCE_25, 700, None, PlayRule.PAST_GOAL,
     "A has 700 km; 25 more passes the goal of 700 km"),
    ([("A", C.DISTANCE_200)] * 2 + [("A", C.DISTANCE_100)] * 3, "B", C.DISTANCE_25, 700, "A", PlayRule.AFTER_TRIP,
     "A already completed the trip"),
    ([("A", C.DISTANCE_200)] * 2 + [("A", C.DISTANCE_100)] * 3, "A", C.DISTANCE_100, 1000, None, None, None),
    ([], "A", C.STOP, 700, "B", None, None),  # only distance is refused after the trip
])
def test_one_more_play(table, side, card, goal, done, rule, message):
    broken = check_play(table, side, card, goal=goal, trip_completed_by=done)
    if rule is None:
        assert broken is None
    else:
        assert broken is not None and (broken.rule, broken.message) == (rule, message)


def test_every_broken_rule_is_a_reason_the_tracker_flags():
    from vision.track import FlagReason

    assert {r.value for r in PlayRule} <= {f.value for f in FlagReason}
