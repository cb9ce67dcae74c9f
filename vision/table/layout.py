"""The table layout (CONTRACT §4): which part of the picture belongs to which side, and its "up".

>>> layout = TableLayout.default(1280, 720)
>>> [s.side for s in layout.sides], layout.side_at((640, 100)), layout.side_at((640, 360))
(['North', 'South'], 'North', None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.layout import InvalidLayoutError, check_layout
from vision.errors import LayoutError
from vision.geometry import point_in_polygon

MIDDLE_BAND = 0.12
"""Share of the picture's height left to nobody between the two default zones (draw and discard piles)."""


@dataclass(frozen=True)
class SideZone:
    """One side's part of the table."""

    side: str
    zone: NDArray[np.float64]
    """Polygon ``(K, 2)`` in image pixels."""
    up: tuple[float, float] | None = None
    """Unit vector from a normally laid card's bottom edge to its top edge; ``None``: inferred from its cards."""

    def contains(self, point: NDArray[np.floating] | tuple[float, float]) -> bool:
        return point_in_polygon(np.asarray(point, dtype=np.float64), self.zone)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"side": self.side, "zone": [[round(float(x), 2), round(float(y), 2)] for x, y in self.zone]}
        if self.up is not None:
            out["up"] = [round(self.up[0], 6), round(self.up[1], 6)]
        return out


@dataclass(frozen=True)
class TableLayout:
    """The zones of every side, in the layout's order."""

    sides: tuple[SideZone, ...]

    def side_at(self, point: NDArray[np.floating] | tuple[float, float]) -> str | None:
        """The side whose zone holds the point (the first one, where zones overlap), or ``None``."""
        for s in self.sides:
            if s.contains(point):
                return s.side
        return None

    def zone_of(self, side: str) -> SideZone:
        for s in self.sides:
            if s.side == side:
                return s
        raise KeyError(side)

    def to_json(self) -> dict[str, Any]:
        return {"sides": [s.to_json() for s in self.sides]}

    def with_few_corners(self, most: int = 60) -> TableLayout:
        """The same zones drawn with at most ``most`` corners each (a layout holds 64 at most; a widened zone's
        outline may have more), each cut as little as that allows: a zone cut more loses the edge it keeps
        from the discard pile, where the cards are smallest."""
        import cv2

        def fewer(zone: NDArray[np.float64]) -> NDArray[np.float64]:
            points = zone.astype(np.float32).reshape(-1, 1, 2)
            tolerance = 0.5
            out = zone
            while len(out) > most:
                out = cv2.approxPolyDP(points, tolerance, True).reshape(-1, 2).astype(np.float64)
                tolerance *= 1.5
            return out

        return TableLayout(sides=tuple(replace(s, zone=fewer(s.zone)) for s in self.sides))

    def scaled(self, factor: float) -> TableLayout:
        """The same zones in a picture ``factor`` times as large (the camera's resolution changed)."""
        return TableLayout(sides=tuple(replace(s, zone=s.zone * factor) for s in self.sides))

    @classmethod
    def default(cls, width: int, height: int, sides: tuple[str, str] = ("North", "South")) -> TableLayout:
        """Two sides facing each other across the picture: the top part and the bottom part,
        with a band in the middle for the draw and discard piles."""
        top = height * (0.5 - MIDDLE_BAND / 2)
        bottom = height * (0.5 + MIDDLE_BAND / 2)
        north = np.array([[0, 0], [width, 0], [width, top], [0, top]], dtype=np.float64)
        south = np.array([[0, bottom], [width, bottom], [width, height], [0, height]], dtype=np.float64)
        return cls(sides=(SideZone(sides[0], north, (0.0, 1.0)), SideZone(sides[1], south, (0.0, -1.0))))

    @classmethod
    def from_file(cls, path: str | Path) -> TableLayout:
        """:raises LayoutError: the file is missing, not JSON, or not a valid layout."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise LayoutError(f"{path}: no such layout file") from None
        except (OSError, UnicodeDecodeError) as e:
            raise LayoutError(f"{path}: cannot be read ({e})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise LayoutError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: object) -> TableLayout:
        """Parse CONTRACT §4 strictly (:func:`scoring.layout.check_layout`, the display's check too).

        :raises LayoutError: naming the side and the field.
        """
        try:
            checked = check_layout(data)
        except InvalidLayoutError as e:
            raise LayoutError(f"layout: {e}") from None
        return cls(sides=tuple(
            SideZone(side=s["side"], zone=np.array(s["zone"], dtype=np.float64),
                     up=None if "up" not in s else (s["up"][0], s["up"][1]))
            for s in checked["sides"]))
