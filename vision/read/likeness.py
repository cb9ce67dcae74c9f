"""How two pictures of a card are compared: colours as colours, whatever the lamp.

Each picture is white-balanced on its own paper (:func:`balanced`: the card's white is its white), turned to
Lab, softened a little, and its channels centred but scaled together, hue weighing more than lightness
(:data:`CHANNEL_WEIGHTS`). Scaling each channel to unit spread on its own (the plain correlation) makes a
pink band and an orange one the same pattern; development stills of the generic edition read 0.957 of whole
faces so, 0.994 this way.

>>> a = np.full((8, 6, 3), 230, np.uint8); a[:3] = (80, 60, 200)  # BGR: a red band on white paper
>>> b = a.copy(); b[:3] = (40, 140, 230)  # an orange band
>>> warm = np.clip(a * np.array([0.7, 0.9, 1.0]), 0, 255).astype(np.uint8)  # the red card under a warm lamp
>>> bool(float(normalised(a).ravel() @ normalised(warm).ravel()) > float(normalised(a).ravel() @ normalised(b).ravel()))
True
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

SOFTEN = 1.0
"""Faces and crops are blurred by this many template pixels before they are compared: a photo is softer
than a scan (development stills: generic whole cards 0.922 → 0.980 read right, against no blur)."""
CHANNEL_WEIGHTS = np.array([1.0, 3.0, 3.0], np.float32)
"""Lab's channels weigh this much in a comparison: hue more than lightness (a teal band and a black one are
both dark; a photo's bands are duller than the printed face's). Development stills of the generic edition,
whole faces read right: 0.969 at 1, 0.992 at 2, 0.994 at 3."""
WHITE_PERCENTILE = 95
"""The picture's white is each channel at this percentile (the card's paper and rim)."""


def balanced(bgr: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The picture with its white (:data:`WHITE_PERCENTILE`) brought to a neutral 235: the lamp's colour and
    the exposure no longer count, the card's own colours do."""
    pixels = bgr.reshape(-1, 3)
    k = min(len(pixels) - 1, len(pixels) * WHITE_PERCENTILE // 100)
    white = np.partition(pixels, k, axis=0)[k].astype(np.float32)
    out: NDArray[np.uint8] = np.clip(bgr.astype(np.float32) * (235.0 / np.maximum(white, 16.0)), 0, 255).astype(np.uint8)
    return out


def lab(bgr: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The white-balanced picture in Lab, as floats."""
    out: NDArray[np.float32] = cv2.cvtColor(balanced(bgr), cv2.COLOR_BGR2LAB).astype(np.float32)
    return out


def normalised(bgr: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Lab, softened by :data:`SOFTEN`, each channel centred and weighted, the whole scaled to unit length, so
    that the dot product of two is their correlation."""
    out = cv2.GaussianBlur(lab(bgr), (0, 0), SOFTEN).astype(np.float32)
    out = (out - out.mean(axis=(0, 1))) * CHANNEL_WEIGHTS
    scaled: NDArray[np.float32] = out / (float(np.linalg.norm(out)) + 1e-6)
    return scaled


def standard(pixels: NDArray[Any]) -> NDArray[np.float32]:
    """Lab pixels ``(..., k, 3)`` with each channel centred over the ``k`` pixels and weighted, then scaled to a
    unit mean square (a nearly flat region stays nearly flat)."""
    p = np.asarray(pixels, dtype=np.float32)
    p = (p - p.mean(axis=-2, keepdims=True)) * CHANNEL_WEIGHTS
    out: NDArray[np.float32] = p / (np.sqrt((p**2).mean(axis=(-2, -1), keepdims=True)) + 2.0)
    return out
