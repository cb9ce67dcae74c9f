"""What the tracker says: the hand's state after a frame, its plays (events) and its flags.

Value types with ``to_json`` for ``borne replay`` and the display, and ``to_state``/``from_state`` for a
snapshot taken back after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.cards import Card
from scoring.hand import EXTENDED_GOAL, HandRecord, SafetyPlay, SideRecord


class FlagReason(Enum):
    """Why a card that landed was not counted, or why a counted one is in doubt."""

    PAST_GOAL = "past_goal"
    THIRD_200 = "third_200"
    DECK_COUNT = "deck_count"
    SAFETY_TWICE = "safety_twice"
    AFTER_TRIP = "after_trip"
    STOPPED = "stopped"
    """Counted, and flagged: a distance card while the side's battle pile showed a hazard (or a remedy with
    no Roll on it, where the rules ask for one); see :mod:`vision.track.rule_checks`."""
    SPEED_LIMIT = "speed_limit"
    """Counted, and flagged: a distance card over 50 while the side's speed pile showed a Speed Limit."""
    UNPROVOKED_COUP_FOURRE = "unprovoked_coup_fourre"
    """Counted, and flagged: a safety laid sideways that answers no matching attack laid on its side just
    before (a safety misread as sideways, or the attack missed)."""
    OFF_PILE = "off_pile"
    """Counted, and flagged: a battle or speed card that landed away from its side's pile of that kind (a card
    misread, most likely: a safety read as a remedy)."""
    CENSUS = "census"
    """Not counted: the whole table read at a clear view shows more of a card on a side than its landings (a play
    the landings missed, or a card the census misread); the count stays the landings', a person should look."""
    UNREAD = "unread"
    """A card landed on a side that could not be read (a deck Borne reads badly, the camera too far, something
    laid there that is no card): its count may lack it. Of the side, no card."""
    IN_PLAY_AT_START = "in_play_at_start"
    """The camera started on a hand already in play: the cards already there were read once, from the first view
    (column strips too), and counted; a person should confirm them. Of the whole hand: no side, no card."""
    UNFINISHED = "unfinished"
    """The hand ended (the table cleared, the source stopped) with cards left in the draw pile and no
    side at the goal: a hand is played until one side completes the trip or the draw pile is gone,
    so a card was probably missed (or the hand abandoned). Of the whole hand: no side, no card."""


@dataclass(frozen=True)
class PlayEvent:
    """A card the tracker decided was played."""

    frame: int
    """The frame in which the card was read: the clear view after it landed."""
    time: float
    side: str
    card: Card
    sideways: bool
    decided_frame: int
    """The frame in which it was counted (the same clear view: a landing is decided as it is read)."""
    decided_time: float
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {"frame": self.frame, "side": self.side, "card": self.card.value, "sideways": self.sideways}

    def to_state(self) -> dict[str, Any]:
        """Every field, for a snapshot (:meth:`from_state` reads it back)."""
        return {"frame": self.frame, "time": self.time, "side": self.side, "card": self.card.value,
                "sideways": self.sideways, "decided_frame": self.decided_frame, "decided_time": self.decided_time,
                "confidence": self.confidence}

    @classmethod
    def from_state(cls, d: dict[str, Any]) -> PlayEvent:
        return cls(int(d["frame"]), float(d["time"]), str(d["side"]), Card(d["card"]), bool(d["sideways"]),
                   int(d["decided_frame"]), float(d["decided_time"]), float(d["confidence"]))


@dataclass(frozen=True)
class Flag:
    """Evidence a person should look at: a card seen consistently that would break a rule, or a
    counted card that was hardly seen."""

    frame: int
    time: float
    side: str | None
    """``None`` for a flag of the whole hand (:attr:`FlagReason.UNFINISHED`)."""
    card: Card | None
    reason: FlagReason
    message: str
    where: tuple[float, float] | None = None
    """Where the card lies in the frame's picture (the middle of its top edge), when known: its thumbnail
    outlines the card there."""

    def to_json(self) -> dict[str, Any]:
        return {"frame": self.frame, "side": self.side, "card": self.card.value if self.card is not None else None,
                "reason": self.reason.value, "message": self.message}

    def to_state(self) -> dict[str, Any]:
        return {**self.to_json(), "time": self.time, "where": list(self.where) if self.where is not None else None}

    @classmethod
    def from_state(cls, d: dict[str, Any]) -> Flag:
        where = d.get("where")
        return cls(int(d["frame"]), float(d["time"]), d["side"], Card(d["card"]) if d["card"] is not None else None,
                   FlagReason(d["reason"]), d["message"],
                   (float(where[0]), float(where[1])) if where is not None else None)


@dataclass(frozen=True)
class SideState:
    """What one side has played so far in the hand, as the tracker believes it."""

    side: str
    distance: dict[int, int]
    safeties: dict[Card, SafetyPlay]
    confidence: float
    """0–1: how sure the tracker is of this side (lower while a card is half seen or a flag is open)."""

    @property
    def km(self) -> int:
        return sum(km * n for km, n in self.distance.items())

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "distance": {str(km): n for km, n in self.distance.items()},
                "safeties": {c.value: p.value for c, p in self.safeties.items()}}


@dataclass(frozen=True)
class HandState:
    """The hand as the tracker believes it after some frame."""

    goal: int
    extension_called_by: str | None
    sides: tuple[SideState, ...]
    draw_pile: bool
    events: tuple[PlayEvent, ...]
    flags: tuple[Flag, ...]

    @property
    def effective_goal(self) -> int:
        return EXTENDED_GOAL if self.extension_called_by is not None else self.goal

    @property
    def any_played(self) -> bool:
        """Whether any side has a distance card or a safety counted."""
        return any(sum(s.distance.values()) or s.safeties for s in self.sides)

    @property
    def completer(self) -> str | None:
        """The side whose distance equals the goal now in force, if any."""
        return next((s.side for s in self.sides if s.km == self.effective_goal), None)

    def record(self, *, draw_pile_empty_at_finish: bool = False) -> HandRecord:
        """The hand record of this state, validated by the scoring core.

        :raises IllegalHandError: never for a state the tracker built itself (it applies only legal plays).
        """
        record = HandRecord(
            goal=self.goal,
            sides=tuple(SideRecord(s.side, dict(s.distance), dict(s.safeties)) for s in self.sides),
            draw_pile_empty_at_finish=draw_pile_empty_at_finish,
            extension_called_by=self.extension_called_by,
        )
        record.validate()
        return record

    def to_json(self) -> dict[str, Any]:
        """``borne replay``'s form (CONTRACT §6): ``detect`` without cards, plus events, flags and confidences."""
        return {
            "sides": [s.to_json() for s in self.sides],
            "draw_pile": self.draw_pile,
            "events": [e.to_json() for e in self.events],
            "flags": [f.to_json() for f in self.flags],
            "confidence": {s.side: round(s.confidence, 3) for s in self.sides},
        }
