"""Each side's battle and speed piles as the camera saw them: which card came on top, and when.

A pile shows its top card; a card laid on it hides the one under. The tracker's cards are told apart by
place, so a second Roll laid on the same battle pile is the first one seen again: the pile's story is
kept here instead, as the cards that came on top one after another. A card comes on top once it is the
only new card of its pile seen in :data:`TOP_FRAMES` frames (frames with nothing of the pile in sight —
an arm over it — neither count nor break the run); the card under it showing again (the hazard of a coup
fourré taken away) is a change of top too. A frame where the top is read at least as surely as the new card
is no evidence either way: a card laid on a pile hides the one under it, so that is a second, weaker box on
the top card read as another.

>>> watch = PileWatch()
>>> for i in range(4):
...     watch.see(i, {Card.ROLL: 0.9})
>>> [(p.frame, p.card.value) for p in watch.cards]
[(0, 'roll')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.cards import Card
from vision.table.observations import FrameObservations
from vision.track.rule_checks import BATTLE_CARDS, SPEED_CARDS, PileCard, SidePiles

TOP_FRAMES = 3
"""Frames a new card of a pile must be seen in (and no other new card) before it is on top: raising it
lets fewer misreadings pass for a card laid, lowering it believes a new top sooner."""


@dataclass
class PileWatch:
    """One pile of one side: the cards that came on top, oldest first."""

    cards: list[PileCard] = field(default_factory=list)
    top_frames: int = TOP_FRAMES
    """Frames a new card must be seen in before it is on top (:attr:`~vision.track.settings.ReconcileSettings.pile_top_frames`)."""
    _run: Card | None = None
    _run_from: int = 0
    _run_frames: int = 0

    @property
    def top(self) -> Card | None:
        return self.cards[-1].card if self.cards else None

    def see(self, frame: int, shown: Mapping[Card, float]) -> None:
        """The pile's cards read in ``frame``, each with the confidence of its surest reading there."""
        if not shown:
            return  # hidden (an arm over it) or not in sight: no evidence either way
        new = [c for c in shown if c is not self.top]
        if len(new) != 1:
            if not new:
                self._run, self._run_frames = None, 0  # only the top in sight: it is still the top
            return  # two new cards at once: a misreading, wait for a clear frame
        (card,) = new
        top = self.top
        if top is not None and top in shown and shown[top] >= shown[card]:
            return  # the top read as surely as the newcomer: a second box on the top, misread
        if card is not self._run:
            self._run, self._run_from, self._run_frames = card, frame, 0
        self._run_frames += 1
        if self._run_frames >= self.top_frames:
            self.cards.append(PileCard(self._run_from, card))
            self._run, self._run_frames = None, 0

    def to_state(self) -> list[list[Any]]:
        return [[p.frame, p.card.value] for p in self.cards]

    @classmethod
    def from_state(cls, d: list[list[Any]], top_frames: int = TOP_FRAMES) -> PileWatch:
        return cls([PileCard(int(f), Card(c)) for f, c in d], top_frames)


@dataclass
class TablePiles:
    """Every side's battle and speed piles."""

    sides: tuple[str, ...]
    top_frames: int = TOP_FRAMES
    battle: dict[str, PileWatch] = field(default_factory=dict)
    speed: dict[str, PileWatch] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in self.sides:
            self.battle.setdefault(name, PileWatch(top_frames=self.top_frames))
            self.speed.setdefault(name, PileWatch(top_frames=self.top_frames))

    def see(self, frame: FrameObservations, minimum_confidence: float) -> None:
        for name in self.sides:
            surest: dict[Card, float] = {}
            for o in frame.cards:
                if o.side == name and o.confidence >= minimum_confidence:
                    surest[o.card] = max(o.confidence, surest.get(o.card, 0.0))
            self.battle[name].see(frame.index, {c: v for c, v in surest.items() if c in BATTLE_CARDS})
            self.speed[name].see(frame.index, {c: v for c, v in surest.items() if c in SPEED_CARDS})

    def of(self, side: str, safeties: tuple[PileCard, ...] = ()) -> SidePiles:
        """``side``'s piles for the rule checks, with the safeties counted for it."""
        return SidePiles(tuple(self.battle[side].cards), tuple(self.speed[side].cards), safeties)

    def to_state(self) -> dict[str, Any]:
        return {"battle": {k: w.to_state() for k, w in self.battle.items()},
                "speed": {k: w.to_state() for k, w in self.speed.items()}}

    @classmethod
    def from_state(cls, sides: tuple[str, ...], d: dict[str, Any] | None, top_frames: int = TOP_FRAMES) -> TablePiles:
        if d is None:
            return cls(sides, top_frames)
        return cls(sides, top_frames, {k: PileWatch.from_state(v, top_frames) for k, v in d["battle"].items()},
                   {k: PileWatch.from_state(v, top_frames) for k, v in d["speed"].items()})
