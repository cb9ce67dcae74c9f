"""One more play against the cards already on the table: the rules a single card can break.

The camera's tracker asks this before it counts a card it saw (``vision``'s reconciliation); the rules
themselves are those :meth:`scoring.hand.HandRecord.validate` checks of a whole hand, said once here for
a card at a time.

>>> table = [("A", Card.DISTANCE_200), ("A", Card.DISTANCE_200), ("B", Card.DRIVING_ACE)]
>>> check_play(table, "A", Card.DISTANCE_200, goal=1000)
BrokenRule(rule=<PlayRule.THIRD_200: 'third_200'>, message='A already has 2 200s')
>>> check_play(table, "A", Card.DRIVING_ACE, goal=1000).rule
<PlayRule.SAFETY_TWICE: 'safety_twice'>
>>> check_play(table, "B", Card.DISTANCE_100, goal=1000) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from scoring.cards import DECK_COUNTS, MAX_200S_PER_HAND, Card


class PlayRule(Enum):
    """A rule one more card can break."""

    SAFETY_TWICE = "safety_twice"
    """Each safety exists once in the deck: another side already has it."""
    DECK_COUNT = "deck_count"
    """The deck holds fewer cards of this kind than would then be on the table."""
    THIRD_200 = "third_200"
    """A side plays at most :data:`~scoring.cards.MAX_200S_PER_HAND` 200s in a hand."""
    AFTER_TRIP = "after_trip"
    """A side completed the trip: the hand is over (no extension was called)."""
    PAST_GOAL = "past_goal"
    """Distance never passes the goal."""


@dataclass(frozen=True)
class BrokenRule:
    """The rule a play breaks, and a sentence a player understands."""

    rule: PlayRule
    message: str


def check_play(table: Iterable[tuple[str, Card]], side: str, card: Card, *, goal: int,
               trip_completed_by: str | None = None) -> BrokenRule | None:
    """Whether ``side`` may lay ``card`` on a table holding ``table`` (``(side, card)`` pairs); ``None`` if so.

    ``goal``: the goal the card counts towards (1,000 once an extension is called); ``trip_completed_by``:
    the side that completed the trip, when the hand is over and no extension can follow. The checks go from
    the whole deck to the side: a safety laid twice, a deck count passed, a third 200, a play after the
    trip, a goal passed.
    """
    counted = list(table)
    if card.is_safety:
        owner = next((s for s, c in counted if c is card), None)
        if owner is not None:
            return BrokenRule(PlayRule.SAFETY_TWICE, f"{card.title} exists once and {owner} already has it")
        return None
    on_table = sum(1 for _, c in counted if c is card)
    if on_table + 1 > DECK_COUNTS[card]:
        return BrokenRule(PlayRule.DECK_COUNT,
                          f"the deck has only {DECK_COUNTS[card]} {card.title}, this would be one more")
    if not card.is_distance:
        return None
    mine = [c for s, c in counted if s == side and c.is_distance]
    if card is Card.DISTANCE_200 and sum(1 for c in mine if c is card) >= MAX_200S_PER_HAND:
        return BrokenRule(PlayRule.THIRD_200, f"{side} already has {MAX_200S_PER_HAND} 200s")
    if trip_completed_by is not None:
        return BrokenRule(PlayRule.AFTER_TRIP, f"{trip_completed_by} already completed the trip")
    km = sum(c.km for c in mine)
    if km + card.km > goal:
        return BrokenRule(PlayRule.PAST_GOAL, f"{side} has {km} km; {card.km} more passes the goal of {goal} km")
    return None
