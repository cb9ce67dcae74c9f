"""Oriented boxes: corners ↔ (centre, size, angle), polygon areas and overlaps, rotated NMS, letterbox.

Corners are ``(4, 2)`` float arrays in image pixels (x right, y down), in order around the box.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


def corners_from_xywhr(xywhr: NDArray[np.floating]) -> FloatArray:
    """Corners of oriented boxes ``(N, 5)`` = centre x, centre y, width, height, angle (radians).

    The angle turns the box's width axis from the image x axis towards y (clockwise on screen).

    >>> corners_from_xywhr(np.array([[10.0, 20.0, 4.0, 2.0, 0.0]]))[0].tolist()
    [[8.0, 19.0], [12.0, 19.0], [12.0, 21.0], [8.0, 21.0]]
    """
    boxes = np.asarray(xywhr, dtype=np.float64).reshape(-1, 5)
    cx, cy, w, h, a = boxes.T
    cos, sin = np.cos(a), np.sin(a)
    ux = np.stack([cos, sin], axis=1) * (w / 2)[:, None]  # half width axis
    uy = np.stack([-sin, cos], axis=1) * (h / 2)[:, None]  # half height axis
    c = np.stack([cx, cy], axis=1)
    return np.stack([c - ux - uy, c + ux - uy, c + ux + uy, c - ux + uy], axis=1)


def xywhr_from_corners(corners: NDArray[np.floating]) -> FloatArray:
    """The oriented box ``(N, 5)`` closest to each quadrilateral ``(N, 4, 2)`` (OpenCV's minAreaRect)."""
    quads = np.asarray(corners, dtype=np.float32).reshape(-1, 4, 2)
    out = np.zeros((len(quads), 5))
    for i, q in enumerate(quads):
        (cx, cy), (w, h), deg = cv2.minAreaRect(q)
        out[i] = (cx, cy, w, h, np.deg2rad(deg))
    return out


def long_side(quad: NDArray[np.floating]) -> float:
    """The longer of a quadrilateral's first two sides (a card outline's length)."""
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    return float(max(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])))


def polygon_area(corners: NDArray[np.floating]) -> float:
    """Area of a simple polygon (shoelace formula)."""
    points = np.asarray(corners, dtype=np.float64).reshape(-1, 2).tolist()  # a few corners: plain floats are quicker
    twice = sum(a[0] * b[1] - a[1] * b[0] for a, b in zip(points, points[1:] + points[:1]))
    return abs(twice) / 2


def quad_areas(quads: NDArray[np.floating]) -> NDArray[np.float64]:
    """``(n,)`` areas of ``(n, 4, 2)`` quadrilaterals (:func:`polygon_area` of each, at once)."""
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    following = q[:, [1, 2, 3, 0]]
    out: NDArray[np.float64] = np.abs((q[..., 0] * following[..., 1] - q[..., 1] * following[..., 0]).sum(axis=1)) / 2
    return out


def bounds_touch(quads: NDArray[np.floating]) -> NDArray[np.bool_]:
    """``(n, n)``: which pairs of ``(n, 4, 2)`` quadrilaterals' axis-aligned bounds overlap (a cheap test before
    the polygons' intersection)."""
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    lo, hi = q.min(axis=1), q.max(axis=1)
    out: NDArray[np.bool_] = ((lo[:, None, :] < hi[None, :, :]) & (hi[:, None, :] > lo[None, :, :])).all(axis=2)
    return out


def intersection_area(a: NDArray[np.floating], b: NDArray[np.floating]) -> float:
    """Area shared by two convex quadrilaterals."""
    inter, _ = cv2.intersectConvexConvex(
        np.asarray(a, dtype=np.float32).reshape(-1, 1, 2), np.asarray(b, dtype=np.float32).reshape(-1, 1, 2)
    )
    return float(max(inter, 0.0))


def iou(a: NDArray[np.floating], b: NDArray[np.floating]) -> float:
    """Intersection over union of two convex quadrilaterals."""
    inter = intersection_area(a, b)
    union = polygon_area(a) + polygon_area(b) - inter
    return inter / union if union > 0 else 0.0


def rotated_nms(corners: NDArray[np.floating], scores: NDArray[np.floating], iou_threshold: float) -> NDArray[np.intp]:
    """Indices of the boxes kept by greedy non-maximum suppression on rotated IoU, best score first.

    Raising ``iou_threshold`` keeps more overlapping boxes (cards in a column overlap by design);
    lowering it merges more duplicates.
    """
    quads = np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2)
    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
    areas = quad_areas(quads)
    # Axis-aligned bounds give a cheap test before the polygon intersection.
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    keep: list[int] = []
    suppressed = np.zeros(len(quads), dtype=bool)
    for i in order:
        if suppressed[i]:
            continue
        keep.append(int(i))
        rest = order[~suppressed[order]]
        rest = rest[rest != i]
        near = rest[np.all((lo[rest] < hi[i]) & (hi[rest] > lo[i]), axis=1)]
        for j in near:
            inter = intersection_area(quads[i], quads[j])
            union = areas[i] + areas[j] - inter
            if union > 0 and inter / union > iou_threshold:
                suppressed[j] = True
    return np.array(keep, dtype=np.intp)


@dataclass(frozen=True)
class Letterbox:
    """How an image was scaled and padded into the square model input: ``model = image * scale + pad``."""

    scale: float
    pad_x: float
    pad_y: float

    def to_image(self, points: NDArray[np.floating]) -> FloatArray:
        """Model-input coordinates back to the original image's pixels."""
        p = np.asarray(points, dtype=np.float64)
        return (p - np.array([self.pad_x, self.pad_y])) / self.scale


def letterbox(image: NDArray[np.uint8], size: int, fill: int = 114) -> tuple[NDArray[np.uint8], Letterbox]:
    """Scale ``image`` to fit a ``size``×``size`` square, keeping its aspect, centred on grey padding."""
    h, w = image.shape[:2]
    scale = min(size / w, size / h)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (nw, nh), interpolation=interpolation)
    out = np.full((size, size, 3), fill, dtype=np.uint8)
    px, py = (size - nw) // 2, (size - nh) // 2
    out[py : py + nh, px : px + nw] = resized
    return out, Letterbox(scale=scale, pad_x=float(px), pad_y=float(py))


def long_axis(corners: NDArray[np.floating]) -> FloatArray:
    """Unit vector along a quadrilateral's longer pair of sides (its sign is arbitrary)."""
    q = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    a = (q[1] - q[0] + q[2] - q[3]) / 2
    b = (q[3] - q[0] + q[2] - q[1]) / 2
    v = a if np.linalg.norm(a) >= np.linalg.norm(b) else b
    n = np.linalg.norm(v)
    return v / n if n > 0 else np.array([0.0, 1.0])


def lines_met(lines: list[tuple[NDArray[np.float64], NDArray[np.float64]]]) -> NDArray[np.float64] | None:
    """The corners where each line (a point and a direction) meets the one before it, in order (a quadrilateral's
    four sides give its four corners); ``None`` where two neighbouring lines are parallel."""
    corners = []
    for k in range(len(lines)):
        (p, u), (r, v) = lines[k - 1], lines[k]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        corners.append(p + u * np.linalg.solve(m, r - p)[0])
    return np.array(corners)


def point_in_polygon(point: NDArray[np.floating], polygon: NDArray[np.floating]) -> bool:
    """Whether a point lies inside (or on the edge of) a polygon."""
    contour = np.asarray(polygon, dtype=np.float32).reshape(-1, 1, 2)
    x, y = (float(v) for v in np.asarray(point).reshape(2))
    return bool(cv2.pointPolygonTest(contour, (x, y), False) >= 0)
