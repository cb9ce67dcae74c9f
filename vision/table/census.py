"""From the cards seen in one frame and the table layout to what each side has played (CONTRACT §5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.cards import DISTANCE_VALUES, Card
from scoring.hand import SafetyPlay
from vision.read.sighting import Sighting
from vision.table.columns import Column, read_columns
from vision.table.layout import TableLayout
from vision.table.own_cards import FULL_CARD_QUANTILE, cards_of_their_own
from vision.table.sideways import is_sideways, majority_axis


@dataclass(frozen=True)
class PlacedCard:
    """A card seen in one side's zone, with the sideways decision made."""

    sighting: Sighting
    sideways: bool

    def to_json(self) -> dict[str, Any]:
        s = self.sighting
        return {
            "card": s.card.value if s.card is not None else ("unknown" if s.face_up else "back"),
            "sideways": self.sideways,
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in s.corners],
            "confidence": round(float(s.confidence), 4),
        }


@dataclass(frozen=True)
class SideCensus:
    """What one side has on the table in one frame."""

    side: str
    cards: tuple[PlacedCard, ...]
    mixed_columns: tuple[Column, ...] = ()
    """Columns whose cards read as different distance values, each with real weight: counted as read,
    and flagged for a person to check."""

    @property
    def distance(self) -> dict[int, int]:
        counts = {km: 0 for km in DISTANCE_VALUES}
        for c in self.cards:
            card = c.sighting.card
            if card is not None and card.is_distance:
                counts[card.km] += 1
        return counts

    @property
    def safeties(self) -> dict[Card, SafetyPlay]:
        """Each safety seen, coup fourré when sideways; the most confident sighting of a safety wins."""
        best: dict[Card, PlacedCard] = {}
        for c in self.cards:
            card = c.sighting.card
            if card is not None and card.is_safety and (
                card not in best or c.sighting.confidence > best[card].sighting.confidence
            ):
                best[card] = c
        return {card: SafetyPlay.COUP_FOURRE if c.sideways else SafetyPlay.PLAYED for card, c in best.items()}

    def to_json(self, *, with_cards: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "side": self.side,
            "distance": {str(km): n for km, n in self.distance.items()},
            "safeties": {card.value: play.value for card, play in self.safeties.items()},
        }
        if with_cards:
            out["cards"] = [c.to_json() for c in self.cards]
        if self.mixed_columns:
            out["flags"] = [{"flag": "mixed_column",
                             "cards": [s.card.value if s.card is not None else "unknown" for s in column.cards]}
                            for column in self.mixed_columns]
        return out


@dataclass(frozen=True)
class TableCensus:
    """Every side's census and whether a face-down draw pile is on the table."""

    sides: tuple[SideCensus, ...]
    draw_pile: bool
    unassigned: tuple[Sighting, ...] = ()
    """Face-up cards outside every zone (the discard pile, a card in a hand)."""

    def to_json(self, *, with_cards: bool = True) -> dict[str, Any]:
        return {"sides": [s.to_json(with_cards=with_cards) for s in self.sides], "draw_pile": self.draw_pile}


def take_census(sightings: Sequence[Sighting], layout: TableLayout, image: NDArray[np.uint8] | None = None) -> TableCensus:
    """Assign each card to the side whose zone holds its centre, decide sideways, count; given the ``image``, a
    column's strips past its first box are looked for too (:mod:`vision.table.column_ends`).

    Only boxes that are cards of their own count (:func:`vision.table.own_cards.cards_of_their_own`).
    Face-down cards anywhere mean the draw pile is there; face-up cards outside every zone are
    left unassigned. A side's up comes from the layout, else from its cards' majority axis.
    """
    by_side: dict[str, list[Sighting]] = {s.side: [] for s in layout.sides}
    unassigned = []
    draw_pile = False
    for s in cards_of_their_own(sightings):
        if not s.face_up:
            draw_pile = True
            continue
        side = layout.side_at(s.centre)
        if side is None:
            unassigned.append(s)
        else:
            by_side[side].append(s)
    sides = []
    longs = [s.long_side for side in by_side.values() for s in side]
    card_length = float(np.percentile(longs, FULL_CARD_QUANTILE)) if longs else 0.0
    for zone in layout.sides:
        seen = by_side[zone.side]
        up = np.asarray(zone.up) if zone.up is not None else majority_axis([s.corners for s in seen])
        sideways = [is_sideways(s.corners, up) if up is not None else False for s in seen]
        # distance columns: a strip is boxed across its card, so its box looks sideways; only a safety's matters
        columns = read_columns([s for s in seen if s.card is None or s.card.is_distance], up, card_length, image,
                               sightings)
        read_as = {id(old): new for column in columns for old, new in zip(column.seen, column.cards, strict=True)}
        doubled = {id(s) for column in columns for s in column.doubled}
        sideways = [w for s, w in zip(seen, sideways, strict=True) if id(s) not in doubled]
        seen = [read_as.get(id(s), s) for s in seen if id(s) not in doubled]
        unboxed = [s for column in columns for s in column.unboxed]
        seen, sideways = seen + unboxed, sideways + [False] * len(unboxed)
        placed = tuple(PlacedCard(sighting=s, sideways=w) for s, w in zip(seen, sideways, strict=True))
        sides.append(SideCensus(side=zone.side, cards=placed, mixed_columns=tuple(c for c in columns if c.mixed)))
    return TableCensus(sides=tuple(sides), draw_pile=draw_pile, unassigned=tuple(unassigned))
