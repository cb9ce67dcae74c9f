"""Hand records the tests share: the example of CONTRACT.md §1 and RULES.md's two Tallynight hands."""

from __future__ import annotations

from typing import Any

CONTRACT_HAND: dict[str, Any] = {
    "goal": 1000,
    "draw_pile_empty_at_finish": False,
    "extension_called_by": None,
    "sides": [
        {"side": "Ana & Cleo", "distance": {"25": 0, "50": 1, "75": 2, "100": 6, "200": 1},
         "safeties": {"puncture_proof": "coup_fourre", "driving_ace": "played"}},
        {"side": "Ben & Dev", "distance": {"100": 4, "75": 1, "50": 2}, "safeties": {"extra_tank": "played"}},
    ],
}
"""CONTRACT.md §1, as written there."""

TALLYNIGHT_HAND_1: dict[str, Any] = {
    **CONTRACT_HAND,
    "draw_pile_empty_at_finish": True,
    "sides": [
        {**CONTRACT_HAND["sides"][0], "safeties": {"puncture_proof": "coup_fourre", "right_of_way": "played"}},
        {**CONTRACT_HAND["sides"][1], "safeties": {"driving_ace": "played"}},
    ],
}
"""RULES.md's Tallynight hand 1: 2,200 to 675."""

TALLYNIGHT_HAND_2: dict[str, Any] = {
    "goal": 1000,
    "draw_pile_empty_at_finish": False,
    "extension_called_by": None,
    "sides": [
        {"side": "Ana & Cleo", "distance": {"100": 5, "75": 2}, "safeties": {"extra_tank": "played"}},
        {"side": "Ben & Dev", "distance": {"100": 6, "75": 4, "50": 2}, "safeties": {"right_of_way": "played"}},
    ],
}
"""Hand 2: Ben & Dev 1,800, Ana & Cleo 750; totals 2,950 to 2,475."""
