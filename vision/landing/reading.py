"""A change read once, whole, at the frame's full resolution: which card landed there, on which outline.

The change's rectangle is rough (the watch compares a softened small copy, so it runs a little wide; a card
laid on a look-alike changes only where the two differ; a shadow comes or goes with it), so the card is looked
for on card-proportioned boxes over it (:meth:`~vision.landing.card_size.CardSize.card_box`): the box on the
rectangle's centre and, where the rectangle is shorter or longer than a card (a card laid a strip lower on its
twin changes the picture over both), the boxes pushed to either end of it; each
as it is and fitted to the card's rim at full resolution (:func:`vision.read.outline.refine_outline`; the rim
of the card below may be the stronger edge). The edition's recogniser reads each
(the faces fit their own outline first, :meth:`~vision.read.matcher.FaceMatcher.read`) and the surest reading
stands, with the outline it was read on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import iou, long_side
from vision.landing.card_size import CardSize
from vision.landing.watch import Change, on_table, through
from vision.read.outline import refine_outline
from vision.read.recogniser import Reading, Recogniser

SQUARE = 1.25
"""A changed rectangle whose long side is less than this many times its short one is read both ways."""
SURE = 0.5
"""A reading at least this confident teaches the card's length (:meth:`CardSize.learn`) ..."""
AGREES = 0.15
"""... where the outline read and the change's rectangle are as long within this share (a card laid on the bare
table changes the picture over its whole outline): an outline fitted to the rim can shrink to the print inside it
(held-out 2-D hand 2: a 70-px card read on a 55-px outline, and every card after it looked for on boxes too small)."""


@dataclass(frozen=True)
class Landing:
    """A change as read: the card that came (``reading.card``), a back (the draw pile), or unknown."""

    frame: int
    outline: NDArray[np.float64] = field(repr=False)
    """The card's outline, full-frame pixels: the reader's own where it fitted one, else the box read."""
    reading: Reading
    change: Change = field(repr=False)

    @property
    def centre(self) -> NDArray[np.float64]:
        return self.outline.mean(axis=0)

    @property
    def on_table(self) -> NDArray[np.float64]:
        """The outline in the first view's pixels, where the card stays however the camera was nudged since
        (what the table's zones and the cards already landed are kept in)."""
        return on_table(self.outline, self.change.camera)


def read_change(recogniser: Recogniser, image: NDArray[np.uint8], change: Change, card_size: CardSize,
                known: Sequence[NDArray[np.float64]] = ()) -> Landing:
    """Read the card that came in ``change`` on the full-resolution ``image`` (BGR). ``known``: the outlines of
    the cards landed so far, on the table (:attr:`Landing.on_table`); one under the change's middle is tried too
    (a card laid on a pile lies where the last did), but where the change's own boxes read the same card, theirs
    is its place (a column's next card lies a strip lower than the one it covers)."""
    boxes: list[NDArray[np.floating]] = []
    for box in _boxes(change.outline, card_size):  # a card's rim may snap to the twin's below it: both are tried
        boxes += [box, refine_outline(image, box).corners]
    own = len(boxes)
    here = [through(np.asarray(q, dtype=np.float64), change.camera) for q in known]  # in this frame's pixels
    boxes += [q for q in here if _inside(change.outline.mean(axis=0), q)]
    readings = recogniser.read(image, boxes)
    best = max(range(len(boxes)), key=lambda k: (readings[k].card is not None or readings[k].back, readings[k].confidence))
    same = [k for k in range(own) if readings[k].card is not None and readings[k].card is readings[best].card]
    if same:  # of the boxes that read the card, the one least like a card already there (a twin a strip lower)
        best = min(same, key=lambda k: (round(_overlap(boxes[k], here), 1), -readings[k].confidence))
    reading = readings[best]
    outline = reading.outline if reading.outline is not None else boxes[best]
    if reading.card is not None and reading.confidence >= SURE \
            and abs(long_side(np.asarray(outline, dtype=np.float64)) / long_side(change.outline) - 1) <= AGREES:
        card_size.learn(outline)
    return Landing(change.frame, np.asarray(outline, dtype=np.float64), reading, change)


def sharpness(image: NDArray[np.uint8], outline: NDArray[np.floating]) -> float:
    """How sharp ``image`` (BGR) is over an outline's bounding box: the variance of its lightness's Laplacian."""
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(outline.min(axis=0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(outline.max(axis=0)).astype(int) + 1, 1, [w, h])
    grey = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_32F).var()) if grey.size else 0.0


def gone(change: Change) -> Landing:
    """A change that shows the bare table (:attr:`Change.bare`): a card went, nothing to read."""
    return Landing(change.frame, change.outline, Reading(None, 0.0), change)


def _boxes(rect: NDArray[np.float64], card_size: CardSize) -> list[NDArray[np.float64]]:
    """The card-proportioned boxes a card in this changed rectangle may lie on: along its long side, and across
    it too where the rectangle is nearly square (a card changing the picture only in part: which way it lies is
    for the reading to say)."""
    q = np.asarray(rect, dtype=np.float64)
    a, b = q[1] - q[0], q[3] - q[0]
    out = _along(q, card_size)
    if max(np.linalg.norm(a), np.linalg.norm(b)) < SQUARE * min(np.linalg.norm(a), np.linalg.norm(b)):
        out += _along(np.roll(q, 1, axis=0), card_size, across=True)
    return out


def _along(q: NDArray[np.float64], card_size: CardSize, across: bool = False) -> list[NDArray[np.float64]]:
    """Card boxes on the rectangle ``q`` along its long side (``across``: along its short one)."""
    a, b = q[1] - q[0], q[3] - q[0]
    long_axis = a if (np.linalg.norm(a) >= np.linalg.norm(b)) != across else b
    centred = card_size.card_box(q, long_axis)
    slack = long_side(centred) - float(np.linalg.norm(long_axis))
    if abs(slack) < 0.1 * long_side(centred):
        return [centred]
    step = long_axis / (np.linalg.norm(long_axis) + 1e-9) * slack / 2
    return [centred, centred + step, centred - step]


def _overlap(box: NDArray[np.floating], known: Sequence[NDArray[np.float64]]) -> float:
    """How much a box overlaps the card already there that it overlaps most (IoU; 0 with none)."""
    return max((iou(np.asarray(box, dtype=np.float64), q) for q in known), default=0.0)


def _inside(point: NDArray[np.float64], quad: NDArray[np.float64]) -> bool:
    return cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0
