"""Every card of a deck laid out apart in one photo, found whatever lies around them.

A phone photo of 19 cards laid on a table shows much else: the table's edge and the floor, a patterned cloth whose
lines close into card-sized cells, a cup, a phone, a notebook. What tells the cards: each is a 56 × 87 mm
rectangle, all of one size, lying on one plane. So:

1. **Outlines** are proposed two ways, each measured on its own (``bench/enrol_layout.py --sources``): the closed
   contours of the picture's edges and of the parts unlike the table (:func:`_contour_outlines`), and the rim's
   sides as straight line segments (LSD) paired into parallelograms, as document scanners find a page
   (:func:`_segment_outlines`). A card lying across a cloth's lines joins their contours; its sides stay segments.
2. Each outline is **fitted** to the strongest edge along each of its sides (:func:`_fitted`): the corners where
   the four lines meet, the rounded corners cut.
3. **The plane**: the camera's tilt over the table (and its focal length) is the one under which most outlines
   straighten into rectangles of the card's proportions (:func:`_plane`); a cell of a checked cloth straightens
   into a square, a phone into a rectangle twice as long as wide.
4. **The cards**: the outlines that straighten into 56 × 87 rectangles, about the size of most of them, none
   holding another (the table's top, a notebook), one per place.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import VisionError
from vision.geometry import lines_met, polygon_area, quad_areas
from vision.read.crops import clockwise

WORK_PX = 1600
"""The photo is searched on a copy this many pixels across its longer side (a card is 40–250 px long there)."""
CARD_RATIO = 87.0 / 56.0
RATIO_SLACK = 0.07
"""An outline straightened by the plane is a card's when its length over its width is within this share of
:data:`CARD_RATIO` ..."""
SQUARE_SLACK = 7.0
"""... and its corners are right angles to within this many degrees."""
SIZE_SLACK = 0.3
"""A card's straightened area is within this share of the median card's."""
MIN_SHARE = 0.0015
"""An outline covers at least this share of the picture (a card 1.2 m below a phone's wide lens: 0.3 %)."""
FOCAL_SHARES = (0.6, 0.75, 0.95)
"""Focal lengths tried, as shares of the picture's longer side (a phone's main camera: about 0.75)."""
TILTS_DEG = tuple(range(0, 46, 5))
TURNS_DEG = tuple(range(0, 360, 15))
EDGE_SEARCH = 0.06
"""A side is fitted to the strongest edge within this share of the card's length either way of it."""


class CardsNotFoundError(VisionError):
    """No card found in a layout photo."""


@dataclass(frozen=True)
class FoundCard:
    """A card's outline in the photo's pixels: four corners, clockwise, the first a corner of a short side."""

    corners: NDArray[np.float64]
    edge: float
    """How strong its outline's edges are (the mean gradient along its sides, grey levels a pixel)."""


def find_cards(image: NDArray[np.uint8]) -> list[FoundCard]:
    """The cards of an RGB photo of cards laid apart, in reading order (rows from the top, each from the left).

    :raises CardsNotFoundError: no card-shaped outline at all.
    """
    small, scale = _work_copy(image)
    grey = np.asarray(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), np.uint8)
    gradient = _gradient(grey)
    fitted = [q for q in (_fitted(gradient, q) for q in _contour_outlines(small) + _segment_outlines(grey))
              if q is not None and _big_enough(q, grey.shape)]
    outlines = _distinct([q for q in fitted if _support(gradient, q) >= SUPPORT_CARD], gradient)
    sure_sides = [_support(gradient, q) >= SUPPORT_PLANE for q in outlines]
    sure = [q for q, ok in zip(outlines, sure_sides, strict=True) if ok]
    if not sure:
        raise CardsNotFoundError("no card found in the photo: lay the cards apart, face up, and photograph them all")
    plane = _plane(sure, grey.shape)
    cards = _cards(outlines, plane, sure_sides)
    if not cards:
        raise CardsNotFoundError("no card found in the photo: lay the cards apart, face up, and photograph them all")
    return [FoundCard(q / scale, _edge_strength(gradient, q)) for q in _reading_order(cards)]


def _work_copy(image: NDArray[np.uint8]) -> tuple[NDArray[np.uint8], float]:
    h, w = image.shape[:2]
    scale = min(1.0, WORK_PX / max(h, w))
    if scale == 1.0:
        return image, 1.0
    return np.asarray(cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA), np.uint8), scale


def _gradient(grey: NDArray[np.uint8]) -> NDArray[np.float32]:
    soft = cv2.GaussianBlur(grey, (0, 0), 1.0).astype(np.float32)
    gx, gy = cv2.Sobel(soft, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(soft, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(cv2.magnitude(gx, gy) / 4, np.float32)


def _big_enough(quad: NDArray[np.float64], shape: tuple[int, ...]) -> bool:
    return MIN_SHARE * shape[0] * shape[1] <= _area(quad) <= 0.5 * shape[0] * shape[1]


def _area(quad: NDArray[np.float64]) -> float:
    return polygon_area(quad)


def _short_side_first(quad: NDArray[np.floating]) -> NDArray[np.float64]:
    """Four corners (in order round the quadrilateral) clockwise in the picture, the first one that begins a short
    side."""
    q = clockwise(quad)
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    return np.roll(q, -1, axis=0) if sides[0] + sides[2] > sides[1] + sides[3] else q


# -- outlines proposed -------------------------------------------------------------------------------------------


def _contour_outlines(small: NDArray[np.uint8]) -> list[NDArray[np.float64]]:
    """Convex, four-sided closed contours: of the edges at three strengths, of the lighter and the darker half of
    the picture, and of what is unlike the picture's border (the table), opened three ways (a small opening keeps a
    small card whole, a large one cuts a card loose from a seam or a shadow touching it)."""
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), (5, 5), 0)
    contours: list[Any] = []
    for low, high in ((30, 90), (50, 150), (80, 200)):
        edges = cv2.dilate(cv2.Canny(grey, low, high), np.ones((3, 3), np.uint8))
        contours += cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]
    _, light = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    border = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]]).astype(np.float32)
    table = np.median(border, axis=0)
    spread = float(np.percentile(np.linalg.norm(border - table, axis=1), 95))
    unlike = (np.linalg.norm(small.astype(np.float32) - table, axis=2) > max(40.0, spread)).astype(np.uint8) * 255
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    masks = [light, 255 - light] + [cv2.morphologyEx(unlike, cv2.MORPH_OPEN, np.ones((k, k), np.uint8)) for k in (7, 15, 27)]
    for mask in masks:
        contours += cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    out = []
    floor = MIN_SHARE * small.shape[0] * small.shape[1]
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < floor:
            continue
        hull = cv2.convexHull(contour)
        if area < 0.85 * cv2.contourArea(hull):  # a card is convex; a card joined to a seam is not
            continue
        perimeter = cv2.arcLength(hull, True)
        for share in (0.02, 0.04, 0.06):
            quad = cv2.approxPolyDP(hull, share * perimeter, True)
            if len(quad) <= 4:
                break
        if len(quad) == 4:
            out.append(quad.reshape(4, 2).astype(np.float64))
    return out


SEGMENT_MIN = 12.0
"""Segments shorter than this (work pixels) are print, not a card's side."""
PAIR_ANGLE = np.deg2rad(9.0)
"""Two sides of one card are parallel to within this (the perspective of one card is slight)."""


def _segment_outlines(grey: NDArray[np.uint8]) -> list[NDArray[np.float64]]:
    """Parallelograms closed from pairs of straight segments (LSD) that could be a card's opposite sides: near
    parallel, of about one length, facing each other, as far apart as a card is wide (or long) for their length."""
    lines = cv2.createLineSegmentDetector().detect(grey)[0]
    if lines is None:
        return []
    s = lines.reshape(-1, 4).astype(np.float64)
    a, b = s[:, :2], s[:, 2:]
    length = np.linalg.norm(b - a, axis=1)
    keep = length >= SEGMENT_MIN
    a, b, length = a[keep], b[keep], length[keep]
    if len(a) < 2:
        return []
    direction = (b - a) / length[:, None]
    angle = np.arctan2(direction[:, 1], direction[:, 0]) % np.pi
    middle = (a + b) / 2
    i, j = np.triu_indices(len(a), 1)
    turn = np.abs(angle[i] - angle[j])
    turn = np.minimum(turn, np.pi - turn)
    ratio = np.minimum(length[i], length[j]) / np.maximum(length[i], length[j])
    normal = np.column_stack([-direction[i, 1], direction[i, 0]])
    apart = np.abs(np.sum((middle[j] - middle[i]) * normal, axis=1))
    along = np.abs(np.sum((middle[j] - middle[i]) * direction[i], axis=1))
    mean = (length[i] + length[j]) / 2
    near = (turn < PAIR_ANGLE) & (ratio > 0.7) & (along < 0.25 * mean) & (apart > 0.45 * mean) & (apart < 2.2 * mean)
    out = []
    for p, q in zip(i[near], j[near], strict=True):
        d = direction[p]
        # the two segments' common extent along their direction, each side's ends projected onto it
        t = [float((x - a[p]) @ d) for x in (a[q], b[q])]
        lo, hi = max(0.0, min(t)), min(length[p], max(t))
        if hi - lo < 0.6 * min(length[p], length[q]):
            continue
        start, end = a[p] + d * min(0.0, min(t)), a[p] + d * max(length[p], max(t))
        offset = (middle[q] - middle[p]) @ np.array([-d[1], d[0]])
        shift = np.array([-d[1], d[0]]) * offset
        out.append(np.array([start, end, end + shift, start + shift]))
    return out


# -- each outline fitted to its edges ------------------------------------------------------------------------------


def _fitted(gradient: NDArray[np.float32], quad: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """``quad`` with each side moved to the outermost strong edge near it (its middle 70 %, searched
    :data:`EDGE_SEARCH` of the card's length either way; a frame printed inside a card is a stronger edge than the
    rim against a table of its colour, and the card's own edge is the outer one), the corners where the four lines
    meet."""
    q = _short_side_first(quad)
    size = float(np.sqrt(max(_area(q), 1.0)))
    reach = max(2.0, EDGE_SEARCH * size * 1.25)
    lines = []
    h, w = gradient.shape
    steps = np.arange(reach, -reach - 0.5, -1.0)  # from outside in
    ts = np.linspace(0.15, 0.85, 15)
    for k in range(4):
        p0, p1 = q[k], q[(k + 1) % 4]
        d = p1 - p0
        n = np.linalg.norm(d)
        if n < 4:
            return None
        d = d / n
        outward = np.array([d[1], -d[0]])
        points = p0 + np.outer(ts * n, d)
        grid = points[:, None, :] + steps[None, :, None] * outward
        xs = np.clip(np.rint(grid[..., 0]).astype(int), 0, w - 1)
        ys = np.clip(np.rint(grid[..., 1]).astype(int), 0, h - 1)
        strength = gradient[ys, xs]
        peak = strength.max(axis=1)
        outer = (strength >= OUTER_EDGE * peak[:, None]).argmax(axis=1)  # the first strong one from outside
        found = points + steps[outer][:, None] * outward
        good = peak > SIDE_EDGE
        if good.sum() < 6:
            return None
        vx, vy, x0, y0 = cv2.fitLine(found[good].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = lines_met(lines)
    if out is None or np.linalg.norm(out - q, axis=1).max() > 0.3 * size:
        return None
    return _short_side_first(out)


SIDE_EDGE = 5.0
"""A side is fitted where at least six of its fifteen samples cross a gradient this strong (grey levels a pixel)."""
OUTER_EDGE = 0.7
"""An edge this strong against the strongest across a side is the card's own when it is the outermost."""


def _edge_strength(gradient: NDArray[np.float32], quad: NDArray[np.float64]) -> float:
    """The mean gradient along the middle of each side."""
    h, w = gradient.shape
    ts = np.linspace(0.1, 0.9, 24)[:, None]
    points = np.concatenate([quad[k] + (quad[(k + 1) % 4] - quad[k]) * ts for k in range(4)])
    xs = np.clip(np.rint(points[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(points[:, 1]).astype(int), 0, h - 1)
    return float(gradient[ys, xs].mean())


SUPPORT_PLANE = 0.9
"""The outlines the plane is found from run along an edge over at least this share of the middle of each side (an
outline closed across the gap between two cards has a side on the bare table) ..."""
SUPPORT_CARD = 0.6
"""... and a card's at least this share (a full-bleed card's edge fades where its picture has the table's colour)."""
SUPPORT_EDGE = 6.0
"""A gradient this strong (grey levels a pixel) within a pixel and a half of a side is an edge along it."""


def _support(gradient: NDArray[np.float32], quad: NDArray[np.float64]) -> float:
    """The least share of a side of ``quad`` (its middle) that runs along an edge."""
    h, w = gradient.shape
    ts = np.linspace(0.15, 0.85, 16)
    least = 1.0
    for k in range(4):
        p0, p1 = quad[k], quad[(k + 1) % 4]
        d = (p1 - p0) / max(float(np.linalg.norm(p1 - p0)), 1e-9)
        normal = np.array([-d[1], d[0]])
        points = p0 + np.outer(ts, p1 - p0)
        grid = points[:, None, :] + np.array([-1.5, -0.75, 0, 0.75, 1.5])[None, :, None] * normal
        xs = np.clip(np.rint(grid[..., 0]).astype(int), 0, w - 1)
        ys = np.clip(np.rint(grid[..., 1]).astype(int), 0, h - 1)
        least = min(least, float((gradient[ys, xs].max(axis=1) >= SUPPORT_EDGE).mean()))
    return least


MOST_OUTLINES = 1500
"""Outlines kept for the plane's search, the strongest edges first (a checked cloth closes thousands)."""


def _distinct(outlines: list[NDArray[np.float64]], gradient: NDArray[np.float32]) -> list[NDArray[np.float64]]:
    """One outline per place: of outlines whose corners all lie close (clockwise from any corner), the one on the
    strongest edges (at most :data:`MOST_OUTLINES`)."""
    if not outlines:
        return []
    order = np.argsort([-_edge_strength(gradient, q) for q in outlines])
    quads = np.stack([outlines[k] for k in order])
    size = np.sqrt(np.array([_area(q) for q in quads]))
    kept: list[int] = []
    for k in range(len(quads)):
        if kept:
            others = quads[kept]
            turned = np.stack([np.roll(quads[k], r, axis=0) for r in range(4)])  # (4, 4, 2)
            misses = np.linalg.norm(others[:, None] - turned[None], axis=3).max(axis=2).min(axis=1)
            if (misses < 0.08 * size[k]).any():
                continue
        kept.append(k)
        if len(kept) == MOST_OUTLINES:
            break
    return [quads[k] for k in kept]


# -- the table's plane -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plane:
    """Where the table lies: a picture point's place on it (any scale and turn), by the camera's focal length
    and the table's tilt seen from it."""

    focal: float
    normal: NDArray[np.float64]
    centre: tuple[float, float]

    @classmethod
    def tilted(cls, focal: float, tilt_deg: float, turn_deg: float, centre: tuple[float, float]) -> Plane:
        """The table seen by a camera of ``focal`` pixels, tilted ``tilt_deg`` from the vertical towards ``turn_deg``."""
        t, a = np.radians(tilt_deg), np.radians(turn_deg)
        return cls(focal, np.array([np.sin(t) * np.cos(a), np.sin(t) * np.sin(a), np.cos(t)]), centre)

    def flattened(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Picture points (…, 2) on the table, in a frame of the table's own (similar to millimetres)."""
        rays = np.concatenate([(points - self.centre) / self.focal, np.ones(points.shape[:-1] + (1,))], axis=-1)
        on = rays / (rays @ self.normal)[..., None]
        e1 = np.cross(self.normal, [0.0, 1.0, 0.0])
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(self.normal, e1)
        return np.stack([on @ e1, on @ e2], axis=-1)


def _shapes(flat: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """For straightened outlines (N, 4, 2): the ratio of their long to short sides, their worst corner's miss of a
    right angle (degrees), and their area."""
    sides = np.roll(flat, -1, axis=1) - flat
    lengths = np.linalg.norm(sides, axis=2)
    first, second = (lengths[:, 0] + lengths[:, 2]) / 2, (lengths[:, 1] + lengths[:, 3]) / 2
    ratio = np.maximum(first, second) / np.maximum(np.minimum(first, second), 1e-9)
    unit = sides / np.maximum(lengths[..., None], 1e-9)
    cosines = np.abs(np.sum(unit * np.roll(unit, -1, axis=1), axis=2))
    off = np.degrees(np.arcsin(np.clip(cosines.max(axis=1), 0, 1)))
    unequal = np.maximum(np.abs(lengths[:, 0] - lengths[:, 2]) / np.maximum(first, 1e-9),
                         np.abs(lengths[:, 1] - lengths[:, 3]) / np.maximum(second, 1e-9))
    off = np.maximum(off, np.degrees(unequal))  # opposite sides unequal: no rectangle either
    return ratio, off, quad_areas(flat)


def _is_card(ratio: NDArray[np.float64], off: NDArray[np.float64]) -> NDArray[np.bool_]:
    return (np.abs(ratio / CARD_RATIO - 1) < RATIO_SLACK) & (off < SQUARE_SLACK)


def _plane(outlines: list[NDArray[np.float64]], shape: tuple[int, ...]) -> Plane:
    """The plane under which most places' outlines straighten into cards of one size: searched coarsely, then
    finely round the best."""
    h, w = shape[:2]
    quads = np.stack(outlines)
    places = _Places(quads)
    tries = [(share * max(h, w), float(tilt), float(turn)) for share, tilt, turn in
             itertools.product(FOCAL_SHARES, TILTS_DEG, TURNS_DEG) if tilt or not turn]
    centre = (w / 2, h / 2)
    best = max(tries, key=lambda x: places.score(Plane.tilted(x[0], x[1], x[2], centre)))
    focal, tilt, turn = best
    finer = [(focal * f, max(0.0, tilt + dt), turn + da) for f, dt, da in
             itertools.product((0.85, 1.0, 1.15), (-2.5, -1.25, 0, 1.25, 2.5), (-7.5, -3.75, 0, 3.75, 7.5))]
    best = max([best, *finer], key=lambda x: places.score(Plane.tilted(x[0], x[1], x[2], centre)))
    return Plane.tilted(best[0], best[1], best[2], centre)


@dataclass
class _Places:
    """Outlines grouped by place (:func:`_places`), to score a plane by."""

    quads: NDArray[np.float64]

    def __post_init__(self) -> None:
        self.place = _places(self.quads)
        self.area = quad_areas(self.quads)

    def score(self, plane: Plane) -> float:
        """How many places hold a card under ``plane``, each counted by how much of the place its card covers (a
        frame printed on every card of a deck straightens into a card's shape under some wrong tilt, and covers
        only a part of its place)."""
        ratio, off, area = _shapes(plane.flattened(self.quads))
        cards = _is_card(ratio, off)
        if not cards.any():
            return -1.0
        sized = cards & (np.abs(area / _typical(area[cards]) - 1) < SIZE_SLACK)
        cover = np.zeros(len(self.quads))
        np.maximum.at(cover, self.place[sized], (self.area / self.area[self.place])[sized])
        closeness = np.exp(-((ratio / CARD_RATIO - 1) / RATIO_SLACK) ** 2)[sized]
        return float(cover.sum()) + 0.01 * float(closeness.sum())


def _places(quads: NDArray[np.float64]) -> NDArray[np.int64]:
    """A number for each outline's place: the outlines whose middle lies inside it and that are at most as large
    (a card's edge, its rim's inner edge, a frame printed on it) take the number of the largest such."""
    middle = quads.mean(axis=1)
    area = quad_areas(quads)
    # inside[k, j]: the middle of j inside the (convex, clockwise) outline k
    edges = np.roll(quads, -1, axis=1) - quads  # (n, 4, 2)
    to_middle = middle[None, :, None, :] - quads[:, None, :, :]  # (n, n, 4, 2)
    cross = edges[:, None, :, 0] * to_middle[..., 1] - edges[:, None, :, 1] * to_middle[..., 0]
    inside = (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)
    place = np.arange(len(quads))
    for k in np.argsort(-area):
        if place[k] != k:
            continue
        joined = inside[k] & (place == np.arange(len(quads))) & (area <= area[k]) & (area >= area[k] / 2)
        joined[k] = False
        place[joined] = k
    return place


def _cards(outlines: list[NDArray[np.float64]], plane: Plane, sure: list[bool]) -> list[NDArray[np.float64]]:
    """The outlines that are cards under ``plane``: of the card's proportions and about the typical card's size (the
    most common), those on edges all round first (``sure``), the largest first (a card's own edge, not a frame
    printed on it), none holding another's middle."""
    quads = np.stack(outlines)
    ratio, off, area = _shapes(plane.flattened(quads))
    cards = np.flatnonzero(_is_card(ratio, off))
    if not len(cards):
        return []
    typical = _typical(area[cards])
    chosen = sorted((k for k in cards if abs(area[k] / typical - 1) < SIZE_SLACK), key=lambda k: (not sure[k], -area[k]))
    kept: list[NDArray[np.float64]] = []
    for k in chosen:
        q = outlines[k]
        polygon = q.astype(np.float32).reshape(-1, 1, 2)
        if any(cv2.pointPolygonTest(polygon, tuple(float(v) for v in other.mean(axis=0)), False) >= 0 for other in kept):
            continue
        if any(cv2.pointPolygonTest(other.astype(np.float32).reshape(-1, 1, 2), tuple(float(v) for v in q.mean(axis=0)), False) >= 0
               for other in kept):
            continue
        kept.append(q)
    return kept


def _typical(areas: NDArray[np.float64]) -> float:
    """The most common of the areas (the one with the most others within 15 %; of those, the largest)."""
    counts = (np.abs(areas[None] / areas[:, None] - 1) < 0.15).sum(axis=1)
    most = counts == counts.max()
    return float(areas[most].max())


def _reading_order(quads: list[NDArray[np.float64]]) -> list[NDArray[np.float64]]:
    """Rows from the top (the cards whose middles lie within half a card of the row's first), each from the left."""
    if not quads:
        return []
    height = float(np.median([np.sqrt(_area(q)) for q in quads])) * 1.2
    rest = sorted(quads, key=lambda q: float(q[:, 1].mean()))
    ordered: list[NDArray[np.float64]] = []
    while rest:
        top = float(rest[0][:, 1].mean())
        row = [q for q in rest if float(q[:, 1].mean()) - top < 0.6 * height]
        ordered += sorted(row, key=lambda q: float(q[:, 0].mean()))
        rest = [q for q in rest if not any(q is r for r in row)]
    return ordered
