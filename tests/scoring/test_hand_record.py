"""The hand record: strict parsing, every validation rule, and the error's side and field."""

from __future__ import annotations

import copy
import json

import pytest

from scoring.errors import HandError, IllegalHandError, MalformedHandError
from scoring.hand import HandRecord
from tests.examples import CONTRACT_HAND

VALID = CONTRACT_HAND


def edit(path, value):
    """VALID with one field set (``path`` is a list of keys/indices); ``...`` deletes it."""
    data = copy.deepcopy(VALID)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


A = ["sides", 0]
CASES = [
    # (description, data, error class, side, field)
    ("not an object", [1, 2], MalformedHandError, None, "(hand)"),
    ("goal missing", edit(["goal"], ...), MalformedHandError, None, "goal"),
    ("goal as text", edit(["goal"], "1000"), MalformedHandError, None, "goal"),
    ("goal as bool", edit(["goal"], True), MalformedHandError, None, "goal"),
    ("goal 800", edit(["goal"], 800), IllegalHandError, None, "goal"),
    ("huge goal", edit(["goal"], 10**40), IllegalHandError, None, "goal"),
    ("unknown top field", edit(["winner"], "A"), MalformedHandError, None, "winner"),
    ("pile flag as text", edit(["draw_pile_empty_at_finish"], "yes"), MalformedHandError, None, "draw_pile_empty_at_finish"),
    ("caller as number", edit(["extension_called_by"], 3), MalformedHandError, None, "extension_called_by"),
    ("caller unknown", edit(["extension_called_by"], "Zed"), IllegalHandError, None, "extension_called_by"),
    ("sides missing", edit(["sides"], ...), MalformedHandError, None, "sides"),
    ("sides not a list", edit(["sides"], {"A": 1}), MalformedHandError, None, "sides"),
    ("one side", edit(["sides"], [VALID["sides"][0]]), IllegalHandError, None, "sides"),
    ("side not an object", edit(["sides", 1], "Ben"), MalformedHandError, None, "sides[1]"),
    ("side without name", edit([*A, "side"], ...), MalformedHandError, None, "sides[0].side"),
    ("empty name", edit([*A, "side"], "  "), MalformedHandError, None, "sides[0].side"),
    ("name as number", edit([*A, "side"], 7), MalformedHandError, None, "sides[0].side"),
    ("side named twice", edit(["sides", 1, "side"], "Ana & Cleo"), IllegalHandError, "Ana & Cleo", "side"),
    ("unknown side field", edit([*A, "hazards"], {}), MalformedHandError, "Ana & Cleo", "hazards"),
    ("distance not an object", edit([*A, "distance"], [1, 2]), MalformedHandError, "Ana & Cleo", "distance"),
    ("unknown value", edit([*A, "distance", "300"], 1), MalformedHandError, "Ana & Cleo", "distance.300"),
    ("count as text", edit([*A, "distance", "50"], "1"), MalformedHandError, "Ana & Cleo", "distance.50"),
    ("count as float", edit([*A, "distance", "50"], 1.0), MalformedHandError, "Ana & Cleo", "distance.50"),
    ("negative count", edit([*A, "distance", "25"], -1), MalformedHandError, "Ana & Cleo", "distance.25"),
    ("huge count", edit([*A, "distance", "25"], 10**30), IllegalHandError, "Ana & Cleo", "distance.25"),
    ("three 200s", edit([*A, "distance"], {"200": 3, "100": 4}), IllegalHandError, "Ana & Cleo", "distance.200"),
    ("past the goal", edit([*A, "distance", "25"], 1), IllegalHandError, "Ana & Cleo", "distance"),
    ("deck has 12 100s", edit(["sides", 1, "distance", "100"], 7), IllegalHandError, "Ben & Dev", "distance.100"),
    ("unknown safety", edit([*A, "safeties", "roll"], "played"), MalformedHandError, "Ana & Cleo", "safeties.roll"),
    ("bad safety play", edit([*A, "safeties", "driving_ace"], "sideways"), MalformedHandError, "Ana & Cleo",
     "safeties.driving_ace"),
    ("safety on two sides", edit(["sides", 1, "safeties", "driving_ace"], "played"), IllegalHandError, "Ben & Dev",
     "safeties.driving_ace"),
    ("two sides complete", edit(["sides", 1, "distance"], {"200": 2, "75": 8}), IllegalHandError, "Ben & Dev",
     "distance"),
    ("caller below 700", {**edit(["goal"], 700), "extension_called_by": "Ben & Dev",
                          "sides": [VALID["sides"][1], {"side": "X", "distance": {"25": 1}}]},
     IllegalHandError, "Ben & Dev", "extension_called_by"),
]


@pytest.mark.parametrize(("what", "data", "error", "side", "field"), CASES, ids=[c[0] for c in CASES])
def test_invalid_records_are_refused_naming_side_and_field(what, data, error, side, field):
    with pytest.raises(error) as e:
        HandRecord.from_json(data)
    assert e.value.side == side
    assert e.value.field == field
    assert isinstance(e.value, ValueError)
    if side is not None:
        assert side in str(e.value)


def test_the_contract_example_is_valid_and_round_trips():
    record = HandRecord.from_json(VALID)
    assert record.side("Ana & Cleo").km == 1000
    assert record.completer.side == "Ana & Cleo"
    assert HandRecord.from_json(json.loads(json.dumps(record.to_json()))) == record


def test_missing_values_count_zero_and_json_form_is_complete():
    record = HandRecord.from_json({"goal": 1000, "sides": [{"side": "A"}, {"side": "B", "distance": {"25": 2}}]})
    assert record.side("A").distance == {25: 0, 50: 0, 75: 0, 100: 0, 200: 0}
    assert record.to_json()["sides"][1]["distance"] == {"25": 2, "50": 0, "75": 0, "100": 0, "200": 0}
    assert record.draw_pile_empty_at_finish is False and record.extension_called_by is None


@pytest.mark.parametrize("text", ["", "   ", "{", "[1,", "nul", "\x00", "{" * 100000])
def test_text_that_is_not_json_is_malformed(text):
    with pytest.raises(MalformedHandError):
        HandRecord.from_json_text(text)


def test_names_are_trimmed():
    record = HandRecord.from_json({"goal": 1000, "sides": [{"side": " A "}, {"side": "B"}]})
    assert record.side_names == ("A", "B")


def test_errors_are_value_errors_of_one_family():
    assert issubclass(MalformedHandError, HandError) and issubclass(IllegalHandError, HandError)
    assert issubclass(HandError, ValueError)
