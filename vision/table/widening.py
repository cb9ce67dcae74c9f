"""Found zones kept as the hand goes: a card seen just outside a side's zone, pointing like that side's cards,
widens that zone.

The zones found as a hand starts reach a little past each side's farthest card; a side whose columns grow
or who lays its safeties further out lays cards past that edge. Such a card, seen in
:data:`STEADY_FRAMES` frames in a row in no zone, within :data:`NEAR` card lengths of one side's zone, away
from the draw pile and along that side's ``up``, joins the zone: the zone becomes itself and the card grown
by :data:`MARGIN`, joined where they nearly touch.

>>> import numpy as np
>>> from vision.read.sighting import Sighting
>>> from vision.table.layout import SideZone
>>> north = SideZone("North", np.array([[0., 0], [640, 0], [640, 120], [0, 120]]), (0.0, 1.0))
>>> south = SideZone("South", np.array([[0., 240], [640, 240], [640, 360], [0, 360]]), (0.0, -1.0))
>>> laid = Sighting(np.array([[300., 250], [340, 250], [340, 312], [300, 312]]), True, None, 0.9)
>>> beyond = Sighting(np.array([[500., 126], [540, 126], [540, 188], [500, 188]]), True, None, 0.9)
>>> widening, layout = ZoneWidening(), TableLayout(sides=(north, south))
>>> seen = [widening.widened(layout, [laid, beyond]) for _ in range(STEADY_FRAMES)]
>>> [s is None for s in seen], layout.side_at((520, 157)), seen[-1].side_at((520, 157))
([True, True, False], None, 'North')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.read.sighting import Sighting
from vision.table.found_sides import PILE_CLEARANCE, SPREAD_DEGREES, along_card
from vision.table.layout import TableLayout
from vision.table.own_cards import card_length, cards_of_their_own

STEADY_FRAMES = 3
"""A card outside every zone widens one after this many frames in a row (an arm's box does not stand)."""
NEAR = 0.75
"""How far outside a zone, in card lengths from the zone's edge to the card's centre, a card may lie and
still be that side's; raising it lets a neighbour's stray card pull a zone towards it."""
MARGIN = 0.5
"""The card joins its zone grown by this many card lengths all round, so that the next card laid beyond it
is in the zone too."""
SAME_CARD = 0.3
"""Boxes of two frames this close (in card lengths) are the same card."""


class ZoneWidening:
    """Widens found zones with the cards laid just past their edge; call :meth:`widened` with each frame."""

    def __init__(self) -> None:
        self._waiting: list[tuple[NDArray[np.float64], str, int]] = []
        """Cards seen outside every zone: centre, the side whose zone they would join, frames in a row."""

    def widened(self, layout: TableLayout, sightings: Sequence[Sighting]) -> TableLayout | None:
        """The layout with a zone widened by a card that has stood outside it long enough, else ``None``."""
        own = cards_of_their_own(sightings)
        length = card_length(own)
        if length is None or length <= 0:
            self._waiting = []
            return None
        piles = [s.centre for s in own if not s.face_up]
        outside = []
        for s in own:
            if not s.face_up or layout.side_at(s.centre) is not None:
                continue
            if any(np.linalg.norm(s.centre - p) < PILE_CLEARANCE * length for p in piles):
                continue  # the discard pile, or a card on the draw pile
            side = _nearest_side(layout, s, length)
            if side is not None:
                outside.append((s, side))
        waiting: list[tuple[NDArray[np.float64], str, int]] = []
        grown = None
        for s, side in outside:
            seen = [n for c, sd, n in self._waiting if sd == side and np.linalg.norm(c - s.centre) <= SAME_CARD * length]
            frames = (max(seen) if seen else 0) + 1
            if frames >= STEADY_FRAMES and grown is None:
                grown = (side, s)
            else:
                waiting.append((s.centre, side, frames))
        self._waiting = waiting
        if grown is None:
            return None
        side, card = grown
        zones = tuple(replace(z, zone=_joined(z.zone, card.corners, length)) if z.side == side else z for z in layout.sides)
        return TableLayout(sides=zones).with_few_corners()


def _nearest_side(layout: TableLayout, card: Sighting, length: float) -> str | None:
    """The side whose zone lies within :data:`NEAR` of the card and whose ``up`` runs along it."""
    axis = along_card(np.asarray(card.corners, dtype=np.float64), length)
    best: tuple[float, str] | None = None
    for zone in layout.sides:
        if zone.up is None:
            continue
        if abs(float(np.dot(axis, zone.up))) < np.cos(np.radians(SPREAD_DEGREES)):
            continue
        contour = zone.zone.astype(np.float32).reshape(-1, 1, 2)
        gap = -cv2.pointPolygonTest(contour, (float(card.centre[0]), float(card.centre[1])), True)
        if gap <= NEAR * length and (best is None or gap < best[0]):
            best = (gap, zone.side)
    return None if best is None else best[1]


def _joined(zone: NDArray[np.float64], corners: NDArray[np.float64], length: float) -> NDArray[np.float64]:
    """The zone and the card grown by :data:`MARGIN` card lengths as one polygon (drawn, closed over the gap
    between them, and outlined again)."""
    centre = corners.mean(axis=0)
    spans = np.linalg.norm(corners - centre, axis=1).max()
    card = centre + (corners - centre) * (1 + MARGIN * length / spans)
    points = np.vstack([zone, card])
    low = np.floor(points.min(axis=0)) - 2
    size = np.ceil(points.max(axis=0) - low).astype(int) + 3
    mask = np.zeros((int(size[1]), int(size[0])), np.uint8)
    cv2.fillPoly(mask, [np.round(zone - low).astype(np.int32)], 255)
    cv2.fillPoly(mask, [np.round(card - low).astype(np.int32)], 255)
    reach = max(3, int(round(NEAR * length)))
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    outline = cv2.approxPolyDP(outline, 1.0, True).reshape(-1, 2).astype(np.float64)
    out: NDArray[np.float64] = outline + low
    return out
