"""What the tracker is fed: each frame's census turned into observations (which card, on which side,
where its top edge lies, how sure), with the boxes that are not cards of their own left out."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.census import TableCensus
from vision.geometry import intersection_area, polygon_area
from vision.layout import TableLayout
from vision.sideways import majority_axis
from vision.sighting import Sighting

STRADDLE_SHARE = 0.8
"""A box this much covered by surer boxes of the same frame straddles cards seen better (a box across
the strips of a column, read faintly as one of them): it is not a card of its own. The visible parts of
different cards barely overlap."""
FRAGMENT_SHARE = 0.45
"""A face-up box whose longest side is under this share of a card's length in the frame is neither a
card nor a column's strip (whose long side is a card's width, 0.64 of its length): a fragment, often a
second box across a seam. It is not observed."""


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

    @property
    def table_empty(self) -> bool:
        """No face-up card in any side's zone."""
        return not self.cards


def observations_from_census(census: TableCensus, layout: TableLayout, *, index: int, time: float) -> FrameObservations:
    """The tracker's view of one frame's census: each readable card's id, side, anchor and sideways."""
    cards: list[Observation] = []
    lengths: list[float] = []
    ups: list[tuple[str, tuple[float, float] | None]] = []
    straddling = _straddling([p.sighting for side in census.sides for p in side.cards] + list(census.unassigned))
    for side in census.sides:
        zone = layout.zone_of(side.side)
        up_vec = zone.up
        if up_vec is None:
            axis = majority_axis([c.sighting.corners for c in side.cards])
            up_vec = (float(axis[0]), float(axis[1])) if axis is not None else None
        ups.append((side.side, up_vec))
        for placed in side.cards:
            s = placed.sighting
            corners = np.asarray(s.corners, dtype=np.float64)
            edges = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
            lengths.append(float(edges.max()))
            if s.card is None or id(s) in straddling:
                continue
            cards.append(Observation(side.side, s.card, placed.sideways, top_edge_anchor(corners, up_vec), float(s.confidence),
                                     float(edges.max())))
    # full cards show their long side; strips of a column show the short one: the upper quantile is a full card
    length = float(np.percentile(lengths, 90)) if lengths else None
    if length is not None:
        cards = [o for o in cards if o.length is None or o.length >= FRAGMENT_SHARE * length]
    return FrameObservations(index, time, tuple(cards), census.draw_pile, length, tuple(ups))


def _straddling(sightings: list[Sighting]) -> set[int]:
    """``id()`` of the face-up sightings covered by surer ones (see :data:`STRADDLE_SHARE`)."""
    up = [s for s in sightings if s.face_up]
    if len(up) < 2:
        return set()
    corners = np.asarray([s.corners for s in up], dtype=np.float64)
    low, high = corners.min(axis=1), corners.max(axis=1)
    touching = (low[:, None, :] <= high[None, :, :]).all(axis=2) & (low[None, :, :] <= high[:, None, :]).all(axis=2)
    out: set[int] = set()
    for i, s in enumerate(up):
        others = [j for j in np.flatnonzero(touching[i]) if j != i and up[j].confidence > s.confidence]
        if not others:
            continue
        area = polygon_area(corners[i])
        covered = sum(intersection_area(corners[i], corners[j]) for j in others)
        if area > 0 and covered >= STRADDLE_SHARE * area:
            out.add(id(s))
    return out


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
