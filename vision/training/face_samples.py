"""Crops made straight from an edition's face images, as the recogniser sees a card at table distance.

Scenes teach the recogniser how cards look on a table (other cards over them, hands, shadows), but a
few hundred scenes show each face only a few hundred times. These views add many more of each face
cheaply: the whole face, the top strip a card shows in a column, or a face with one edge covered,
shrunk to the 45–130 px a card is long in a 1280 × 720 frame, blurred, lit, noisy, JPEG-compressed and
cut along a jittered box exactly as :func:`vision.read.crops.cut_card` cuts a detection.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.read.crops import CROP_HEIGHT, CROP_WIDTH, cut_card

WHOLE_SHARE = 0.45
STRIP_SHARE = 0.40
"""The rest of the views have one edge covered."""
STRIP_FRACTION = (0.18, 0.45)
"""A strip in a column: 20–30 mm of an 87 mm card, and a little more when a column is loose."""
CARD_LENGTH_PX = (45.0, 130.0)
JITTER_PX = 1.5
GLARE_SHARE = 0.3
"""Views washed by a lamp's highlight on the gloss: on photo-real stills the faces under a lamp lose their
colour towards white (the commonest misreads there), and a draw pile so lit went unread as a back."""
GLARE_STRENGTH = (0.15, 0.65)
"""How far the middle of the highlight goes towards white."""


def face_views(
    faces: Sequence[NDArray[np.uint8]], count: int, *, seed: int, askew: bool = False,
    progress: Callable[[int], None] | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """``count`` BGR crops ``(count, CROP_HEIGHT, CROP_WIDTH, 3)`` of RGB ``faces`` and the index of each one's face.

    With ``askew`` each box is read under a wrong quarter turn, as the recogniser's "read askew"
    class needs.
    """
    rng = np.random.default_rng([seed, 11])
    labels = rng.integers(0, len(faces), count).astype(np.int64)
    crops = np.zeros((count, CROP_HEIGHT, CROP_WIDTH, 3), np.uint8)
    bgr = [np.ascontiguousarray(f[..., ::-1]) for f in faces]
    for i in range(count):
        crops[i] = _view(bgr[labels[i]], rng, askew=askew)
        if progress is not None and (i + 1) % 1000 == 0:
            progress(i + 1)
    return crops, labels


def _view(face: NDArray[np.uint8], rng: np.random.Generator, *, askew: bool) -> NDArray[np.uint8]:
    top, bottom, left, right = _shown_part(rng)
    h, w = face.shape[:2]
    scale = rng.uniform(*CARD_LENGTH_PX) / h
    small = cv2.resize(face, (max(4, round(w * scale)), max(6, round(h * scale))), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.4:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.2))
    lit = small.astype(np.float32) * rng.uniform(0.55, 1.25) * rng.uniform(0.9, 1.1, 3)
    if rng.random() < GLARE_SHARE:
        lit = _glare(lit, rng)
    lit += rng.normal(0, rng.uniform(1, 6), lit.shape)
    image = np.clip(lit, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 90))])
        image = cv2.imdecode(encoded, cv2.IMREAD_COLOR)  # type: ignore[assignment]
    sh, sw = image.shape[:2]
    box = np.array([[left * sw, top * sh], [right * sw, top * sh], [right * sw, bottom * sh], [left * sw, bottom * sh]])
    box += rng.normal(0, JITTER_PX, (4, 2))
    if askew:
        box = np.roll(box, -int(rng.integers(1, 4)), axis=0)
    return cut_card(image, box)


def _glare(lit: NDArray[np.float64], rng: np.random.Generator) -> NDArray[np.float64]:
    """A soft white highlight somewhere on the face (its middle anywhere, its size a third to one and a
    half card lengths), blended in up to :data:`GLARE_STRENGTH`."""
    h, w = lit.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    radius = rng.uniform(0.33, 1.5) * h
    weight = rng.uniform(*GLARE_STRENGTH) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius**2))
    return lit * (1 - weight[..., None]) + 255.0 * weight[..., None]


def _shown_part(rng: np.random.Generator) -> tuple[float, float, float, float]:
    """``top, bottom, left, right`` of the face shown, as shares of its height and width."""
    r = rng.random()
    if r < WHOLE_SHARE:
        return 0.0, 1.0, 0.0, 1.0
    if r < WHOLE_SHARE + STRIP_SHARE:
        return 0.0, float(rng.uniform(*STRIP_FRACTION)), 0.0, 1.0
    kept = float(rng.uniform(0.35, 0.8))
    edge = int(rng.integers(4))
    return (
        (0.0, kept, 0.0, 1.0),
        (1.0 - kept, 1.0, 0.0, 1.0),
        (0.0, 1.0, 0.0, kept),
        (0.0, 1.0, 1.0 - kept, 1.0),
    )[edge]
