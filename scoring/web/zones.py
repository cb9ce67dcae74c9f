"""The table's zones as the display edits them: a strict check of a layout (CONTRACT.md §4), the
view ``GET /api/camera/layout`` answers, and what the display asks of the pipeline about its zones.

``scoring`` imports no vision code: ``borne run`` hands the display a :class:`ZoneDesk` that takes a
checked layout as plain JSON, saves it for the table and gives it to the pipeline.

>>> two = {"sides": [{"side": "North", "zone": [[0, 0], [640, 0], [640, 160], [0, 160]], "up": [0, 1]},
...                  {"side": "South", "zone": [[0, 200], [640, 200], [640, 360], [0, 360]]}]}
>>> check_layout(two, sides=("South", "North"))["sides"][0]["up"]
[0.0, 1.0]
>>> check_layout(two, sides=("Ana", "Ben"))
Traceback (most recent call last):
...
scoring.layout.InvalidLayoutError: sides[0].side: this table's sides are Ana, Ben; a zone edit cannot rename them
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from scoring.layout import InvalidLayoutError, check_layout

__all__ = ["InvalidLayoutError", "LayoutOrigin", "NoLayoutToRestoreError", "ZoneDesk", "ZoneView", "check_layout"]


class LayoutOrigin(StrEnum):
    """Where the layout in use came from."""

    SAVED = "saved"
    """A person saved it on the display (kept per table in the games' SQLite file)."""
    FILE = "file"
    """``borne run --layout FILE``."""
    CAMERA = "camera"
    """The source's own (the demo knows where its simulated camera put each side)."""
    DEFAULT = "default"
    """Two sides facing each other across the picture (``TableLayout.default``)."""
    FOUND = "found"
    """Borne found the sides from the table (``borne run`` without ``--layout`` or saved zones), proposed for a
    person to confirm (saving them) or fix."""


class NoLayoutToRestoreError(ValueError):
    """The saved zones cannot be forgotten: no start-up layout has this table's sides to go back to."""


@dataclass(frozen=True)
class ZoneView:
    """The table's zones as ``GET /api/camera/layout`` shows them."""

    layout: dict[str, Any]
    """The layout in use (CONTRACT §4)."""
    origin: LayoutOrigin
    table: str
    """The table's name (``borne run --table``): saved zones are kept per table."""
    sides: tuple[str, ...]
    """The sides the camera follows; a saved layout has exactly these."""
    frame_size: tuple[int, int] | None
    """The camera picture's width and height in pixels (the layout's units); ``None`` before the first picture."""
    default: dict[str, Any] | None
    """Two sides facing each other in this picture, with this table's names; ``None`` without a picture or two sides."""
    saved: bool
    """Whether zones are saved for this table (``--layout`` wins over them at start-up)."""
    finding: bool = False
    """The sides are being found from the table as the hand starts (the default zones are shown meanwhile)."""

    def to_json(self) -> dict[str, Any]:
        size = None if self.frame_size is None else {"width": self.frame_size[0], "height": self.frame_size[1]}
        return {"layout": self.layout, "origin": self.origin.value, "table": self.table, "sides": list(self.sides),
                "frame_size": size, "default": self.default, "saved": self.saved, "finding": self.finding}


class ZoneDesk(Protocol):
    """What the display may ask of the pipeline about the table's zones (called from request threads)."""

    def zones(self) -> ZoneView:
        """The layout in use and where it came from."""

    def save_zones(self, layout: dict[str, Any]) -> ZoneView:
        """Save ``layout`` (already checked by :func:`check_layout`) for the table and follow it from the next frame."""

    def forget_zones(self) -> ZoneView:
        """Forget the saved zones; the start-up layout (file, source's own or default) is followed again.

        :raises NoLayoutToRestoreError:
        """
