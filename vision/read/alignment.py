"""A card's outline from its face: the face the card shows, aligned with the frame.

Where the detector's box is loose and the card's edges are lost among its neighbours' (a column's end
card over the strips beneath, a pile), the print itself is the surest guide: the face is warped onto the
frame by the homography that makes the two correlate best (OpenCV's enhanced correlation coefficient,
invariant to the light's brightness and contrast), starting from the box, at :data:`ALIGN_SCALE` times
the frame's resolution. The corners of the warped face are the card's.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.read.crops import CARD_ASPECT

ALIGN_SCALE = 2
"""The frame is aligned at this many times its own resolution (development stills of the generic
edition: median corner error 2.2 % of a card's length at 1, 1.4 % at 2)..."""
MAX_ALIGN_PX = 180
"""...and at most so fine that the card is this many pixels long: a phone's photo shows a card 200-400 px long,
where aligning at twice that took 40 ms a card (the corner error, a share of the card's length, is that of a
180-px card; a 1280 x 720 frame's cards, 55-90 px, are aligned at twice their size as before)."""
SOFTEN = 0.6
"""Both pictures are blurred by this many frame pixels first (0.6 against 1.0 and 1.5: 2.2 %, 2.4 %, 2.9 %)."""
MAX_MOVE = 0.25
"""An alignment that moves a corner by more than this share of the card's length has slid off the card."""


def align_face(image: NDArray[np.uint8], corners: NDArray[np.floating],
               face: NDArray[np.uint8]) -> tuple[NDArray[np.float64], float] | None:
    """The corners of ``face`` (BGR, portrait) aligned with the BGR frame from ``corners`` (the face's top
    left first, clockwise), and the correlation reached; ``None`` when the alignment does not settle.

    >>> face = cv2.resize(np.random.default_rng(0).integers(0, 256, (8, 5, 3), dtype=np.uint8), (60, 93), interpolation=cv2.INTER_CUBIC)
    >>> frame = np.full((200, 200, 3), 90, np.uint8)
    >>> true = np.array([[70.3, 50.2], [130.1, 52.7], [127.6, 145.4], [67.9, 142.9]])
    >>> m = cv2.getPerspectiveTransform(np.float32([[0, 0], [60, 0], [60, 93], [0, 93]]) - 0.5, true.astype(np.float32))
    >>> frame = cv2.warpPerspective(face, m, (200, 200), dst=frame, borderMode=cv2.BORDER_TRANSPARENT)
    >>> found, fit = align_face(frame, true + [[3, -2], [-2, 3], [2, 3], [-3, -2]], face)
    >>> bool(np.abs(found - true).max() < 1.0), fit > 0.9
    (True, True)
    """
    q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    length = float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    scale = min(float(ALIGN_SCALE), MAX_ALIGN_PX / max(length, 1.0))
    height = int(np.clip(round(length * scale), 24, max(24, face.shape[0])))
    width = max(8, round(height * CARD_ASPECT))
    small = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
    template = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), SOFTEN * scale)
    # pixel centres at whole coordinates: a picture's corners lie half a pixel outside its outer centres
    rect = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32) - 0.5
    # only the neighbourhood of the box takes part (a third of a card's length around it)
    pad = int(length / 3) + 2
    x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(q.max(axis=0)).astype(int) + pad, [image.shape[1], image.shape[0]])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    offset = np.array([x0, y0], np.float64)
    region = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    size = (max(1, round((x1 - x0) * scale)), max(1, round((y1 - y0) * scale)))
    region = cv2.resize(region, size, interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)
    scale_xy = np.array([size[0] / (x1 - x0), size[1] / (y1 - y0)])  # the scale the rounding left
    warp = cv2.getPerspectiveTransform(rect, ((q - offset + 0.5) * scale_xy - 0.5).astype(np.float32)).astype(np.float32)
    grey = cv2.GaussianBlur(region.astype(np.float32), (0, 0), max(SOFTEN * scale, 0.3))
    try:
        fit, warp = cv2.findTransformECC(template, grey, warp, cv2.MOTION_HOMOGRAPHY,
                                         (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4), None, 1)  # type: ignore[call-overload]
    except cv2.error:
        return None
    found = (cv2.perspectiveTransform(rect[None], warp)[0].astype(np.float64) + 0.5) / scale_xy - 0.5 + offset
    if not np.all(np.isfinite(found)) or np.max(np.linalg.norm(found - q, axis=1)) > MAX_MOVE * length:
        return None
    return found, float(fit)
