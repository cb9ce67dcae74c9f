"""The table layout document (CONTRACT §4), checked in one place: a layout file and the zones a person draws.

The same structural rules hold for both: ``{"sides": [...]}`` and nothing else, each side
``{"side", "zone", "up"}`` with a printable name, a zone of 3 to 64 finite ``[x, y]`` points with an
area, ``up`` a vector, no side named twice. A person's zones on the display (``sides=`` the table's
sides) must also keep exactly the table's sides (so at least two), stay within the picture's reach,
enclose at least a 10 × 10 pixel area without crossing edges, and give ``up`` as a unit vector: a
layout file written by hand or by a script is taken as the contract has always taken it.
``vision.table.layout.TableLayout.from_json`` builds its zones from what :func:`check_layout` returns.

>>> check_layout({"sides": [{"side": "Ana", "zone": [[0, 0], [8, 0], [8, 8]], "up": [0, 2]}]})["sides"][0]["up"]
[0.0, 1.0]
>>> check_layout({"sides": [{"side": "Ana", "zone": [[0, 0], [8, 0], [8, 8]], "up": [0, 0]}]})
Traceback (most recent call last):
...
scoring.layout.InvalidLayoutError: sides[0].up: up cannot be the zero vector
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from scoring.hand import parse_side_name

MAX_SIDES = 8
MAX_POINTS = 64
"""A zone's corners at most."""
MIN_FILE_ZONE_AREA_PX = 1.0
"""A layout file's zone needs some area: three points on a line are no zone."""
MIN_ZONE_AREA_PX = 100.0
"""A zone drawn on the display smaller than 10 × 10 pixels holds no card: a slip of the finger, refused."""
UP_LENGTH_TOLERANCE = 0.1
"""On the display ``up`` is a unit vector: a length between 0.9 and 1.1 is taken (and scaled to 1), any other
refused. A file's ``up`` of any length but zero is scaled to 1."""
MIN_UP_LENGTH = 1e-6
MAX_COORDINATE_PX = 100_000.0
"""No camera picture is this large; a point drawn beyond it is a mistake, not a zone."""


class InvalidLayoutError(ValueError):
    """A layout refused; ``loc`` is the path of the offending field (``("sides", 0, "zone")``)."""

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


def check_layout(data: object, *, sides: Sequence[str] | None = None) -> dict[str, Any]:
    """A layout checked and normalised (floats, ``up`` of length 1, names stripped).

    ``sides``: the table's sides, for zones a person edits on the display (the stricter rules above);
    ``None`` for a layout file.

    :raises InvalidLayoutError: naming the field.
    """
    drawn = sides is not None
    if not isinstance(data, dict) or (not drawn and not isinstance(data.get("sides"), list)):
        raise InvalidLayoutError('a layout is {"sides": [{"side": …, "zone": [[x, y], …], "up": [dx, dy]}, …]}')
    unknown = sorted(str(k) for k in data if k != "sides")
    if unknown:
        raise InvalidLayoutError("unknown field (a layout holds only sides)", loc=(unknown[0],))
    raw_sides = data.get("sides")
    if not isinstance(raw_sides, list):
        raise InvalidLayoutError("a list of the sides' zones is needed", loc=("sides",))
    fewest = 2 if drawn else 1
    if not fewest <= len(raw_sides) <= MAX_SIDES:
        raise InvalidLayoutError(f"{fewest} to {MAX_SIDES} sides, not {len(raw_sides)}", loc=("sides",))
    out = [_check_side(raw, i, sides) for i, raw in enumerate(raw_sides)]
    names = [s["side"] for s in out]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise InvalidLayoutError(f"{name!r} is named twice: it has a zone already", loc=("sides", i, "side"))
    missing = [s for s in sides or () if s not in names]
    if missing:
        raise InvalidLayoutError(f"{', '.join(missing)} need{'s' if len(missing) == 1 else ''} a zone too",
                                 loc=("sides",))
    return {"sides": out}


def _check_side(raw: object, index: int, table_sides: Sequence[str] | None) -> dict[str, Any]:
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
    if table_sides is not None and name not in table_sides:
        raise InvalidLayoutError(f"this table's sides are {', '.join(table_sides)}; a zone edit cannot rename them",
                                 loc=(*where, "side"))
    zone = _check_zone(raw.get("zone"), (*where, "zone"), drawn=table_sides is not None)
    side: dict[str, Any] = {"side": name, "zone": zone}
    up = raw.get("up")
    if up is not None:
        side["up"] = _check_up(up, (*where, "up"), drawn=table_sides is not None)
    return side


def _check_zone(zone: object, where: tuple[str | int, ...], *, drawn: bool) -> list[list[float]]:
    if not isinstance(zone, list) or not 3 <= len(zone) <= MAX_POINTS:
        raise InvalidLayoutError(f"a zone is a polygon of 3 to {MAX_POINTS} [x, y] points", loc=where)
    points: list[list[float]] = []
    for k, p in enumerate(zone):
        if not isinstance(p, list) or len(p) != 2 or not all(_is_number(v) for v in p):
            raise InvalidLayoutError("a point of the zone's polygon is [x, y], two finite numbers of pixels",
                                     loc=(*where, k))
        if drawn and not all(abs(v) <= MAX_COORDINATE_PX for v in p):
            raise InvalidLayoutError(f"a point lies within {MAX_COORDINATE_PX:,.0f} pixels of the picture",
                                     loc=(*where, k))
        points.append([float(p[0]), float(p[1])])
    if abs(_area(points)) < (MIN_ZONE_AREA_PX if drawn else MIN_FILE_ZONE_AREA_PX):
        raise InvalidLayoutError("the zone has (almost) no area: its corners lie on one line or on each other",
                                 loc=where)
    crossing = _crossing_edges(points) if drawn else None
    if crossing is not None:
        raise InvalidLayoutError(f"the zone's edges {crossing[0] + 1} and {crossing[1] + 1} cross each other",
                                 loc=where)
    return points


def _check_up(up: object, where: tuple[str | int, ...], *, drawn: bool) -> list[float]:
    if not isinstance(up, list) or len(up) != 2 or not all(_is_number(v) for v in up):
        raise InvalidLayoutError("up is a vector [dx, dy] of two finite numbers (or left out)", loc=where)
    length = math.hypot(up[0], up[1])
    if length < MIN_UP_LENGTH:
        raise InvalidLayoutError("up cannot be the zero vector", loc=where)
    if drawn and abs(length - 1.0) > UP_LENGTH_TOLERANCE:
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
