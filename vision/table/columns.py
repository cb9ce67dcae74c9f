"""A side's distance cards lie in columns by value: each column read as a whole.

Players lay each distance value in a column of its own, each card a little lower than the one before,
so that only a strip of each shows (the top 20–30 mm) and the last card shows whole. A strip may be
too small to read, or carry no value at all (editions that print it only mid-card), but the column
says it: its best-visible cards name the value, its strips give the count.

:func:`read_columns` groups a side's face-up boxes laid the normal way into columns along the side's
``up``, reads each column from all its cards (a card's say weighs by how sure the reading is and how
much of the face shows), gives the column's value to the cards read as nothing or as another value
by a weak minority, and flags a column whose cards read as different values with real weight on each
side instead of counting them blindly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision.read.sighting import Sighting
from vision.table.column_ends import strips_beyond

ACROSS_SHARE = 0.45
"""Two boxes are in one column when their centres lie within this share of a card's width of each other
across the side's up (a column is laid by hand, a little crooked)."""
ALONG_GAP = 1.3
"""Boxes further apart along the side's up than this many card lengths are two columns in one line."""
STRIP_SHARE = 0.6
"""A column's box shorter than this share of a card's length along the side's up is a strip (a whole card
shows its length)."""
GAP_PITCHES = 1.6
"""Two boxes of a column whose top edges lie this many strips apart or more have a strip between them that no
box found: counted (each card of a column is laid one strip lower than the one before)."""
UNBOXED_SURENESS = 0.5
"""A strip counted with no box of its own is this share as sure as the box above it."""
MINORITY_WEIGHT = 0.35
"""A value read on some of a column's cards whose weight is at most this share of the column's is a
misreading of its strips, and takes the column's value; above it the column is mixed and flagged."""


@dataclass(frozen=True)
class Column:
    """One column of a side's distance cards."""

    seen: tuple[Sighting, ...]
    """The column's boxes as the reader read them (top card first along ``up``)."""
    cards: tuple[Sighting, ...]
    """The same boxes as they are counted: with the column's value where it is clear."""
    value: Card | None
    """The column's distance card, ``None`` when none of its cards could be read."""
    mixed: bool
    """Its cards read as different values, each with real weight: counted as read, and flagged."""
    doubled: tuple[Sighting, ...] = ()
    """Boxes whose top edge lies within half a strip of a surer box's of the column: the same card boxed
    twice (a box across two strips, a strip boxed again), not counted."""
    unboxed: tuple[Sighting, ...] = ()
    """Strips the column shows between two of its boxes where no box was found (:func:`unboxed_strips`),
    with the column's value: counted with its cards."""

    @property
    def values(self) -> tuple[Card, ...]:
        """The distance values its cards are counted as, in value order."""
        found = {s.card for s in self.cards if s.card is not None and s.card.is_distance}
        return tuple(sorted(found, key=lambda c: c.km))


def _weight(s: Sighting, card_length: float) -> float:
    corners = np.asarray(s.corners, dtype=np.float64)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    shown = float(sides.max() / max(card_length, 1e-6))  # a strip shows its width, a whole card its length
    return float(s.confidence) * min(1.0, shown) ** 2


def group_columns(boxes: Sequence[Sighting], up: NDArray[np.floating], card_length: float) -> list[list[Sighting]]:
    """Boxes grouped into columns along ``up`` (each column ordered along it)."""
    u = np.asarray(up, dtype=np.float64)
    u = u / (np.linalg.norm(u) or 1.0)
    across = np.array([-u[1], u[0]])
    width = card_length * 56.0 / 87.0
    order = sorted(boxes, key=lambda s: float(s.centre @ across))
    lines: list[list[Sighting]] = []
    for s in order:
        if lines and abs(float(s.centre @ across) - float(np.mean([t.centre @ across for t in lines[-1]]))) <= ACROSS_SHARE * width:
            lines[-1].append(s)
        else:
            lines.append([s])
    columns = []
    for line in lines:
        line.sort(key=lambda s: -float(s.centre @ u))  # the top of the column first
        current = [line[0]]
        for s in line[1:]:
            if abs(float((current[-1].centre - s.centre) @ u)) > ALONG_GAP * card_length:
                columns.append(current)
                current = []
            current.append(s)
        columns.append(current)
    return columns


def read_column(cards: Sequence[Sighting], card_length: float) -> Column:
    """The column's value from all its cards, and its cards with that value given where it is clear."""
    weights: dict[Card, float] = {}
    for s in cards:
        if s.card is not None and s.card.is_distance:
            weights[s.card] = weights.get(s.card, 0.0) + _weight(s, card_length)
    if not weights:
        return Column(tuple(cards), tuple(cards), None, False)
    value = max(weights, key=lambda c: weights[c])
    total = sum(weights.values())
    mixed = any(c is not value and w > MINORITY_WEIGHT * total for c, w in weights.items())
    if mixed:
        return Column(tuple(cards), tuple(cards), value, True)
    counted = tuple(s if s.card is value else replace(s, card=value) for s in cards)
    return Column(tuple(cards), counted, value, False)


def read_columns(boxes: Sequence[Sighting], up: NDArray[np.floating] | None, card_length: float,
                 image: NDArray[np.uint8] | None = None, others: Sequence[Sighting] = ()) -> list[Column]:
    """A side's columns, from its face-up boxes laid the normal way that are distance cards or unread, with
    the strips between their boxes that no box found (where the column's value is clear), and, given the
    ``image``, those past a column's first box that look like it (:func:`vision.table.column_ends.strips_beyond`;
    ``others``: the table's boxes, on which no such strip lies).

    Columns with no distance card read in them are left as they are (an unread card alone is not a
    distance card).
    """
    if up is None or not boxes:
        return []
    groups = group_columns(boxes, up, card_length)
    u = np.asarray(up, dtype=np.float64) / (float(np.linalg.norm(up)) or 1.0)
    pitch = strip_pitch(groups, u, card_length)
    columns = []
    for group in groups:
        kept, doubled = boxed_once(group, u, pitch)
        column = replace(read_column(kept, card_length), doubled=doubled)
        if pitch > 0 and column.value is not None and not column.mixed:
            unboxed = unboxed_strips(kept, u, pitch, column.value)
            if image is not None:
                unboxed += strips_beyond(kept, image, u, pitch, column.value, [*others, *boxes])
            column = replace(column, unboxed=unboxed)
        columns.append(column)
    return columns


def boxed_once(column: Sequence[Sighting], up: NDArray[np.float64], pitch: float) -> tuple[list[Sighting], tuple[Sighting, ...]]:
    """The column's boxes (top card first) with each card boxed once, and the boxes dropped: of boxes whose
    top edges lie within half a strip of each other, the surest (each card of a column lies a strip lower
    than the one before)."""
    if pitch <= 0:
        return list(column), ()
    kept: list[Sighting] = []
    doubled: list[Sighting] = []
    for s in sorted(column, key=lambda s: -s.confidence):
        top = top_edge(s, up)
        if any(abs(top - top_edge(k, up)) < pitch / 2 for k in kept):
            doubled.append(s)
        else:
            kept.append(s)
    order = {id(s): i for i, s in enumerate(column)}
    return sorted(kept, key=lambda s: order[id(s)]), tuple(doubled)


def strip_pitch(columns: Sequence[Sequence[Sighting]], up: NDArray[np.float64], card_length: float) -> float:
    """How far apart along ``up`` a side's columns lay their cards, in pixels (0: no two boxes of a column say):
    the median step between the top edges of a column's neighbouring boxes, of those under
    :data:`STRIP_SHARE` of a card's length (a strip's box runs a few pixels past its strip; top edges move by
    whole strips)."""
    steps = []
    for column in columns:
        tops = [top_edge(s, up) for s in column]
        steps += [a - b for a, b in zip(tops, tops[1:], strict=False) if 0 < a - b < STRIP_SHARE * card_length]
    return float(np.median(steps)) if steps else 0.0


def unboxed_strips(column: Sequence[Sighting], up: NDArray[np.float64], pitch: float, value: Card) -> tuple[Sighting, ...]:
    """The strips of a column (top card first along ``up``) that lie between two of its boxes with no box of
    their own: where two boxes' top edges lie :data:`GAP_PITCHES` strips apart or more, each strip between,
    drawn as the upper box moved down by whole strips (each strip ``pitch`` pixels along ``up``).

    >>> strip = lambda top: Sighting(np.array([[0, top], [56, top], [56, top - 20], [0, top - 20.0]]), True, Card.DISTANCE_50, 0.8)
    >>> found = unboxed_strips([strip(300), strip(280), strip(240)], np.array([0, 1.0]), 20.0, Card.DISTANCE_50)
    >>> [float(s.corners[:, 1].max()) for s in found], found[0].card.value
    ([260.0], 'distance_50')
    """
    out: list[Sighting] = []
    tops = [top_edge(s, up) for s in column]
    for upper, top, below in zip(column, tops, tops[1:], strict=False):
        gap = top - below
        if gap < GAP_PITCHES * pitch:
            continue
        missing = int(round(gap / pitch)) - 1
        step = gap / (missing + 1)
        corners = np.asarray(upper.corners, dtype=np.float64)
        # the upper box cut to one strip below its top edge (a box of the column may run longer)
        cut = corners + up[None, :] * np.maximum(0.0, (top - corners @ up) - pitch)[:, None]
        for k in range(1, missing + 1):
            out.append(Sighting(cut - up[None, :] * (k * step), True, value, float(upper.confidence) * UNBOXED_SURENESS))
    return tuple(out)


def top_edge(box: Sighting, up: NDArray[np.float64]) -> float:
    """How far along ``up`` (towards the middle) a box's top edge lies: a column's card's end that stays in view."""
    return float((np.asarray(box.corners) @ up).max())
