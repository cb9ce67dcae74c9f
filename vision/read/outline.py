"""A card's own outline: the detector's box as a hint, the printed card's edges found at full resolution.

A face straightened from a box 10 % off is another picture, so every box becomes the quadrilateral of
the card's edges before it is read. The neighbourhood of the box is straightened into a patch whose axes
are the box's sides; there each side of the box is searched for near where the box puts it, among lines
shifted and slanted a little, scored by the step in the frame's *whiteness* across them, signed so that
the card's side of the line is the brighter (the white rim of the printed card against the table, the
strongest edge on most tables). The few best lines of each side are combined into the quadrilateral that
scores best and looks most like a card (opposite sides parallel, a whole card's proportions when the box
has them), each line is fitted to the edge points along it (sub-pixel, outliers dropped) and the four
lines are intersected.

A side that finds no edge keeps the box's side (the outline says how many sides it found), so a covered
card's band keeps the detector's end where the next card lies over it.

>>> image = np.full((120, 160, 3), 60, np.uint8)
>>> card = np.array([[50.3, 20.6], [100.2, 24.1], [95.1, 101.4], [44.8, 97.9]])
>>> _ = cv2.fillConvexPoly(image, np.round(card * 16).astype(np.int32), (235, 235, 235), cv2.LINE_AA, 4)
>>> hint = card + np.array([[4.0, -3.0], [3.0, 5.0], [-5.0, 4.0], [2.0, -4.0]])
>>> outline = refine_outline(image, hint)
>>> outline.sides_found, bool(np.abs(outline.corners - card).max() < 1.0)
(4, True)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.read.crops import CARD_ASPECT, clockwise

SEARCH = 0.25
"""How far from the box's side an edge is looked for, as a share of the box's extent across that side.
The detector's corners are off by a median 5–12 % of a card's length on photographs, one in ten by 16–34 %;
raising this finds more of the far-off sides and risks taking a neighbouring card's parallel edge."""
TURN_DEGREES = 8.0
"""Candidate lines slant up to this many degrees from the box's side (the detector's angle is off by a
median 3.4°, one in ten over 9.5°)."""
MIN_EDGE = 5.0
"""Least mean whiteness step across a line (grey levels per pixel, after a light blur) for it to count as
an edge; the rim of a card on a dark table gives 20–60, on a white one 6–15."""
NEARNESS = 0.5
"""A candidate's score is divided by ``1 + NEARNESS * offset / reach``: of two equal edges the one nearer
the box's side wins (in a column the next card's edge lies parallel, a strip's height away)."""
CANDIDATES = 3
"""Lines kept per side for the joint choice of the quadrilateral."""
WORK_PX = 128
"""Boxes longer than this are searched on a patch shrunk to it."""


@dataclass(frozen=True)
class Outline:
    """A card's quadrilateral in the frame's pixels, corners clockwise from the box's first corner."""

    corners: NDArray[np.float64] = field(repr=False)
    sides_found: int
    """How many of the four sides were found on an edge (the others are the box's)."""
    edge_strength: float
    """The mean whiteness step over the sides found (0 when none)."""


@dataclass(frozen=True)
class _Line:
    """A candidate side in patch coordinates: ``position + slope * (t - t_mid)`` across, ``t`` along."""

    position: float
    slope: float
    strength: float


def whiteness(image: NDArray[np.uint8]) -> NDArray[np.float32]:
    """How white each pixel is: half its grey level, half its weakest channel (a coloured table is dark in
    one channel at least, the card's white rim in none)."""
    f = image.astype(np.float32)
    out: NDArray[np.float32] = 0.5 * f.mean(axis=2) + 0.5 * f.min(axis=2)
    return out


def refine_outline(
    image: NDArray[np.uint8], box: NDArray[np.floating], *, search: float = SEARCH, turn_degrees: float = TURN_DEGREES,
) -> Outline:
    """The outline of the card the detector boxed with ``box`` (``(4, 2)`` corners) in a BGR frame."""
    q = clockwise(box)
    patch = _Patch.around(q, search)
    if patch is None:
        return Outline(q, 0, 0.0)
    straight: NDArray[np.uint8] = cv2.warpAffine(  # type: ignore[assignment]
        image, patch.to_image, (patch.width, patch.height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE)
    smooth = cv2.GaussianBlur(whiteness(straight), (0, 0), 0.8)
    gu: NDArray[np.float32] = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3) / 8.0  # type: ignore[assignment]
    gv: NDArray[np.float32] = np.ascontiguousarray(cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3).T / 8.0)
    # the sides of a clockwise box in patch axes, each searched on the gradient across it (rows along the
    # side): top (v = v0) and bottom (v = v1) on gv transposed, right (u = u1) and left (u = u0) on gu;
    # the sign says on which side of the line the card lies
    sides = ((gv, patch.v0, +1, (patch.u0, patch.u1)), (gu, patch.u1, -1, (patch.v0, patch.v1)),
             (gv, patch.v1, -1, (patch.u0, patch.u1)), (gu, patch.u0, +1, (patch.v0, patch.v1)))
    tan = np.tan(np.deg2rad(np.linspace(-turn_degrees, turn_degrees, 9)))
    options = [_candidates(g, at, sign, span, _across(patch, k) * search, tan)
               for k, (g, at, sign, span) in enumerate(sides)]
    chosen = _choose(options, patch)
    fitted = [None if line is None else _fit(g, sign, line, span)
              for line, (g, _, sign, span) in zip(chosen, sides, strict=True)]
    corners_patch = _corners(fitted, patch)
    corners = patch.image_points(corners_patch)
    if not np.all(np.isfinite(corners)) or not _plausible(q, corners):
        return Outline(q, 0, 0.0)
    found = [line.strength for line in chosen if line is not None]
    return Outline(corners, len(found), float(np.mean(found)) if found else 0.0)


def _across(patch: _Patch, side: int) -> float:
    """The box's extent across side ``side`` (its height for the top and bottom, its width for the others)."""
    return patch.v1 - patch.v0 if side % 2 == 0 else patch.u1 - patch.u0


@dataclass(frozen=True)
class _Patch:
    """The box's neighbourhood straightened: patch pixel ``(u, v)`` is ``to_image @ (u, v, 1)`` in the frame,
    the box spanning ``u0 … u1`` across and ``v0 … v1`` down."""

    to_image: NDArray[np.float64]
    width: int
    height: int
    u0: float
    u1: float
    v0: float
    v1: float

    @classmethod
    def around(cls, q: NDArray[np.float64], margin: float) -> _Patch | None:
        e1 = ((q[1] - q[0]) + (q[2] - q[3])) / 2
        e2 = ((q[3] - q[0]) + (q[2] - q[1])) / 2
        w, h = float(np.linalg.norm(e1)), float(np.linalg.norm(e2))
        if min(w, h) < 4:
            return None
        scale = min(1.0, WORK_PX / max(w, h))
        pw, ph = w * scale, h * scale
        mu, mv = margin * pw + 3, margin * ph + 3
        origin = q.mean(axis=0) - e1 / 2 - e2 / 2
        to_image = np.array([
            [e1[0] / pw, e2[0] / ph, 0.0], [e1[1] / pw, e2[1] / ph, 0.0]])
        to_image[:, 2] = origin - to_image[:, :2] @ np.array([mu, mv])
        return cls(to_image, int(np.ceil(pw + 2 * mu)), int(np.ceil(ph + 2 * mv)), mu, mu + pw, mv, mv + ph)

    def image_points(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        out: NDArray[np.float64] = points @ self.to_image[:, :2].T + self.to_image[:, 2]
        return out


def _candidates(
    g: NDArray[np.float32], at: float, sign: int, span: tuple[float, float], reach: float, tan: NDArray[np.float64],
) -> list[_Line]:
    """The best lines near ``u = at`` of gradient image ``g`` (rows along the side, ``g[t, u]``), the card lying
    on the side ``sign`` points to; strongest first, at most :data:`CANDIDATES`."""
    reach = max(reach, 3.0)
    rows, cols = g.shape
    t = np.arange(int(span[0] + 0.12 * (span[1] - span[0])), int(np.ceil(span[1] - 0.12 * (span[1] - span[0]))))
    t = t[(t >= 0) & (t < rows)]
    offsets = np.arange(-reach, reach + 0.5, 1.0)
    if len(t) < 3:
        return []
    mid = (span[0] + span[1]) / 2
    u = at + offsets[None, None, :] + tan[:, None, None] * (t - mid)[None, :, None]
    ui = np.clip(np.rint(u).astype(np.int64), 0, cols - 1)
    step = sign * g[t[None, :, None], ui]
    raw = np.clip(step, -30.0, 60.0).mean(axis=1)  # (slants, offsets)
    score = raw / (1.0 + NEARNESS * np.abs(offsets) / reach)[None, :]
    best_slant = score.argmax(axis=0)
    best = score[best_slant, np.arange(len(offsets))]
    lines: list[_Line] = []
    for o in np.argsort(-best):
        if raw[best_slant[o], o] < MIN_EDGE or len(lines) >= CANDIDATES:
            break
        if any(abs(at + offsets[o] - line.position) < 2.5 for line in lines):
            continue
        lines.append(_Line(float(at + offsets[o]), float(tan[best_slant[o]]), float(best[o])))
    return lines


def _choose(options: list[list[_Line]], patch: _Patch) -> list[_Line | None]:
    """One line per side (or none: the box's side), the combination scoring best: the sides' strengths,
    less a penalty for opposite sides that are not parallel and, when the box has a whole card's
    proportions, for proportions that are not a card's."""
    box_aspect = min(patch.u1 - patch.u0, patch.v1 - patch.v0) / max(patch.u1 - patch.u0, patch.v1 - patch.v0)
    whole = box_aspect > 0.5
    best: tuple[float, list[_Line | None]] = (-np.inf, [None] * 4)
    choices = [[*lines, None] for lines in options]
    for combo in itertools.product(*choices):
        top, right, bottom, left = combo
        strength = sum(line.strength for line in combo if line is not None)
        v_top = top.position if top else patch.v0
        v_bottom = bottom.position if bottom else patch.v1
        u_left = left.position if left else patch.u0
        u_right = right.position if right else patch.u1
        across, down = u_right - u_left, v_bottom - v_top
        if across < 4 or down < 4:
            continue
        slant = abs((top.slope if top else 0.0) - (bottom.slope if bottom else 0.0)) + abs(
            (left.slope if left else 0.0) - (right.slope if right else 0.0))
        penalty = 60.0 * slant
        if whole:
            aspect = min(across, down) / max(across, down)
            penalty += 200.0 * abs(aspect - CARD_ASPECT)
        score = strength - penalty
        if score > best[0]:
            best = (score, list(combo))
    return best[1]


def _fit(g: NDArray[np.float32], sign: int, line: _Line, span: tuple[float, float]) -> _Line:
    """The line through the gradient's peaks within 2 px of a candidate line, sub-pixel, with the weakest
    and farthest points left out."""
    rows, cols = g.shape
    t = np.arange(int(span[0] + 0.06 * (span[1] - span[0])), int(np.ceil(span[1] - 0.06 * (span[1] - span[0]))))
    t = t[(t >= 1) & (t < rows - 1)]
    if len(t) < 4:
        return line
    mid = (span[0] + span[1]) / 2
    centre = line.position + line.slope * (t - mid)
    d = np.arange(-2, 3)
    ui = np.clip(np.rint(centre)[:, None].astype(np.int64) + d[None, :], 1, cols - 2)
    step = sign * g[t[:, None], ui]
    k = np.clip(step.argmax(axis=1), 1, len(d) - 2)
    rows_i = np.arange(len(t))
    left, mid_v, right = step[rows_i, k - 1], step[rows_i, k], step[rows_i, k + 1]
    curve = left - 2 * mid_v + right
    shift = np.where(curve < 0, 0.5 * (left - right) / np.where(curve < 0, curve, -1.0), 0.0)
    position = ui[rows_i, k] + np.clip(shift, -0.5, 0.5)
    keep = mid_v > MIN_EDGE * 0.5
    for _ in range(2):
        if keep.sum() < 4:
            return line
        slope, intercept = np.polyfit(t[keep] - mid, position[keep], 1)
        residual = np.abs(position - (intercept + slope * (t - mid)))
        keep = (mid_v > MIN_EDGE * 0.5) & (residual <= max(0.75, 2.5 * float(np.median(residual[keep]))))
    if keep.sum() < 4:
        return line
    slope, intercept = np.polyfit(t[keep] - mid, position[keep], 1)
    return _Line(float(intercept), float(slope), line.strength)


def _corners(lines: list[_Line | None], patch: _Patch) -> NDArray[np.float64]:
    """The four corners (patch coordinates) where the sides meet; a side not found is the box's own.
    Top and bottom are ``v = p + s (u - u_mid)``, left and right ``u = p + s (v - v_mid)``."""
    um, vm = (patch.u0 + patch.u1) / 2, (patch.v0 + patch.v1) / 2
    top = lines[0] or _Line(patch.v0, 0.0, 0.0)
    right = lines[1] or _Line(patch.u1, 0.0, 0.0)
    bottom = lines[2] or _Line(patch.v1, 0.0, 0.0)
    left = lines[3] or _Line(patch.u0, 0.0, 0.0)

    def meet(horizontal: _Line, vertical: _Line) -> tuple[float, float]:
        # v = a + b (u - um), u = c + d (v - vm)
        a, b, c, d = horizontal.position, horizontal.slope, vertical.position, vertical.slope
        det = 1.0 - b * d
        if abs(det) < 1e-6:
            return (np.nan, np.nan)
        u = (c + d * (a - b * um - vm)) / det
        return (u, a + b * (u - um))

    return np.array([meet(top, left), meet(top, right), meet(bottom, right), meet(bottom, left)])


def _plausible(box: NDArray[np.float64], corners: NDArray[np.float64]) -> bool:
    """A convex quadrilateral not far from the box: no corner moved by more than the box's extent."""
    extent = float(max(np.linalg.norm(box[1] - box[0]), np.linalg.norm(box[2] - box[1])))
    if np.max(np.linalg.norm(corners - box, axis=1)) > extent:
        return False
    edges = np.roll(corners, -1, axis=0) - corners
    cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    return bool(np.all(cross > 0) or np.all(cross < 0))
