"""The sideways rule: a card whose long axis lies across its side's "up" is laid sideways.

A safety laid sideways is a coup fourré. The side's up comes from the layout, or, without it,
from the majority direction of the side's own cards (most of them are laid normally).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.geometry import long_axis

SIDEWAYS_ANGLE_DEG = 45.0
"""A card is sideways when its long axis is more than this far from the side's up axis."""


def is_sideways(corners: NDArray[np.floating], up: tuple[float, float] | NDArray[np.floating]) -> bool:
    """Whether the card with these corners lies across ``up`` (the sign of ``up`` does not matter).

    >>> is_sideways(np.array([[0, 0], [56, 0], [56, 87], [0, 87]]), (0.0, 1.0))
    False
    >>> is_sideways(np.array([[0, 0], [87, 0], [87, 56], [0, 56]]), (0.0, 1.0))
    True
    """
    axis = long_axis(corners)
    u = np.asarray(up, dtype=np.float64)
    u = u / (np.linalg.norm(u) or 1.0)
    cos = abs(float(np.dot(axis, u)))
    return bool(cos < np.cos(np.deg2rad(SIDEWAYS_ANGLE_DEG)))


def majority_axis(cards: list[NDArray[np.floating]]) -> NDArray[np.float64] | None:
    """The dominant long-axis direction of a set of cards (angle-doubling mean), or ``None`` for no cards.

    Axes are undirected, so each is doubled in angle before averaging; a card laid across the
    others pulls the mean the other way, and the majority wins.
    """
    if not cards:
        return None
    doubled = np.zeros(2)
    for corners in cards:
        a = long_axis(corners)
        theta = np.arctan2(a[1], a[0])
        doubled += (np.cos(2 * theta), np.sin(2 * theta))
    if np.linalg.norm(doubled) < 1e-9:
        a = long_axis(cards[0])
        return np.asarray(a, dtype=np.float64)
    theta = np.arctan2(doubled[1], doubled[0]) / 2
    return np.array([np.cos(theta), np.sin(theta)])
