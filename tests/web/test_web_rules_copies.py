"""The page checks a hand before it is sent with its own copy of the deck's counts and limits (so a person
sees a mistake as they type): that copy must be the core's (``scoring.cards``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from scoring.cards import DECK_COUNTS, DISTANCE_CARD_OF_KM, DISTANCE_VALUES, MAX_200S_PER_HAND, SAFETIES

STATIC = Path(__file__).resolve().parents[2] / "scoring" / "web" / "static"


def _constant(name: str) -> object:
    """A ``const NAME = …;`` of the page's scripts, read as JSON (keys quoted first)."""
    for path in sorted(STATIC.rglob("*.js")):
        m = re.search(rf"^(?:export )?const {name} = (.+?);$", path.read_text(encoding="utf-8"), re.M)
        if m:
            return json.loads(re.sub(r"(\d+):", r'"\1":', m.group(1)))
    raise AssertionError(f"no const {name} in {STATIC}")


def test_the_page_has_the_core_deck_and_limits():
    assert _constant("DISTANCE_VALUES") == list(DISTANCE_VALUES)
    assert _constant("DECK") == {str(km): DECK_COUNTS[DISTANCE_CARD_OF_KM[km]] for km in DISTANCE_VALUES}
    assert _constant("MAX_200S") == MAX_200S_PER_HAND
    assert _constant("SAFETIES") == [c.value for c in SAFETIES]
