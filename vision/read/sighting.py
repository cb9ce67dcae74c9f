"""What the camera saw of one card in one frame: where it lies and what it is."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card


@dataclass(frozen=True)
class Sighting:
    """One card found in a frame."""

    corners: NDArray[np.float64] = field(repr=False)
    """``(4, 2)`` corners of the card's box in the frame's pixels."""
    face_up: bool
    """``False`` for a card lying face down (the draw pile)."""
    card: Card | None
    """The card id read from its face; ``None`` when face down or when the face could not be read."""
    confidence: float
    """The detector's confidence that a card is there, times the recogniser's in its id (0–1)."""

    @cached_property
    def centre(self) -> NDArray[np.float64]:
        """The box's centre (worked out once: a frame's census asks it of every card many times; read-only)."""
        centre = np.asarray(self.corners, dtype=np.float64).mean(axis=0)
        centre.setflags(write=False)
        return centre

    @cached_property
    def long_side(self) -> float:
        """The longest side of the box, in pixels (worked out once, as :attr:`centre`)."""
        points = np.asarray(self.corners, dtype=np.float64).tolist()
        return max(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(points, points[1:] + points[:1]))

    @property
    def is_unknown(self) -> bool:
        """A face-up card whose face could not be read."""
        return self.face_up and self.card is None
