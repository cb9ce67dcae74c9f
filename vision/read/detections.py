"""Detections: one column-oriented value for the cards a detector found in a frame."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class Detections:
    """Oriented boxes with their confidence and class, as parallel arrays.

    ``corners`` is ``(N, 4, 2)`` in the frame's pixels, ``confidence`` ``(N,)`` in 0–1 and
    ``class_id`` ``(N,)`` indexes the detector's class names.
    """

    corners: NDArray[np.float64]
    confidence: NDArray[np.float64]
    class_id: NDArray[np.int64]

    def __post_init__(self) -> None:
        n = len(self.corners)
        if self.corners.shape != (n, 4, 2):
            raise ValueError(f"corners must be (N, 4, 2), got {self.corners.shape}")
        if self.confidence.shape != (n,) or self.class_id.shape != (n,):
            raise ValueError(
                f"confidence and class_id must be ({n},), got {self.confidence.shape} and {self.class_id.shape}"
            )

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4, 2)), np.zeros(0), np.zeros(0, dtype=np.int64))

    def __len__(self) -> int:
        return len(self.corners)

    def __getitem__(self, index: NDArray[np.bool_] | NDArray[np.intp]) -> Detections:
        """The detections selected by a boolean mask or an index array (a new value)."""
        return Detections(self.corners[index], self.confidence[index], self.class_id[index])

    @classmethod
    def merge(cls, parts: list[Detections]) -> Detections:
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.corners for p in parts]),
            np.concatenate([p.confidence for p in parts]),
            np.concatenate([p.class_id for p in parts]),
        )
