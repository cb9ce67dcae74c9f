"""The table layout (CONTRACT §4): which part of the picture belongs to which side, and its "up".

>>> layout = TableLayout.default(1280, 720)
>>> [s.side for s in layout.sides], layout.side_at((640, 100)), layout.side_at((640, 360))
(['North', 'South'], 'North', None)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.hand import parse_side_name
from vision.errors import LayoutError
from vision.geometry import point_in_polygon, polygon_area

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
        """Parse CONTRACT §4 strictly.

        :raises LayoutError: naming the side and the field.
        """
        if not isinstance(data, dict) or not isinstance(data.get("sides"), list):
            raise LayoutError('a layout is {"sides": [{"side": …, "zone": [[x, y], …], "up": [dx, dy]}, …]}')
        unknown = sorted(set(data) - {"sides"})
        if unknown:
            raise LayoutError(f"layout: unknown field {unknown[0]!r}")
        raw_sides = data["sides"]
        if not 1 <= len(raw_sides) <= 8:
            raise LayoutError(f"layout: 1 to 8 sides, not {len(raw_sides)}")
        sides = []
        for i, raw in enumerate(raw_sides):
            sides.append(_parse_side(raw, i))
        names = [s.side for s in sides]
        for n in names:
            if names.count(n) > 1:
                raise LayoutError(f"layout: side {n!r} is named twice")
        return cls(sides=tuple(sides))


def _parse_side(raw: object, index: int) -> SideZone:
    if not isinstance(raw, dict):
        raise LayoutError(f"layout: sides[{index}] is not an object")
    unknown = sorted(set(raw) - {"side", "zone", "up"})
    if unknown:
        raise LayoutError(f"layout: sides[{index}]: unknown field {unknown[0]!r}")
    try:
        name = parse_side_name(raw.get("side"), field="side")
    except ValueError as e:
        raise LayoutError(f"layout: sides[{index}].side: {e}") from None
    zone = raw.get("zone")
    if (
        not isinstance(zone, list)
        or not 3 <= len(zone) <= 64
        or not all(isinstance(p, list) and len(p) == 2 and all(_is_number(v) for v in p) for p in zone)
    ):
        raise LayoutError(f"layout: {name}: zone must be a polygon of 3 to 64 [x, y] points")
    polygon = np.array(zone, dtype=np.float64)
    if polygon_area(polygon) < 1.0:
        raise LayoutError(f"layout: {name}: zone has no area")
    up = raw.get("up")
    direction: tuple[float, float] | None = None
    if up is not None:
        if not isinstance(up, list) or len(up) != 2 or not all(_is_number(v) for v in up):
            raise LayoutError(f"layout: {name}: up must be a vector [dx, dy]")
        norm = math.hypot(up[0], up[1])
        if norm < 1e-6:
            raise LayoutError(f"layout: {name}: up cannot be the zero vector")
        direction = (up[0] / norm, up[1] / norm)
    return SideZone(side=name, zone=polygon, up=direction)


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
