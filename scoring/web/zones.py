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
scoring.web.zones.InvalidLayoutError: sides[0].side: this table's sides are Ana, Ben; a zone edit cannot rename them
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from scoring.hand import parse_side_name

MAX_SIDES = 8
MAX_POINTS = 64
"""A zone's corners at most (as ``TableLayout.from_json`` accepts)."""
MIN_ZONE_AREA_PX = 100.0
"""A zone smaller than 10 × 10 pixels holds no card: it is a slip of the finger, refused."""
UP_LENGTH_TOLERANCE = 0.1
"""``up`` is a unit vector: a length between 0.9 and 1.1 is taken (and scaled to 1), any other refused."""
MAX_COORDINATE_PX = 100_000.0
"""No camera picture is this large; a point beyond it is a mistake, not a zone."""


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


class InvalidLayoutError(ValueError):
    """A layout the display refuses; ``loc`` is the path of the offending field (``("sides", 0, "zone")``)."""

    def __init__(self, reason: str, *, loc: tuple[str | int, ...] = ()) -> None:
        self.reason = reason
        self.loc = loc
        super().__init__(f"{self.field}: {reason}" if loc else reason)

    @property
    def field(self) -> str:
        """``loc`` written as a person reads it: ``sides[0].zone[2]``."""
        out = ""
        for part in self.loc:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
        return out


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

    def to_json(self) -> dict[str, Any]:
        size = None if self.frame_size is None else {"width": self.frame_size[0], "height": self.frame_size[1]}
        return {"layout": self.layout, "origin": self.origin.value, "table": self.table, "sides": list(self.sides),
                "frame_size": size, "default": self.default, "saved": self.saved}


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


def check_layout(data: object, *, sides: Sequence[str]) -> dict[str, Any]:
    """A layout a person sent, checked strictly against the table's ``sides``; returns it normalised.

    Refuses (naming the field): anything but ``{"sides": [...]}``, unknown fields, fewer than two sides,
    a side named twice or not one of ``sides`` (a zone edit never renames the sides of the game being
    followed), a zone that is not a polygon of 3 to 64 finite points, a zone with no area or whose edges
    cross, and an ``up`` that is not a unit vector.

    :raises InvalidLayoutError:
    """
    if not isinstance(data, dict):
        raise InvalidLayoutError('a layout is {"sides": [{"side": …, "zone": [[x, y], …], "up": [dx, dy]}, …]}')
    unknown = sorted(str(k) for k in data if k != "sides")
    if unknown:
        raise InvalidLayoutError("unknown field (a layout holds only sides)", loc=(unknown[0],))
    raw_sides = data.get("sides")
    if not isinstance(raw_sides, list):
        raise InvalidLayoutError("a list of the sides' zones is needed", loc=("sides",))
    if not 2 <= len(raw_sides) <= MAX_SIDES:
        raise InvalidLayoutError(f"2 to {MAX_SIDES} sides, not {len(raw_sides)}", loc=("sides",))
    out = [_check_side(raw, i, sides) for i, raw in enumerate(raw_sides)]
    names = [s["side"] for s in out]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise InvalidLayoutError(f"{name!r} has a zone already", loc=("sides", i, "side"))
    missing = [s for s in sides if s not in names]
    if missing:
        raise InvalidLayoutError(f"{', '.join(missing)} need{'s' if len(missing) == 1 else ''} a zone too",
                                 loc=("sides",))
    return {"sides": out}


def _check_side(raw: object, index: int, table_sides: Sequence[str]) -> dict[str, Any]:
    where: tuple[str | int, ...] = ("sides", index)
    if not isinstance(raw, dict):
        raise InvalidLayoutError('a side is {"side": NAME, "zone": [[x, y], …], "up": [dx, dy]}', loc=where)
    unknown = sorted(str(k) for k in raw if k not in ("side", "zone", "up"))
    if unknown:
        raise InvalidLayoutError("unknown field (a side holds side, zone and up)", loc=(*where, unknown[0]))
    try:
        name = parse_side_name(raw.get("side"), field="side")
    except ValueError as e:
        raise InvalidLayoutError(getattr(e, "reason", str(e)), loc=(*where, "side")) from None
    if name not in table_sides:
        raise InvalidLayoutError(f"this table's sides are {', '.join(table_sides)}; a zone edit cannot rename them",
                                 loc=(*where, "side"))
    zone = _check_zone(raw.get("zone"), (*where, "zone"))
    side: dict[str, Any] = {"side": name, "zone": zone}
    up = raw.get("up")
    if up is not None:
        side["up"] = _check_up(up, (*where, "up"))
    return side


def _check_zone(zone: object, where: tuple[str | int, ...]) -> list[list[float]]:
    if not isinstance(zone, list) or not 3 <= len(zone) <= MAX_POINTS:
        raise InvalidLayoutError(f"a zone is a polygon of 3 to {MAX_POINTS} [x, y] points", loc=where)
    points: list[list[float]] = []
    for k, p in enumerate(zone):
        if not isinstance(p, list) or len(p) != 2 or not all(_is_number(v) for v in p):
            raise InvalidLayoutError("a point is [x, y], two finite numbers of pixels", loc=(*where, k))
        if not all(abs(v) <= MAX_COORDINATE_PX for v in p):
            raise InvalidLayoutError(f"a point lies within {MAX_COORDINATE_PX:,.0f} pixels of the picture",
                                     loc=(*where, k))
        points.append([float(p[0]), float(p[1])])
    if abs(_area(points)) < MIN_ZONE_AREA_PX:
        raise InvalidLayoutError("the zone has (almost) no area: its corners lie on one line or on each other",
                                 loc=where)
    crossing = _crossing_edges(points)
    if crossing is not None:
        raise InvalidLayoutError(f"the zone's edges {crossing[0] + 1} and {crossing[1] + 1} cross each other",
                                 loc=where)
    return points


def _check_up(up: object, where: tuple[str | int, ...]) -> list[float]:
    if not isinstance(up, list) or len(up) != 2 or not all(_is_number(v) for v in up):
        raise InvalidLayoutError("up is a vector [dx, dy] of two finite numbers (or left out)", loc=where)
    length = math.hypot(up[0], up[1])
    if abs(length - 1.0) > UP_LENGTH_TOLERANCE:
        raise InvalidLayoutError(f"up is a unit vector (length 1), not of length {length:.3g}", loc=where)
    return [round(up[0] / length, 6), round(up[1] / length, 6)]


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _area(points: list[list[float]]) -> float:
    """Signed area (shoelace)."""
    return 0.5 * sum(points[i][0] * points[i - 1][1] - points[i - 1][0] * points[i][1] for i in range(len(points)))


def _crossing_edges(points: list[list[float]]) -> tuple[int, int] | None:
    """The first two edges that cross (edge ``i`` joins point ``i`` to point ``i + 1``), or ``None``."""
    n = len(points)
    edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue  # neighbours share a corner
            if _segments_cross(*edges[i], *edges[j]):
                return i, j
    return None


def _segments_cross(a: list[float], b: list[float], c: list[float], d: list[float]) -> bool:
    def orient(p: list[float], q: list[float], r: list[float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2, d3, d4 = orient(c, d, a), orient(c, d, b), orient(a, b, c), orient(a, b, d)
    return ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4))
