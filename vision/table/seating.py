"""The sides found as a hand starts: the first frames' readings gathered until the table says where the
sides sit (:func:`~vision.table.found_sides.find_sides` on each frame), then the layout is fixed.

A hand starts on a cleared table; its first cards land one by one, so the first frames hold too little to
place anybody. Each frame's reading is kept (its sightings, never its picture) until the same sides are
found on :data:`STEADY_FRAMES` frames in a row, each holding :data:`MIN_CARDS` face-up cards of its own,
one of them a distance card (the first cards of a hand are a side's roll and a hazard laid on it, which
may lie across). The pipeline then follows the hand from the first frame gathered, so no play is lost.
Without a set-up, frames are still gathered for a while (:data:`MAX_GATHERED`): a side whose first distance
card comes late is found then, and the hand is followed afresh with it from the first frame.
Where the game's set-up names the sides, that many are waited for and they are named in seat order:
clockwise from the top of the picture, as :data:`~vision.table.found_sides.COMPASS` orders them.

>>> from vision.read.frame_reader import FrameReading
>>> seating = Seating(names=("Ana", "Ben"))
>>> seating.see(SeenFrame(0, 0.0, FrameReading((), None)), 640, 360) is None
True
>>> seating.settle(640, 360).sides[0].side  # the source ended first: two sides facing each other
'Ana'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from vision.read.frame_reader import FrameReading
from vision.read.sighting import Sighting
from vision.table.found_sides import find_sides, sides_placed
from vision.table.layout import TableLayout
from vision.table.own_cards import cards_of_their_own

STEADY_FRAMES = 5
"""The same sides found on this many frames in a row fix the layout; raising it waits out an arm that
passes over the cards, at the cost of a later start."""
MIN_CARDS = 2
"""Each side found holds at least this many face-up cards of its own, one of them a distance card: a lone
roll card says where a player sits only up to the camera's tilt."""
MAX_GATHERED = 900
"""At most this many frames' readings are kept (90 s at 10 frames a second); past it the sides found on the
fullest frame are taken as they are."""


@dataclass(frozen=True)
class SeenFrame:
    """A frame's reading kept while the sides are looked for (its picture is not kept)."""

    index: int
    time: float
    reading: FrameReading


class Seating:
    """Gathers the first frames' readings until the sides are found; see the module's docstring.

    ``names``: the game's sides in seat order; without them, 2 to 4 sides named by the compass.
    """

    def __init__(self, *, names: Sequence[str] | None = None) -> None:
        if names is not None and not 2 <= len(names) <= 4:
            raise ValueError(f"sides are found for 2 to 4 sides, not {len(names)}")
        self.names = tuple(names) if names is not None else None
        self.layout: TableLayout | None = None
        """The layout found (``None`` while looking)."""
        self.looking = True
        """Frames are still gathered: before the sides are found, and after while more sides may show (no
        set-up gave their number, fewer than four found, fewer than :data:`MAX_GATHERED` frames kept)."""
        self._gathered: list[SeenFrame] = []
        self._steady = 0
        self._last_key: tuple[str, ...] | None = None
        self._fullest: tuple[int, TableLayout] | None = None

    @property
    def gathered(self) -> tuple[SeenFrame, ...]:
        """The frames seen while looking, oldest first (emptied by :meth:`release`)."""
        return tuple(self._gathered)

    def see(self, seen: SeenFrame, width: int, height: int) -> TableLayout | None:
        """Keep one more frame; a layout when the sides are found (then :attr:`layout`), or found again with
        more sides (a side whose first distance card came late: follow the hand afresh with it), else ``None``."""
        if not self.looking:
            return None
        self._gathered.append(seen)
        sightings = list(seen.reading.sightings)
        found = sides_placed(sightings, width, height)
        wanted = len(self.names) if self.names is not None else None
        fewest = 2 if self.layout is None else len(self.layout.sides) + 1
        if found is not None and not (len(found.sides) >= fewest and (wanted is None or len(found.sides) == wanted)
                                      and _placed(found, sightings)):
            found = None
        key = None if found is None else tuple(s.side for s in found.sides)
        self._steady = self._steady + 1 if key is not None and key == self._last_key else int(key is not None)
        self._last_key = key
        if found is not None and self.layout is None:
            cards = sum(s.face_up for s in sightings)
            if self._fullest is None or cards >= self._fullest[0]:
                self._fullest = (cards, found)
        if found is not None and self._steady >= STEADY_FRAMES:
            fixed = self._fix(found)
            self.looking = self.names is None and len(fixed.sides) < 4 and len(self._gathered) < MAX_GATHERED
            self._steady, self._last_key = 0, None
            return fixed
        if len(self._gathered) >= MAX_GATHERED:
            self.looking = False
            return self.settle(width, height) if self.layout is None else None
        return None

    def settle(self, width: int, height: int) -> TableLayout:
        """The source ended (or too many frames went by) before the sides were found for sure: those found on
        the fullest frame, else two sides facing each other across the picture."""
        self.looking = False
        if self.layout is not None:
            return self.layout
        if self._fullest is not None:
            return self._fix(self._fullest[1])
        if self.names is None or len(self.names) == 2:
            sides = (self.names[0], self.names[1]) if self.names is not None else ("North", "South")
            self.layout = TableLayout.default(width, height, sides=sides)
            return self.layout
        found = find_sides([s for f in self._gathered[-1:] for s in f.reading.sightings], width, height)
        return self._fix(found if len(found.sides) == len(self.names) else TableLayout.default(width, height))

    def adopt(self, layout: TableLayout) -> None:
        """A layout settled elsewhere (a person's zones, a hand taken back after a restart) ends the looking."""
        self.layout = layout
        self.looking = False

    def release(self) -> None:
        """Forget the gathered frames (the pipeline has followed them)."""
        self._gathered = []

    def _fix(self, found: TableLayout) -> TableLayout:
        layout = found
        if self.names is not None and len(self.names) == len(found.sides):
            layout = TableLayout(sides=tuple(replace(s, side=n) for s, n in zip(found.sides, self.names, strict=True)))
        self.layout = layout.with_few_corners()
        return self.layout


def _placed(layout: TableLayout, sightings: Sequence[Sighting]) -> bool:
    """Whether every side of ``layout`` holds :data:`MIN_CARDS` face-up cards of its own, one a distance card."""
    own = [s for s in cards_of_their_own(sightings) if s.face_up]
    for zone in layout.sides:
        mine = [s for s in own if zone.contains(s.centre)]
        if len(mine) < MIN_CARDS or not any(s.card is not None and s.card.is_distance for s in mine):
            return False
    return True
