"""Which face-up boxes of one frame are cards of their own: not a faint box across cards seen better, not a
fragment too short to be a card or a column's strip. What is left is what `detect` lists and the tracker
observes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.geometry import intersection_area, polygon_area
from vision.read.sighting import Sighting

STRADDLE_SHARE = 0.8
"""A box this much covered by surer boxes of the same frame straddles cards seen better (a box across
the strips of a column, read faintly as one of them): it is not a card of its own. The visible parts of
different cards barely overlap."""
FRAGMENT_SHARE = 0.45
"""A face-up box whose longest side is under this share of a card's length where it lies is neither a
card nor a column's strip (whose long side is a card's width, 0.64 of its length): a fragment, often a
second box across a seam."""
NEIGHBOURHOOD = 2.0
"""A card's length in the picture is taken among the boxes this many card lengths around it (a column's strips
lie beside its whole card)."""
FARTHEST = 0.75
"""... and at least this share of the frame's card length (a neighbourhood of strips alone shows no card's
length; the far side of a tilted picture shows cards about 0.8 as long as the near side)."""
FULL_CARD_QUANTILE = 90
"""Whole cards show their long side and a column's strips the short one: this percentile of the boxes'
long sides is a whole card's length in the frame."""


def card_length(sightings: Sequence[Sighting]) -> float | None:
    """A whole card's long side in the frame, in pixels (``None`` without a face-up box)."""
    lengths = [s.long_side for s in sightings if s.face_up]
    return float(np.percentile(lengths, FULL_CARD_QUANTILE)) if lengths else None


def cards_of_their_own(sightings: Sequence[Sighting]) -> tuple[Sighting, ...]:
    """The sightings less the face-up boxes that straddle surer ones (:data:`STRADDLE_SHARE`) and the
    fragments (:data:`FRAGMENT_SHARE`); face-down boxes are all kept."""
    length = card_length(sightings)
    straddling = _straddling(sightings)
    face_up = [s for s in sightings if s.face_up]
    near = dict(zip(map(id, face_up), local_card_lengths(face_up, length), strict=True)) if length is not None else {}
    return tuple(
        s for s in sightings
        if not s.face_up or (id(s) not in straddling and (
            length is None or s.long_side >= FRAGMENT_SHARE * float(np.clip(near[id(s)], FARTHEST * length, length))))
    )


def local_card_lengths(face_up: Sequence[Sighting], length: float) -> list[float]:
    """Each box's card length where it lies: the longest box side among the boxes within
    :data:`NEIGHBOURHOOD` card lengths (``length``) of it (the camera's tilt makes the far side's cards shorter)."""
    if not face_up:
        return []
    centres = np.array([s.centre for s in face_up])
    longs = np.array([s.long_side for s in face_up])
    near = np.linalg.norm(centres[:, None] - centres[None, :], axis=2) <= NEIGHBOURHOOD * length
    return [float(longs[row].max()) for row in near]


def _straddling(sightings: Sequence[Sighting]) -> set[int]:
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
