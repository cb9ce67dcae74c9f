"""The hand record: the facts of one hand (CONTRACT.md §1), parsed strictly and validated.

>>> record = HandRecord.from_json({
...     "goal": 1000,
...     "sides": [{"side": "A", "distance": {"200": 1, "100": 8}, "safeties": {"driving_ace": "coup_fourre"}},
...               {"side": "B", "distance": {"50": 3}}]})
>>> record.completer.side, record.side("B").km
('A', 150)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any

from scoring.cards import (
    DECK_COUNTS,
    DISTANCE_CARD_OF_KM,
    DISTANCE_VALUES,
    MAX_200S_PER_HAND,
    SAFETIES,
    Card,
)
from scoring.errors import IllegalHandError, MalformedHandError

GOALS: tuple[int, ...] = (700, 1000)
"""The goals a hand can be played to."""

EXTENDED_GOAL = 1000
"""The goal every side plays to once a side has called the extension."""

MIN_SIDES = 2
MAX_SIDES = 8
MAX_NAME_LENGTH = 60

_HAND_KEYS = frozenset({"goal", "draw_pile_empty_at_finish", "extension_called_by", "sides"})
_SIDE_KEYS = frozenset({"side", "distance", "safeties"})


class SafetyPlay(Enum):
    """How a safety was played: on the side's own turn, or sideways as a coup fourré."""

    PLAYED = "played"
    COUP_FOURRE = "coup_fourre"


@dataclass(frozen=True)
class SideRecord:
    """What one side laid down in a hand."""

    side: str
    """The side's name (a player, or a team such as "Ana & Cleo")."""

    distance: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({km: 0 for km in DISTANCE_VALUES}))
    """Count of distance cards played per value (25, 50, 75, 100, 200); every value present."""

    safeties: Mapping[Card, SafetyPlay] = field(default_factory=lambda: MappingProxyType({}))
    """Each safety the side played, and whether it was a coup fourré."""

    def __post_init__(self) -> None:
        full = {km: int(self.distance.get(km, 0)) for km in DISTANCE_VALUES}
        object.__setattr__(self, "distance", MappingProxyType(full))
        ordered = {s: self.safeties[s] for s in SAFETIES if s in self.safeties}
        object.__setattr__(self, "safeties", MappingProxyType(ordered))

    @property
    def km(self) -> int:
        """Total distance played."""
        return sum(km * n for km, n in self.distance.items())

    @property
    def distance_cards(self) -> int:
        """Number of distance cards played."""
        return sum(self.distance.values())

    @property
    def coups_fourres(self) -> int:
        """Number of safeties laid sideways as coups fourrés."""
        return sum(1 for play in self.safeties.values() if play is SafetyPlay.COUP_FOURRE)

    @property
    def has_all_safeties(self) -> bool:
        return len(self.safeties) == len(SAFETIES)

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "distance": {str(km): n for km, n in self.distance.items()},
            "safeties": {card.value: play.value for card, play in self.safeties.items()},
        }


@dataclass(frozen=True)
class HandRecord:
    """The facts of one hand. Construct with :meth:`from_json` (strict) or directly and call :meth:`validate`."""

    goal: int
    """700 or 1000: the goal the hand was dealt for."""

    sides: tuple[SideRecord, ...]
    """Every side of the table, in seating order (scores never depend on it)."""

    draw_pile_empty_at_finish: bool = False
    """The draw pile was empty when the trip was completed (or when play stopped)."""

    extension_called_by: str | None = None
    """In a 700-km game, the side that reached 700 and called the extension to 1,000."""

    @property
    def effective_goal(self) -> int:
        """The distance that completes the trip: 1,000 once the extension is called."""
        return EXTENDED_GOAL if self.extension_called_by is not None else self.goal

    @property
    def completer(self) -> SideRecord | None:
        """The side that completed the trip, if any (at most one, by validation)."""
        done = [s for s in self.sides if s.km == self.effective_goal]
        return done[0] if done else None

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(s.side for s in self.sides)

    def side(self, name: str) -> SideRecord:
        """The record of the side with this name.

        :raises KeyError: when no side has that name.
        """
        for s in self.sides:
            if s.side == name:
                return s
        raise KeyError(name)

    # -- JSON -----------------------------------------------------------------

    @classmethod
    def from_json(cls, data: object) -> HandRecord:
        """Parse a decoded JSON object strictly and validate it.

        :raises MalformedHandError: wrong types, unknown keys, ids or values, missing fields.
        :raises IllegalHandError: a well-formed record that breaks a rule of the game.
        """
        record = _parse_hand(data)
        record.validate()
        return record

    @classmethod
    def from_json_text(cls, text: str) -> HandRecord:
        """Parse JSON text (see :meth:`from_json`).

        :raises MalformedHandError: also when the text is not JSON at all.
        """
        return cls.from_json(decode_json(text, what="hand record"))

    def to_json(self) -> dict[str, Any]:
        return {
            "goal": self.goal,
            "draw_pile_empty_at_finish": self.draw_pile_empty_at_finish,
            "extension_called_by": self.extension_called_by,
            "sides": [s.to_json() for s in self.sides],
        }

    # -- rules ----------------------------------------------------------------

    def validate(self) -> None:
        """Check every play constraint of RULES.md.

        :raises IllegalHandError: naming the side and the field of the first rule broken.
        """
        if self.goal not in GOALS:
            raise IllegalHandError(f"must be 700 or 1000, not {self.goal}", field="goal")
        if not MIN_SIDES <= len(self.sides) <= MAX_SIDES:
            raise IllegalHandError(
                f"a hand has {MIN_SIDES} to {MAX_SIDES} sides, not {len(self.sides)}", field="sides"
            )
        seen: set[str] = set()
        for s in self.sides:
            if s.side in seen:
                raise IllegalHandError("this side is named twice", side=s.side, field="side")
            seen.add(s.side)
        if self.extension_called_by is not None:
            self._validate_extension(seen)
        goal = self.effective_goal
        table_count: dict[int, int] = {km: 0 for km in DISTANCE_VALUES}
        safety_owner: dict[Card, str] = {}
        for s in self.sides:
            for km, n in s.distance.items():
                if n < 0:
                    raise IllegalHandError(f"cannot be negative ({n})", side=s.side, field=f"distance.{km}")
                deck = DECK_COUNTS[DISTANCE_CARD_OF_KM[km]]
                table_count[km] += n
                if table_count[km] > deck:
                    raise IllegalHandError(
                        f"the deck has only {deck} {km}-km cards, the table holds {table_count[km]}",
                        side=s.side,
                        field=f"distance.{km}",
                    )
            if s.distance[200] > MAX_200S_PER_HAND:
                raise IllegalHandError(
                    f"a side plays at most {MAX_200S_PER_HAND} 200s in a hand, not {s.distance[200]}",
                    side=s.side,
                    field="distance.200",
                )
            if s.km > goal:
                raise IllegalHandError(
                    f"{s.km} km is past the goal of {goal} km (the trip must be exact)",
                    side=s.side,
                    field="distance",
                )
            for card in s.safeties:
                if card in safety_owner:
                    raise IllegalHandError(
                        f"{card.value} exists once and {safety_owner[card]} already played it",
                        side=s.side,
                        field=f"safeties.{card.value}",
                    )
                safety_owner[card] = s.side
        completers = [s.side for s in self.sides if s.km == goal]
        if len(completers) > 1:
            raise IllegalHandError(
                f"only one side can complete the trip; {completers[0]} already did",
                side=completers[1],
                field="distance",
            )

    def _validate_extension(self, names: set[str]) -> None:
        caller = self.extension_called_by
        if caller not in names:
            raise IllegalHandError(f"{caller!r} is not a side of this hand", field="extension_called_by")
        called_at = min(GOALS)
        if self.side(str(caller)).km < called_at:
            raise IllegalHandError(
                f"the extension is called on reaching {called_at} km, and this side has {self.side(str(caller)).km}",
                side=caller,
                field="extension_called_by",
            )


# -- strict parsing ----------------------------------------------------------------


def decode_json(text: str, *, what: str) -> object:
    """Decode JSON text, turning every decoding failure into a :class:`MalformedHandError`."""
    if not text.strip():
        raise MalformedHandError(f"the {what} is empty", field="")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise MalformedHandError(
            f"not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})", field=""
        ) from None
    except RecursionError:
        raise MalformedHandError("JSON nested too deeply", field="") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_hand(data: object) -> HandRecord:
    if not isinstance(data, dict):
        raise MalformedHandError(f"a hand record is a JSON object, not {_kind(data)}", field="(hand)")
    unknown = sorted(set(map(str, data)) - _HAND_KEYS)
    if unknown:
        raise MalformedHandError(f"unknown field (expected {', '.join(sorted(_HAND_KEYS))})", field=unknown[0])
    if "goal" not in data:
        raise MalformedHandError("missing (700 or 1000)", field="goal")
    goal = data["goal"]
    if not _is_int(goal):
        raise MalformedHandError(f"must be the number 700 or 1000, not {_kind(goal)}", field="goal")
    empty = data.get("draw_pile_empty_at_finish", False)
    if not isinstance(empty, bool):
        raise MalformedHandError(f"must be true or false, not {_kind(empty)}", field="draw_pile_empty_at_finish")
    caller = data.get("extension_called_by")
    if caller is not None and not isinstance(caller, str):
        raise MalformedHandError(f"must be a side's name or null, not {_kind(caller)}", field="extension_called_by")
    if "sides" not in data:
        raise MalformedHandError("missing (a list of sides)", field="sides")
    raw_sides = data["sides"]
    if not isinstance(raw_sides, list):
        raise MalformedHandError(f"must be a list of sides, not {_kind(raw_sides)}", field="sides")
    if len(raw_sides) > MAX_SIDES:
        raise MalformedHandError(f"at most {MAX_SIDES} sides, not {len(raw_sides)}", field="sides")
    sides = tuple(_parse_side(raw, i) for i, raw in enumerate(raw_sides))
    return HandRecord(goal=goal, sides=sides, draw_pile_empty_at_finish=empty, extension_called_by=caller)


def parse_side_name(value: object, *, field: str) -> str:
    """A side or player name: a non-empty string of printable characters, at most 60 long."""
    if not isinstance(value, str):
        raise MalformedHandError(f"a name is a string, not {_kind(value)}", field=field)
    name = value.strip()
    if not name:
        raise MalformedHandError("a name cannot be empty", field=field)
    if len(name) > MAX_NAME_LENGTH:
        raise MalformedHandError(f"a name has at most {MAX_NAME_LENGTH} characters", field=field)
    if not name.isprintable():
        raise MalformedHandError("a name cannot hold control characters", field=field)
    return name


def _parse_side(raw: object, index: int) -> SideRecord:
    where = f"sides[{index}]"
    if not isinstance(raw, dict):
        raise MalformedHandError(f"a side is a JSON object, not {_kind(raw)}", field=where)
    if "side" not in raw:
        raise MalformedHandError("missing the side's name", field=f"{where}.side")
    name = parse_side_name(raw["side"], field=f"{where}.side")
    unknown = sorted(set(map(str, raw)) - _SIDE_KEYS)
    if unknown:
        raise MalformedHandError(
            f"unknown field (expected {', '.join(sorted(_SIDE_KEYS))})", side=name, field=unknown[0]
        )
    distance = _parse_distance(raw.get("distance", {}), name)
    safeties = _parse_safeties(raw.get("safeties", {}), name)
    return SideRecord(side=name, distance=distance, safeties=safeties)


def _parse_distance(raw: object, side: str) -> dict[int, int]:
    if not isinstance(raw, dict):
        raise MalformedHandError(f"must be an object of counts per value, not {_kind(raw)}", side=side, field="distance")
    counts: dict[int, int] = {}
    for key, n in raw.items():
        text = str(key)
        km = int(text) if text.isascii() and text.isdigit() and len(text) <= 4 else None  # not ², not ٢٥
        if km not in DISTANCE_VALUES or km is None:
            raise MalformedHandError(
                f"unknown distance value {text!r} (values are 25, 50, 75, 100, 200)", side=side, field=f"distance.{text}"
            )
        if not _is_int(n):
            raise MalformedHandError(f"a count is a whole number, not {_kind(n)}", side=side, field=f"distance.{text}")
        if n < 0:
            raise MalformedHandError(f"a count cannot be negative ({n})", side=side, field=f"distance.{text}")
        deck = DECK_COUNTS[DISTANCE_CARD_OF_KM[km]]
        if n > deck:
            raise IllegalHandError(f"the deck has only {deck} {km}-km cards, not {n}", side=side, field=f"distance.{text}")
        if km in counts:
            raise MalformedHandError("value given twice", side=side, field=f"distance.{text}")
        counts[km] = n
    return counts


def _parse_safeties(raw: object, side: str) -> dict[Card, SafetyPlay]:
    if not isinstance(raw, dict):
        raise MalformedHandError(
            f'must be an object of safety id → "played" or "coup_fourre", not {_kind(raw)}', side=side, field="safeties"
        )
    plays: dict[Card, SafetyPlay] = {}
    names = ", ".join(s.value for s in SAFETIES)
    for key, how in raw.items():
        text = str(key)
        card = next((s for s in SAFETIES if s.value == text), None)
        if card is None:
            raise MalformedHandError(f"unknown safety {text!r} (safeties are {names})", side=side, field=f"safeties.{text}")
        if how not in ("played", "coup_fourre"):
            raise MalformedHandError(
                f'must be "played" or "coup_fourre", not {json.dumps(how)[:40]}', side=side, field=f"safeties.{text}"
            )
        plays[card] = SafetyPlay(how)
    return plays


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return f"the number {value}" if abs(value) < 1e12 else "a huge number"
    if isinstance(value, str):
        return f"the text {value[:30]!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
