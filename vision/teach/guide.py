"""The guide's layout: the 19 card types laid in four rows, each card named by its place.

The display shows where each card type goes: the five distance cards in a row (25, 50, 75, 100, 200), then the
hazards, the remedies and the safeties, each row in :class:`~scoring.cards.Card`'s order, the cards upright. Laid
that way, a card's place names it whatever its art. A photo is taken to follow the guide when its cards lie in
rows of five, five, five and four, all turned alike, and what is printed on them (where it can be read) agrees
with their places; the four-card row tells which end is the safeties', and so which way the rows run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.geometry import long_axis

ROWS: tuple[tuple[Card, ...], ...] = tuple(tuple(list(Card)[i : i + 5]) for i in range(0, len(Card), 5))
"""The guide's rows, top to bottom, each from the left."""
ALIKE_DEG = 20.0
"""The cards of a guide's layout lie turned alike to within this many degrees (upright or upside down)."""
AGREEING = 0.7
"""The share of the cards whose printing names something that must name the card of their place."""


def guide_places(corners: Sequence[NDArray[np.floating]]) -> list[Card] | None:
    """The card each outline's place names when the outlines lie as the guide shows (``None``: they do not):
    four rows across the cards' length, of five, five, five and four."""
    if len(corners) != len(Card):
        return None
    quads = [np.asarray(q, np.float64).reshape(4, 2) for q in corners]
    along = np.array([long_axis(q) for q in quads])
    # a line's direction, not its sense: the mean of doubled angles
    doubled = np.arctan2(along[:, 1], along[:, 0]) * 2
    mean = np.arctan2(np.sin(doubled).mean(), np.cos(doubled).mean())
    spread = np.degrees(np.abs(np.angle(np.exp(1j * (doubled - mean))))) / 2
    if spread.max() > ALIKE_DEG:
        return None
    down = np.array([np.cos(mean / 2), np.sin(mean / 2)])
    middles = np.array([q.mean(axis=0) for q in quads])
    depth = middles @ down
    order = np.argsort(depth)
    gaps = np.diff(depth[order])
    cuts = np.sort(np.argsort(gaps)[-3:])
    rows = np.split(order, cuts + 1)
    sizes = [len(r) for r in rows]
    if sizes == [4, 5, 5, 5]:
        rows, down = rows[::-1], -down
    elif sizes != [5, 5, 5, 4]:
        return None
    right = np.array([down[1], -down[0]])  # a quarter turn from "down" the picture's way (y down)
    names: list[Card | None] = [None] * len(quads)
    for row, cards in zip(rows, ROWS, strict=True):
        for k, card in zip(sorted(row, key=lambda k: float(middles[k] @ right)), cards, strict=True):
            names[k] = card
    return [c for c in names if c is not None] if all(c is not None for c in names) else None


def agrees(places: Sequence[Card], printed: Sequence[Card | None]) -> bool:
    """Whether the names read on the cards (``None``: nothing read) agree with their places
    (:data:`AGREEING`; every distance value read must)."""
    read = [(p, r) for p, r in zip(places, printed, strict=True) if r is not None]
    if any(r.is_distance and r is not p for p, r in read):
        return False
    return not read or sum(p is r for p, r in read) >= AGREEING * len(read)
