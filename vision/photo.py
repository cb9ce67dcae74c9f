"""One photo of the table counted: what ``borne detect`` prints and what the display's "Score from a photo"
proposes (CONTRACT §5 and §9's ``POST /api/photos``).

The photo is read whole once (detector and reader, as a still), the sides are those of the layout given or
else those Borne finds on the table itself (:func:`vision.table.found_sides.find_sides`), and each side's
cards are counted (:func:`vision.table.census.take_census`). The reader is loaded at the first photo and
kept, so a display counting a photo after a photo pays for the models once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vision.image import BGRImage
from vision.table.census import TableCensus, take_census
from vision.table.found_sides import find_sides
from vision.table.layout import TableLayout

if TYPE_CHECKING:
    from vision.read.frame_reader import FrameReader


@dataclass(frozen=True)
class PhotoCount:
    """What one photo shows: every side's census, the sides' zones, and the picture's size."""

    census: TableCensus
    layout: TableLayout
    found_sides: bool
    """The sides were found on the table itself (no layout was given)."""
    width: int
    height: int
    card_px: float | None
    """A card's typical length in the photo, in pixels (``None`` when no card was seen)."""
    too_small: bool
    """The cards are too small in the photo to be read reliably."""

    @property
    def cards(self) -> int:
        """How many cards were counted, on every side, plus the draw pile when one is seen."""
        return sum(len(s.cards) for s in self.census.sides) + int(self.census.draw_pile)

    def to_json(self) -> dict[str, Any]:
        """CONTRACT §5's form: the sides with their cards, the draw pile; ``found_sides`` and each side's
        ``zone`` and ``up`` when the sides were found."""
        out = self.census.to_json()
        if self.found_sides:
            out["found_sides"] = True
            for side in out["sides"]:
                side.update({k: v for k, v in self.layout.zone_of(side["side"]).to_json().items() if k != "side"})
        return out


class PhotoCounter:
    """Counts photos of the table with one edition's reader (loaded at the first photo, one photo at a time)."""

    def __init__(self, edition: str = "generic") -> None:
        self.edition = edition
        self._reader: FrameReader | None = None
        self._lock = threading.Lock()

    def count(self, image: BGRImage, layout: TableLayout | None = None) -> PhotoCount:
        """Count the cards of ``image``, by the sides of ``layout`` or else by the sides found on the table."""
        with self._lock:
            reading = self._read(image)
        height, width = image.shape[:2]
        sightings = list(reading.sightings)
        found = layout is None
        if layout is None:
            layout = find_sides(sightings, width, height)
        return PhotoCount(census=take_census(sightings, layout, image), layout=layout, found_sides=found,
                          width=width, height=height, card_px=reading.typical_card_px, too_small=reading.too_small)

    def _read(self, image: BGRImage) -> Any:
        if self._reader is None:
            from vision.read.frame_reader import FrameReader

            self._reader = FrameReader.from_models(self.edition, still=True)
        return self._reader.read(image)
