"""Property tests: invariants of scoring over generated legal hands, and refusal of broken ones."""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.errors import HandError, IllegalHandError, MalformedHandError
from scoring.game import GameSetup, Side
from scoring.hand import HandRecord
from scoring.rules import RULE_SETS
from scoring.score import ITEM_NAMES, score_hand
from scoring.storage import GameStore
from tests.scoring.strategies import legal_hands


def scorable(rules, data) -> bool:
    return data["goal"] in rules.goals and (data["extension_called_by"] is None or 700 in rules.goals)


@given(legal_hands(), st.sampled_from(sorted(RULE_SETS)))
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
def test_total_is_the_sum_of_items_and_items_are_never_negative(data, rules_name):
    rules = RULE_SETS[rules_name]
    record = HandRecord.from_json(data)
    if not scorable(rules, data):
        with pytest.raises(IllegalHandError):
            score_hand(record, rules)
        return
    score = score_hand(record, rules)
    for side in score.sides:
        items = side.items.to_json()
        assert list(items) == list(ITEM_NAMES)
        assert all(v >= 0 for v in items.values())
        assert side.total == sum(items.values())
    assert score.winner is None or score.winner in record.side_names


@given(legal_hands(), st.sampled_from(sorted(RULE_SETS)), st.randoms(use_true_random=False))
@settings(max_examples=300)
def test_scores_never_depend_on_the_order_of_sides(data, rules_name, rng):
    rules = RULE_SETS[rules_name]
    if not scorable(rules, data):
        return
    shuffled = copy.deepcopy(data)
    rng.shuffle(shuffled["sides"])
    a = score_hand(HandRecord.from_json(data), rules)
    b = score_hand(HandRecord.from_json(shuffled), rules)
    assert {s.side: s.items for s in a.sides} == {s.side: s.items for s in b.sides}
    assert a.winner == b.winner


@given(legal_hands())
@settings(max_examples=300)
def test_a_valid_record_round_trips_through_json_unchanged(data):
    record = HandRecord.from_json(data)
    assert HandRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert HandRecord.from_json_text(json.dumps(data)) == record


@given(st.lists(legal_hands(max_sides=3), min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_a_valid_record_round_trips_through_storage_unchanged(hands):
    # Give every hand the same three sides (rename them), so they belong to one game.
    with tempfile.TemporaryDirectory() as tmp, GameStore(Path(tmp) / "games.sqlite3") as store:
        records = []
        for data in hands:
            data = copy.deepcopy(data)
            names = ["North", "South", "East"][: len(data["sides"])]
            renamed = {side["side"]: name for side, name in zip(data["sides"], names)}
            for side in data["sides"]:
                side["side"] = renamed[side["side"]]
            if data["extension_called_by"] is not None:
                data["extension_called_by"] = renamed[data["extension_called_by"]]
            records.append(HandRecord.from_json(data))
        by_sides: dict[int, list[HandRecord]] = {}
        for r in records:
            by_sides.setdefault(len(r.sides), []).append(r)
        for n, group in by_sides.items():
            setup = GameSetup(
                sides=tuple(Side(x) for x in ["North", "South", "East"][:n]),
                rules=RULE_SETS["classic"],
                target=10**6,
            )
            game_id = store.create_game(setup).id
            for r in group:
                store.add_hand(game_id, r)
            assert store.load(game_id).game.hands == tuple(group)


BREAKAGES = {
    "three 200s": (lambda d, i: d["sides"][i]["distance"].__setitem__("200", 3), IllegalHandError, "distance.200"),
    "unknown value": (lambda d, i: d["sides"][i]["distance"].__setitem__("30", 1), MalformedHandError, "distance.30"),
    "negative": (lambda d, i: d["sides"][i]["distance"].__setitem__("50", -2), MalformedHandError, "distance.50"),
    "past the deck": (lambda d, i: d["sides"][i]["distance"].__setitem__("75", 11), IllegalHandError, "distance.75"),
    "unknown safety": (lambda d, i: d["sides"][i]["safeties"].__setitem__("spare_tire", "played"), MalformedHandError,
                       "safeties.spare_tire"),
    "bad play": (lambda d, i: d["sides"][i]["safeties"].__setitem__("extra_tank", "twice"), MalformedHandError,
                 "safeties.extra_tank"),
    "text count": (lambda d, i: d["sides"][i]["distance"].__setitem__("25", "2"), MalformedHandError, "distance.25"),
    "past the goal": (lambda d, i: d["sides"][i].__setitem__("distance", {"200": 2, "100": 9}), IllegalHandError,
                      "distance"),
}


@given(legal_hands(), st.sampled_from(sorted(BREAKAGES)), st.data())
@settings(max_examples=300)
def test_illegal_hands_are_refused_naming_the_side_and_field(data, breakage, picks):
    broken = copy.deepcopy(data)
    i = picks.draw(st.integers(0, len(broken["sides"]) - 1))
    # Leave room in the deck and the goal so that only the breakage is wrong.
    broken["goal"], broken["extension_called_by"] = 1000, None
    for side in broken["sides"]:
        if side is not broken["sides"][i]:
            side["distance"]["75"] = 0
            side["distance"]["100"] = 0
            side["distance"]["200"] = 0
    change, error, field = BREAKAGES[breakage]
    change(broken, i)
    with pytest.raises(HandError) as e:
        HandRecord.from_json(broken)
    assert type(e.value) is error
    assert e.value.side == broken["sides"][i]["side"]
    assert e.value.field == field


def test_the_generator_makes_every_kind_of_hand():
    from hypothesis import find

    assert find(legal_hands(), lambda d: HandRecord.from_json(d).completer is not None)
    assert find(legal_hands(), lambda d: d["extension_called_by"] is not None)
    assert find(legal_hands(), lambda d: d["extension_called_by"] is not None and HandRecord.from_json(d).completer)
    assert find(legal_hands(), lambda d: len(d["sides"]) >= 5)
