"""The table layout, zone assignment, the sideways rule and the census of CONTRACT §5."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scoring.cards import Card
from vision.errors import LayoutError
from vision.geometry import corners_from_xywhr
from vision.read.sighting import Sighting
from vision.table.census import take_census
from vision.table.layout import TableLayout
from vision.table.sideways import is_sideways, majority_axis

CONTRACT_LAYOUT = {
    "sides": [
        {"side": "North", "zone": [[412, 80], [868, 80], [868, 330], [412, 330]], "up": [0.0, 1.0]},
        {"side": "South", "zone": [[412, 390], [868, 390], [868, 640], [412, 640]], "up": [0.0, -1.0]},
    ]
}


def seen(card, cx, cy, deg=0.0, face_up=True, conf=0.9):
    corners = corners_from_xywhr(np.array([[cx, cy, 40, 62, np.deg2rad(deg)]]))[0]
    return Sighting(corners=corners, face_up=face_up, card=Card(card) if card else None, confidence=conf)


def test_the_contract_layout_parses_and_assigns_points():
    layout = TableLayout.from_json(CONTRACT_LAYOUT)
    assert layout.side_at((500, 100)) == "North"
    assert layout.side_at((500, 600)) == "South"
    assert layout.side_at((500, 360)) is None
    assert layout.side_at((100, 100)) is None
    assert TableLayout.from_json(json.loads(json.dumps(layout.to_json()))).to_json() == layout.to_json()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a layout is"),
        ({"sides": []}, "1 to 8 sides"),
        ({"sides": [{"side": "A", "zone": [[0, 0], [1, 1]]}]}, "polygon"),
        ({"sides": [{"side": "A", "zone": [[0, 0], [1, 1], [2, 2]]}]}, "no area"),
        ({"sides": [{"side": "A", "zone": [[0, 0], [9, 0], [9, 9]], "up": [0, 0]}]}, "zero vector"),
        ({"sides": [{"side": "A", "zone": [[0, 0], [9, 0], [9, "x"]]}]}, r"zone\[2\]: a point of the zone.s polygon"),
        ({"sides": [{"side": "", "zone": [[0, 0], [9, 0], [9, 9]]}]}, "empty"),
        ({"sides": [{"side": "A", "zone": [[0, 0], [9, 0], [9, 9]]}] * 2}, "named twice"),
        ({"sides": [{"side": "A", "zone": [[0, 0], [9, 0], [9, 9]], "colour": 1}]}, "unknown field"),
    ],
)
def test_bad_layouts_are_refused_clearly(data, message):
    with pytest.raises(LayoutError, match=message):
        TableLayout.from_json(data)


def test_layout_files(tmp_path):
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(CONTRACT_LAYOUT))
    assert [s.side for s in TableLayout.from_file(path).sides] == ["North", "South"]
    path.write_text("{")
    with pytest.raises(LayoutError, match="not valid JSON"):
        TableLayout.from_file(path)
    with pytest.raises(LayoutError, match="no such layout"):
        TableLayout.from_file(tmp_path / "nope.json")


@pytest.mark.parametrize(("deg", "sideways"), [(0, False), (30, False), (44, False), (46, True), (90, True),
                                                (120, True), (150, False), (180, False), (270, True)])
def test_sideways_is_the_long_axis_across_up(deg, sideways):
    corners = corners_from_xywhr(np.array([[0, 0, 56, 87, np.deg2rad(deg)]]))[0]
    assert is_sideways(corners, (0.0, 1.0)) is sideways
    assert is_sideways(corners, (0.0, -1.0)) is sideways  # the sign of up does not matter


def test_majority_axis_ignores_the_odd_card_out():
    cards = [corners_from_xywhr(np.array([[0, 0, 56, 87, np.deg2rad(d)]]))[0] for d in (88, 92, 90, 0)]
    axis = majority_axis(cards)
    assert abs(axis[0]) == pytest.approx(1, abs=0.01)  # the cards lie with their long axis along x


def test_census_counts_distance_and_safeties_per_side_with_coups_fourres():
    layout = TableLayout.from_json(CONTRACT_LAYOUT)
    sightings = [
        seen("distance_100", 450, 150), seen("distance_100", 450, 175), seen("distance_75", 500, 150),
        seen("driving_ace", 700, 150, deg=90), seen("extra_tank", 760, 150),
        seen("distance_200", 450, 500), seen("stop", 600, 500), seen("right_of_way", 700, 500, deg=85),
        seen(None, 640, 360, face_up=False),  # the draw pile, in the middle
        seen("distance_50", 640, 360),  # the discard pile: nobody's
    ]
    census = take_census(sightings, layout)
    north, south = census.sides
    assert north.distance == {25: 0, 50: 0, 75: 1, 100: 2, 200: 0}
    assert {c.value: p.value for c, p in north.safeties.items()} == {"driving_ace": "coup_fourre",
                                                                     "extra_tank": "played"}
    assert south.distance[200] == 1 and {c.value for c in south.safeties} == {"right_of_way"}
    assert census.draw_pile is True
    assert len(census.unassigned) == 1
    doc = census.to_json()
    assert doc["sides"][0]["distance"] == {"25": 0, "50": 0, "75": 1, "100": 2, "200": 0}
    assert [c["card"] for c in doc["sides"][1]["cards"]] == ["distance_200", "stop", "right_of_way"]
    assert doc["sides"][1]["cards"][2]["sideways"] is True
    assert "cards" not in census.to_json(with_cards=False)["sides"][0]


def test_without_up_the_sides_majority_decides_sideways():
    layout = TableLayout.from_json({"sides": [{"side": "East", "zone": [[0, 0], [400, 0], [400, 400], [0, 400]]}]})
    # East's cards point along x (its player sits at the side of the picture).
    sightings = [seen("distance_25", 100, 100 + 30 * i, deg=90) for i in range(4)]
    sightings.append(seen("puncture_proof", 300, 100, deg=0))
    sightings.append(seen("extra_tank", 300, 250, deg=90))
    census = take_census(sightings, layout)
    assert {c.value: p.value for c, p in census.sides[0].safeties.items()} == {
        "puncture_proof": "coup_fourre", "extra_tank": "played"}


def test_no_draw_pile_when_no_card_is_face_down():
    layout = TableLayout.default(1280, 720)
    assert take_census([seen("roll", 640, 100)], layout).draw_pile is False


@pytest.mark.parametrize("layout", [
    {"sides": [{"side": "North", "zone": [[0, 0], [640, 0], [640, 160], [0, 160]], "up": [0, 1]},
               {"side": "South", "zone": [[0, 200], [640, 200], [640, 360], [0, 360]]}]},
    {"sides": [{"side": "A", "zone": [[10.5, 10], [300, 20], [310, 200], [5, 190], [0, 100]], "up": [0.6, 0.8]},
               {"side": "B", "zone": [[400, 10], [630, 10], [630, 350]], "up": [-0.999, 0.0]},
               {"side": "C", "zone": [[0, 250], [300, 250], [300, 360]]}]},
])
def test_a_layout_the_display_accepts_is_read_the_same_by_the_pipeline(layout):
    """One check (``scoring.layout.check_layout``): the display's stricter mode (the table's sides) and the
    file mode ``TableLayout.from_json`` uses read what the display accepts to the same zones."""
    from scoring.web.zones import check_layout

    checked = check_layout(layout, sides=[s["side"] for s in layout["sides"]])
    parsed = TableLayout.from_json(checked)
    assert parsed.to_json() == TableLayout.from_json(layout).to_json()
    assert [s.side for s in parsed.sides] == [s["side"] for s in checked["sides"]]
    for zone, side in zip(parsed.sides, checked["sides"]):
        assert zone.zone.tolist() == side["zone"]
        assert (zone.up is None) == ("up" not in side)
