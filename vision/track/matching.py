"""Matching the cards seen in a frame to the cards the tracker knows: nearest pairs first, the camera's
shift, a column's next step, and how a card's size is learnt.

Pure functions over positions (pixels) and a card's length; the tracker holds the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.track.settings import (
    CAMERA_SHIFT_CARDS,
    CAMERA_SHIFT_LANDS_SHARE,
    CAMERA_SHIFT_LEAST_SHARE,
    CAMERA_SHIFT_MAX,
    CAMERA_SHIFT_SHARE,
    COLUMN_ACROSS_SHARE,
    LONGEST_COLUMN_STEP,
    LONGEST_RISE,
    SHORTEST_COLUMN_STEP,
)


@dataclass(frozen=True)
class Matching:
    pairs: list[tuple[int, int]]
    unmatched: list[int]
    """Indices of the points that matched nothing."""


def match_nearest(points: list[NDArray[np.float64]], targets: list[NDArray[np.float64]], radius: float) -> Matching:
    """Greedy one-to-one matching of points to targets, nearest pairs first, within ``radius``."""
    if not points:
        return Matching([], [])
    if not targets:
        return Matching([], list(range(len(points))))
    d = np.linalg.norm(np.asarray(points)[:, None, :] - np.asarray(targets)[None, :, :], axis=2)
    pairs: list[tuple[int, int]] = []
    used_p: set[int] = set()
    used_t: set[int] = set()
    for flat in np.argsort(d, axis=None):
        i, j = divmod(int(flat), len(targets))
        if d[i, j] > radius:
            break
        if i in used_p or j in used_t:
            continue
        pairs.append((i, j))
        used_p.add(i)
        used_t.add(j)
    return Matching(pairs, [i for i in range(len(points)) if i not in used_p])


def longest_after(longest: float, length: float) -> float:
    """A counted card's longest side after a box ``length`` long (see :data:`LONGEST_RISE`)."""
    if not longest:
        return length
    return longest + LONGEST_RISE * (length - longest) if length > longest else longest


def column_step(up: tuple[float, float], length: float, d: NDArray[np.float64], *, steps: int = 1,
                shortest: float = SHORTEST_COLUMN_STEP) -> bool:
    """Whether ``d`` goes from one card of a column to the next one laid over it (towards the player),
    or with ``steps`` above 1 to one of the next ``steps`` cards; ``up``: the side's up, ``length``: a
    card's length in pixels, ``shortest``: the least step, in card lengths.

    >>> column_step((0.0, -1.0), 100.0, np.array([0.0, 30.0]))
    True
    >>> column_step((0.0, -1.0), 100.0, np.array([0.0, 70.0])), column_step((0.0, -1.0), 100.0, np.array([0.0, 70.0]), steps=2)
    (False, True)
    """
    u = np.asarray(up, dtype=np.float64)
    along = float(-d @ u) / length
    across = abs(float(d[0] * u[1] - d[1] * u[0])) / length
    return shortest <= along <= LONGEST_COLUMN_STEP * steps and across <= COLUMN_ACROSS_SHARE


def camera_shift(seen: Sequence[tuple[str, Card, NDArray[np.float64]]],
                 known: Sequence[tuple[str, Card, NDArray[np.float64]]], length: float) -> NDArray[np.float64] | None:
    """The whole table's shift in this frame, when the camera moved (``None``: it did not, or not clearly).

    ``seen`` and ``known``: ``(side, card, place)`` of the cards seen and of the cards the tracker knows.
    A camera knocked or shaking moves every card at once, by up to half a column step; matched card
    by card, a column's cards then slide one place along and its last card looks new. The shift is
    the one that brings the most cards seen onto a known card of their id and side (a vote over the
    offsets between them), taken when it brings clearly more than no shift does, and cards of more
    than one id.
    """
    if len(seen) < CAMERA_SHIFT_CARDS or len(known) < CAMERA_SHIFT_CARDS:
        return None
    points = np.asarray([a for _, _, a in seen], dtype=np.float64)
    places = np.asarray([a for _, _, a in known], dtype=np.float64)
    same_id = np.array([[(s, c) == (side, card) for side, card, _ in known] for s, c, _ in seen])
    offsets = points[:, None, :] - places[None, :, :]  # (seen, known, 2)
    near = same_id & (np.linalg.norm(offsets, axis=2) <= CAMERA_SHIFT_MAX * length)
    tries = offsets[near]
    if len(tries) == 0:
        return None
    close = CAMERA_SHIFT_LANDS_SHARE * length
    # residual of each card seen to each known card of its id, under each tried shift
    residual = np.linalg.norm(offsets[None, :, :, :] - tries[:, None, None, :], axis=3)
    residual = np.where(same_id[None], residual, np.inf)
    landed = residual.min(axis=2) <= close  # (tries, seen)
    votes = landed.sum(axis=1)
    best = int(votes.argmax())
    still = int((np.where(same_id, np.linalg.norm(offsets, axis=2), np.inf).min(axis=1) <= close).sum())
    if votes[best] < max(CAMERA_SHIFT_CARDS, still + 2, CAMERA_SHIFT_SHARE * len(seen)):
        return None
    nearest = residual[best].argmin(axis=1)
    inliers = np.flatnonzero(landed[best])
    if len({(seen[int(i)][0], seen[int(i)][1]) for i in inliers}) < 2:
        return None  # one column of one id shifted by a step lands on itself: the whole table moves together
    shift: NDArray[np.float64] = (points[inliers] - places[nearest[inliers]]).mean(axis=0)
    if float(np.linalg.norm(shift)) < CAMERA_SHIFT_LEAST_SHARE * length:
        return None
    return shift
