"""Each rule set, line item by line item, on a table of hands.

Items are written in score-pad order: distance, safeties, all_safeties, coups_fourres,
trip, delayed_action, safe_trip, shut_out, extension.
"""

from __future__ import annotations

import pytest

from scoring.errors import IllegalHandError, UnknownRulesError
from scoring.rules import RULE_SETS, RuleSet
from scoring.score import ITEM_NAMES, score_hand
from tests.conftest import build_hand

ALL_FOUR = {"right_of_way": "played", "extra_tank": "played", "puncture_proof": "coup_fourre", "driving_ace": "played"}

HANDS = {
    # A completes 1,000 without a 200, all four safeties (one a coup fourré), B has no km, pile empty.
    "perfect": dict(sides=(("A", {100: 10}, ALL_FOUR), ("B", {})), empty=True),
    # Nobody completes; A leads with a 200 and a safety.
    "nobody": dict(sides=(("A", {200: 1, 100: 6}, {"driving_ace": "played"}), ("B", {100: 6})), empty=True),
    # Nobody completes; equal km.
    "tie": dict(sides=(("A", {100: 6}), ("B", {100: 6})), empty=True),
    # Nobody completes; B has no km.
    "lonely": dict(sides=(("A", {100: 5}), ("B", {}))),
    # Three sides, two without km, nobody completes.
    "three_two_empty": dict(sides=(("A", {100: 3}), ("B", {}), ("C", {}))),
    # Three sides at 700: A completes without a 200, C has 50 km.
    "three_700": dict(sides=(("A", {100: 7}), ("B", {}), ("C", {50: 1})), goal=700),
    # Three sides at 700: A completes, nobody else has km.
    "three_700_shut": dict(sides=(("A", {100: 7}), ("B", {}), ("C", {})), goal=700),
    # A stops at 700 without calling the extension.
    "stop_at_700": dict(sides=(("A", {100: 7}), ("B", {100: 3})), goal=700),
    # A calls the extension at 700 and completes 1,000.
    "extension_made": dict(sides=(("A", {200: 2, 100: 6}), ("B", {100: 3})), goal=700, caller="A"),
    # A calls the extension and falls short; nobody reaches 1,000; three sides.
    "extension_failed": dict(
        sides=(("A", {200: 1, 100: 6, 50: 1}), ("B", {100: 4}), ("C", {})), goal=700, caller="A"
    ),
    # A calls the extension and falls short; B completes 1,000 after the pile ran out.
    "extension_beaten": dict(
        sides=(("A", {200: 1, 100: 6}), ("B", {200: 2, 100: 5, 75: 1, 25: 1})), goal=700, caller="A", empty=True
    ),
}

Z = (0,) * 9

CASES = [
    # rules, hand, {side: items}, winner
    ("classic", "perfect", {"A": (1000, 400, 300, 300, 400, 300, 300, 500, 0), "B": Z}, "A"),
    ("classic-swapped", "perfect", {"A": (1000, 400, 300, 300, 400, 300, 500, 300, 0), "B": Z}, "A"),
    ("teamzy", "perfect", {"A": (1000, 400, 300, 300, 400, 0, 0, 500, 0), "B": Z}, "A"),
    ("dujardin-2024", "perfect", {"A": (1000, 400, 0, 300, 400, 0, 200, 500, 0), "B": Z}, "A"),
    ("dujardin-2025", "perfect", {"A": Z, "B": Z}, "A"),
    ("classic", "nobody", {"A": (800, 100, 0, 0, 0, 0, 0, 0, 0), "B": (600, 0, 0, 0, 0, 0, 0, 0, 0)}, None),
    ("teamzy", "nobody", {"A": (800, 100, 0, 0, 0, 0, 0, 0, 0), "B": (600, 0, 0, 0, 0, 0, 0, 0, 0)}, None),
    ("dujardin-2024", "nobody", {"A": (800, 100, 0, 0, 400, 0, 0, 0, 0), "B": (600,) + (0,) * 8}, "A"),
    ("dujardin-2025", "nobody", {"A": Z, "B": Z}, "A"),
    ("dujardin-2024", "tie", {"A": (600,) + (0,) * 8, "B": (600,) + (0,) * 8}, None),
    ("dujardin-2025", "tie", {"A": Z, "B": Z}, None),
    ("classic", "lonely", {"A": (500,) + (0,) * 8, "B": Z}, None),
    ("teamzy", "lonely", {"A": (500, 0, 0, 0, 0, 0, 0, 500, 0), "B": Z}, None),
    ("dujardin-2024", "lonely", {"A": (500, 0, 0, 0, 400, 0, 200, 500, 0), "B": Z}, "A"),
    (
        "dujardin-2024",
        "three_two_empty",
        {"A": (300, 0, 0, 0, 400, 0, 200, 1000, 0), "B": (0,) * 7 + (500, 0), "C": (0,) * 7 + (500, 0)},
        "A",
    ),
    ("teamzy", "three_two_empty", {"A": (300,) + (0,) * 6 + (500, 0), "B": Z, "C": Z}, None),
    ("classic", "three_700", {"A": (700, 0, 0, 0, 400, 0, 300, 0, 0), "B": Z, "C": (50,) + (0,) * 8}, "A"),
    ("classic", "three_700_shut", {"A": (700, 0, 0, 0, 400, 0, 300, 500, 0), "B": Z, "C": Z}, "A"),
    ("classic-swapped", "three_700_shut", {"A": (700, 0, 0, 0, 400, 0, 500, 300, 0), "B": Z, "C": Z}, "A"),
    ("classic", "stop_at_700", {"A": (700, 0, 0, 0, 400, 0, 300, 0, 0), "B": (300,) + (0,) * 8}, "A"),
    ("classic", "extension_made", {"A": (1000, 0, 0, 0, 400, 0, 0, 0, 200), "B": (300,) + (0,) * 8}, "A"),
    ("teamzy", "extension_made", {"A": (1000, 0, 0, 0, 400, 0, 0, 0, 0), "B": (300,) + (0,) * 8}, "A"),
    (
        "classic",
        "extension_failed",
        {"A": (850,) + (0,) * 8, "B": (400,) + (0,) * 7 + (200,), "C": (0,) * 8 + (200,)},
        None,
    ),
    ("teamzy", "extension_failed", {"A": (850,) + (0,) * 8, "B": (400,) + (0,) * 8, "C": Z}, None),
    (
        "classic",
        "extension_beaten",
        {"A": (800,) + (0,) * 8, "B": (1000, 0, 0, 0, 400, 300, 0, 0, 200)},
        "B",
    ),
]


@pytest.mark.parametrize(("rules", "hand", "expected", "winner"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_line_items(rules, hand, expected, winner):
    score = score_hand(build_hand(*HANDS[hand]["sides"], **{k: v for k, v in HANDS[hand].items() if k != "sides"}),
                       RULE_SETS[rules])
    got = {s.side: tuple(s.items.to_json()[n] for n in ITEM_NAMES) for s in score.sides}
    assert got == expected
    for s in score.sides:
        assert s.total == sum(expected[s.side])
    assert score.winner == winner


def test_every_rule_set_is_covered_by_the_table():
    assert {c[0] for c in CASES} == set(RULE_SETS)


def test_json_form_has_all_nine_items_and_the_contract_keys():
    score = score_hand(build_hand(*HANDS["perfect"]["sides"], empty=True), RULE_SETS["classic"]).to_json()
    assert set(score) == {"rules", "sides", "winner"}
    for side in score["sides"]:
        assert list(side["items"]) == list(ITEM_NAMES)
        assert side["total"] == sum(side["items"].values())


def test_safe_trip_needs_no_200_and_goes_only_to_the_completer():
    with_200 = build_hand(("A", {200: 1, 100: 8}), ("B", {100: 1}))
    assert score_hand(with_200, RULE_SETS["classic"]).side("A").items.safe_trip == 0
    without = build_hand(("A", {100: 10}), ("B", {100: 1}))
    s = score_hand(without, RULE_SETS["classic"])
    assert (s.side("A").items.safe_trip, s.side("B").items.safe_trip) == (300, 0)


def test_delayed_action_only_when_the_pile_was_empty_at_the_finish():
    for empty, points in ((False, 0), (True, 300)):
        hand = build_hand(("A", {100: 10}), ("B", {25: 1}), empty=empty)
        score = score_hand(hand, RULE_SETS["classic"])
        assert score.side("A").items.delayed_action == points
        assert score.side("B").items.delayed_action == 0


def test_all_safeties_bonus_counts_coups_fourres():
    four_cf = {k: "coup_fourre" for k in ALL_FOUR}
    s = score_hand(build_hand(("A", {}, four_cf), ("B", {})), RULE_SETS["classic"]).side("A").items
    assert (s.safeties, s.all_safeties, s.coups_fourres, s.total) == (400, 300, 1200, 1900)


@pytest.mark.parametrize("rules", ["dujardin-2024", "dujardin-2025"])
def test_dujardin_refuses_700_km_hands_and_extensions(rules):
    with pytest.raises(IllegalHandError) as e:
        score_hand(build_hand(("A", {100: 3}), ("B", {}), goal=700), RULE_SETS[rules])
    assert e.value.field == "goal"
    with pytest.raises(IllegalHandError) as e:
        score_hand(build_hand(("A", {100: 7}), ("B", {}), goal=1000, caller="A"), RULE_SETS[rules])
    assert e.value.field == "extension_called_by"


def test_extension_may_be_written_with_the_goal_it_became():
    as_700 = build_hand(*HANDS["extension_made"]["sides"], goal=700, caller="A")
    as_1000 = build_hand(*HANDS["extension_made"]["sides"], goal=1000, caller="A")
    assert score_hand(as_700, RULE_SETS["classic"]) == score_hand(as_1000, RULE_SETS["classic"])


def test_unknown_rule_set_names_the_presets():
    with pytest.raises(UnknownRulesError, match="classic-swapped"):
        RuleSet.from_name("parker")


def test_a_house_rule_is_a_preset_not_new_code():
    house = RULE_SETS["classic"].with_values("house", "classic with a 1,000 shut-out", shut_out=1000)
    s = score_hand(build_hand(*HANDS["perfect"]["sides"], empty=True), house)
    assert s.side("A").items.shut_out == 1000
    assert s.rules == "house"
