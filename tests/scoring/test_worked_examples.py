"""Every worked example of RULES.md, as written there."""

from __future__ import annotations

import pytest

from scoring.errors import IllegalHandError
from scoring.game import Game, GameSetup
from scoring.rules import RULE_SETS
from scoring.score import score_hand

CLASSIC = RULE_SETS["classic"]

# Tallynight, hand 1: Ana and Cleo finish 1,000 with a 200 after the draw pile ran out,
# two safeties, one a coup fourré; Ben and Dev have 575 km and Driving Ace.
HAND_1 = dict(
    sides=(
        ("Ana & Cleo", {200: 1, 100: 6, 75: 2, 50: 1}, {"puncture_proof": "coup_fourre", "extra_tank": "played"}),
        ("Ben & Dev", {100: 4, 75: 1, 50: 2}, {"driving_ace": "played"}),
    ),
    empty=True,
)
# Hand 2: Ben and Dev finish 1,000 without a 200 with one safety; Ana and Cleo 650 km and one safety.
HAND_2 = dict(
    sides=(
        ("Ana & Cleo", {100: 5, 75: 2}, {"right_of_way": "played"}),
        ("Ben & Dev", {100: 7, 75: 4}, {"driving_ace": "played"}),
    ),
)


def test_tallynight_hand_1_line_by_line(make_hand):
    score = score_hand(make_hand(*HAND_1["sides"], empty=True), CLASSIC)
    ana = score.side("Ana & Cleo").items
    assert (ana.distance, ana.safeties, ana.coups_fourres, ana.trip, ana.delayed_action) == (1000, 200, 300, 400, 300)
    assert ana.safe_trip == 0  # they played a 200
    assert score.side("Ana & Cleo").total == 2200
    assert score.side("Ben & Dev").total == 675
    assert score.winner == "Ana & Cleo"


def test_tallynight_hand_2(make_hand):
    score = score_hand(make_hand(*HAND_2["sides"]), CLASSIC)
    ben = score.side("Ben & Dev").items
    assert (ben.distance, ben.trip, ben.safe_trip, ben.safeties) == (1000, 400, 300, 100)
    assert score.side("Ben & Dev").total == 1800
    assert score.side("Ana & Cleo").total == 750


def test_tallynight_totals_after_two_hands(make_hand):
    setup = GameSetup.for_players(["Ana", "Ben", "Cleo", "Dev"], teams=[["Ana", "Cleo"], ["Ben", "Dev"]])
    game = Game(setup).add_hand(make_hand(*HAND_1["sides"], empty=True)).add_hand(make_hand(*HAND_2["sides"]))
    assert game.totals_after_each_hand() == [
        {"Ana & Cleo": 2200, "Ben & Dev": 675},
        {"Ana & Cleo": 2950, "Ben & Dev": 2475},
    ]
    assert game.outcome().winner is None


def test_coup_fourre_is_worth_400_and_a_safety_on_ones_turn_100(make_hand):
    score = score_hand(
        make_hand(("A", {}, {"driving_ace": "coup_fourre"}), ("B", {}, {"extra_tank": "played"})), CLASSIC
    )
    assert score.side("A").total == 400
    assert score.side("B").total == 100


@pytest.mark.parametrize("play", [{50: 1}, {25: 2}])
def test_at_950_a_50_or_two_25s_complete_the_trip(make_hand, play):
    base = {200: 2, 100: 5, 50: 1}  # 950 km
    done = {k: base.get(k, 0) + play.get(k, 0) for k in {*base, *play}}
    hand = make_hand(("A", done), ("B", {25: 1}))
    assert hand.completer is not None and hand.completer.side == "A"


@pytest.mark.parametrize("card", [75, 100, 200])
def test_at_950_a_75_100_or_200_cannot_be_played(make_hand, card):
    base = {200: 1, 100: 7, 50: 1}  # 950 km
    base[card] = base.get(card, 0) + 1
    with pytest.raises(IllegalHandError) as e:
        make_hand(("A", base), ("B", {}))
    assert e.value.side == "A"
    assert e.value.field.startswith("distance")


def test_975_plus_25_completes_the_trip(make_hand):
    hand = make_hand(("Eagles", {200: 2, 100: 5, 75: 1, 25: 1}), ("Owls", {}))
    assert hand.side("Eagles").km == 1000
    assert hand.completer is not None


def test_teamzy_eagles_score_1900_in_the_last_hand_and_finish_on_5100(make_hand):
    teamzy = RULE_SETS["teamzy"]
    last = make_hand(("Eagles", {200: 2, 100: 5, 75: 1, 25: 1}), ("Owls", {}))
    score = score_hand(last, teamzy)
    eagles = score.side("Eagles").items
    assert (eagles.distance, eagles.trip, eagles.shut_out) == (1000, 400, 500)
    assert score.side("Eagles").total == 1900
    # Three earlier hands bring the Eagles to 3,200; the last one takes them to 5,100 and wins.
    earlier = make_hand(("Eagles", {100: 4, 75: 4, 50: 2}, {}), ("Owls", {100: 6}, {"driving_ace": "played"}))
    setup = GameSetup.for_players(["Eagles", "Owls"], rules=teamzy)
    game = Game(setup)
    for _ in range(4):
        game = game.add_hand(earlier)
    assert game.totals()["Eagles"] == 3200
    game = game.add_hand(last)
    assert game.totals()["Eagles"] == 5100
    assert game.outcome().winner == "Eagles"
    assert game.outcome().finished_after_hand == 5
