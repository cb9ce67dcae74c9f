"""What the camera saw of one card in one frame: where it lies and what it is."""

from __future__ import annotations

from dataclasses import dataclass, field

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

    @property
    def centre(self) -> NDArray[np.float64]:
        return np.asarray(self.corners, dtype=np.float64).mean(axis=0)

    @property
    def is_unknown(self) -> bool:
        """A face-up card whose face could not be read."""
        return self.face_up and self.card is None
