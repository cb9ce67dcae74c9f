"""Scoring a hand by a rule set: the nine line items per side, the totals and the hand's winner.

>>> from scoring.hand import HandRecord
>>> from scoring.rules import RULE_SETS
>>> hand = HandRecord.from_json({"goal": 1000, "draw_pile_empty_at_finish": True, "sides": [
...     {"side": "Ana & Cleo", "distance": {"50": 1, "75": 2, "100": 6, "200": 1},
...      "safeties": {"puncture_proof": "coup_fourre", "driving_ace": "played"}},
...     {"side": "Ben & Dev", "distance": {"100": 4, "75": 1, "50": 2}, "safeties": {"extra_tank": "played"}}]})
>>> [s.total for s in score_hand(hand, RULE_SETS["classic"]).sides]
[2200, 675]
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from scoring.errors import IllegalHandError
from scoring.hand import HandRecord, SideRecord
from scoring.rules import RuleSet, ShutOutAward, TripAward

ITEM_NAMES: tuple[str, ...] = (
    "distance",
    "safeties",
    "all_safeties",
    "coups_fourres",
    "trip",
    "delayed_action",
    "safe_trip",
    "shut_out",
    "extension",
)
"""The nine line items of a score pad, in the order they are printed."""


@dataclass(frozen=True)
class LineItems:
    """One side's points in a hand, item by item (0 where an item does not apply)."""

    distance: int = 0
    safeties: int = 0
    all_safeties: int = 0
    coups_fourres: int = 0
    trip: int = 0
    delayed_action: int = 0
    safe_trip: int = 0
    shut_out: int = 0
    extension: int = 0

    @property
    def total(self) -> int:
        return sum(getattr(self, f.name) for f in fields(self))

    def to_json(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in ITEM_NAMES}


@dataclass(frozen=True)
class SideScore:
    side: str
    items: LineItems

    @property
    def total(self) -> int:
        return self.items.total

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "items": self.items.to_json(), "total": self.total}


@dataclass(frozen=True)
class HandScore:
    """A scored hand: per side the items and total, in the record's order, and the hand's winner."""

    rules: str
    sides: tuple[SideScore, ...]
    winner: str | None
    """The side that won the hand, or ``None`` (nobody finished, or a tie where the rules need a leader)."""

    def side(self, name: str) -> SideScore:
        for s in self.sides:
            if s.side == name:
                return s
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "sides": [s.to_json() for s in self.sides], "winner": self.winner}


def check_rules(record: HandRecord, rules: RuleSet) -> None:
    """Refuse a valid record that these rules cannot score (a 700-km hand under Dujardin, ...).

    :raises IllegalHandError: naming the field.
    """
    if record.goal not in rules.goals:
        allowed = " or ".join(f"{g:,}" for g in rules.goals)
        raise IllegalHandError(f"{rules.name} plays to {allowed} km, not {record.goal:,}", field="goal")
    if record.extension_called_by is not None and 700 not in rules.goals:
        raise IllegalHandError(f"{rules.name} has no extension", field="extension_called_by")


def hand_winner(record: HandRecord, rules: RuleSet) -> SideRecord | None:
    """The side that won the hand.

    The side that completed the trip; when nobody did and the rules give the hand to a
    leader (Dujardin), the side with the most km, and nobody on a tie.
    """
    completer = record.completer
    if completer is not None or rules.trip_award is TripAward.COMPLETER:
        return completer
    most = max(s.km for s in record.sides)
    leaders = [s for s in record.sides if s.km == most]
    return leaders[0] if len(leaders) == 1 else None


def score_hand(record: HandRecord, rules: RuleSet) -> HandScore:
    """Score a validated hand record by a rule set.

    :raises IllegalHandError: when the rules cannot score this record (see :func:`check_rules`).
    """
    check_rules(record, rules)
    winner = hand_winner(record, rules)
    completer = record.completer
    caller = record.extension_called_by
    extension_failed = caller is not None and (completer is None or completer.side != caller)
    sides_without_distance = sum(1 for s in record.sides if s.km == 0)
    scores = []
    for side in record.sides:
        others_without = sides_without_distance - (1 if side.km == 0 else 0)
        items = _side_items(
            side,
            rules,
            scores_trip=winner is side,
            completed=completer is side,
            draw_pile_empty=record.draw_pile_empty_at_finish,
            others_all_zero=others_without == len(record.sides) - 1,
            others_without_distance=others_without,
            made_extension=caller == side.side and completer is side,
            rewarded_for_failed_extension=extension_failed and caller != side.side,
        )
        scores.append(SideScore(side=side.side, items=items))
    return HandScore(rules=rules.name, sides=tuple(scores), winner=winner.side if winner else None)


def _side_items(
    side: SideRecord,
    rules: RuleSet,
    *,
    scores_trip: bool,
    completed: bool,
    draw_pile_empty: bool,
    others_all_zero: bool,
    others_without_distance: int,
    made_extension: bool,
    rewarded_for_failed_extension: bool,
) -> LineItems:
    shut_out = 0
    if rules.shut_out_award is ShutOutAward.COMPLETER:
        shut_out = rules.shut_out if completed and others_all_zero else 0
    elif rules.shut_out_award is ShutOutAward.ONLY_SIDE_WITH_DISTANCE:
        shut_out = rules.shut_out if side.km > 0 and others_all_zero else 0
    elif rules.shut_out_award is ShutOutAward.OTHERS_OF_EMPTY:
        shut_out = rules.shut_out * others_without_distance
    extension = 0
    if made_extension or rewarded_for_failed_extension:
        extension = rules.extension
    return LineItems(
        distance=side.km * rules.distance_per_km,
        safeties=len(side.safeties) * rules.safety,
        all_safeties=rules.all_safeties if side.has_all_safeties else 0,
        coups_fourres=side.coups_fourres * rules.coup_fourre,
        trip=rules.trip if scores_trip else 0,
        delayed_action=rules.delayed_action if completed and draw_pile_empty else 0,
        safe_trip=rules.safe_trip if scores_trip and side.distance[200] == 0 else 0,
        shut_out=shut_out,
        extension=extension,
    )
