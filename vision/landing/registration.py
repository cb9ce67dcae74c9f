"""Where the camera is since the first view: its shift and turn found afresh each frame (phase correlation and
ECC), checked on the reference's strongest edges, a knock that passes told from a nudge that stays.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.landing.exposure import STRIDE

REGISTERED_BETTER = 0.85
"""A camera found moved must fit the frame at least this much better (median difference) than where it was."""
MIN_RESPONSE = 0.1
"""Phase correlation's peak must be at least this clear for a shift to be taken (an arm, or a change of light,
gives a low, broad one)."""
MARGIN = 8
"""The border (small pixels) a camera's shift leaves unknown, left out of its misfit."""
EDGE_SHARE = 0.05
"""A camera's misfit is measured on the reference's strongest lightness edges, this share of its pixels."""
REGISTER_SOFTEN = 1.0
"""Lightness softened this much more (small pixels) to register the camera: a frame's own blur (a shake, the
focus, a JPEG) then hardly moves a misfit, and a shift of half a small pixel still does."""
MISFIT_GAIN = 1.0
"""A camera found moved must also fit by this much (median Lab lightness on the edges) better than the camera at
rest: a tenth of a pixel is no move."""


def registration(reference: NDArray[np.float32], seen: NDArray[np.float32], resting: NDArray[np.float32],
                  before: NDArray[np.float32]) -> NDArray[np.float32]:
    """Where the first view's pixels are in this frame (the Euclidean motion of the camera since), found afresh
    each frame so that errors never add up. ``seen`` is the frame with the exposure matched to the reference.
    Candidates: the camera at rest, the camera of the frame before, the camera not moved, the shift phase
    correlation finds (an arm over a part of the table hardly moves its peak) and that shift refined with a turn
    by ECC; the one that fits best (:func:`_misfit`) is taken only where it fits clearly better than the camera
    at rest. A knock of a pixel or two matters (a sharp card's rim moved that far differs as a card laid); once
    it passed, the camera is back at rest, not wherever along a striped cloth's stripes the knock's fit lay."""
    candidates = [resting, before, np.eye(2, 3, dtype=np.float32)]
    reference = np.asarray(cv2.GaussianBlur(np.ascontiguousarray(reference[..., 0]), (0, 0), REGISTER_SOFTEN), np.float32)
    seen = np.asarray(cv2.GaussianBlur(np.ascontiguousarray(seen[..., 0]), (0, 0), REGISTER_SOFTEN), np.float32)
    edges = _edges(reference)
    at_rest = _misfit(reference, seen, resting, edges)
    if at_rest < MISFIT_GAIN:  # no camera can fit better by MISFIT_GAIN: the search below would keep the one at rest
        return resting
    window = _hanning(seen.shape[:2])
    (dx, dy), response = cv2.phaseCorrelate(reference, seen, window)
    if response >= MIN_RESPONSE:
        shift = np.array([[1, 0, dx], [0, 1, dy]], dtype=np.float32)
        candidates.append(shift)
        try:
            _, turned = cv2.findTransformECC(reference, seen, shift.copy(), cv2.MOTION_EUCLIDEAN,
                                             (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4))
            candidates.append(np.asarray(turned, dtype=np.float32))
        except cv2.error:
            pass
    misfits = [at_rest, *(_misfit(reference, seen, c, edges) for c in candidates[1:])]
    best = int(np.argmin(misfits))
    if misfits[best] < REGISTERED_BETTER * misfits[0] and misfits[0] - misfits[best] >= MISFIT_GAIN:
        return candidates[best]
    return resting


def _misfit(reference: NDArray[np.float32], seen: NDArray[np.float32], camera: NDArray[np.float32],
            edges: NDArray[np.bool_]) -> float:
    """How far the frame's lightness (exposure matched, softened) brought back through ``camera`` is from the
    reference's where the reference has edges (:func:`_edges`): the median lightness difference there (an arm over a part of the table,
    a card laid, are the few). On edges because a shifted picture is resampled, which softens its grain: over a
    plain table a camera half a pixel off fits better than the true one."""
    back = warped_back(seen, camera)[MARGIN:-MARGIN, MARGIN:-MARGIN]
    return float(np.median(np.abs(back - reference[MARGIN:-MARGIN, MARGIN:-MARGIN])[edges]))


def _edges(reference: NDArray[np.float32]) -> NDArray[np.bool_]:
    """The reference's (lightness, softened) pixels inside :data:`MARGIN` among its :data:`EDGE_SHARE` strongest lightness gradients."""
    lightness = reference[MARGIN:-MARGIN, MARGIN:-MARGIN]
    gradient = cv2.magnitude(cv2.Sobel(lightness, cv2.CV_32F, 1, 0), cv2.Sobel(lightness, cv2.CV_32F, 0, 1))
    return np.asarray(gradient >= np.percentile(gradient[::STRIDE, ::STRIDE], 100 * (1 - EDGE_SHARE)), dtype=bool)


_WINDOWS: dict[tuple[int, int], NDArray[np.float32]] = {}


def _hanning(shape: tuple[int, ...]) -> NDArray[np.float32]:
    key = (int(shape[0]), int(shape[1]))
    if key not in _WINDOWS:
        _WINDOWS[key] = np.asarray(cv2.createHanningWindow((key[1], key[0]), cv2.CV_32F), dtype=np.float32)
    return _WINDOWS[key]


def full_frame(warp: NDArray[np.float32], scale: float) -> NDArray[np.float64]:
    out = warp.astype(np.float64).copy()
    out[:, 2] *= scale
    return out


def warped_back(seen: NDArray[np.float32], camera: NDArray[np.float32]) -> NDArray[np.float32]:
    """A frame (small) in the first view's pixels: ``camera`` takes those to the frame's."""
    if not np.abs(camera - np.eye(2, 3)).any():
        return seen
    h, w = seen.shape[:2]
    return np.asarray(cv2.warpAffine(seen, camera, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE), dtype=np.float32)
