"""Card faces ready for warping: RGBA mip levels with rounded corners, and random card-like faces."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.edition import BACK, Edition
from scoring.cards import Card

CORNER_RADIUS_MM = 3.2
"""Radius of a card's rounded corners."""

Levels = tuple[np.ndarray, ...]
"""RGBA images of one face, each half the size of the one before (level 0 is full size)."""

_CACHE: dict[tuple[str, str], Levels] = {}


def rounded_alpha(w: int, h: int) -> np.ndarray:
    """An alpha mask (0/255) of a card of ``w`` × ``h`` pixels with rounded corners."""
    r = max(1, int(round(CORNER_RADIUS_MM / 56.0 * w)))
    a = np.zeros((h, w), np.uint8)
    cv2.rectangle(a, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(a, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(a, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    return a


def pyramid(rgb: np.ndarray, smallest: int = 24) -> Levels:
    """RGBA mip levels of a face down to about ``smallest`` pixels wide."""
    h, w = rgb.shape[:2]
    level = np.dstack([rgb, rounded_alpha(w, h)])
    levels = [level]
    while level.shape[1] // 2 >= smallest:
        level = cv2.pyrDown(level)
        levels.append(level)
    return tuple(levels)


def edition_levels(edition: Edition, key: Card | None) -> Levels:
    """The mip levels of a card's face in an edition (``None``: the back), cached."""
    k = key.value if key is not None else BACK
    ck = (str(edition.folder), k)
    if ck not in _CACHE:
        _CACHE[ck] = pyramid(edition.face(k))
    return _CACHE[ck]


PHOTOGRAPH_SHARE = 0.25
"""Share of random faces drawn as a full-bleed photograph rather than shapes on a plain ground."""


def random_face(rng: np.random.Generator, w: int = 150, h: int = 233) -> np.ndarray:
    """A card-shaped thing with random art: colours, shapes and scribbles, or a photograph to its edges
    (:data:`PHOTOGRAPH_SHARE`; full-art decks have no paper rim), so the detector learns 'card', not one edition."""
    if rng.random() < PHOTOGRAPH_SHARE:
        from datasets.art_random import photograph

        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        img = photograph(rng, w, h, colour)  # type: ignore[arg-type]
        if rng.random() < 0.7:
            text = str(int(rng.choice([25, 50, 75, 100, 200])))
            ink = (245, 245, 240) if rng.random() < 0.6 else (20, 20, 20)
            cv2.putText(img, text, (int(w * 0.2), int(h * rng.uniform(0.15, 0.6))), cv2.FONT_HERSHEY_DUPLEX,
                        float(rng.uniform(0.8, 1.6)), ink, 2, cv2.LINE_AA)
        return img
    bg = rng.integers(0, 256, 3)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = bg
    if rng.random() < 0.6:
        border = rng.integers(0, 256, 3).tolist()
        cv2.rectangle(img, (4, 4), (w - 5, h - 5), border, int(rng.integers(2, 8)))
    for _ in range(int(rng.integers(2, 9))):
        col = rng.integers(0, 256, 3).tolist()
        kind = rng.integers(4)
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        s = int(rng.integers(8, w // 2))
        if kind == 0:
            cv2.circle(img, (x, y), s // 2, col, -1, cv2.LINE_AA)
        elif kind == 1:
            cv2.rectangle(img, (x - s // 2, y - s // 3), (x + s // 2, y + s // 3), col, -1)
        elif kind == 2:
            cv2.line(img, (x, y), (int(rng.integers(0, w)), int(rng.integers(0, h))), col, int(rng.integers(2, 10)), cv2.LINE_AA)
        else:
            text = str(int(rng.integers(1, 1000)))
            cv2.putText(img, text, (x // 3, y), cv2.FONT_HERSHEY_SIMPLEX, float(rng.uniform(0.6, 1.8)), col, 2, cv2.LINE_AA)
    return img
