"""The strips past a column's first box: found by looking like the strip next to them.

A column's first card (the one laid first, nearest the middle) shows only its top strip; where no box found
it, the column's count is one short, and nothing between two boxes says so (:func:`~vision.table.columns.unboxed_strips`
counts only gaps between boxes). But the strips of a column are one value's cards laid one strip apart: the
band one strip further along the side's ``up`` than the column's first box shows, when a card lies there, the
same print as that box's own top band. So each band past the first box is straightened from the picture and
correlated with the first box's band (Lab, each channel z-normalised); a band that looks like it is a strip,
counted with the column's value, and the next band is asked in turn. Bare table, the draw pile or another
column's card look like none of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.geometry import iou
from vision.read.sighting import Sighting

BAND_PX = 48
"""A band is straightened to this many pixels along its longer side (its shorter side in proportion)."""
LIKENESS = 0.8
"""A band whose correlation with the column's first strip reaches this is a strip of the column (development phone
stills: the strips missed were at 0.83-0.93, bare table and other cards at most 0.71)."""
SOFTEN = 2.0
"""Both bands are blurred by this many of their pixels first (a strip's print is compared, not its every edge)."""
MOST_BEYOND = 3
"""At most this many strips are added past a column's first box (a column with more unboxed is no column)."""
BEYOND_SURENESS = 0.5
"""A strip found this way is this share as sure as the box it was found from."""
MIN_PITCH_PX = 30.0
"""Strips closer than this in the picture are not looked for: a 1280 × 720 frame's strips, 15-25 px, are too thin to
tell by their print (looked for there, 2-D development scenes got 5 more strips on no card and lost a side)."""
OVERLAP = 0.3
"""A band overlapping a box found (IoU) this much is that box's, not a strip no box found."""
NUDGES_ALONG = (-0.3, -0.15, 0.0, 0.15, 0.3)
NUDGES_ACROSS = (-0.08, 0.0, 0.08)
"""Each band is also tried moved by these shares of a strip along ``up`` and of its width across: cards are laid
by hand, a little more or less than one strip apart and a little aside (the best of them is taken, and the next
band is asked from where it lay)."""


def strips_beyond(column: Sequence[Sighting], image: NDArray[np.uint8], up: NDArray[np.float64], pitch: float,
                  value: Card, others: Sequence[Sighting] = ()) -> tuple[Sighting, ...]:
    """The strips past the first box of ``column`` (top card first along ``up``) that no box found, each
    ``pitch`` pixels further along ``up``, with the column's ``value``; ``others``: every box of the table
    (a band on one of them is no unboxed strip)."""
    if pitch < MIN_PITCH_PX or not column:
        return ()
    first = column[0]
    corners = np.asarray(first.corners, dtype=np.float64)
    top = float((corners @ up).max())
    band = corners + up[None, :] * np.maximum(0.0, (top - corners @ up) - pitch)[:, None]
    reference = _straightened(image, band)
    if reference is None:
        return ()
    side = np.array([-up[1], up[0]])
    width = float(np.ptp(band @ side))
    found: list[Sighting] = []
    for _ in range(MOST_BEYOND):
        tries = [band + up[None, :] * (pitch * (1 + a)) + side[None, :] * (width * c)
                 for a in NUDGES_ALONG for c in NUDGES_ACROSS]
        best, candidate = max(((_likeness(reference, _straightened(image, q)), q) for q in tries), key=lambda t: t[0])
        if best < LIKENESS or any(iou(candidate, np.asarray(o.corners, dtype=np.float64)) >= OVERLAP for o in others):
            break
        found.append(Sighting(candidate, True, value, float(first.confidence) * BEYOND_SURENESS))
        band = candidate
    return tuple(found)


def _straightened(image: NDArray[np.uint8], quad: NDArray[np.float64]) -> NDArray[np.float32] | None:
    """The band ``quad`` straightened (corners in their given order), in Lab less each channel's mean, scaled to
    unit length (the channels that vary most weigh most); ``None`` where it leaves the picture or is one colour."""
    h, w = image.shape[:2]
    if quad.min() < 0 or quad[:, 0].max() > w - 1 or quad[:, 1].max() > h - 1:
        return None
    across, along = float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[2] - quad[1]))
    scale = BAND_PX / max(across, along, 1.0)
    size = (max(4, round(across * scale)), max(4, round(along * scale)))
    rect = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), rect)
    band = cv2.GaussianBlur(cv2.warpPerspective(image, warp, size, flags=cv2.INTER_AREA), (0, 0), SOFTEN)
    lab = cv2.cvtColor(band, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab -= lab.reshape(-1, 3).mean(axis=0)
    norm = float(np.linalg.norm(lab))
    if norm < 2.0 * np.sqrt(lab.size):
        return None
    out: NDArray[np.float32] = lab / norm
    return out


def _likeness(a: NDArray[np.float32], b: NDArray[np.float32] | None) -> float:
    """The correlation of two straightened bands (0 where one is missing)."""
    return float((a * b).sum()) if b is not None and a.shape == b.shape else 0.0
