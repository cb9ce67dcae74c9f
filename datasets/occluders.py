"""Things over and beside the cards: hands and forearms reaching in, cups, phones, coins, score pads.

Each painter draws into the image and marks the pixels it covers in the id buffer with
:data:`OCCLUDER`, so visible fractions of the cards beneath stay exact.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

OCCLUDER = -1
"""Id-buffer value of pixels covered by a hand or an object."""

SKIN = np.array([[255, 219, 172], [241, 194, 125], [224, 172, 105], [198, 134, 66], [141, 85, 36], [92, 58, 30]], np.float32)


def _blend(img: np.ndarray, idbuf: np.ndarray, mask: np.ndarray, colour: np.ndarray, x0: int, y0: int) -> None:
    """Paint ``colour`` (RGB image or single colour) through an 8-bit mask whose top-left is at (x0, y0)."""
    h, w = mask.shape
    H, W = img.shape[:2]
    ax0, ay0, ax1, ay1 = max(x0, 0), max(y0, 0), min(x0 + w, W), min(y0 + h, H)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    m = mask[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0]
    a = (m.astype(np.float32) / 255.0)[..., None]
    col = colour[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0] if colour.ndim == 3 else colour
    roi = img[ay0:ay1, ax0:ax1]
    roi[:] = (roi * (1 - a) + col * a).astype(np.uint8)
    idbuf[ay0:ay1, ax0:ax1][m > 127] = OCCLUDER


def _shadow(img: np.ndarray, mask: np.ndarray, x0: int, y0: int, offset: tuple[int, int], strength: float, blur: float) -> None:
    soft = cv2.GaussianBlur(mask, (0, 0), max(blur, 0.5)).astype(np.float32) / 255.0
    h, w = mask.shape
    H, W = img.shape[:2]
    sx, sy = x0 + offset[0], y0 + offset[1]
    ax0, ay0, ax1, ay1 = max(sx, 0), max(sy, 0), min(sx + w, W), min(sy + h, H)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    s = soft[ay0 - sy : ay1 - sy, ax0 - sx : ax1 - sx]
    roi = img[ay0:ay1, ax0:ax1]
    roi[:] = (roi * (1 - strength * s)[..., None]).astype(np.uint8)


def paint_arm(img: np.ndarray, idbuf: np.ndarray, rng: np.random.Generator, tip: np.ndarray, towards: np.ndarray, px_per_mm: float) -> None:
    """A forearm and hand entering from beyond the image edge, fingertips near ``tip`` (pixels).

    ``towards`` is the direction the hand reaches in (pixels, from the player to the card).
    """
    d = towards / (np.linalg.norm(towards) + 1e-9)
    n = np.array([-d[1], d[0]])
    s = px_per_mm * float(rng.uniform(1.1, 1.35))  # the hand is above the table, nearer the camera
    wrist = tip - d * 150 * s
    elbow = wrist - d * 420 * s
    H, W = img.shape[:2]
    # the arm runs on past the edge of the picture: a camera that sees the whole table may see
    # a metre beyond the fingertips, and an arm ending in a stump there looks wrong
    shoulder = elbow - d * (500 * s + 2 * (W + H))
    pts = np.array([shoulder, wrist, tip])
    lo = np.floor(pts.min(axis=0) - 120 * s).astype(int)
    hi = np.ceil(pts.max(axis=0) + 120 * s).astype(int)
    margin = int(130 * s + 25 * px_per_mm)  # room for the blur and offset of the arm's shadow
    lo = np.maximum(lo, [-margin, -margin])
    hi = np.minimum(hi, [W + margin, H + margin])
    w, h = int(hi[0] - lo[0]), int(hi[1] - lo[1])
    if w <= 0 or h <= 0 or w * h > 16 * W * H:
        return
    mask = np.zeros((h, w), np.uint8)

    def p(v: np.ndarray) -> tuple[int, int]:
        return int(v[0] - lo[0]), int(v[1] - lo[1])

    cv2.line(mask, p(shoulder), p(wrist), 255, max(2, int(62 * s)), cv2.LINE_AA)
    palm = wrist + d * 45 * s
    angle = math.degrees(math.atan2(d[1], d[0]))
    cv2.ellipse(mask, p(palm), (max(1, int(48 * s)), max(1, int(40 * s))), angle, 0, 360, 255, -1, cv2.LINE_AA)
    spread = float(rng.uniform(0.05, 0.25))
    for k, length in enumerate((70, 80, 76, 60)):
        off = (k - 1.5) * 20 * s
        base = palm + d * 25 * s + n * off
        fd = d * math.cos(spread * (k - 1.5)) + n * math.sin(spread * (k - 1.5))
        cv2.line(mask, p(base), p(base + fd * length * s), 255, max(1, int(17 * s)), cv2.LINE_AA)
    side = 1 if rng.random() < 0.5 else -1
    thumb0 = palm + n * side * 35 * s - d * 10 * s
    cv2.line(mask, p(thumb0), p(thumb0 + (d * 0.6 + n * side * 0.8) * 55 * s), 255, max(1, int(20 * s)), cv2.LINE_AA)
    # colour: skin shaded towards the edges, a sleeve on part of the forearm
    skin = SKIN[int(rng.integers(len(SKIN)))] * float(rng.uniform(0.85, 1.1))
    dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = np.clip(0.7 + 0.3 * dist / (25 * s + 1e-6), 0.7, 1.0)[..., None]
    colour = np.clip(skin * shade, 0, 255)
    if rng.random() < 0.7:
        sleeve = np.zeros_like(mask)
        cut = wrist - d * float(rng.uniform(40, 250)) * s
        cv2.line(sleeve, p(shoulder), p(cut), 255, max(2, int(80 * s)))
        grey = float(rng.uniform(30, 200))
        cloth = (grey + rng.uniform(-40, 40, 3)).clip(0, 255).astype(np.float32)
        sm = (sleeve > 0)[..., None]
        colour = np.where(sm, cloth * shade, colour)
        mask = np.maximum(mask, cv2.bitwise_and(sleeve, cv2.dilate(mask, np.ones((5, 5), np.uint8))))
    off = int(float(rng.uniform(6, 20)) * px_per_mm)
    _shadow(img, mask, int(lo[0]), int(lo[1]), (off // 2, off), float(rng.uniform(0.25, 0.5)), 8 * s)
    _blend(img, idbuf, mask, colour, int(lo[0]), int(lo[1]))


def _table_poly(h: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
    q = np.column_stack([pts_mm, np.ones(len(pts_mm))]) @ h.T
    return q[:, :2] / q[:, 2:3]


def _circle(c: np.ndarray, r: float, n: int = 40) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([c[0] + r * np.cos(t), c[1] + r * np.sin(t)])


def _rect(c: np.ndarray, w: float, h: float, a: float) -> np.ndarray:
    ca, sa = math.cos(a), math.sin(a)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return pts @ np.array([[ca, sa], [-sa, ca]]) + c


def _fill(img: np.ndarray, idbuf: np.ndarray, poly_px: np.ndarray, colour: np.ndarray, shadow: float = 0.0) -> None:
    lo = np.floor(poly_px.min(axis=0)).astype(int) - 2
    hi = np.ceil(poly_px.max(axis=0)).astype(int) + 2
    w, h = int(hi[0] - lo[0]), int(hi[1] - lo[1])
    if w <= 0 or h <= 0 or w > 4 * img.shape[1] or h > 4 * img.shape[0]:
        return
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round((poly_px - lo) * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    if shadow > 0:
        _shadow(img, mask, int(lo[0]), int(lo[1]), (3, 5), shadow, 4)
    _blend(img, idbuf, mask, colour, int(lo[0]), int(lo[1]))


def paint_distractor(img: np.ndarray, idbuf: np.ndarray, rng: np.random.Generator, h: np.ndarray, at_mm: np.ndarray) -> str:
    """One object lying on the table at ``at_mm``; returns its kind."""
    kind = str(rng.choice(["cup", "phone", "coin", "pad", "coin"]))
    a = float(rng.uniform(0, 2 * math.pi))
    if kind == "coin":
        for _k in range(int(rng.integers(1, 4))):
            c = at_mm + rng.normal(0, 15, 2)
            metal = np.array(rng.choice([[200, 170, 80], [190, 190, 195], [170, 110, 70]]), np.float32)
            r = float(rng.uniform(9, 13))
            _fill(img, idbuf, _table_poly(h, _circle(c, r)), metal * 0.75, shadow=0.3)
            _fill(img, idbuf, _table_poly(h, _circle(c, r * 0.8)), metal)
    elif kind == "cup":
        rim = np.array(rng.uniform(120, 255, 3), np.float32)
        _fill(img, idbuf, _table_poly(h, _rect(at_mm + [45 * math.cos(a), 45 * math.sin(a)], 30, 14, a)), rim * 0.85, shadow=0.35)
        _fill(img, idbuf, _table_poly(h, _circle(at_mm, 42)), rim, shadow=0.4)
        drink = np.array(rng.choice([[60, 35, 20], [120, 70, 40], [200, 190, 170], [150, 30, 40]]), np.float32)
        _fill(img, idbuf, _table_poly(h, _circle(at_mm, 35)), drink)
    elif kind == "phone":
        _fill(img, idbuf, _table_poly(h, _rect(at_mm, 72, 150, a)), np.array([25, 25, 28], np.float32), shadow=0.35)
        screen = np.array(rng.choice([[30, 40, 60], [15, 15, 18], [80, 110, 160]]), np.float32)
        _fill(img, idbuf, _table_poly(h, _rect(at_mm, 64, 138, a)), screen)
    else:
        paper = np.array([245, 240, 215], np.float32) * float(rng.uniform(0.9, 1.02))
        pad = _rect(at_mm, 105, 148, a)
        _fill(img, idbuf, _table_poly(h, pad), paper, shadow=0.3)
        ca, sa = math.cos(a), math.sin(a)
        for k in range(1, 12):
            off = -74 + k * 12
            p0 = at_mm + np.array([-48 * ca - off * sa, -48 * sa + off * ca])
            p1 = at_mm + np.array([48 * ca - off * sa, 48 * sa + off * ca])
            q = _table_poly(h, np.array([p0, p1]))
            cv2.line(img, tuple(map(int, q[0])), tuple(map(int, q[1])), (120, 150, 200), 1, cv2.LINE_AA)
    return kind
