"""Rule sets: the point values and awards of each rule sheet, as settings.

A rule set is data, not code: a house rule is a new preset (or a :class:`RuleSet`
built with :meth:`RuleSet.with_values`), never a new scoring function.

>>> RULE_SETS["classic-swapped"].safe_trip, RULE_SETS["classic-swapped"].shut_out
(500, 300)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType

from scoring.errors import UnknownRulesError


class TripAward(Enum):
    """Who scores the trip (and the bonuses that go with it)."""

    COMPLETER = "completer"
    """Only the side whose distance equals the goal."""

    HAND_WINNER = "hand_winner"
    """The hand's winner: the side that completed, else the side with the most km (a tie: nobody)."""


class ShutOutAward(Enum):
    """Who scores the shut-out bonus."""

    COMPLETER = "completer"
    """The side that completed the trip, when every other side has 0 km (classic)."""

    ONLY_SIDE_WITH_DISTANCE = "only_side_with_distance"
    """A side with some distance when every other side has 0 km, trip or not (Teamzy)."""

    OTHERS_OF_EMPTY = "others_of_empty"
    """For each side with no distance card, every other side scores it once (Dujardin 2024)."""


class Counting(Enum):
    """What a game adds up hand by hand."""

    POINTS = "points"
    """Totals of points; the first side to the target in points wins."""

    HAND_WINS = "hand_wins"
    """Hands won (a race, no points); the first side to the target in hand wins wins."""


@dataclass(frozen=True)
class RuleSet:
    """One rule sheet as settings. Every value is in points; 0 switches an item off."""

    name: str
    """The preset's name as given to ``--rules`` (``classic``, ``teamzy``, ...)."""

    description: str
    """One line saying what it counts, for the set-up page and ``--help``."""

    distance_per_km: int = 1
    safety: int = 100
    """Per safety played, coups fourrés included."""
    all_safeties: int = 300
    """More, when one side has all four safeties."""
    coup_fourre: int = 300
    """More per coup fourré, on top of the safety's own points."""
    trip: int = 400
    trip_award: TripAward = TripAward.COMPLETER
    delayed_action: int = 300
    """To the completer, when the draw pile was empty at the finish."""
    safe_trip: int = 300
    """To the side scoring the trip, when it played no 200."""
    shut_out: int = 500
    shut_out_award: ShutOutAward = ShutOutAward.COMPLETER
    extension: int = 200
    """To a caller who completes 1,000, or to each other side when the caller falls short."""
    goals: tuple[int, ...] = (700, 1000)
    """The goals a hand may be played to under these rules."""
    counting: Counting = Counting.POINTS
    default_target: int = 5000
    """Points (or hand wins, for a race) that win the game unless the table chooses another target."""
    classic_setup: bool = False
    """Goal and extension follow the number of players (700 with the extension for 2, 3 and 6)."""

    def with_values(self, name: str, description: str, **values: int) -> RuleSet:
        """A house rule: this rule set with some values changed, under a new name.

        >>> RULE_SETS["classic"].with_values("generous", "classic, 1,000 for a shut-out", shut_out=1000).shut_out
        1000
        """
        return replace(self, name=name, description=description, **values)  # type: ignore[arg-type]

    @classmethod
    def from_name(cls, name: str) -> RuleSet:
        """The preset with this name.

        :raises UnknownRulesError: naming the presets that exist.
        """
        try:
            return RULE_SETS[name]
        except KeyError:
            raise UnknownRulesError(
                f"unknown rule set {name!r} (choose one of {', '.join(RULE_SETS)})"
            ) from None


CLASSIC = RuleSet(
    name="classic",
    description="Parker Brothers' count: km, 100 a safety, 300 more for all four and per coup fourré; "
    "to the side that finishes 400, delayed action 300, safe trip 300, shut-out 500, extension 200.",
    classic_setup=True,
)

CLASSIC_SWAPPED = replace(
    CLASSIC,
    name="classic-swapped",
    description="The classic count with safe trip 500 and shut-out 300, as some rule sheets print it.",
    safe_trip=500,
    shut_out=300,
)

TEAMZY = RuleSet(
    name="teamzy",
    description="Teamzy's count: km, safeties, all four and coups fourrés as classic; trip 400; "
    "shut-out 500 to a side with km when the others have none; no delayed action, safe trip or extension.",
    delayed_action=0,
    safe_trip=0,
    extension=0,
    shut_out_award=ShutOutAward.ONLY_SIDE_WITH_DISTANCE,
)

DUJARDIN_2024 = RuleSet(
    name="dujardin-2024",
    description="Dujardin 2024 points variant: no bonus for all four safeties; 400 to the hand's winner "
    "(most km if nobody finishes), 200 more without a 200; 500 to every other side per side with no km.",
    all_safeties=0,
    trip_award=TripAward.HAND_WINNER,
    delayed_action=0,
    safe_trip=200,
    shut_out_award=ShutOutAward.OTHERS_OF_EMPTY,
    extension=0,
    goals=(1000,),
)

DUJARDIN_2025 = RuleSet(
    name="dujardin-2025",
    description="Dujardin 2025 race: no points; first to exactly 1,000 wins the hand, "
    "or the side closest to 1,000 when the distance cards run out.",
    distance_per_km=0,
    safety=0,
    all_safeties=0,
    coup_fourre=0,
    trip=0,
    trip_award=TripAward.HAND_WINNER,
    delayed_action=0,
    safe_trip=0,
    shut_out=0,
    extension=0,
    goals=(1000,),
    counting=Counting.HAND_WINS,
    default_target=1,
)

RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(
    {r.name: r for r in (CLASSIC, CLASSIC_SWAPPED, TEAMZY, DUJARDIN_2024, DUJARDIN_2025)}
)
"""Every preset, by name; ``classic`` is the default."""

DEFAULT_RULES = "classic"
