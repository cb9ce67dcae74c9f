"""The exposure and white balance of a frame mapped onto the reference's (the motion watch compares in one light).

Each Lab channel is mapped by a gain and an offset fitted robustly on the table (a step of the light moves white
cards more than a brown table: an offset alone made every card a change), then what a smooth change of the light
leaves is followed block by block (a glare that does not scale, a bright table clipped).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

GAIN_FITS = 2
"""Fits of the exposure's gain and offset, each without what the one before left far off."""
GAIN_INLIER = 4.0
"""A small pixel within this (Lab units) of the fitted gain, or three times the median miss, is table."""
GAIN_SPAN = 12.0
"""The table's pixels must span this much (Lab units) in a channel for a gain to be told from an offset."""
GAIN_RANGE = (0.7, 1.4)
"""The gains an exposure's step is taken to make in a channel."""
LIGHT_BLOCKS = (5, 8)
"""Rows and columns of blocks over which a smooth change of the light is followed (:func:`_light_field`)."""
LIGHT_CLOSE = 14.0
"""A pixel follows its block's light when its difference lies this close (Lab units) to the block's median one (what
the watch takes for no change: :data:`vision.landing.watch.CHANGED`)."""
LIGHT_NEAR = 0.5
"""A block follows the light only where at least this share of it lies near its median difference."""
STRIDE = 3
"""The medians of a whole picture (the exposure's drift, a camera's misfit) are taken on every third small pixel
each way: as sure, nine times cheaper."""


def gain_matched(small: NDArray[np.float32], reference: NDArray[np.float32]) -> NDArray[np.float32]:
    """``small`` with each Lab channel mapped onto the reference's by a gain and an offset (exposure and white
    balance drift), fitted on the table (most of the picture, unchanged) and refitted without what the first fit
    leaves far off (an arm, a card laid). A gain, not only an offset: a camera's exposure scales the light, which
    moves a white card's lightness more than a brown table's (an offset alone left every card "changed" after
    a 10 % step of the light)."""
    now = small[::STRIDE, ::STRIDE].reshape(-1, 3).astype(np.float64)
    was = reference[::STRIDE, ::STRIDE].reshape(-1, 3).astype(np.float64)
    out = np.empty_like(small)
    for c in range(3):
        x, y = now[:, c], was[:, c]
        gain, offset = 1.0, float(np.median(y - x))
        for _ in range(GAIN_FITS):
            residual = np.abs(y - (gain * x + offset))
            keep = residual <= max(GAIN_INLIER, 3.0 * float(np.median(residual)))
            if keep.sum() < 16 or np.ptp(x[keep]) < GAIN_SPAN:
                break  # too few, or too plain a picture to tell a gain from an offset: the offset alone
            gain, offset = np.polyfit(x[keep], y[keep], 1)
            gain = float(np.clip(gain, *GAIN_RANGE))
            offset = float(np.median(y[keep] - gain * x[keep]))
        out[..., c] = small[..., c] * gain + offset
    return out + _light_field(out, reference)


def _light_field(matched: NDArray[np.float32], reference: NDArray[np.float32]) -> NDArray[np.float32]:
    """What the exposure's fit leaves of a smooth change of the light (a glare that does not scale with the
    exposure, a lamp's gradient, a bright table clipped): in each block of :data:`LIGHT_BLOCKS`, the mean
    difference over what lies near the block's median difference, smoothed over the picture. A block whose
    pixels do not mostly agree (an arm, a pile of cards laid) adds nothing. Blocks are larger than cards, so a
    card laid is never taken for light."""
    h, w = matched.shape[:2]
    rows, cols = LIGHT_BLOCKS
    bh, bw = h // rows, w // cols
    d = (reference[: bh * rows : 2, : bw * cols : 2] - matched[: bh * rows : 2, : bw * cols : 2]).reshape(
        rows, (bh + 1) // 2, cols, (bw + 1) // 2, 3).transpose(0, 2, 1, 3, 4).reshape(rows, cols, -1, 3)
    near = np.abs(d - np.median(d, axis=2, keepdims=True)).max(axis=3, keepdims=True) < LIGHT_CLOSE
    counts = near.sum(axis=2)
    sums = np.where(near, d, 0).sum(axis=2)
    field = np.where(counts >= LIGHT_NEAR * d.shape[2], sums / np.maximum(counts, 1), 0).astype(np.float32)
    return np.asarray(cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR), dtype=np.float32)
