"""The card catalogue: the 19 card ids, their groups, deck counts and protections.

>>> Card.from_id("distance_75").km
75
>>> SAFETY_PROTECTS[Card.PUNCTURE_PROOF]
(<Card.FLAT_TIRE: 'flat_tire'>,)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType

from scoring.errors import UnknownCardError


class Group(Enum):
    """The four colour-coded groups of the deck."""

    DISTANCE = "distance"
    HAZARD = "hazard"
    REMEDY = "remedy"
    SAFETY = "safety"


class Card(Enum):
    """One of the 19 card ids of RULES.md; the value is the id as written in JSON."""

    DISTANCE_25 = "distance_25"
    DISTANCE_50 = "distance_50"
    DISTANCE_75 = "distance_75"
    DISTANCE_100 = "distance_100"
    DISTANCE_200 = "distance_200"
    STOP = "stop"
    SPEED_LIMIT = "speed_limit"
    OUT_OF_GAS = "out_of_gas"
    FLAT_TIRE = "flat_tire"
    ACCIDENT = "accident"
    ROLL = "roll"
    END_OF_LIMIT = "end_of_limit"
    GASOLINE = "gasoline"
    SPARE_TIRE = "spare_tire"
    REPAIRS = "repairs"
    RIGHT_OF_WAY = "right_of_way"
    EXTRA_TANK = "extra_tank"
    PUNCTURE_PROOF = "puncture_proof"
    DRIVING_ACE = "driving_ace"

    @classmethod
    def from_id(cls, card_id: str) -> Card:
        """The card with this id.

        :raises UnknownCardError: when no card has that id.
        """
        try:
            return cls(card_id)
        except ValueError:
            raise UnknownCardError(f"unknown card id {card_id!r}") from None

    @property
    def group(self) -> Group:
        """The card's group (distance, hazard, remedy or safety)."""
        return _GROUP_OF[self]

    @property
    def km(self) -> int:
        """The distance a distance card is worth; 0 for the others."""
        return _KM_OF.get(self, 0)

    @property
    def is_safety(self) -> bool:
        return self.group is Group.SAFETY

    @property
    def is_distance(self) -> bool:
        return self.group is Group.DISTANCE

    @property
    def title(self) -> str:
        """The card's name as printed in English ("Puncture-Proof", "75 km")."""
        return _TITLES[self]


_GROUP_OF: Mapping[Card, Group] = MappingProxyType(
    {
        **{c: Group.DISTANCE for c in (Card.DISTANCE_25, Card.DISTANCE_50, Card.DISTANCE_75, Card.DISTANCE_100, Card.DISTANCE_200)},
        **{c: Group.HAZARD for c in (Card.STOP, Card.SPEED_LIMIT, Card.OUT_OF_GAS, Card.FLAT_TIRE, Card.ACCIDENT)},
        **{c: Group.REMEDY for c in (Card.ROLL, Card.END_OF_LIMIT, Card.GASOLINE, Card.SPARE_TIRE, Card.REPAIRS)},
        **{c: Group.SAFETY for c in (Card.RIGHT_OF_WAY, Card.EXTRA_TANK, Card.PUNCTURE_PROOF, Card.DRIVING_ACE)},
    }
)

_KM_OF: Mapping[Card, int] = MappingProxyType(
    {Card.DISTANCE_25: 25, Card.DISTANCE_50: 50, Card.DISTANCE_75: 75, Card.DISTANCE_100: 100, Card.DISTANCE_200: 200}
)

_TITLES: Mapping[Card, str] = MappingProxyType(
    {
        Card.DISTANCE_25: "25 km",
        Card.DISTANCE_50: "50 km",
        Card.DISTANCE_75: "75 km",
        Card.DISTANCE_100: "100 km",
        Card.DISTANCE_200: "200 km",
        Card.STOP: "Stop",
        Card.SPEED_LIMIT: "Speed Limit",
        Card.OUT_OF_GAS: "Out of Gas",
        Card.FLAT_TIRE: "Flat Tire",
        Card.ACCIDENT: "Accident",
        Card.ROLL: "Roll",
        Card.END_OF_LIMIT: "End of Limit",
        Card.GASOLINE: "Gasoline",
        Card.SPARE_TIRE: "Spare Tire",
        Card.REPAIRS: "Repairs",
        Card.RIGHT_OF_WAY: "Right of Way",
        Card.EXTRA_TANK: "Extra Tank",
        Card.PUNCTURE_PROOF: "Puncture-Proof",
        Card.DRIVING_ACE: "Driving Ace",
    }
)

DISTANCE_CARDS: tuple[Card, ...] = tuple(c for c in Card if c.is_distance)
"""The five distance cards, shortest first."""

DISTANCE_VALUES: tuple[int, ...] = tuple(c.km for c in DISTANCE_CARDS)
"""The distance values 25, 50, 75, 100, 200 as used in hand records."""

SAFETIES: tuple[Card, ...] = tuple(c for c in Card if c.is_safety)
"""The four safeties, in catalogue order."""

HAZARDS: tuple[Card, ...] = tuple(c for c in Card if c.group is Group.HAZARD)
REMEDIES: tuple[Card, ...] = tuple(c for c in Card if c.group is Group.REMEDY)

DISTANCE_CARD_OF_KM: Mapping[int, Card] = MappingProxyType({c.km: c for c in DISTANCE_CARDS})

DECK_COUNTS: Mapping[Card, int] = MappingProxyType(
    {
        Card.DISTANCE_25: 10,
        Card.DISTANCE_50: 10,
        Card.DISTANCE_75: 10,
        Card.DISTANCE_100: 12,
        Card.DISTANCE_200: 4,
        Card.STOP: 5,
        Card.SPEED_LIMIT: 4,
        Card.OUT_OF_GAS: 3,
        Card.FLAT_TIRE: 3,
        Card.ACCIDENT: 3,
        Card.ROLL: 14,
        Card.END_OF_LIMIT: 6,
        Card.GASOLINE: 6,
        Card.SPARE_TIRE: 6,
        Card.REPAIRS: 6,
        Card.RIGHT_OF_WAY: 1,
        Card.EXTRA_TANK: 1,
        Card.PUNCTURE_PROOF: 1,
        Card.DRIVING_ACE: 1,
    }
)
"""Copies of each card in the standard 106-card deck."""

SAFETY_PROTECTS: Mapping[Card, tuple[Card, ...]] = MappingProxyType(
    {
        Card.RIGHT_OF_WAY: (Card.STOP, Card.SPEED_LIMIT),
        Card.EXTRA_TANK: (Card.OUT_OF_GAS,),
        Card.PUNCTURE_PROOF: (Card.FLAT_TIRE,),
        Card.DRIVING_ACE: (Card.ACCIDENT,),
    }
)
"""Which hazards each safety protects against for the rest of the hand."""

REMEDY_FOR: Mapping[Card, Card] = MappingProxyType(
    {
        Card.STOP: Card.ROLL,
        Card.SPEED_LIMIT: Card.END_OF_LIMIT,
        Card.OUT_OF_GAS: Card.GASOLINE,
        Card.FLAT_TIRE: Card.SPARE_TIRE,
        Card.ACCIDENT: Card.REPAIRS,
    }
)
"""The remedy that cancels each hazard."""

SAFETY_AGAINST: Mapping[Card, Card] = MappingProxyType(
    {hazard: safety for safety, hazards in SAFETY_PROTECTS.items() for hazard in hazards}
)
"""The safety that protects against each hazard (and allows a coup fourré on it)."""

MAX_200S_PER_HAND = 2
"""A side plays at most two 200-km cards in a hand."""


def deck(players: int = 4) -> dict[Card, int]:
    """The deck for a number of players: 106 cards, or 101 for 2 and 3 players.

    Classic 2- and 3-player games remove one of each hazard.

    >>> sum(deck(2).values()), sum(deck(4).values())
    (101, 106)
    """
    counts = dict(DECK_COUNTS)
    if players in (2, 3):
        for hazard in HAZARDS:
            counts[hazard] -= 1
    return counts
