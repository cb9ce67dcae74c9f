"""What the tracker is fed: each frame's census turned into observations (which card, on which side,
where its top edge lies, how sure)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.table.census import TableCensus
from vision.table.layout import TableLayout
from vision.table.own_cards import card_length
from vision.table.sideways import majority_axis


@dataclass(frozen=True)
class Observation:
    """One face-up card read in one side's zone in one frame."""

    side: str
    card: Card
    sideways: bool
    anchor: tuple[float, float]
    """The middle of the card's top edge in pixels (the edge an overlapping card leaves visible)."""
    confidence: float
    length: float | None = None
    """The box's longest side in pixels (``None``: not known)."""


@dataclass(frozen=True)
class FrameObservations:
    """Everything the tracker needs from one frame."""

    index: int
    """The frame's number in its source (0, 1, …)."""
    time: float
    """Seconds since the source started."""
    cards: tuple[Observation, ...]
    draw_pile: bool
    """A face-down draw pile was seen."""
    card_length_px: float | None = None
    """A full card's long side in this frame, in pixels; ``None`` when no card was seen."""
    up: tuple[tuple[str, tuple[float, float] | None], ...] = ()
    """Each side's up direction (bottom edge to top edge of a normally laid card)."""
    mixed_columns: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    """Each side's column of distance cards that read as different values: the side and those values."""
    unread: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()
    """Each side showing face-up cards, with where its whole ones whose face was not read lie (their centres;
    :data:`UNREAD_WHOLE_SHARE`): a deck Borne reads badly, or a box on no card."""

    @property
    def table_empty(self) -> bool:
        """No face-up card in any side's zone, read or left unread (a whole card of a deck Borne cannot read
        lies there all the same)."""
        return not self.cards and not any(where for _, where in self.unread)


UNREAD_WHOLE_SHARE = 0.8
"""An unread face-up box at least this share of a card's length shows a whole card (a column's strips are often
unread; a whole face should not be)."""


def observations_from_census(census: TableCensus, layout: TableLayout, *, index: int, time: float) -> FrameObservations:
    """The tracker's view of one frame's census: each readable card's id, side, anchor and sideways."""
    cards: list[Observation] = []
    ups: list[tuple[str, tuple[float, float] | None]] = []
    for side in census.sides:
        zone = layout.zone_of(side.side)
        up_vec = zone.up
        if up_vec is None:
            axis = majority_axis([c.sighting.corners for c in side.cards])
            up_vec = (float(axis[0]), float(axis[1])) if axis is not None else None
        ups.append((side.side, up_vec))
        for placed in side.cards:
            s = placed.sighting
            if s.card is None:
                continue
            corners = np.asarray(s.corners, dtype=np.float64)
            cards.append(Observation(side.side, s.card, placed.sideways, top_edge_anchor(corners, up_vec), float(s.confidence),
                                     s.long_side))
    length = card_length([p.sighting for side in census.sides for p in side.cards])
    mixed = tuple((side.side, column.values) for side in census.sides for column in side.mixed_columns)
    unread = tuple((side.side, tuple((float(p.sighting.centre[0]), float(p.sighting.centre[1])) for p in side.cards
                                     if p.sighting.is_unknown and length and p.sighting.long_side >= UNREAD_WHOLE_SHARE * length))
                   for side in census.sides if any(p.sighting.face_up for p in side.cards))
    return FrameObservations(index, time, tuple(cards), census.draw_pile, length, tuple(ups), mixed, unread)


def top_edge_anchor(corners: NDArray[np.float64], up: tuple[float, float] | None) -> tuple[float, float]:
    """The middle of the box edge lying furthest along ``up`` (the box's centre without an up).

    >>> top_edge_anchor(np.array([[0., 0.], [56., 0.], [56., 87.], [0., 87.]]), (0.0, -1.0))
    (28.0, 0.0)
    """
    if up is None:
        c = corners.mean(axis=0)
        return float(c[0]), float(c[1])
    mids = (corners + np.roll(corners, -1, axis=0)) / 2
    best = mids[int(np.argmax(mids @ np.asarray(up, dtype=np.float64)))]
    return float(best[0]), float(best[1])
