"""Hypothesis strategies that build legal hand records."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scoring.cards import DECK_COUNTS, DISTANCE_CARD_OF_KM, DISTANCE_VALUES, SAFETIES

NAMES = ["Ana", "Ben", "Cleo & Dev", "Eve", "Finn", "Gus & Hal", "Ivy", "Jo"]


def _km(counts: dict[int, int]) -> int:
    return sum(k * v for k, v in counts.items())


def _trim(sides: list[dict[int, int]], goal: int) -> None:
    """Drop the biggest cards of each side until it is within the goal; only the first at the goal keeps it."""
    completed = False
    for counts in sides:
        while _km(counts) > goal or (completed and _km(counts) == goal):
            counts[max(k for k, v in counts.items() if v)] -= 1
        completed = completed or _km(counts) == goal


@st.composite
def legal_hands(draw: st.DrawFn, *, max_sides: int = 8, goals: tuple[int, ...] = (700, 1000)) -> dict[str, Any]:
    """A legal hand record as JSON: deck counts, at most two 200s, never past the goal, one completer at most."""
    n = draw(st.integers(2, max_sides))
    names = draw(st.permutations(NAMES))[:n]
    goal = draw(st.sampled_from(goals))
    left = {km: DECK_COUNTS[DISTANCE_CARD_OF_KM[km]] for km in DISTANCE_VALUES}
    sides = []
    for _ in names:
        counts = {km: draw(st.integers(0, min(left[km], 2 if km == 200 else 8))) for km in DISTANCE_VALUES}
        for km, v in counts.items():
            left[km] -= v
        sides.append(counts)
    caller = None
    if goal == 700 and draw(st.booleans()):
        _trim(sides, 1000)
        caller = next((nm for nm, c in zip(names, sides) if _km(c) >= 700), None)
    _trim(sides, 1000 if caller else goal)
    safeties: dict[str, dict[str, str]] = {nm: {} for nm in names}
    for safety in SAFETIES:
        owner = draw(st.sampled_from([None, *names]))
        if owner is not None:
            safeties[owner][safety.value] = draw(st.sampled_from(["played", "coup_fourre"]))
    return {
        "goal": goal,
        "draw_pile_empty_at_finish": draw(st.booleans()),
        "extension_called_by": caller,
        "sides": [
            {"side": nm, "distance": {str(k): v for k, v in c.items()}, "safeties": safeties[nm]}
            for nm, c in zip(names, sides)
        ],
    }
