"""A video's reading of an edition that has both a fitted recogniser and its faces: a whole card is read by its own
face, a column's strip by the fitted recogniser.

The fitted recogniser reads a band of a card (a column's strip) better than the faces do, but a whole card lying on
a photo-like table, cut from the detector's box, it misreads now and then, and the same way frame after frame (a
25 under a warm lamp read as a 200 in every frame it lay there). The faces, aligned with the card's own outline
first (:meth:`~vision.read.matcher.FaceMatcher.outline`), read those whole cards nearly always, and say "unknown"
rather than misread. `bench/dev_whole_by_faces.py` on a development photo-real hand (seed 52002 `--held-out`, 5
frames a second, every third frame, the video's boxes over a true card): whole cards (≥ 0.85 showing) read right
by the fitted recogniser 464 of 522 (50 wrong), by the faces on their outlines 522 (none wrong); strips 167 of
183 (8 wrong) against 143 (none wrong, 40 unknown). On a 2-D development hand (seed 61000) both read 916 of 917
whole cards; strips 587 of 603 against 512 (docs/measured-history-hands.md, "Whole cards read by their faces").

So each box is read by the fitted recogniser, and a box it is not sure of (:data:`SURE_FITTED`) that the faces
outline as a whole card is read again by the faces on that outline: where they are sure, their reading stands;
else the fitted one's. The box stays the card's corners, as for every other box of a video: the tracker tells
cards apart by where their boxes lie, and a card read on its outline in one frame and on its box in the next
would seem to move.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from vision.read.matcher import FaceMatcher
from vision.read.recogniser import Reading, Recogniser

SURE_FITTED = 0.95
"""A fitted reading this sure stands without the faces' second reading (a face read on its outline costs about 20 ms,
the fitted reading 2). The development photo-real hand above: of the 514 whole cards the fitted recogniser named,
305 at least this sure, none of them wrong (at 0.9: 352, none wrong; at 0.8: 408, 5 wrong); the 2-D one: 894 of 916."""


@dataclass
class WholeCardsByFaces:
    """The fitted recogniser of an edition, its whole cards read again by the edition's faces (implements
    :class:`~vision.read.recogniser.Recogniser`)."""

    fitted: Recogniser
    faces: FaceMatcher
    faces_read: int = 0
    """Boxes the faces read again as whole cards (counted for the tests)."""

    @property
    def edition(self) -> str:
        return self.fitted.edition

    def read(self, image: NDArray[np.uint8], boxes: list[NDArray[np.floating]]) -> list[Reading]:
        readings = self.fitted.read(image, boxes)
        out = []
        for box, fitted in zip(boxes, readings, strict=True):
            outline = None if fitted.card is not None and fitted.confidence >= SURE_FITTED else self.faces.outline(image, box)
            if outline is None:
                out.append(fitted)
                continue
            self.faces_read += 1
            face = replace(self.faces.read_outlined(image, outline, box), outline=None)
            out.append(face if face.card is not None or face.back else fitted)
        return out
