"""Games: set-up from the players, totals, the winner and the tie rule, corrections."""

from __future__ import annotations

import pytest

from scoring.errors import GameOverError, HandNotFoundError, IllegalHandError, SetupError
from scoring.game import Game, GameSetup, Side
from scoring.rules import RULE_SETS
from tests.conftest import build_hand

CLASSIC = RULE_SETS["classic"]


@pytest.mark.parametrize(
    ("players", "sides", "goal", "extension"),
    [
        (2, 2, 700, True),
        (3, 3, 700, True),
        (4, 2, 1000, False),
        (5, 5, 1000, False),
        (6, 3, 700, True),
        (8, 4, 1000, False),
    ],
)
def test_classic_setup_follows_the_number_of_players(players, sides, goal, extension):
    names = [f"P{i}" for i in range(players)]
    setup = GameSetup.for_players(names)
    assert (len(setup.sides), setup.goal, setup.extension) == (sides, goal, extension)
    assert sorted(p for s in setup.sides for p in s.players) == sorted(names)


@pytest.mark.parametrize("rules", ["teamzy", "dujardin-2024", "dujardin-2025"])
def test_other_rule_sets_play_to_1000_without_extension(rules):
    setup = GameSetup.for_players(["A", "B", "C"], rules=RULE_SETS[rules])
    assert (setup.goal, setup.extension) == (1000, False)


def test_goal_and_extension_can_be_chosen():
    setup = GameSetup.for_players(["A", "B", "C", "D"], goal=700, extension=True)
    assert (setup.goal, setup.extension) == (700, True)
    with pytest.raises(SetupError):
        GameSetup.for_players(["A", "B"], goal=1000, extension=True)
    with pytest.raises(SetupError):
        GameSetup.for_players(["A", "B"], rules=RULE_SETS["dujardin-2024"], goal=700)


def test_teams_are_drawn_at_random_and_reproducibly_with_a_seed():
    players = ["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn"]
    draws = {tuple(s.players for s in GameSetup.for_players(players, draw_teams=True, seed=s).sides) for s in range(30)}
    assert len(draws) > 5  # really random
    a = GameSetup.for_players(players, draw_teams=True, seed=42)
    b = GameSetup.for_players(players, draw_teams=True, seed=42)
    assert a == b
    assert all(len(s.players) == 2 for s in a.sides)


@pytest.mark.parametrize(
    "bad",
    [
        dict(players=["A"]),
        dict(players=["A", "A"]),
        dict(players=["A", "B", "C"], team_size=2),
        dict(players=["A", "B", "C", "D"], teams=[["A", "B"], ["C"]]),
        dict(players=["A", "B"], target=0),
        dict(players=["A", "B"], target=True),
        dict(players=[f"P{i}" for i in range(17)]),
    ],
)
def test_impossible_setups_are_refused(bad):
    with pytest.raises(SetupError):
        GameSetup.for_players(**bad)


def two_sides(target=5000, rules=CLASSIC, goal=None, extension=False):
    return Game(GameSetup(sides=(Side("A"), Side("B")), rules=rules, target=target, goal=goal, extension=extension))


BIG_A = build_hand(("A", {100: 10}), ("B", {}), empty=True)  # A: 1000+400+300+300+500 = 2500
SMALL_B = build_hand(("A", {}), ("B", {25: 1}))  # B: 25


def test_first_side_to_the_target_wins_and_later_hands_are_refused():
    game = two_sides().add_hand(BIG_A)
    assert game.outcome().winner is None
    game = game.add_hand(BIG_A)
    assert game.totals() == {"A": 5000, "B": 0}
    assert (game.outcome().winner, game.outcome().finished_after_hand) == ("A", 2)
    with pytest.raises(GameOverError, match="A won the game after hand 2"):
        game.add_hand(SMALL_B)


def test_both_past_the_target_the_higher_total_wins():
    b_big = build_hand(("B", {100: 10}), ("A", {}), empty=True)
    game = two_sides(target=3000).add_hand(BIG_A).add_hand(b_big).add_hand(SMALL_B)
    assert game.outcome().winner is None
    a_small = build_hand(("A", {100: 8}), ("B", {75: 2}))  # A 800, B 150
    game = game.add_hand(a_small)
    assert game.totals() == {"A": 3300, "B": 2675}
    both = build_hand(("A", {25: 1}), ("B", {100: 10}))  # A 25, B 1000+400+300 = 1700
    game2 = two_sides(target=3000).add_hand(BIG_A).add_hand(b_big).add_hand(SMALL_B).add_hand(both)
    assert game2.totals() == {"A": 2525, "B": 4225}
    assert game2.outcome().winner == "B"


def test_a_tie_at_the_target_plays_on():
    a_wins = build_hand(("A", {100: 10}), ("B", {200: 1, 100: 1}))  # A 1000+400+300 = 1700, B 300
    b_wins = build_hand(("B", {100: 10}), ("A", {200: 1, 100: 1}))
    game = two_sides(target=2000).add_hand(a_wins).add_hand(b_wins)
    assert game.totals() == {"A": 2000, "B": 2000}
    assert game.outcome().winner is None
    game = game.add_hand(SMALL_B)
    assert (game.outcome().winner, game.outcome().finished_after_hand) == ("B", 3)


def test_three_sides_in_a_700_game_with_a_failed_extension():
    setup = GameSetup.for_players(["Ana", "Ben", "Cleo"])
    assert (setup.goal, setup.extension) == (700, True)
    failed = build_hand(("Ana", {200: 1, 100: 6, 50: 1}), ("Ben", {100: 4}), ("Cleo", {}), goal=700, caller="Ana")
    game = Game(setup).add_hand(failed)
    assert game.totals() == {"Ana": 850, "Ben": 600, "Cleo": 200}


def test_hands_must_belong_to_the_game():
    game = Game(GameSetup.for_players(["A", "B", "C", "D"]))  # teams A & B, C & D; goal 1000
    with pytest.raises(IllegalHandError) as e:
        game.add_hand(build_hand(("A", {}), ("B", {})))
    assert e.value.field == "sides"
    with pytest.raises(IllegalHandError) as e:
        game.add_hand(build_hand(("A & B", {}), ("C & D", {}), goal=700))
    assert e.value.field == "goal"
    no_ext = Game(GameSetup.for_players(["A", "B"], extension=False))
    with pytest.raises(IllegalHandError) as e:
        no_ext.add_hand(build_hand(("A", {100: 7}), ("B", {}), goal=700, caller="A"))
    assert e.value.field == "extension_called_by"


def test_replace_and_delete_retotal():
    game = two_sides().add_hand(SMALL_B).add_hand(BIG_A)
    assert game.totals() == {"A": 2500, "B": 25}
    fixed = game.replace_hand(1, build_hand(("A", {}), ("B", {50: 1})))
    assert fixed.totals() == {"A": 2500, "B": 50}
    assert fixed.delete_hand(2).totals() == {"A": 0, "B": 50}
    with pytest.raises(HandNotFoundError):
        game.replace_hand(3, SMALL_B)
    with pytest.raises(HandNotFoundError):
        game.delete_hand(0)


def test_a_correction_that_ends_the_game_before_later_hands_is_refused():
    game = two_sides(target=5000).add_hand(BIG_A).add_hand(SMALL_B).add_hand(SMALL_B)
    double = build_hand(("A", {100: 10}, {"driving_ace": "coup_fourre", "extra_tank": "coup_fourre",
                                          "right_of_way": "coup_fourre", "puncture_proof": "coup_fourre"}),
                        ("B", {}), empty=True)  # 2500 + 1900 = 4400; 6900 with hand 1
    with pytest.raises(GameOverError, match="delete them first"):
        game.replace_hand(2, double)
    # On the last hand the same correction is fine: the game ends there.
    assert game.replace_hand(3, double).outcome().finished_after_hand == 3


def test_race_rules_count_hand_wins():
    race = Game(GameSetup.for_players(["A", "B"], rules=RULE_SETS["dujardin-2025"], target=2))
    near = build_hand(("A", {100: 6}), ("B", {100: 5}), empty=True)
    game = race.add_hand(near)
    assert game.totals() == {"A": 1, "B": 0}
    tie = build_hand(("A", {100: 5}), ("B", {100: 5}), empty=True)
    game = game.add_hand(tie)
    assert game.totals() == {"A": 1, "B": 0} and game.outcome().winner is None
    game = game.add_hand(near)
    assert (game.outcome().winner, game.outcome().finished_after_hand) == ("A", 3)
