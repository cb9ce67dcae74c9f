"""How long a card is in this camera's picture: guessed from the frame's size, then learnt from the cards read.

One definition for the landings: a card is :data:`~vision.read.crops.CARD_ASPECT` as wide as it is long, and
its length in pixels is the median of the last cards read surely (:meth:`CardSize.learn`), or, before any, a
range wide enough for every camera height Borne is set up for (DESIGN.md: 55–90 px at 1280 × 720, three
times that in a phone's photo).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from vision.read.crops import CARD_ASPECT

SHORTEST = 0.03
LONGEST = 0.3
"""A card's length as a share of the frame's width, before any card was read: the range a camera may show."""
LEARNT_FROM = 9
"""Cards whose lengths make the median (the latest ones: a camera moved closer is followed)."""
SPREAD = 1.35
"""Once learnt, a card is this much longer or shorter than the median at most (perspective, a card on a pile)."""
SMALLEST_PART = 0.2
"""A changed region may be this share of a card's area: where a card lands on a look-alike, only what differs changes."""
LARGEST_PART = 2.4
"""... and this many cards' area at most (two cards landed side by side between two views)."""


@dataclass
class CardSize:
    """A card's length in full-frame pixels, as learnt so far."""

    lengths: deque[float] = field(default_factory=lambda: deque(maxlen=LEARNT_FROM))

    @property
    def length(self) -> float | None:
        """The median length of the cards read so far (``None``: none yet)."""
        return float(np.median(self.lengths)) if self.lengths else None

    def learn(self, outline: NDArray[np.floating]) -> None:
        """Take in the outline of a card read surely."""
        q = np.asarray(outline, dtype=np.float64).reshape(4, 2)
        sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
        self.lengths.append(float(max(sides[0] + sides[2], sides[1] + sides[3]) / 2))

    def bounds(self, width: int) -> tuple[float, float]:
        """The shortest and longest a card may be in a frame ``width`` pixels wide."""
        if self.length is None:
            return SHORTEST * width, LONGEST * width
        return self.length / SPREAD, self.length * SPREAD

    def small_area_floor(self, width: int, scale: float) -> float:
        """The least area a changed region must have, in the pixels of a frame ``width`` wide scaled down by ``scale``."""
        shortest = self.bounds(width)[0] / scale
        return SMALLEST_PART * shortest * shortest * CARD_ASPECT

    def could_be_card(self, rect: tuple, area: float, width: int, scale: float) -> bool:
        """Whether a changed region (its minimum-area rectangle and pixel count, in the pixels of a frame ``width``
        wide scaled down by ``scale``) may be a card or a part of one that came or left."""
        shortest, longest = (b / scale for b in self.bounds(width))
        (_, _), (w, h), _ = rect
        long_side, short_side = max(w, h), max(min(w, h), 1.0)
        card_area = longest * longest * CARD_ASPECT
        return (long_side <= longest * 1.6 and short_side <= longest * 1.2
                and SMALLEST_PART * shortest * shortest * CARD_ASPECT <= area <= LARGEST_PART * card_area)

    def card_box(self, rect_corners: NDArray[np.floating], along: NDArray[np.floating] | None = None) -> NDArray[np.float64]:
        """A card-proportioned box on a changed region's rectangle: the same centre and turn, a card long (as
        learnt; before any card was read, as long as the rectangle allows), its length along the rectangle's
        long side or along ``along`` (one of the rectangle's sides)."""
        q = np.asarray(rect_corners, dtype=np.float64).reshape(4, 2)
        centre = q.mean(axis=0)
        a, b = q[1] - q[0], q[3] - q[0]
        long_axis, short_axis = (a, b) if np.linalg.norm(a) >= np.linalg.norm(b) else (b, a)
        if along is not None:
            long_axis, short_axis = (a, b) if abs(float(np.dot(a, along))) >= abs(float(np.dot(b, along))) else (b, a)
        length = self.length or max(float(np.linalg.norm(long_axis)), float(np.linalg.norm(short_axis)) / CARD_ASPECT)
        width = length * CARD_ASPECT
        u = long_axis / (np.linalg.norm(long_axis) + 1e-9)
        v = np.array([-u[1], u[0]])
        half_l, half_w = u * length / 2, v * width / 2
        return np.array([centre - half_l - half_w, centre - half_l + half_w, centre + half_l + half_w, centre + half_l - half_w])
