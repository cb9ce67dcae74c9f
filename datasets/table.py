"""What lies on the table at one moment of a hand: each side's piles, the draw and discard piles.

This is what the scene renderer draws and what the hand record is read from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.cards import DISTANCE_VALUES, Card
from scoring.hand import HandRecord, SafetyPlay, SideRecord

SIDE_NAMES: tuple[str, ...] = ("South", "North", "East", "West")
"""Side names in seating order used by generated hands (South faces North, then East and West)."""


@dataclass
class SideTable:
    """The cards one side has laid down, in the order they were laid."""

    side: str
    distance: list[Card] = field(default_factory=list)
    """Distance cards in play order."""
    safeties: list[tuple[Card, bool]] = field(default_factory=list)
    """Safeties in play order, with ``True`` for a coup fourré (laid sideways)."""
    battle: list[Card] = field(default_factory=list)
    """The battle pile, bottom first (hazards on this side and the side's remedies)."""
    speed: list[Card] = field(default_factory=list)
    """The speed pile, bottom first (speed limits and ends of limit)."""

    @property
    def km(self) -> int:
        return sum(c.km for c in self.distance)

    def record(self) -> SideRecord:
        counts = {km: 0 for km in DISTANCE_VALUES}
        for c in self.distance:
            counts[c.km] += 1
        plays = {c: SafetyPlay.COUP_FOURRE if cf else SafetyPlay.PLAYED for c, cf in self.safeties}
        return SideRecord(side=self.side, distance=counts, safeties=plays)

    def copy(self) -> SideTable:
        return SideTable(self.side, list(self.distance), list(self.safeties), list(self.battle), list(self.speed))


@dataclass
class TableState:
    """Everything face up or face down on the table, plus the facts needed for the hand record."""

    goal: int
    sides: list[SideTable]
    draw_pile: int
    """Cards left in the face-down draw pile (0: the pile is gone)."""
    discard: list[Card] = field(default_factory=list)
    """The discard pile, bottom first."""
    extension_called_by: str | None = None
    finished: bool = False

    def record(self) -> HandRecord:
        """The hand record of this moment (CONTRACT §1)."""
        return HandRecord(
            goal=self.goal,
            sides=tuple(s.record() for s in self.sides),
            draw_pile_empty_at_finish=self.finished and self.draw_pile == 0,
            extension_called_by=self.extension_called_by,
        )

    def copy(self) -> TableState:
        return TableState(
            self.goal, [s.copy() for s in self.sides], self.draw_pile, list(self.discard), self.extension_called_by, self.finished
        )
