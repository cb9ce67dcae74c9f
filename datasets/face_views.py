"""Views of a card face as the camera pipeline cuts them, for the face reader to learn and enrol from.

Each view lays a face on a patch of table at a random angle and size (28–130 px long), shows all of
it, the top strip a card shows in a column (with the next card of the column over the rest), or the
face with one edge under another card or a hand, lights it, blurs it, adds noise and JPEG, and cuts
the visible part along a jittered box exactly as :func:`vision.read.crops.cut_card` cuts a detection: the
box's corners rolled by a quarter ``turn``, so one view stands for one of the four ways round the
detector may hand a box over. Slivers (less than 15 % of a face, under other cards) and bare patches
of table are the "nothing to read" views.

numpy and OpenCV only: enrolment uses it without torch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np
from numpy.typing import NDArray

from datasets.faces import rounded_alpha
from datasets.occluders import SKIN
from vision.read.crops import cut_card
from vision.read.recogniser import turned_box

CARD_LENGTH_PX = (28.0, 130.0)
"""A card's length in the frame: 30–130 px at 1280 × 720 from 0.6–1.4 m."""
STRIP_FRACTION = (0.18, 0.45)
"""A strip in a column: 20–30 mm of an 87 mm card, and a little more when a column is loose."""
SLIVER_FRACTION = (0.04, 0.14)
JITTER_SHARE = 0.025
"""Standard deviation of a box corner's error, as a share of the card's length (1.5 px of 60)."""


class Shown(Enum):
    """How much of the face a view shows."""

    WHOLE = "whole"
    STRIP = "strip"
    COVERED = "covered"
    SLIVER = "sliver"
    TABLE = "table"


@dataclass(frozen=True)
class ViewMix:
    """Shares of each kind of view (the rest are whole faces)."""

    strip: float = 0.35
    covered: float = 0.2
    sliver: float = 0.04
    table: float = 0.04

    def draw(self, rng: np.random.Generator) -> Shown:
        r = rng.random()
        for shown, share in ((Shown.STRIP, self.strip), (Shown.COVERED, self.covered), (Shown.SLIVER, self.sliver),
                             (Shown.TABLE, self.table)):
            if r < share:
                return shown
            r -= share
        return Shown.WHOLE


def _table_patch(rng: np.random.Generator, size: int) -> NDArray[np.uint8]:
    """A BGR patch of table: a plain colour with smooth shading and grain, or stripes of wood."""
    base = rng.uniform(20, 235, 3).astype(np.float32)
    cells = int(rng.integers(2, 6))
    shade = cv2.resize(rng.random((cells, cells), dtype=np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
    img = base[None, None, :] * (0.75 + 0.5 * shade[..., None])
    if rng.random() < 0.4:  # grain or stripes
        stripes = np.sin(np.linspace(0, rng.uniform(6, 40), size, dtype=np.float32) + rng.uniform(0, 6))
        img *= (1 + 0.12 * stripes)[None, :, None] if rng.random() < 0.5 else (1 + 0.12 * stripes)[:, None, None]
    img += rng.standard_normal(img.shape, dtype=np.float32) * np.float32(rng.uniform(2, 10))
    return np.clip(img, 0, 255).astype(np.uint8)


def _lay(canvas: NDArray[np.uint8], face: NDArray[np.uint8], corners: NDArray[np.float64]) -> None:
    """Warp a BGR face onto the canvas with its top-left, top-right, bottom-right, bottom-left at ``corners``."""
    h, w = face.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    size = (canvas.shape[1], canvas.shape[0])
    length = float(np.linalg.norm(corners[3] - corners[0]))
    if h > 2.5 * length:  # shrink first so the warp does not alias
        f = 2.0 * length / h
        face = cv2.resize(face, (max(4, round(w * f)), max(6, round(h * f))), interpolation=cv2.INTER_AREA)  # type: ignore[assignment]
        m = m @ np.diag([w / face.shape[1], h / face.shape[0], 1.0])
    warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(rounded_alpha(face.shape[1], face.shape[0]), m, size, flags=cv2.INTER_LINEAR)
    a = alpha[..., None].astype(np.float32) / 255.0
    canvas[:] = (canvas * (1 - a) + warped * a).astype(np.uint8)


def _card_corners(centre: NDArray[np.float64], length: float, angle: float, tilt: float) -> NDArray[np.float64]:
    """A card's corners (top-left, top-right, bottom-right, bottom-left) at an angle, with a little perspective."""
    width = length * 56.0 / 87.0
    down = np.array([np.sin(angle), np.cos(angle)])
    across = np.array([np.cos(angle), -np.sin(angle)])
    local = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    # perspective: one end of the card a little wider than the other
    widen = 1.0 + tilt * local[:, 1:2] * 2
    return centre + (local[:, 0:1] * width * widen) * across + (local[:, 1:2] * length) * down


def _part(corners: NDArray[np.float64], top: float, bottom: float, left: float = 0.0, right: float = 1.0) -> NDArray[np.float64]:
    """The corners of a part of a card, its edges as shares of the card's height and width."""
    tl, tr, br, bl = corners

    def at(u: float, v: float) -> NDArray[np.float64]:
        t = tl + (tr - tl) * u
        b = bl + (br - bl) * u
        return t + (b - t) * v

    return np.array([at(left, top), at(right, top), at(right, bottom), at(left, bottom)])


def _light(img: NDArray[np.uint8], rng: np.random.Generator) -> NDArray[np.uint8]:
    out = img.astype(np.float32)
    h, w = out.shape[:2]
    out *= rng.uniform(0.5, 1.25) * rng.uniform(0.85, 1.15, 3)  # exposure and colour cast
    if rng.random() < 0.5:  # light falling off across the card
        g = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.9, 1.2), w, dtype=np.float32)
        out *= g[None, :, None] if rng.random() < 0.5 else cv2.resize(g[None, :], (h, 1)).T[:, :, None]
    if rng.random() < 0.2:  # glare: a soft bright spot
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.4) * max(h, w)
        out += rng.uniform(60, 200) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))[..., None]
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.6))  # type: ignore[assignment]
    out += rng.standard_normal(out.shape, dtype=np.float32) * np.float32(rng.uniform(1, 7))
    image = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        _, enc = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 92))])
        image = cv2.imdecode(enc, cv2.IMREAD_COLOR)  # type: ignore[assignment]
    return image


def face_view(
    faces: Sequence[NDArray[np.uint8]], index: int, rng: np.random.Generator, *, shown: Shown, turn: int,
    size: int, length_px: tuple[float, float] = CARD_LENGTH_PX,
) -> NDArray[np.uint8]:
    """One ``size × size`` BGR view of ``faces[index]`` (BGR faces of one edition), cut with its box's
    corners rolled by ``turn`` quarter turns."""
    face = faces[index]
    length = float(rng.uniform(*length_px))
    side = int(length * 1.5) + 8
    canvas = _table_patch(rng, side)
    angle = float(rng.uniform(-np.pi, np.pi))
    tilt = float(rng.uniform(-0.12, 0.12))
    centre = np.array([side / 2, side / 2]) + rng.uniform(-0.1, 0.1, 2) * length
    corners = _card_corners(centre, length, angle, tilt)
    box: NDArray[np.float64]
    if shown is Shown.TABLE:
        _lay(canvas, faces[int(rng.integers(len(faces)))], corners + (rng.uniform(0.75, 1.0) * length) * _unit(rng))
        box = _part(corners, 0.0, float(rng.uniform(0.3, 1.0)))
    else:
        _lay(canvas, face, corners)
        step = {Shown.STRIP: STRIP_FRACTION, Shown.SLIVER: SLIVER_FRACTION}.get(shown)
        if step is not None:
            f = float(rng.uniform(*step))
            # the next card of the column over the rest: most often the same card, laid a little askew
            other = face if rng.random() < 0.6 else faces[int(rng.integers(len(faces)))]
            nudge = rng.normal(0, 0.02, 2) * length
            _lay(canvas, other, corners + (corners[3] - corners[0]) * f + nudge)
            box = _part(corners, 0.0, f)
        elif shown is Shown.COVERED:
            kept = float(rng.uniform(0.45, 0.85))
            edge = int(rng.integers(4))
            parts = ((0.0, kept, 0.0, 1.0), (1.0 - kept, 1.0, 0.0, 1.0), (0.0, 1.0, 0.0, kept), (0.0, 1.0, 1.0 - kept, 1.0))
            box = _part(corners, *parts[edge])
            cover = _part(corners, *((kept, 1.3, -0.3, 1.3), (-0.3, 1.0 - kept, -0.3, 1.3),
                                     (-0.3, 1.3, kept, 1.3), (-0.3, 1.3, -0.3, 1.0 - kept))[edge])
            if rng.random() < 0.5:
                colour = SKIN[int(rng.integers(len(SKIN)))][::-1] * rng.uniform(0.8, 1.1)
                cv2.fillPoly(canvas, [np.round(cover).astype(np.int32)], colour.tolist(), cv2.LINE_AA)
            else:
                _lay(canvas, faces[int(rng.integers(len(faces)))], cover)
        else:
            box = corners
    box = box + rng.normal(0, JITTER_SHARE * length, (4, 2))
    if rng.random() < 0.25:  # the detector's angle a few degrees off
        box = turned_box(box, float(rng.normal(0, 4.0)))
    # light only the part of the table round the box: the rest is never cut
    x0, y0 = np.maximum(np.floor(box.min(axis=0)).astype(int) - 4, 0)
    x1, y1 = np.minimum(np.ceil(box.max(axis=0)).astype(int) + 4, side)
    image = _light(canvas[y0:y1, x0:x1], rng)
    return cut_card(image, np.roll(box - [x0, y0], -turn, axis=0), width=size, height=size)


def _unit(rng: np.random.Generator) -> NDArray[np.float64]:
    a = rng.uniform(0, 2 * np.pi)
    return np.array([np.cos(a), np.sin(a)])
