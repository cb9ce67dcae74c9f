"""The motion watch: every frame looked at small, and what came to rest since the last clear view of each place.

A card is laid whole, on top, and then left alone: between two plays the table is still. The watch keeps a
*reference* — each place of the table as last seen clear, at a small size (:data:`SMALL_WIDTH` pixels across,
Lab, softened) — and compares each frame with it. What differs and is as it was in the frame before (at rest)
falls into regions; regions that together fit in one card are joined. A card-sized region that no moving pixel
bites and that no smooth darkening explains (a shadow) is a card that came (or one that left): a
:class:`Change`, handed on to be read once at full resolution. Anything else that differs (an arm reaching in,
something still moving) is waited out. The reference takes in each change once it is handed on, and follows
the frame wherever the table matches it and is still, so that a drifting exposure never builds up.

What real cameras do, corrected before comparing: the exposure and white balance drift or step (each Lab
channel mapped onto the reference's by a gain and an offset fitted on the table, then what a smooth change of the
light leaves, block by block; the reference takes in only frames so mapped, so it keeps one exposure); the camera
is knocked or nudged (its shift and turn since the first view found afresh each frame, by phase correlation and
ECC, against the camera at rest; the frame is brought back onto the reference, and the camera is reported with each
change so that every card's place is kept in the first view's pixels).
"""

from __future__ import annotations

import base64
import itertools
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.landing.card_size import CardSize
from vision.landing.exposure import gain_matched
from vision.landing.registration import full_frame, registration, warped_back

SMALL_WIDTH = 320
"""Width of the picture the watch compares (the frame scaled down; its height keeps the frame's shape)."""
SOFTEN = 1.2
"""Gaussian blur (small pixels) before comparing: sensor grain and JPEG blocks are no change."""
CHANGED = 14.0
"""A small pixel differs from the reference when its Lab distance (lightness and colour, each 0–255) is this
much or more after the gain correction."""
AT_REST = 12.0
"""A small pixel is at rest when it differs from the frame before by less than this (Lab distance)."""
REST_FRAMES = 3
"""A region is handed on once it has lain still this many frames at 10 frames a second (0.3 s: a clear view;
:class:`MotionWatch` takes the camera's rate, never under two frames), and read on the sharper of the last two (a
shake or a slow shutter blurs a frame in a few: a 35-px 200 blurred reads as an End of Limit)."""
BITTEN = 0.08
"""A region whose rectangle has more than this share of moving pixels waits (fingers still on the card)."""
SHADOW_RESIDUAL = 0.06
"""A region whose luminance a smooth gain on the reference's explains to within this share (mean) and whose
colour hardly changed, and which got darker, is a shadow, no card (a card laid brings its rim's edges and its print).
A change that got lighter is left to be read: a white card on a grey table changes little else."""
SHADOW_SOFTNESS = 2.0
"""How smooth (Gaussian sigma, small pixels: a penumbra's width) the gain of a shadow is."""
FOCUS_SOFTEN = 2.0
FOCUS_CHANGE = 6.0
"""A region that, softened by :data:`FOCUS_SOFTEN` more small pixels, differs from the reference by less than this
(mean Lab distance) changed only its sharpness."""
JOINED_LENGTH = 1.15
"""Pieces of change are joined when together they are at most this many cards long."""
RESETTLE_FRAMES = 3
"""A camera found moved this many frames in a row has moved for good (a nudge); a knock passes sooner."""
ARM_MARGIN = 3
"""Small pixels around an arm (or anything moving) where a region counts as touching it: a card uncovered beside a
hand still leaving is waited for, else its part already clear is read alone, and the rest again a frame later."""
SETTLE_FRAMES = 10
"""A difference that is no card (larger than one, a shadow) and has lain still this many frames is taken into the
reference: the table was rearranged or swept, a bag put down. At 5 frames a second, 2 s (:class:`MotionWatch`
takes the camera's rate)."""
FIRST_STILL = 0.002
"""A frame is still enough to be the first view when less than this share of its small pixels moved since the frame
before."""
BARE_REGION = 0.1
"""A change differing from the first view in less than this share of its pixels shows the bare table: a card went."""
BARE_SHARE = 0.01
"""A still table differing from the first view in less than this share of its pixels is bare again (cleared)."""


@dataclass(frozen=True)
class Change:
    """A card-sized region that came to rest, different from the last clear view there."""

    frame: int
    outline: NDArray[np.float64] = field(repr=False)
    """The region's minimum-area rectangle in the frame's full-size pixels, where it is read (rough: the card's
    own outline is fitted then)."""
    camera: NDArray[np.float64] = field(repr=False)
    """The 2 × 3 transform from the table as the watch first saw it to this frame (full-size pixels): identity
    until the camera is nudged. :func:`on_table` takes an outline back through it."""
    bare: bool = False
    """The region now shows the table as the first view did: a card went (picked up, the table cleared), none came."""


@dataclass(frozen=True)
class Look:
    """What the watch made of one frame."""

    frame: int
    changes: tuple[Change, ...]
    moving: bool
    """Something other than a card at rest differs from the reference (an arm, a hand, a moving shadow)."""
    camera: NDArray[np.float64] = field(repr=False)
    """As :attr:`Change.camera`: where the first view's pixels are in this frame."""
    bare: bool = False
    """The table is still and as the first view showed it (before any card was laid, or every card cleared)."""
    settled: bool = False
    """A difference that is no card was taken into the reference this frame (the table swept, a shadow that stayed)."""
    first: bool = False
    """This frame became the first view: the first one as still as the frame before it."""

    @property
    def nudged(self) -> bool:
        """Whether the camera has moved since the first view (by a full-size pixel or more)."""
        return bool(np.abs(self.camera[:, 2]).max() >= 1.0 or np.abs(self.camera[:, :2] - np.eye(2)).max() >= 0.002)


def on_table(outline: NDArray[np.floating], camera: NDArray[np.float64]) -> NDArray[np.float64]:
    """An outline in a frame's pixels taken back to the first view's (through the inverse of ``camera``), where
    every card's place is kept however the camera was nudged since."""
    back = np.asarray(cv2.invertAffineTransform(camera), dtype=np.float64)
    return through(np.asarray(outline, dtype=np.float64).reshape(-1, 2), back)


class MotionWatch:
    """Follows one camera's frames; :meth:`look` at each, in order.

    Everything is compared in the first view's pixels: each frame is registered afresh on the reference (its
    shift and turn since, :func:`registration`) and brought back onto it, so the reference is never resampled,
    errors never add up, and a camera knocked and back costs nothing.
    """

    def __init__(self, card_size: CardSize | None = None, *, settle_frames: int = SETTLE_FRAMES,
                 rest_frames: int = REST_FRAMES) -> None:
        self.card_size = card_size or CardSize()
        self.settle_frames = settle_frames
        self.rest_frames = max(2, rest_frames)
        self._reference: NDArray[np.float32] | None = None
        self._first: NDArray[np.float32] | None = None
        self._still: NDArray[np.int32] | None = None
        """Frames each small pixel has been at rest."""
        self._bare_now: bool | None = None
        """Whether the still table is bare, as found at the start of this still spell (``None``: not still)."""
        self._before: NDArray[np.float32] | None = None
        self._camera = np.eye(2, 3, dtype=np.float32)
        """Small pixels of the first view → small pixels of the latest frame."""
        self._resting = np.eye(2, 3, dtype=np.float32)
        """The camera as it rests (:data:`RESETTLE_FRAMES`): a knock that passes leaves it where it was."""
        self._moved = 0
        """Frames in a row the camera was found away from :attr:`_resting`."""
        self._scale = 1.0
        self._width = SMALL_WIDTH
        self._resumed = False
        """A clear view was taken back (:meth:`resume`) and no frame looked at since."""
        self.taken_back = False
        """The first frame after :meth:`resume` was compared with the clear view taken back (a camera of another
        size starts afresh instead)."""

    def _first_resumed(self, index: int, seen: NDArray[np.float32]) -> Look:
        """The first frame after :meth:`resume`: the frame before the next, and the first view (read whole), with
        no change yet (a change waits to lie still)."""
        assert self._reference is not None
        self.taken_back = True
        matched = gain_matched(seen, self._reference)
        self._camera = registration(self._reference, matched, self._resting, self._camera)
        self._before = warped_back(matched, self._camera)
        return Look(index, (), True, full_frame(self._camera, self._scale), first=True)

    def to_state(self) -> dict[str, Any] | None:
        """The last clear view (the reference, the first view, the camera at rest) as a JSON document (``None``:
        no view yet), for :meth:`resume` after a restart: what changed while Borne was down is then read as
        landings against it, and what had landed is no change."""
        if self._reference is None or self._first is None:
            return None
        return {"reference": _png(self._reference), "first": _png(self._first), "width": self._width,
                "resting": self._resting.tolist()}

    def resume(self, state: dict[str, Any]) -> None:
        """Go on from a :meth:`to_state`: the next frame is compared with that clear view (and reported as the first
        view, so that the whole table is read once for the draw pile).

        :raises ValueError: the state is damaged.
        """
        reference, first = _unpng(state["reference"]), _unpng(state["first"])
        if reference.shape != first.shape:
            raise ValueError("the saved view's reference and first view differ in size")
        self._reference, self._first = reference, first
        self._width = int(state["width"])
        self._scale = self._width / SMALL_WIDTH
        self._resting = np.asarray(state["resting"], dtype=np.float32).reshape(2, 3)
        self._camera = self._resting.copy()
        self._still = np.zeros(reference.shape[:2], np.int32)
        self._before, self._resumed = None, True

    def look(self, index: int, image: NDArray[np.uint8]) -> Look:
        """Compare one frame (BGR, full size) with the reference; the first still frame becomes the reference (the
        first view: a camera may start while an arm is over the table)."""
        seen = self._small(image)
        if self._resumed:
            self._resumed = False
            if self._reference is not None and self._reference.shape == seen.shape:
                return self._first_resumed(index, seen)
            self._reference = self._first = None  # a camera of another size: its first view starts afresh
            self._camera = self._resting = np.eye(2, 3, dtype=np.float32)
        if self._reference is None or self._before is None or self._first is None or self._still is None:
            still = self._before is not None and self._before.shape == seen.shape \
                and float((_distance2(seen, self._before) >= AT_REST ** 2).mean()) < FIRST_STILL
            self._before = seen
            if not still:
                return Look(index, (), True, full_frame(self._camera, self._scale))
            self._reference, self._first = seen.copy(), seen.copy()
            self._still = np.zeros(seen.shape[:2], np.int32)
            return Look(index, (), False, full_frame(self._camera, self._scale), bare=True, first=True)
        reference, before = self._reference, self._before
        # the frame in the reference's exposure and pixels: what the reference takes in is written so too, so
        # that a step of the exposure never leaves it a patchwork of two (the wake of an arm still the old light)
        matched = gain_matched(seen, reference)
        self._camera = registration(reference, matched, self._resting, self._camera)
        moved = bool(np.abs(self._camera - self._resting).max() > 0)
        self._moved = self._moved + 1 if moved else 0
        if self._moved >= RESETTLE_FRAMES:  # moved for good (a nudge), not a knock that passed
            self._resting, self._moved = self._camera.copy(), 0
        camera = full_frame(self._camera, self._scale)
        small = warped_back(matched, self._camera)
        self._before = small
        differs = _differs(small, reference)
        moving = _distance2(small, before) >= AT_REST ** 2
        self._still = np.where(moving, 0, self._still + 1)
        regions, others = self._regions(differs & ~moving)
        regions = self._joined(regions)
        waiting = (moving & differs) | others
        motion = _grown(waiting, 1)
        settled = others & differs & ~moving  # not the margin grown around an arm: the table there is as it was
        changes = []
        for mask, rect in regions:
            if _shadow(small, reference, mask) or _focus_only(small, reference, mask):
                waiting |= mask
                settled |= mask
                continue
            if _touches(_grown(mask, ARM_MARGIN), motion) or _bitten(rect, motion) \
                    or float(np.median(self._still[mask])) < self.rest_frames:
                waiting |= mask
                continue
            corners = cv2.boxPoints(rect).astype(np.float64)
            _take_in(reference, small, corners, mask)  # handed on once: the reference takes it in
            bare = float(_differs(gain_matched(small, self._first), self._first)[mask].mean()) < BARE_REGION
            changes.append(Change(index, through(corners * self._scale, camera), camera, bare))
        # elsewhere the reference follows the frame wherever it is still (the light drifting, a speck that is no
        # card); what waits — a card not yet read, an arm, a shadow — does not
        follows = ~_grown(waiting, 2) & ~moving
        reference[follows] = small[follows]
        # what is no card and has lain still long enough (a swept table, a shadow that stays) is the table now
        settled &= self._still >= self.settle_frames
        if settled.sum() < self.card_size.small_area_floor(self._width, self._scale):
            settled[:] = False  # a few pixels at an arm's edge: the next frame takes them in as it follows
        if settled.any():
            reference[settled] = small[settled]
        if motion.any() or changes or settled.any():
            self._bare_now = None  # the table changes: asked again once it is still
        elif self._bare_now is None:
            self._bare_now = self._bare(small)  # once a still spell, not every frame
        bare = bool(self._bare_now)
        return Look(index, tuple(changes), bool(motion.any()), camera, bare=bare, settled=bool(settled.any()))

    def _bare(self, small: NDArray[np.float32]) -> bool:
        """Whether the frame (brought back onto the first view) shows the table as the first view did."""
        assert self._first is not None
        return float(_differs(gain_matched(small, self._first), self._first).mean()) < BARE_SHARE

    def _small(self, image: NDArray[np.uint8]) -> NDArray[np.float32]:
        h, w = image.shape[:2]
        self._scale, self._width = w / SMALL_WIDTH, w
        small = cv2.resize(image, (SMALL_WIDTH, max(1, round(h / self._scale))), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), SOFTEN)
        return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), dtype=np.float32)

    def _regions(self, differs: NDArray[np.bool_]) -> tuple[list[tuple[NDArray[np.bool_], tuple]], NDArray[np.bool_]]:
        """The card-sized regions of a difference mask, and the rest of it (arms, anything not card-like)."""
        cleaned = cv2.morphologyEx(differs.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        cleaned = cv2.morphologyEx(cleaned, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(cleaned, connectivity=8)
        h, w = differs.shape
        arms = np.zeros_like(differs)
        regions = []
        for k in range(1, count):
            x, y, bw, bh, area = stats[k]
            if area < self.card_size.small_area_floor(self._width, self._scale):
                continue  # a speck
            mask = labels == k
            points = np.column_stack(np.nonzero(mask)[::-1]).astype(np.float32)
            rect = cv2.minAreaRect(points)
            at_edge = x == 0 or y == 0 or x + bw >= w or y + bh >= h
            if not at_edge and self.card_size.could_be_card(rect, area, self._width, self._scale):
                regions.append((mask, rect))
            else:
                arms |= mask
        return regions, _grown(arms, ARM_MARGIN) if arms.any() else arms

    def _joined(self, regions: list[tuple[NDArray[np.bool_], tuple]]) -> list[tuple[NDArray[np.bool_], tuple]]:
        """Regions that together fit in one card joined: a card laid on a look-alike (a Roll on a Stop, a 25 on a
        25) changes only where the two differ, in pieces. Before any card's length is known, pieces are joined only
        where together they are hardly longer than the longer one."""
        learnt = self.card_size.length
        out = list(regions)
        joined = True
        while joined:
            joined = False
            for a, b in itertools.combinations(range(len(out)), 2):
                mask = out[a][0] | out[b][0]
                rect = cv2.minAreaRect(np.column_stack(np.nonzero(mask)[::-1]).astype(np.float32))
                longest = learnt * JOINED_LENGTH / self._scale if learnt is not None \
                    else JOINED_LENGTH * max(max(out[a][1][1]), max(out[b][1][1]))
                if max(rect[1]) <= longest and min(rect[1]) <= longest * 0.8:
                    out[a] = (mask, rect)
                    del out[b]
                    joined = True
                    break
        return out


def _take_in(reference: NDArray[np.float32], small: NDArray[np.float32], outline: NDArray[np.float64],
             region: NDArray[np.bool_]) -> None:
    """The reference takes the frame's pixels of a handed-on change: its region and its rectangle, a little grown."""
    mask = np.zeros(small.shape[:2], np.uint8)
    centre = outline.mean(axis=0)
    cv2.fillConvexPoly(mask, np.round(centre + (outline - centre) * 1.15).astype(np.int32), 1)
    keep = mask.astype(bool) | _grown(region, 1)
    reference[keep] = small[keep]


def _png(small: NDArray[np.float32]) -> str:
    """A small Lab picture as PNG in base64 (whole Lab units: the watch's thresholds are ten times coarser)."""
    ok, data = cv2.imencode(".png", np.clip(np.rint(small), 0, 255).astype(np.uint8))
    if not ok:
        raise ValueError("the watch's view could not be encoded")
    return base64.b64encode(data.tobytes()).decode("ascii")


def _unpng(text: str) -> NDArray[np.float32]:
    """A :func:`_png` picture back.

    :raises ValueError: not a PNG of three channels.
    """
    data = np.frombuffer(base64.b64decode(text, validate=True), np.uint8)
    small = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    if small is None or small.ndim != 3 or small.shape[2] != 3:
        raise ValueError("the saved view is no picture of three channels")
    return np.asarray(small, dtype=np.float32)


def _grown(mask: NDArray[np.bool_], by: int) -> NDArray[np.bool_]:
    """A mask grown by ``by`` pixels every way."""
    return cv2.dilate(mask.astype(np.uint8), np.ones((2 * by + 1, 2 * by + 1), np.uint8)).astype(bool)


def through(points: NDArray[np.float64], camera: NDArray[np.float64]) -> NDArray[np.float64]:
    """Points (``(N, 2)``) taken through a camera's 2 × 3 transform (:attr:`Change.camera`)."""
    return np.asarray(points @ camera[:, :2].T + camera[:, 2], dtype=np.float64)


def _differs(small: NDArray[np.float32], reference: NDArray[np.float32]) -> NDArray[np.bool_]:
    return _distance2(small, reference) >= CHANGED ** 2


def _distance2(a: NDArray[np.float32], b: NDArray[np.float32]) -> NDArray[np.float32]:
    """The squared Lab distance of each small pixel."""
    d = a - b
    return np.asarray(np.einsum("ijk,ijk->ij", d, d), dtype=np.float32)


def _bitten(rect: tuple, motion: NDArray[np.bool_]) -> bool:
    """Whether something moves over a region's rectangle (grown a little): fingers on the card, an arm's edge."""
    (cx, cy), (w, h), angle = rect
    inside = np.zeros(motion.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(cv2.boxPoints(((cx, cy), (w * 1.1 + 2, h * 1.1 + 2), angle))).astype(np.int32), 1)
    covered = inside.astype(bool)
    return float(motion[covered].mean()) > BITTEN if covered.any() else False


def _shadow(small: NDArray[np.float32], reference: NDArray[np.float32], mask: NDArray[np.bool_]) -> bool:
    """The region only got darker or lighter, smoothly: the reference times a smooth gain (the light's ratio,
    softened over a card's width) explains its lightness, and its colour hardly changed. A card brings edges and
    print that no smooth gain makes."""
    y0, y1, x0, x1 = _around(mask, 4)
    now, was = _luminance(small[y0:y1, x0:x1, 0]), _luminance(reference[y0:y1, x0:x1, 0])
    gain = cv2.GaussianBlur(now, (0, 0), SHADOW_SOFTNESS) / np.maximum(cv2.GaussianBlur(was, (0, 0), SHADOW_SOFTNESS), 1e-3)
    inside = mask[y0:y1, x0:x1]
    unexplained = float((np.abs(now - gain * was) / np.maximum(now, 0.02))[inside].mean())
    chroma = float(np.abs(small[mask][:, 1:] - reference[mask][:, 1:]).mean())
    return float(np.median(gain[inside])) < 1.0 and unexplained < SHADOW_RESIDUAL and chroma < CHANGED / 2


def _around(mask: NDArray[np.bool_], pad: int) -> tuple[int, int, int, int]:
    """The rows and columns (``y0, y1, x0, x1``) of a region's bounding box grown by ``pad``, within the picture."""
    ys, xs = np.nonzero(mask)
    return (max(int(ys.min()) - pad, 0), min(int(ys.max()) + pad + 1, mask.shape[0]),
            max(int(xs.min()) - pad, 0), min(int(xs.max()) + pad + 1, mask.shape[1]))


def _focus_only(small: NDArray[np.float32], reference: NDArray[np.float32], mask: NDArray[np.bool_]) -> bool:
    """The region differs only in its sharpness (a camera refocusing, a frame blurred by a shake): softened a
    little more, it matches the reference. A card brings colour and shapes that softening leaves."""
    y0, y1, x0, x1 = _around(mask, 6)
    now = cv2.GaussianBlur(small[y0:y1, x0:x1], (0, 0), FOCUS_SOFTEN)
    was = cv2.GaussianBlur(reference[y0:y1, x0:x1], (0, 0), FOCUS_SOFTEN)
    return float(np.linalg.norm(now - was, axis=2)[mask[y0:y1, x0:x1]].mean()) < FOCUS_CHANGE


def _luminance(lightness: NDArray[np.float32]) -> NDArray[np.float32]:
    """Relative luminance (0–1, linear in the light) from OpenCV's 8-bit Lab lightness: a shadow scales it."""
    return np.asarray(((lightness * (100 / 255) + 16) / 116) ** 3, dtype=np.float32)


def _touches(mask: NDArray[np.bool_], arms: NDArray[np.bool_]) -> bool:
    return bool((mask & arms).any())


